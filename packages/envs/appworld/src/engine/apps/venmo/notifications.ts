// venmo's social feed and notifications (list, count, delete, mark) and payment-request reminders.
import { declarer, me, ok, optBool } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req, ACCESS_TOKEN } from '../../params.js';
import { count } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { notifications, ownNotification, ownRequest, transactionRows } from './tables.js';
import { nameOf, notificationView, requestStatus, txView } from './views.js';
import { notify } from './money.js';

const def = declarer('venmo');

export const feedApis: ApiDef[] = [
  def(
    'show_social_feed',
    {
      response: [
        {
          transaction_id: 1,
          amount: 0.0,
          description: 'string',
          created_at: '2019-01-01T00:00:00',
          updated_at: '2019-01-01T00:00:00',
          private: true,
          like_count: 1,
          comment_count: 1,
          sender: { name: 'string', email: 'user@example.com' },
          receiver: { name: 'string', email: 'user@example.com' },
        },
      ],
      description: 'Show your social feed (transactions of your friends).',
      params: [...PAGING],
    },
    (ctx, a) => {
      const self = me(ctx);
      // Friends' public transactions, newest first, without the card details a transaction view shows its parties.
      const rows = transactionRows.all(
        ctx,
        'WHERE private = 0 AND (sender_id IN (SELECT friend_id FROM venmo_friends WHERE user_id = ?) OR receiver_id IN (SELECT friend_id FROM venmo_friends WHERE user_id = ?)) ORDER BY created_at DESC, id DESC',
        self,
        self,
      );
      return pageOf(
        rows.map((t) => {
          const { payment_card_digits: _d, ...rest } = txView(ctx, t);
          return rest;
        }),
        a,
        [],
      );
    },
  ),
  def(
    'show_notifications',
    {
      response: [{ notification_id: 1, type: 'string', title: 'string', message: 'string', read: true, created_at: '2019-01-01T00:00:00', data: {} }],
      description: 'Get a list of your notifications.',
      params: [...PAGING, opt.bool('read')],
    },
    (ctx, a) => {
      const rows = notifications.all(ctx, 'WHERE user_id = ? ORDER BY created_at DESC, id DESC', me(ctx)).filter((n) => optBool(a, 'read') === null || (n.read === 1) === optBool(a, 'read'));
      return pageOf(rows.map(notificationView), a, []);
    },
  ),
  def('show_notifications_count', { response: { notifications_count: 0.0 }, description: 'Get the count of your notifications.', params: [ACCESS_TOKEN, opt.bool('read')] }, (ctx, a) => {
    const read = optBool(a, 'read');
    const n =
      read === null
        ? count(ctx, 'SELECT count(*) AS n FROM venmo_notifications WHERE user_id = ?', me(ctx))
        : count(ctx, 'SELECT count(*) AS n FROM venmo_notifications WHERE user_id = ? AND read = ?', me(ctx), read ? 1 : 0);
    return { notifications_count: n };
  }),
  def('delete_notification', { method: 'DELETE', description: 'Delete a notification.', params: [req.int('notification_id')], response: { message: 'string' } }, (ctx, a) => {
    ctx.db.prepare('DELETE FROM venmo_notifications WHERE id = ?').run(ownNotification(ctx, Number(a.notification_id)).id);
    return ok('Notification deleted.');
  }),
  def(
    'mark_notification',
    { method: 'PATCH', description: 'Mark a notification as read or unread.', params: [req.int('notification_id'), req.bool('read')], response: { message: 'string' } },
    (ctx, a) => {
      ctx.db.prepare('UPDATE venmo_notifications SET read = ? WHERE id = ?').run(a.read === true ? 1 : 0, ownNotification(ctx, Number(a.notification_id)).id);
      return ok(`Notification marked as ${a.read === true ? 'read' : 'unread'}.`);
    },
  ),
  def('delete_notifications', { method: 'DELETE', description: 'Delete all of your notifications.', response: { message: 'string' } }, (ctx) => {
    ctx.db.prepare('DELETE FROM venmo_notifications WHERE user_id = ?').run(me(ctx));
    return ok('Notifications deleted.');
  }),
  def('mark_notifications', { method: 'PATCH', description: 'Mark all notifications as read or unread.', params: [req.bool('read')], response: { message: 'string' } }, (ctx, a) => {
    ctx.db.prepare('UPDATE venmo_notifications SET read = ? WHERE user_id = ?').run(a.read === true ? 1 : 0, me(ctx));
    return ok(`Notifications marked as ${a.read === true ? 'read' : 'unread'}.`);
  }),
  def('remind_payment_request', { description: 'Send a reminder for a pending payment request you sent.', params: [req.int('payment_request_id')], response: { message: 'string' } }, (ctx, a) => {
    const r = ownRequest(ctx, Number(a.payment_request_id), 'sender_id');
    if (requestStatus(r) !== 'pending') throw new ApiError(422, `The payment request has already been ${requestStatus(r)}.`);
    notify(ctx, r.receiver_id, 'payment_request_reminder', 'Payment request reminder', `${nameOf(ctx, me(ctx))} reminded you of their request for $${r.amount}.`, { payment_request_id: r.id });
    return ok('Reminder sent.');
  }),
];
