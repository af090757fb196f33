// gmail's delivery: recipients, attachments from the file system, a thread per person per conversation,
// sending, replying and forwarding, scheduling, deleting emails and drafts.
import { me, ok } from '../../define.js';
import { ApiError, type ApiContext, type Json } from '../../types.js';
import { userByEmail } from '../shared/accounts.js';
import { readFromFileSystem } from '../file_system.js';
import { count, row } from '../../tables.js';
import { attachmentsOf, emailInThread, ownThread, type DraftRow, type EmailRow, type FileData, type ThreadRow } from './tables.js';
import { emailList, personById } from './views.js';

/** Recipients must be gmail users; duplicates collapse, order kept. */
export function checkRecipients(ctx: ApiContext, addresses: readonly string[], param: string): string[] {
  const out: string[] = [];
  for (const raw of addresses) {
    const addr = raw.trim();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(addr)) throw new ApiError(422, `Validation error. Reason: \n${param}: value is not a valid email address`);
    const u = userByEmail(ctx, addr);
    if (!u || !ctx.db.prepare("SELECT 1 FROM accounts WHERE app = 'gmail' AND user_id = ?").get(u.id)) throw new ApiError(422, `The email address ${addr} does not belong to a gmail user.`);
    if (!out.includes(u.email)) out.push(u.email);
  }
  if (out.length === 0) throw new ApiError(422, 'At least one recipient email address is required.');
  return out;
}
/** Reads the named files from the caller's file system (the token must be theirs). */
export function filesFrom(ctx: ApiContext, paths: readonly string[] | null, fsToken: string | null): FileData[] {
  if (!paths || paths.length === 0) return [];
  return paths.map((p) => readFromFileSystem(ctx, fsToken, p));
}
export function attach(ctx: ApiContext, column: 'email_id' | 'draft_id', id: number, files: readonly FileData[]): number[] {
  return files.map((f) => Number(ctx.db.prepare(`INSERT INTO gmail_attachments (${column}, file_name, content) VALUES (?, ?, ?)`).run(id, f.name, f.content).lastInsertRowid));
}
export const nextNumber = (ctx: ApiContext, column: 'conversation' | 'message', table: string) => count(ctx, `SELECT coalesce(max(${column}), 0) + 1 AS n FROM ${table}`);

/** The user's thread of a conversation, created (unread unless it is the sender's) when missing. */
export function threadFor(ctx: ApiContext, userId: number, conversation: number, isSender: boolean): number {
  const t = row<{ id: number }>(ctx, 'SELECT id FROM gmail_threads WHERE user_id = ? AND conversation = ?', userId, conversation);
  if (t) {
    // A new email brings a thread back to the inbox, unread for its receivers.
    if (isSender) ctx.db.prepare('UPDATE gmail_threads SET updated_at = ? WHERE id = ?').run(ctx.now, t.id);
    else ctx.db.prepare('UPDATE gmail_threads SET updated_at = ?, read = 0, archived = 0 WHERE id = ?').run(ctx.now, t.id);
    return t.id;
  }
  return Number(
    ctx.db
      .prepare('INSERT INTO gmail_threads (user_id, conversation, label, read, starred, archived, spam, created_at, updated_at) VALUES (?, ?, NULL, ?, 0, 0, 0, ?, ?)')
      .run(userId, conversation, isSender ? 1 : 0, ctx.now, ctx.now).lastInsertRowid,
  );
}

