// gmail: per-person threads (inbox, outbox, archived, spam; labels, stars, read marks), sending,
// replying and forwarding (every recipient gets their own copy in their own thread of the
// conversation), drafts with scheduling, and attachments to and from the file system.
import { declarer, me, notFound, ok, optBool, optNum, optStr, str } from '../define.js';
import { inDateRange, pageOf } from '../listing.js';
import { DATE_RANGE, EMAIL, opt, PAGING, req, sortBy } from '../params.js';
import { rankByQuery, rankedPage } from '../ranked.js';
import { ApiError, type ApiContext, type ApiDef, type Args, type Json } from '../types.js';
import { accountApis, userByEmail, userById } from './shared/accounts.js';
import { routed, sharedRoutes } from '../routes.js';
import { downloadToFileSystem, readFromFileSystem } from './file_system.js';

const def = declarer('gmail');
type Row = { [key: string]: Json };

interface ThreadRow {
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
interface EmailRow {
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
interface DraftRow {
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
interface AttachmentRow {
  id: number;
  email_id: number | null;
  draft_id: number | null;
  file_name: string;
  content: string;
}
interface FileData {
  name: string;
  content: string;
}

// ---- response shapes, as AppWorld's API docs show them -------------------------------------------
const PERSON = { name: 'string', email: 'user@example.com' };
const ATTACHMENT = { id: 1, file_name: 'string' };
const FLAGS = { incoming: true, outgoing: true, read: true, label: 'string', starred: true, archived: true, spam: true, created_at: '2019-01-01T00:00:00', updated_at: '2019-01-01T00:00:00' };
const THREAD_SHORT = { email_thread_id: 1, email_ids: [1], draft_ids: [1], ...FLAGS, subject: 'string', participants: [PERSON] };
const DRAFT = {
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
const THREAD_FULL = {
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
const EMAIL_RESPONSE = { email_id: 1, subject: 'string', body: 'string', response_to_email_id: 1, created_at: '2019-01-01T00:00:00', sender: PERSON, recipients: [PERSON], attachments: [ATTACHMENT] };
const MESSAGE = { message: 'string' };
const SENT = { message: 'string', sent_email_thread_id: 1, sent_email_id: 1 };
const FORWARDED = { ...SENT, draft_id: 1 };

// ---- people, threads, emails, drafts ---------------------------------------------------------------
const personByEmail = (ctx: ApiContext, email: string): Json => {
  const u = userByEmail(ctx, email);
  return { name: u ? `${u.first_name} ${u.last_name}` : email, email };
};
const personById = (ctx: ApiContext, id: number): Json => {
  const u = userById(ctx, id);
  return u ? { name: `${u.first_name} ${u.last_name}`, email: u.email } : null;
};
const emailList = (text: string): string[] => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

function ownThread(ctx: ApiContext, id: number): ThreadRow {
  const t = ctx.db.prepare('SELECT * FROM gmail_threads WHERE id = ?').get(id) as ThreadRow | undefined;
  if (!t) notFound('email thread');
  if (t.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this email thread.');
  return t;
}
function emailInThread(ctx: ApiContext, thread: ThreadRow, emailId: number): EmailRow {
  const e = ctx.db.prepare('SELECT * FROM gmail_emails WHERE id = ?').get(emailId) as EmailRow | undefined;
  if (!e || e.thread_id !== thread.id) throw new ApiError(422, 'The email does not exist in this email thread.');
  return e;
}
function ownEmail(ctx: ApiContext, id: number): EmailRow {
  const e = ctx.db.prepare('SELECT * FROM gmail_emails WHERE id = ?').get(id) as EmailRow | undefined;
  if (!e) notFound('email');
  ownThread(ctx, e.thread_id);
  return e;
}
function ownDraft(ctx: ApiContext, id: number): DraftRow {
  const d = ctx.db.prepare('SELECT * FROM gmail_drafts WHERE id = ?').get(id) as DraftRow | undefined;
  if (!d) notFound('draft');
  if (d.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this draft.');
  return d;
}
const emailsOf = (ctx: ApiContext, threadId: number) => ctx.db.prepare('SELECT * FROM gmail_emails WHERE thread_id = ? ORDER BY created_at, id').all(threadId) as EmailRow[];
const draftsOf = (ctx: ApiContext, threadId: number) => ctx.db.prepare('SELECT * FROM gmail_drafts WHERE belongs_to_thread_id = ? ORDER BY id').all(threadId) as DraftRow[];
const attachmentsOf = (ctx: ApiContext, column: 'email_id' | 'draft_id', id: number) => ctx.db.prepare(`SELECT * FROM gmail_attachments WHERE ${column} = ? ORDER BY id`).all(id) as AttachmentRow[];
const attachmentView = (a: AttachmentRow) => ({ id: a.id, file_name: a.file_name });

function flags(ctx: ApiContext, t: ThreadRow, emails: EmailRow[]): Row {
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
function threadShort(ctx: ApiContext, t: ThreadRow): Row {
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
const emailCore = (ctx: ApiContext, e: EmailRow) => ({
  email_id: e.id,
  subject: e.subject,
  sender: personById(ctx, e.sender_id),
  recipients: emailList(e.recipients).map((r) => personByEmail(ctx, r)),
  body: e.body,
  attachments: attachmentsOf(ctx, 'email_id', e.id).map(attachmentView),
  created_at: e.created_at,
});
function draftView(ctx: ApiContext, d: DraftRow): Row {
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

/** Recipients must be gmail users; duplicates collapse, order kept. */
function checkRecipients(ctx: ApiContext, addresses: readonly string[], param: string): string[] {
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
function filesFrom(ctx: ApiContext, paths: readonly string[] | null, fsToken: string | null): FileData[] {
  if (!paths || paths.length === 0) return [];
  return paths.map((p) => readFromFileSystem(ctx, fsToken, p));
}
function attach(ctx: ApiContext, column: 'email_id' | 'draft_id', id: number, files: readonly FileData[]): number[] {
  return files.map((f) => Number(ctx.db.prepare(`INSERT INTO gmail_attachments (${column}, file_name, content) VALUES (?, ?, ?)`).run(id, f.name, f.content).lastInsertRowid));
}
const nextNumber = (ctx: ApiContext, column: 'conversation' | 'message', table: string) => (ctx.db.prepare(`SELECT coalesce(max(${column}), 0) + 1 AS n FROM ${table}`).get() as { n: number }).n;

/** The user's thread of a conversation, created (unread unless it is the sender's) when missing. */
function threadFor(ctx: ApiContext, userId: number, conversation: number, isSender: boolean): number {
  const t = ctx.db.prepare('SELECT id FROM gmail_threads WHERE user_id = ? AND conversation = ?').get(userId, conversation) as { id: number } | undefined;
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

interface Outgoing {
  thread: ThreadRow | null;
  to: string[];
  subject: string;
  body: string;
  files: readonly FileData[];
  responseTo: EmailRow | null;
}
/** Sends one email: a copy in the sender's thread (new conversation unless `thread`) and in each recipient's. */
function deliver(ctx: ApiContext, o: Outgoing): { threadId: number; emailId: number } {
  const sender = me(ctx);
  const conversation = o.thread?.conversation ?? nextNumber(ctx, 'conversation', 'gmail_threads');
  const message = nextNumber(ctx, 'message', 'gmail_emails');
  const recipients = JSON.stringify(o.to);
  let mine = { threadId: 0, emailId: 0 };
  const owners = [sender, ...o.to.map((e) => userByEmail(ctx, e)!.id).filter((id) => id !== sender)];
  for (const owner of [...new Set(owners)]) {
    const threadId = threadFor(ctx, owner, conversation, owner === sender);
    // The reply points at this owner's copy of the email it answers.
    const responseTo =
      o.responseTo === null
        ? null
        : ((ctx.db.prepare('SELECT id FROM gmail_emails WHERE thread_id = ? AND message = ?').get(threadId, o.responseTo.message) as { id: number } | undefined)?.id ?? null);
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

const reSubject = (s: string) => (/^re:/i.test(s.trim()) ? s : `Re: ${s}`);
const fwdSubject = (s: string) => (/^fwd?:/i.test(s.trim()) ? s : `Fwd: ${s}`);
function forwardedText(ctx: ApiContext, e: EmailRow): string {
  const from = personById(ctx, e.sender_id) as { name: string; email: string } | null;
  return `---------- Forwarded message ----------\nFrom: ${from ? `${from.name} <${from.email}>` : ''}\nDate: ${e.created_at}\nSubject: ${e.subject}\nTo: ${emailList(e.recipients).join(', ')}\n\n${e.body}`;
}
const filesOfEmails = (ctx: ApiContext, emails: EmailRow[]): FileData[] => emails.flatMap((e) => attachmentsOf(ctx, 'email_id', e.id).map((a) => ({ name: a.file_name, content: a.content })));

function forward(ctx: ApiContext, to: string[], subject: string, body: string, files: FileData[], asDraft: boolean): Json {
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
function scheduleAt(ctx: ApiContext, raw: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[|T ](\d{2}:\d{2}(?::\d{2})?)$/.exec(raw.trim());
  const iso = m ? `${m[1]}T${m[2]!.length === 5 ? `${m[2]}:00` : m[2]}` : '';
  if (!m || Number.isNaN(Date.parse(iso + 'Z'))) throw new ApiError(422, `The scheduled_send_at "${raw.slice(0, 100)}" must be in YYYY-MM-DD|HH:MM:SS format.`);
  if (iso <= ctx.now) throw new ApiError(422, 'The scheduled_send_at must be in the future.');
  return iso;
}
/** A draft's thread and the email it answers must be the caller's, the email inside the thread. */
function draftLinks(ctx: ApiContext, threadId: number | null, emailId: number | null): { thread: ThreadRow | null; email: EmailRow | null } {
  if (threadId === null) {
    if (emailId !== null) throw new ApiError(422, 'belongs_to_email_thread_id must be given with response_to_email_id.');
    return { thread: null, email: null };
  }
  const thread = ownThread(ctx, threadId);
  return { thread, email: emailId === null ? null : emailInThread(ctx, thread, emailId) };
}

function deleteEmail(ctx: ApiContext, e: EmailRow): void {
  ctx.db.prepare('DELETE FROM gmail_attachments WHERE email_id = ?').run(e.id);
  ctx.db.prepare('DELETE FROM gmail_emails WHERE id = ?').run(e.id);
}
function deleteDraft(ctx: ApiContext, d: DraftRow): void {
  ctx.db.prepare('DELETE FROM gmail_attachments WHERE draft_id = ?').run(d.id);
  ctx.db.prepare('DELETE FROM gmail_drafts WHERE id = ?').run(d.id);
}

// ---- thread listings -------------------------------------------------------------------------------
type Category = 'inbox' | 'outbox' | 'archived' | 'spam';
function threadFilters(category: Category) {
  return [
    opt.str('query', { default: '' }),
    ...PAGING,
    opt.str('label'),
    opt.bool('starred'),
    ...(category === 'archived' ? [] : [opt.bool('archived', { default: false })]),
    ...(category === 'spam' ? [] : [opt.bool('spam', { default: false })]),
    opt.bool('read'),
    opt.bool('attachment'),
    opt.str('from_email', { constraints: EMAIL }),
    opt.str('to_email', { constraints: EMAIL }),
    ...DATE_RANGE,
    sortBy(null),
  ];
}
function listThreads(ctx: ApiContext, a: Args, category: Category): Row[] {
  const threads = ctx.db.prepare('SELECT * FROM gmail_threads WHERE user_id = ? ORDER BY id').all(me(ctx)) as ThreadRow[];
  const rows: { short: Row; text: string[] }[] = [];
  for (const t of threads) {
    const emails = emailsOf(ctx, t.id);
    const f = flags(ctx, t, emails) as { incoming: boolean; outgoing: boolean };
    const inCategory = category === 'inbox' ? f.incoming : category === 'outbox' ? f.outgoing : category === 'archived' ? t.archived === 1 : t.spam === 1;
    if (!inCategory) continue;
    const want = (key: string, value: number) => optBool(a, key) === null || (value === 1) === optBool(a, key);
    if (!want('starred', t.starred) || !want('read', t.read) || (category !== 'archived' && !want('archived', t.archived)) || (category !== 'spam' && !want('spam', t.spam))) continue;
    const label = optStr(a, 'label');
    if (label !== null && (t.label ?? '').toLowerCase() !== label.toLowerCase()) continue;
    const hasAttachment = emails.some((e) => attachmentsOf(ctx, 'email_id', e.id).length > 0);
    if (optBool(a, 'attachment') !== null && hasAttachment !== optBool(a, 'attachment')) continue;
    const from = optStr(a, 'from_email');
    if (from !== null && !emails.some((e) => userById(ctx, e.sender_id)?.email === from)) continue;
    const to = optStr(a, 'to_email');
    if (to !== null && !emails.some((e) => emailList(e.recipients).includes(to))) continue;
    if (!inDateRange(t.created_at, a)) continue;
    const short = threadShort(ctx, t);
    const people = (short.participants as { name: string; email: string }[]).flatMap((p) => [p.name, p.email]);
    rows.push({ short, text: [String(short.subject), ...emails.map((e) => e.body), ...people] });
  }
  const ranked = rankByQuery(rows, a.query, (r) => r.text).map((r) => r.short);
  return rankedPage(ranked, a, ['created_at', 'updated_at'], '-updated_at');
}

function setFlag(column: 'read' | 'archived' | 'spam' | 'starred', value: 0 | 1, done: string) {
  return (ctx: ApiContext, a: Args): Json => {
    ctx.db.prepare(`UPDATE gmail_threads SET ${column} = ? WHERE id = ?`).run(value, ownThread(ctx, Number(a.email_thread_id)).id);
    return ok(done);
  };
}
const THREAD_ID = [req.int('email_thread_id')];
const LIST_RESPONSE = [THREAD_SHORT];

const apis: ApiDef[] = [
  ...accountApis('gmail', { verification: false }),
  def(
    'search_users',
    {
      auth: false,
      description: 'Search gmail users by name or email address.',
      params: [opt.str('query', { default: '' }), ...PAGING],
      response: [{ first_name: 'string', last_name: 'string', email: 'user@example.com', registered_at: '2019-01-01T00:00:00' }],
    },
    (ctx, a) => {
      const rows = ctx.db.prepare("SELECT u.first_name, u.last_name, u.email, a.created_at FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = 'gmail' ORDER BY u.id").all() as {
        first_name: string;
        last_name: string;
        email: string;
        created_at: string;
      }[];
      return pageOf(
        rankByQuery(rows, a.query, (u) => [u.first_name, u.last_name, u.email]).map((u) => ({ first_name: u.first_name, last_name: u.last_name, email: u.email, registered_at: u.created_at })),
        a,
        [],
      );
    },
  ),
  def('show_inbox_threads', { description: 'Show or search email threads you have received (not the emails in them).', params: threadFilters('inbox'), response: LIST_RESPONSE }, (ctx, a) =>
    listThreads(ctx, a, 'inbox'),
  ),
  def('show_outbox_threads', { description: 'Show or search email threads you have sent (not the emails in them).', params: threadFilters('outbox'), response: LIST_RESPONSE }, (ctx, a) =>
    listThreads(ctx, a, 'outbox'),
  ),
  def('show_archived_threads', { description: 'Show or search email threads you have archived (not the emails in them).', params: threadFilters('archived'), response: LIST_RESPONSE }, (ctx, a) =>
    listThreads(ctx, a, 'archived'),
  ),
  def('show_spam_threads', { description: 'Show or search email threads marked as spam (not the emails in them).', params: threadFilters('spam'), response: LIST_RESPONSE }, (ctx, a) =>
    listThreads(ctx, a, 'spam'),
  ),
  def(
    'show_category_sizes',
    {
      description: 'Show the number of email threads in the inbox, outbox, archived and spam, and of unscheduled and scheduled drafts.',
      response: { inbox: 1, outbox: 1, archived: 1, spam: 1, unscheduled_drafts: 1, scheduled_drafts: 1 },
    },
    (ctx) => {
      const sizes = { inbox: 0, outbox: 0, archived: 0, spam: 0 };
      for (const t of ctx.db.prepare('SELECT * FROM gmail_threads WHERE user_id = ?').all(me(ctx)) as ThreadRow[]) {
        const f = flags(ctx, t, emailsOf(ctx, t.id)) as { incoming: boolean; outgoing: boolean };
        if (t.spam === 1) sizes.spam++;
        else if (t.archived === 1) sizes.archived++;
        else {
          if (f.incoming) sizes.inbox++;
          if (f.outgoing) sizes.outbox++;
        }
      }
      const drafts = ctx.db.prepare('SELECT scheduled_send_at FROM gmail_drafts WHERE user_id = ?').all(me(ctx)) as { scheduled_send_at: string | null }[];
      return { ...sizes, unscheduled_drafts: drafts.filter((d) => d.scheduled_send_at === null).length, scheduled_drafts: drafts.filter((d) => d.scheduled_send_at !== null).length };
    },
  ),
  def('show_thread', { description: 'Show an email thread in detail, with its emails and drafts.', params: THREAD_ID, response: THREAD_FULL }, (ctx, a) => {
    const t = ownThread(ctx, Number(a.email_thread_id));
    const emails = emailsOf(ctx, t.id);
    return {
      email_thread_id: t.id,
      ...flags(ctx, t, emails),
      emails: emails.map((e) => emailCore(ctx, e)),
      drafts: draftsOf(ctx, t.id).map((d) => {
        const { draft_id, response_to_email_id, subject, recipients, body, attachments, scheduled_send_at, created_at, updated_at } = draftView(ctx, d);
        return { draft_id, response_to_email_id, subject, recipients, body, attachments, scheduled_send_at, created_at, updated_at } as Row;
      }),
    };
  }),
  def('show_email', { description: 'Show an email in detail.', params: [req.int('email_id')], response: EMAIL_RESPONSE }, (ctx, a) => {
    const e = ownEmail(ctx, Number(a.email_id));
    const core = emailCore(ctx, e);
    return {
      email_id: e.id,
      subject: e.subject,
      body: e.body,
      response_to_email_id: e.response_to_email_id,
      created_at: e.created_at,
      sender: core.sender,
      recipients: core.recipients,
      attachments: core.attachments,
    };
  }),
  def('label_thread', { description: 'Label an email thread (replacing its label).', params: [...THREAD_ID, req.str('label')], response: MESSAGE }, (ctx, a) => {
    ctx.db.prepare('UPDATE gmail_threads SET label = ? WHERE id = ?').run(str(a, 'label'), ownThread(ctx, Number(a.email_thread_id)).id);
    return ok('Email thread labeled.');
  }),
  def('unlabel_thread', { description: 'Remove the label of an email thread.', params: THREAD_ID, response: MESSAGE }, (ctx, a) => {
    const t = ownThread(ctx, Number(a.email_thread_id));
    if (t.label === null) throw new ApiError(422, 'The email thread has no label.');
    ctx.db.prepare('UPDATE gmail_threads SET label = NULL WHERE id = ?').run(t.id);
    return ok('Email thread unlabeled.');
  }),
  def('mark_thread_read', { description: 'Mark an email thread as read.', params: THREAD_ID, response: MESSAGE }, setFlag('read', 1, 'Email thread marked as read.')),
  def('mark_thread_unread', { description: 'Mark an email thread as unread.', params: THREAD_ID, response: MESSAGE }, setFlag('read', 0, 'Email thread marked as unread.')),
  def('mark_thread_archived', { description: 'Archive an email thread.', params: THREAD_ID, response: MESSAGE }, setFlag('archived', 1, 'Email thread archived.')),
  def('mark_thread_unarchived', { description: 'Move an archived email thread back.', params: THREAD_ID, response: MESSAGE }, setFlag('archived', 0, 'Email thread unarchived.')),
  def('mark_thread_spam', { description: 'Mark an email thread as spam.', params: THREAD_ID, response: MESSAGE }, setFlag('spam', 1, 'Email thread marked as spam.')),
  def('mark_thread_not_spam', { description: 'Mark an email thread as not spam.', params: THREAD_ID, response: MESSAGE }, setFlag('spam', 0, 'Email thread marked as not spam.')),
  def('mark_thread_starred', { description: 'Star an email thread.', params: THREAD_ID, response: MESSAGE }, setFlag('starred', 1, 'Email thread starred.')),
  def('mark_thread_unstarred', { description: 'Unstar an email thread.', params: THREAD_ID, response: MESSAGE }, setFlag('starred', 0, 'Email thread unstarred.')),
  def('delete_thread', { method: 'DELETE', description: 'Delete an email thread with its emails and drafts (from your mailbox only).', params: THREAD_ID, response: MESSAGE }, (ctx, a) => {
    const t = ownThread(ctx, Number(a.email_thread_id));
    for (const e of emailsOf(ctx, t.id)) deleteEmail(ctx, e);
    for (const d of draftsOf(ctx, t.id)) deleteDraft(ctx, d);
    ctx.db.prepare('DELETE FROM gmail_threads WHERE id = ?').run(t.id);
    return ok('Email thread deleted.');
  }),
  def(
    'delete_email_in_thread',
    { method: 'DELETE', description: 'Delete an email of a thread (from your mailbox only); an emptied thread goes too.', params: [...THREAD_ID, req.int('email_id')], response: MESSAGE },
    (ctx, a) => {
      const t = ownThread(ctx, Number(a.email_thread_id));
      deleteEmail(ctx, emailInThread(ctx, t, Number(a.email_id)));
      if (emailsOf(ctx, t.id).length === 0 && draftsOf(ctx, t.id).length === 0) ctx.db.prepare('DELETE FROM gmail_threads WHERE id = ?').run(t.id);
      return ok('Email deleted.');
    },
  ),
  def(
    'send_email',
    {
      description: 'Send a new email to one or more recipients.',
      params: [req.list('email_addresses'), req.str('subject'), req.str('body'), opt.list('attachment_file_paths'), opt.str('file_system_access_token')],
      response: SENT,
    },
    (ctx, a) => {
      const to = checkRecipients(ctx, a.email_addresses as string[], 'email_addresses');
      const files = filesFrom(ctx, a.attachment_file_paths as string[] | null, optStr(a, 'file_system_access_token'));
      const sent = deliver(ctx, { thread: null, to, subject: str(a, 'subject'), body: str(a, 'body'), files, responseTo: null });
      return ok('Email sent.', { sent_email_thread_id: sent.threadId, sent_email_id: sent.emailId });
    },
  ),
  def(
    'reply_to_email',
    {
      description: 'Reply to an email of a thread (by default to its sender).',
      response: { message: 'string', sent_email_id: 1 },
      params: [...THREAD_ID, req.int('email_id'), opt.list('email_addresses'), opt.list('attachment_file_paths'), req.str('body'), opt.str('file_system_access_token')],
    },
    (ctx, a) => {
      const t = ownThread(ctx, Number(a.email_thread_id));
      const e = emailInThread(ctx, t, Number(a.email_id));
      const given = a.email_addresses as string[] | null;
      const defaults = e.sender_id === me(ctx) ? emailList(e.recipients) : [userById(ctx, e.sender_id)?.email ?? ''];
      const to = checkRecipients(ctx, given && given.length ? given : defaults, 'email_addresses');
      const files = filesFrom(ctx, a.attachment_file_paths as string[] | null, optStr(a, 'file_system_access_token'));
      const sent = deliver(ctx, { thread: t, to, subject: reSubject(e.subject), body: str(a, 'body'), files, responseTo: e });
      return ok('Reply sent.', { sent_email_id: sent.emailId });
    },
  ),
  def(
    'forward_email_from_thread',
    {
      description: 'Forward an email of a thread to one or more recipients.',
      params: [...THREAD_ID, req.int('email_id'), req.list('email_addresses'), opt.bool('draft_not_send', { default: false })],
      response: FORWARDED,
    },
    (ctx, a) => {
      const e = emailInThread(ctx, ownThread(ctx, Number(a.email_thread_id)), Number(a.email_id));
      const to = checkRecipients(ctx, a.email_addresses as string[], 'email_addresses');
      return forward(ctx, to, fwdSubject(e.subject), forwardedText(ctx, e), filesOfEmails(ctx, [e]), optBool(a, 'draft_not_send') === true);
    },
  ),
  def(
    'forward_email_thread',
    {
      description: 'Forward a whole email thread to one or more recipients.',
      params: [...THREAD_ID, req.list('email_addresses'), opt.bool('draft_not_send', { default: false })],
      response: FORWARDED,
    },
    (ctx, a) => {
      const emails = emailsOf(ctx, ownThread(ctx, Number(a.email_thread_id)).id);
      if (emails.length === 0) throw new ApiError(422, 'The email thread has no emails to forward.');
      const to = checkRecipients(ctx, a.email_addresses as string[], 'email_addresses');
      return forward(ctx, to, fwdSubject(emails[0]!.subject), emails.map((e) => forwardedText(ctx, e)).join('\n\n'), filesOfEmails(ctx, emails), optBool(a, 'draft_not_send') === true);
    },
  ),
  def(
    'create_draft',
    {
      description: 'Create a new draft (a reply when it belongs to a thread).',
      response: { message: 'string', draft_id: 1 },
      params: [
        req.list('recipient_email_addresses'),
        opt.str('subject'),
        req.str('body'),
        opt.int('belongs_to_email_thread_id'),
        opt.int('response_to_email_id'),
        opt.list('attachment_file_paths'),
        opt.str('scheduled_send_at'),
        opt.str('file_system_access_token'),
      ],
    },
    (ctx, a) => {
      const to = checkRecipients(ctx, a.recipient_email_addresses as string[], 'recipient_email_addresses');
      const { thread, email } = draftLinks(ctx, optNum(a, 'belongs_to_email_thread_id'), optNum(a, 'response_to_email_id'));
      const subject = optStr(a, 'subject') ?? (thread ? reSubject(emailsOf(ctx, thread.id)[0]?.subject ?? '') : '');
      const scheduled = optStr(a, 'scheduled_send_at') === null ? null : scheduleAt(ctx, str(a, 'scheduled_send_at'));
      const files = filesFrom(ctx, a.attachment_file_paths as string[] | null, optStr(a, 'file_system_access_token'));
      const r = ctx.db
        .prepare(
          'INSERT INTO gmail_drafts (user_id, recipients, subject, body, belongs_to_thread_id, response_to_email_id, scheduled_send_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(me(ctx), JSON.stringify(to), subject, str(a, 'body'), thread?.id ?? null, email?.id ?? null, scheduled, ctx.now, ctx.now);
      const draftId = Number(r.lastInsertRowid);
      attach(ctx, 'draft_id', draftId, files);
      return ok('Draft created.', { draft_id: draftId });
    },
  ),
  def(
    'update_draft',
    {
      method: 'PATCH',
      description: "Update a draft. Pass scheduled_send_at 'None' to unschedule it.",
      response: MESSAGE,
      params: [
        req.int('draft_id'),
        opt.list('email_addresses'),
        opt.str('subject'),
        opt.str('body'),
        opt.int('belongs_to_email_thread_id'),
        opt.int('response_to_email_id'),
        opt.str('scheduled_send_at'),
      ],
    },
    (ctx, a) => {
      const d = ownDraft(ctx, Number(a.draft_id));
      const given = a.email_addresses as string[] | null;
      const to = given === null ? emailList(d.recipients) : checkRecipients(ctx, given, 'email_addresses');
      const threadId = optNum(a, 'belongs_to_email_thread_id') ?? d.belongs_to_thread_id;
      const { thread, email } = draftLinks(ctx, threadId, optNum(a, 'response_to_email_id') ?? (optNum(a, 'belongs_to_email_thread_id') === null ? d.response_to_email_id : null));
      const raw = optStr(a, 'scheduled_send_at');
      const scheduled = raw === null ? d.scheduled_send_at : raw.trim() === 'None' ? null : scheduleAt(ctx, raw);
      ctx.db
        .prepare('UPDATE gmail_drafts SET recipients = ?, subject = ?, body = ?, belongs_to_thread_id = ?, response_to_email_id = ?, scheduled_send_at = ?, updated_at = ? WHERE id = ?')
        .run(JSON.stringify(to), optStr(a, 'subject') ?? d.subject, optStr(a, 'body') ?? d.body, thread?.id ?? null, email?.id ?? null, scheduled, ctx.now, d.id);
      return ok('Draft updated.');
    },
  ),
  def('delete_draft', { method: 'DELETE', description: 'Delete a draft.', params: [req.int('draft_id')], response: MESSAGE }, (ctx, a) => {
    deleteDraft(ctx, ownDraft(ctx, Number(a.draft_id)));
    return ok('Draft deleted.');
  }),
  def('send_email_from_draft', { description: 'Send a draft as an email right away.', params: [req.int('draft_id'), opt.str('file_system_access_token')], response: SENT }, (ctx, a) => {
    const d = ownDraft(ctx, Number(a.draft_id));
    const to = checkRecipients(ctx, emailList(d.recipients), 'recipients');
    const thread = d.belongs_to_thread_id === null ? null : ((ctx.db.prepare('SELECT * FROM gmail_threads WHERE id = ?').get(d.belongs_to_thread_id) as ThreadRow | undefined) ?? null);
    const responseTo = d.response_to_email_id === null ? null : ((ctx.db.prepare('SELECT * FROM gmail_emails WHERE id = ?').get(d.response_to_email_id) as EmailRow | undefined) ?? null);
    const files = attachmentsOf(ctx, 'draft_id', d.id).map((x) => ({ name: x.file_name, content: x.content }));
    const sent = deliver(ctx, { thread, to, subject: d.subject, body: d.body, files, responseTo });
    deleteDraft(ctx, d);
    return ok('Email sent.', { sent_email_thread_id: sent.threadId, sent_email_id: sent.emailId });
  }),
  def(
    'show_drafts',
    {
      description: 'Show or search your drafts.',
      response: [DRAFT],
      params: [
        opt.str('query', { default: '' }),
        ...PAGING,
        opt.str('recipient_email', { constraints: EMAIL }),
        opt.bool('attachment'),
        opt.bool('scheduled'),
        opt.int('belongs_to_email_thread_id'),
        opt.int('response_to_email_id'),
        ...DATE_RANGE,
        sortBy(null),
      ],
    },
    (ctx, a) => {
      const drafts = ctx.db.prepare('SELECT * FROM gmail_drafts WHERE user_id = ? ORDER BY id').all(me(ctx)) as DraftRow[];
      const rows = drafts.filter((d) => {
        const to = optStr(a, 'recipient_email');
        return (
          (to === null || emailList(d.recipients).includes(to)) &&
          (optBool(a, 'attachment') === null || attachmentsOf(ctx, 'draft_id', d.id).length > 0 === optBool(a, 'attachment')) &&
          (optBool(a, 'scheduled') === null || (d.scheduled_send_at !== null) === optBool(a, 'scheduled')) &&
          (optNum(a, 'belongs_to_email_thread_id') === null || d.belongs_to_thread_id === optNum(a, 'belongs_to_email_thread_id')) &&
          (optNum(a, 'response_to_email_id') === null || d.response_to_email_id === optNum(a, 'response_to_email_id')) &&
          inDateRange(d.created_at, a)
        );
      });
      return rankedPage(
        rankByQuery(rows, a.query, (d) => [d.subject, d.body]).map((d) => draftView(ctx, d)),
        a,
        ['created_at', 'updated_at'],
        '-updated_at',
      );
    },
  ),
  def('show_draft', { description: 'Show a draft in detail.', params: [req.int('draft_id')], response: DRAFT }, (ctx, a) => draftView(ctx, ownDraft(ctx, Number(a.draft_id)))),
  def(
    'download_attachment',
    {
      description: 'Download an attachment (of an email or a draft of yours) into your file system.',
      response: { message: 'string', file_path: 'string' },
      params: [req.int('attachment_id'), opt.str('download_to_file_path'), opt.bool('overwrite', { default: false }), req.str('file_system_access_token')],
    },
    (ctx, a) => {
      const att = ctx.db.prepare('SELECT * FROM gmail_attachments WHERE id = ?').get(a.attachment_id) as AttachmentRow | undefined;
      if (!att) notFound('attachment');
      if (att.email_id !== null) ownEmail(ctx, att.email_id);
      else ownDraft(ctx, att.draft_id ?? -1);
      return ok('Attachment downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), att.file_name, att.content, optBool(a, 'overwrite') === true),
      });
    },
  ),
  def(
    'upload_attachments_to_draft',
    {
      description: 'Attach files of your file system to a draft.',
      response: { message: 'string', attachment_ids: [1] },
      params: [req.int('draft_id'), req.list('attachment_file_paths'), opt.bool('overwrite', { default: false }), req.str('file_system_access_token')],
    },
    (ctx, a) => {
      const d = ownDraft(ctx, Number(a.draft_id));
      const files = filesFrom(ctx, a.attachment_file_paths as string[], optStr(a, 'file_system_access_token'));
      if (files.length === 0) throw new ApiError(422, 'At least one attachment file path is required.');
      const existing = attachmentsOf(ctx, 'draft_id', d.id);
      for (const f of files) {
        const same = existing.find((x) => x.file_name === f.name);
        if (same && optBool(a, 'overwrite') !== true) throw new ApiError(422, `The draft already has an attachment named "${f.name}".`);
        if (same) ctx.db.prepare('DELETE FROM gmail_attachments WHERE id = ?').run(same.id);
      }
      const ids = attach(ctx, 'draft_id', d.id, files);
      ctx.db.prepare('UPDATE gmail_drafts SET updated_at = ? WHERE id = ?').run(ctx.now, d.id);
      return ok('Attachments uploaded.', { attachment_ids: ids });
    },
  ),
  def('remove_attachment_from_draft', { method: 'DELETE', description: 'Remove an attachment from a draft.', params: [req.int('draft_id'), req.int('attachment_id')], response: MESSAGE }, (ctx, a) => {
    const d = ownDraft(ctx, Number(a.draft_id));
    const att = ctx.db.prepare('SELECT id FROM gmail_attachments WHERE id = ? AND draft_id = ?').get(a.attachment_id, d.id) as { id: number } | undefined;
    if (!att) throw new ApiError(422, 'The attachment does not exist in this draft.');
    ctx.db.prepare('DELETE FROM gmail_attachments WHERE id = ?').run(att.id);
    ctx.db.prepare('UPDATE gmail_drafts SET updated_at = ? WHERE id = ?').run(ctx.now, d.id);
    return ok('Attachment removed from draft.');
  }),
];

/** AppWorld's routes of the gmail app. */
const G = '/gmail';
export const gmailApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('gmail', { verification: false, notifications: false }),
  search_users: `GET ${G}/users`,
  show_inbox_threads: `GET ${G}/email_threads/category/inbox`,
  show_outbox_threads: `GET ${G}/email_threads/category/outbox`,
  show_archived_threads: `GET ${G}/email_threads/category/archived`,
  show_spam_threads: `GET ${G}/email_threads/category/spam`,
  show_category_sizes: `GET ${G}/category_sizes`,
  show_thread: `GET ${G}/email_threads/{email_thread_id}`,
  show_email: `GET ${G}/emails/{email_id}`,
  label_thread: `POST ${G}/email_threads/{email_thread_id}/label`,
  unlabel_thread: `POST ${G}/email_threads/{email_thread_id}/unlabel`,
  mark_thread_read: `POST ${G}/email_threads/{email_thread_id}/read`,
  mark_thread_unread: `POST ${G}/email_threads/{email_thread_id}/unread`,
  mark_thread_archived: `POST ${G}/email_threads/{email_thread_id}/archived`,
  mark_thread_unarchived: `POST ${G}/email_threads/{email_thread_id}/unarchived`,
  mark_thread_spam: `POST ${G}/email_threads/{email_thread_id}/spam`,
  mark_thread_not_spam: `POST ${G}/email_threads/{email_thread_id}/not_spam`,
  mark_thread_starred: `POST ${G}/email_threads/{email_thread_id}/starred`,
  mark_thread_unstarred: `POST ${G}/email_threads/{email_thread_id}/unstarred`,
  delete_thread: `DELETE ${G}/email_threads/{email_thread_id}`,
  delete_email_in_thread: `DELETE ${G}/email_threads/{email_thread_id}/emails/{email_id}`,
  send_email: `POST ${G}/emails`,
  reply_to_email: `POST ${G}/email_threads/{email_thread_id}/emails/{email_id}/reply`,
  forward_email_from_thread: `POST ${G}/email_threads/{email_thread_id}/emails/{email_id}/forward`,
  forward_email_thread: `POST ${G}/email_threads/{email_thread_id}/forward`,
  create_draft: `POST ${G}/drafts`,
  update_draft: `PATCH ${G}/drafts/{draft_id}`,
  delete_draft: `DELETE ${G}/drafts/{draft_id}`,
  send_email_from_draft: `POST ${G}/drafts/{draft_id}/send`,
  show_drafts: `GET ${G}/drafts`,
  show_draft: `GET ${G}/drafts/{draft_id}`,
  download_attachment: `GET ${G}/attachments/{attachment_id}`,
  upload_attachments_to_draft: `POST ${G}/drafts/{draft_id}/attachments`,
  remove_attachment_from_draft: `DELETE ${G}/drafts/{draft_id}/attachments/{attachment_id}`,
});
