// gmail's sending APIs: send, reply, forward an email or a whole thread.
import { declarer, me, ok, optBool, optStr, str } from '../../define.js';
import { opt, req } from '../../params.js';
import { ApiError, type ApiDef } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { emailInThread, emailsOf, ownThread } from './tables.js';
import { emailList, FORWARDED, SENT } from './views.js';
import { checkRecipients, deliver, filesFrom, filesOfEmails, forward, forwardedText, fwdSubject, reSubject } from './mail.js';
import { THREAD_ID } from './listing.js';

const def = declarer('gmail');

export const sendApis: ApiDef[] = [
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
];
