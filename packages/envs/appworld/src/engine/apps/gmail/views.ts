// gmail's answers: people, thread flags and views, emails and drafts, and the response shapes api_docs shows.
import type { ApiContext, Json } from '../../types.js';
import { userByEmail, userById } from '../shared/accounts.js';
import { attachmentsOf, draftsOf, emailsOf, type AttachmentRow, type DraftRow, type EmailRow, type ThreadRow } from './tables.js';

export type Row = { [key: string]: Json };
// ---- response shapes, as AppWorld's API docs show them -------------------------------------------
export const PERSON = { name: 'string', email: 'user@example.com' };
export const ATTACHMENT = { id: 1, file_name: 'string' };
export const FLAGS = { incoming: true, outgoing: true, read: true, label: 'string', starred: true, archived: true, spam: true, created_at: '2019-01-01T00:00:00', updated_at: '2019-01-01T00:00:00' };
export const THREAD_SHORT = { email_thread_id: 1, email_ids: [1], draft_ids: [1], ...FLAGS, subject: 'string', participants: [PERSON] };
export const DRAFT = {
  draft_id: 1,
  subject: 'string',
  body: 'string',
  belongs_to_email_thread_id: 1,
  response_to_email_id: 1,
  scheduled_send_at: '2019-01-01T00:00:00',
  created_at: '2019-01-01T00:00:00',
  updated_at: '2019-01-01T00:00:00',
  recipients: [PERSON],
  attachments: [ATTACHMENT],
};
export const THREAD_FULL = {
  email_thread_id: 1,
  ...FLAGS,
  emails: [{ email_id: 1, subject: 'string', sender: PERSON, recipients: [PERSON], body: 'string', attachments: [ATTACHMENT], created_at: '2019-01-01T00:00:00' }],
  drafts: [
    {
      draft_id: 1,
      response_to_email_id: 1,
      subject: 'string',
      recipients: [PERSON],
      body: 'string',
      attachments: [ATTACHMENT],
      scheduled_send_at: '2019-01-01T00:00:00',
      created_at: '2019-01-01T00:00:00',
      updated_at: '2019-01-01T00:00:00',
    },
  ],
};
export const EMAIL_RESPONSE = {
  email_id: 1,
  subject: 'string',
  body: 'string',
  response_to_email_id: 1,
  created_at: '2019-01-01T00:00:00',
  sender: PERSON,
  recipients: [PERSON],
  attachments: [ATTACHMENT],
};
export const MESSAGE = { message: 'string' };
export const SENT = { message: 'string', sent_email_thread_id: 1, sent_email_id: 1 };
export const FORWARDED = { ...SENT, draft_id: 1 };

// ---- people, threads, emails, drafts ---------------------------------------------------------------
export const personByEmail = (ctx: ApiContext, email: string): Json => {
  const u = userByEmail(ctx, email);
  return { name: u ? `${u.first_name} ${u.last_name}` : email, email };
};
export const personById = (ctx: ApiContext, id: number): Json => {
  const u = userById(ctx, id);
  return u ? { name: `${u.first_name} ${u.last_name}`, email: u.email } : null;
};
export const emailList = (text: string): string[] => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};
export const attachmentView = (a: AttachmentRow) => ({ id: a.id, file_name: a.file_name });

export function flags(ctx: ApiContext, t: ThreadRow, emails: EmailRow[]): Row {
  return {
    incoming: emails.some((e) => e.sender_id !== t.user_id),
    outgoing: emails.some((e) => e.sender_id === t.user_id),
    read: t.read === 1,
    label: t.label,
    starred: t.starred === 1,
    archived: t.archived === 1,
    spam: t.spam === 1,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}
export function threadShort(ctx: ApiContext, t: ThreadRow): Row {
  const emails = emailsOf(ctx, t.id);
  const participants: string[] = [];
  for (const e of emails) for (const addr of [userById(ctx, e.sender_id)?.email ?? '', ...emailList(e.recipients)]) if (addr && !participants.includes(addr)) participants.push(addr);
  return {
    email_thread_id: t.id,
    email_ids: emails.map((e) => e.id),
    draft_ids: draftsOf(ctx, t.id).map((d) => d.id),
    ...flags(ctx, t, emails),
    subject: emails[0]?.subject ?? draftsOf(ctx, t.id)[0]?.subject ?? '',
    participants: participants.map((p) => personByEmail(ctx, p)),
  };
}
export const emailCore = (ctx: ApiContext, e: EmailRow) => ({
  email_id: e.id,
  subject: e.subject,
  sender: personById(ctx, e.sender_id),
  recipients: emailList(e.recipients).map((r) => personByEmail(ctx, r)),
  body: e.body,
  attachments: attachmentsOf(ctx, 'email_id', e.id).map(attachmentView),
  created_at: e.created_at,
});
export function draftView(ctx: ApiContext, d: DraftRow): Row {
  return {
    draft_id: d.id,
    subject: d.subject,
    body: d.body,
    belongs_to_email_thread_id: d.belongs_to_thread_id,
    response_to_email_id: d.response_to_email_id,
    scheduled_send_at: d.scheduled_send_at,
    created_at: d.created_at,
    updated_at: d.updated_at,
    recipients: emailList(d.recipients).map((r) => personByEmail(ctx, r)),
    attachments: attachmentsOf(ctx, 'draft_id', d.id).map(attachmentView),
  };
}
