// gmail's drafts: create, update, schedule, send, list, show, and their attachments.
import { declarer, me, notFound, ok, optBool, optNum, optStr, str } from '../../define.js';
import { inDateRange } from '../../listing.js';
import { DATE_RANGE, EMAIL, opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage } from '../../ranked.js';
import { ApiError, type ApiDef } from '../../types.js';
import { downloadToFileSystem } from '../file_system.js';
import { row } from '../../tables.js';
import { attachmentRows, attachmentsOf, draftRows, emailRows, emailsOf, ownDraft, ownEmail, threadRows } from './tables.js';
import { DRAFT, draftView, emailList, MESSAGE, SENT } from './views.js';
import { attach, checkRecipients, deleteDraft, deliver, draftLinks, filesFrom, reSubject, scheduleAt } from './mail.js';

const def = declarer('gmail');

export const draftApis: ApiDef[] = [
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
    const thread = d.belongs_to_thread_id === null ? null : (threadRows.byId(ctx, d.belongs_to_thread_id) ?? null);
    const responseTo = d.response_to_email_id === null ? null : (emailRows.byId(ctx, d.response_to_email_id) ?? null);
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
      const drafts = draftRows.all(ctx, 'WHERE user_id = ? ORDER BY id', me(ctx));
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
      const att = attachmentRows.byId(ctx, a.attachment_id);
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
    const att = row<{ id: number }>(ctx, 'SELECT id FROM gmail_attachments WHERE id = ? AND draft_id = ?', a.attachment_id, d.id);
    if (!att) throw new ApiError(422, 'The attachment does not exist in this draft.');
    ctx.db.prepare('DELETE FROM gmail_attachments WHERE id = ?').run(att.id);
    ctx.db.prepare('UPDATE gmail_drafts SET updated_at = ? WHERE id = ?').run(ctx.now, d.id);
    return ok('Attachment removed from draft.');
  }),
];