export interface Outgoing {
  thread: ThreadRow | null;
  to: string[];
  subject: string;
  body: string;
  files: readonly FileData[];
  responseTo: EmailRow | null;
}
/** Sends one email: a copy in the sender's thread (new conversation unless `thread`) and in each recipient's. */
export function deliver(ctx: ApiContext, o: Outgoing): { threadId: number; emailId: number } {
  const sender = me(ctx);
  const conversation = o.thread?.conversation ?? nextNumber(ctx, 'conversation', 'gmail_threads');
  const message = nextNumber(ctx, 'message', 'gmail_emails');
  const recipients = JSON.stringify(o.to);
  let mine = { threadId: 0, emailId: 0 };
  const owners = [sender, ...o.to.map((e) => userByEmail(ctx, e)!.id).filter((id) => id !== sender)];
  for (const owner of [...new Set(owners)]) {
    const threadId = threadFor(ctx, owner, conversation, owner === sender);
    // The reply points at this owner's copy of the email it answers.
    const responseTo = o.responseTo === null ? null : (row<{ id: number }>(ctx, 'SELECT id FROM gmail_emails WHERE thread_id = ? AND message = ?', threadId, o.responseTo.message)?.id ?? null);
    const emailId = Number(
      ctx.db
        .prepare('INSERT INTO gmail_emails (thread_id, message, sender_id, recipients, subject, body, response_to_email_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(threadId, message, sender, recipients, o.subject, o.body, responseTo, ctx.now).lastInsertRowid,
    );
    attach(ctx, 'email_id', emailId, o.files);
    if (owner === sender) mine = { threadId, emailId };
  }
  return mine;
}

export const reSubject = (s: string) => (/^re:/i.test(s.trim()) ? s : `Re: ${s}`);
export const fwdSubject = (s: string) => (/^fwd?:/i.test(s.trim()) ? s : `Fwd: ${s}`);
export function forwardedText(ctx: ApiContext, e: EmailRow): string {
  const from = personById(ctx, e.sender_id) as { name: string; email: string } | null;
  return `---------- Forwarded message ----------\nFrom: ${from ? `${from.name} <${from.email}>` : ''}\nDate: ${e.created_at}\nSubject: ${e.subject}\nTo: ${emailList(e.recipients).join(', ')}\n\n${e.body}`;
}
export const filesOfEmails = (ctx: ApiContext, emails: EmailRow[]): FileData[] => emails.flatMap((e) => attachmentsOf(ctx, 'email_id', e.id).map((a) => ({ name: a.file_name, content: a.content })));

export function forward(ctx: ApiContext, to: string[], subject: string, body: string, files: FileData[], asDraft: boolean): Json {
  if (asDraft) {
    const r = ctx.db
      .prepare(
        'INSERT INTO gmail_drafts (user_id, recipients, subject, body, belongs_to_thread_id, response_to_email_id, scheduled_send_at, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, NULL, NULL, ?, ?)',
      )
      .run(me(ctx), JSON.stringify(to), subject, body, ctx.now, ctx.now);
    const draftId = Number(r.lastInsertRowid);
    attach(ctx, 'draft_id', draftId, files);
    return ok('Draft created.', { sent_email_thread_id: null, sent_email_id: null, draft_id: draftId });
  }
  const sent = deliver(ctx, { thread: null, to, subject, body, files, responseTo: null });
  return ok('Email forwarded.', { sent_email_thread_id: sent.threadId, sent_email_id: sent.emailId, draft_id: null });
}

/** `YYYY-MM-DD|HH:MM:SS` (AppWorld's form), a space or a `T` between; it must lie in the future. */
export function scheduleAt(ctx: ApiContext, raw: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[|T ](\d{2}:\d{2}(?::\d{2})?)$/.exec(raw.trim());
  const iso = m ? `${m[1]}T${m[2]!.length === 5 ? `${m[2]}:00` : m[2]}` : '';
  if (!m || Number.isNaN(Date.parse(iso + 'Z'))) throw new ApiError(422, `The scheduled_send_at "${raw.slice(0, 100)}" must be in YYYY-MM-DD|HH:MM:SS format.`);
  if (iso <= ctx.now) throw new ApiError(422, 'The scheduled_send_at must be in the future.');
  return iso;
}
/** A draft's thread and the email it answers must be the caller's, the email inside the thread. */
export function draftLinks(ctx: ApiContext, threadId: number | null, emailId: number | null): { thread: ThreadRow | null; email: EmailRow | null } {
  if (threadId === null) {
    if (emailId !== null) throw new ApiError(422, 'belongs_to_email_thread_id must be given with response_to_email_id.');
    return { thread: null, email: null };
  }
  const thread = ownThread(ctx, threadId);
  return { thread, email: emailId === null ? null : emailInThread(ctx, thread, emailId) };
}

export function deleteEmail(ctx: ApiContext, e: EmailRow): void {
  ctx.db.prepare('DELETE FROM gmail_attachments WHERE email_id = ?').run(e.id);
  ctx.db.prepare('DELETE FROM gmail_emails WHERE id = ?').run(e.id);
}
export function deleteDraft(ctx: ApiContext, d: DraftRow): void {
  ctx.db.prepare('DELETE FROM gmail_attachments WHERE draft_id = ?').run(d.id);
  ctx.db.prepare('DELETE FROM gmail_drafts WHERE id = ?').run(d.id);
}
