// gmail's users and threads: search users, the thread listings and category sizes, show, labels, flags, deletes.
import { declarer, me, ok, str } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req } from '../../params.js';
import { rankByQuery } from '../../ranked.js';
import { ApiError, type ApiDef } from '../../types.js';
import { rows, select } from '../../tables.js';
import { draftsOf, emailInThread, emailsOf, ownEmail, ownThread, threadRows } from './tables.js';
import { draftView, EMAIL_RESPONSE, emailCore, flags, MESSAGE, THREAD_FULL, type Row } from './views.js';
import { deleteDraft, deleteEmail } from './mail.js';
import { LIST_RESPONSE, listThreads, setFlag, THREAD_ID, threadFilters } from './listing.js';

const def = declarer('gmail');

export const threadApis: ApiDef[] = [
  def(
    'search_users',
    {
      auth: false,
      description: 'Search gmail users by name or email address.',
      params: [opt.str('query', { default: '' }), ...PAGING],
      response: [{ first_name: 'string', last_name: 'string', email: 'user@example.com', registered_at: '2019-01-01T00:00:00' }],
    },
    (ctx, a) => {
      const users = select<{ first_name: string; last_name: string; email: string; created_at: string }>(
        "SELECT u.first_name, u.last_name, u.email, a.created_at FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = 'gmail'",
      ).all(ctx, 'ORDER BY u.id');
      return pageOf(
        rankByQuery(users, a.query, (u) => [u.first_name, u.last_name, u.email]).map((u) => ({ first_name: u.first_name, last_name: u.last_name, email: u.email, registered_at: u.created_at })),
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
      for (const t of threadRows.all(ctx, 'WHERE user_id = ?', me(ctx))) {
        const f = flags(ctx, t, emailsOf(ctx, t.id)) as { incoming: boolean; outgoing: boolean };
        if (t.spam === 1) sizes.spam++;
        else if (t.archived === 1) sizes.archived++;
        else {
          if (f.incoming) sizes.inbox++;
          if (f.outgoing) sizes.outbox++;
        }
      }
      const drafts = rows<{ scheduled_send_at: string | null }>(ctx, 'SELECT scheduled_send_at FROM gmail_drafts WHERE user_id = ?', me(ctx));
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
];
