// gmail's tables: the row types (declared once), typed reads, and the lookups the APIs share (the
// caller's own thread, email or draft; a thread's emails, drafts and attachments).
import { me, notFound } from '../../define.js';
import { ApiError, type ApiContext } from '../../types.js';
import { table } from '../../tables.js';

export interface ThreadRow {
  id: number;
  user_id: number;
  conversation: number;
  label: string | null;
  read: number;
  starred: number;
  archived: number;
  spam: number;
  created_at: string;
  updated_at: string;
}
export interface EmailRow {
  id: number;
  thread_id: number;
  message: number;
  sender_id: number;
  recipients: string;
  subject: string;
  body: string;
  response_to_email_id: number | null;
  created_at: string;
}
export interface DraftRow {
  id: number;
  user_id: number;
  recipients: string;
  subject: string;
  body: string;
  belongs_to_thread_id: number | null;
  response_to_email_id: number | null;
  scheduled_send_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface AttachmentRow {
  id: number;
  email_id: number | null;
  draft_id: number | null;
  file_name: string;
  content: string;
}
export interface FileData {
  name: string;
  content: string;
}
export function ownThread(ctx: ApiContext, id: number): ThreadRow {
  const t = threadRows.byId(ctx, id);
  if (!t) notFound('email thread');
  if (t.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this email thread.');
  return t;
}
export function emailInThread(ctx: ApiContext, thread: ThreadRow, emailId: number): EmailRow {
  const e = emailRows.byId(ctx, emailId);
  if (!e || e.thread_id !== thread.id) throw new ApiError(422, 'The email does not exist in this email thread.');
  return e;
}
export function ownEmail(ctx: ApiContext, id: number): EmailRow {
  const e = emailRows.byId(ctx, id);
  if (!e) notFound('email');
  ownThread(ctx, e.thread_id);
  return e;
}
export function ownDraft(ctx: ApiContext, id: number): DraftRow {
  const d = draftRows.byId(ctx, id);
  if (!d) notFound('draft');
  if (d.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this draft.');
  return d;
}
export const emailsOf = (ctx: ApiContext, threadId: number) => emailRows.all(ctx, 'WHERE thread_id = ? ORDER BY created_at, id', threadId);
export const draftsOf = (ctx: ApiContext, threadId: number) => draftRows.all(ctx, 'WHERE belongs_to_thread_id = ? ORDER BY id', threadId);
export const attachmentsOf = (ctx: ApiContext, column: 'email_id' | 'draft_id', id: number) => attachmentRows.all(ctx, `WHERE ${column} = ? ORDER BY id`, id);

export const threadRows = table<ThreadRow>('gmail_threads');
export const emailRows = table<EmailRow>('gmail_emails');
export const draftRows = table<DraftRow>('gmail_drafts');
export const attachmentRows = table<AttachmentRow>('gmail_attachments');
