// The six notification APIs an app with a `<app>_notifications` table shares (splitwise, todoist):
// list, count, delete one, mark one, delete all, mark all — always the caller's own notifications.
import { declarer, me, notFound, ok, optBool } from '../../define.js';
import { ACCESS_TOKEN, opt, PAGE_LIMIT_DEFAULT, PAGING, req } from '../../params.js';
import { count } from '../../tables.js';
import { ApiError, type ApiContext, type ApiDef, type Json } from '../../types.js';
import { notificationTable, type NotificationRow } from './rows.js';

const MESSAGE = { message: 'string' };

/** `exampleType` is the notification type AppWorld's docs show in the response schema. */
export function notificationApis(app: string, { type: exampleType }: { type: string }): ApiDef[] {
  const def = declarer(app);
  const notifications = notificationTable(app);
  const table = notifications.name;
  const view = (n: NotificationRow) => ({ notification_id: n.id, type: n.type, title: n.title, message: n.message, read: n.read === 1, created_at: n.created_at, data: JSON.parse(n.data) as Json });
  const own = (ctx: ApiContext, id: number): NotificationRow => {
    const n = notifications.byId(ctx, id);
    if (!n) notFound('notification');
    if (n.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this notification.');
    return n;
  };
  return [
    def(
      'show_notifications',
      {
        description: 'List your notifications, newest first.',
        params: [...PAGING, opt.bool('read', { desc: 'Only read (true) or unread (false) ones.' })],
        response: [{ notification_id: 1, type: exampleType, title: 'string', message: 'string', read: true, created_at: '2019-01-01T00:00:00', data: {} }],
      },
      (ctx, a) => {
        const read = optBool(a, 'read');
        const rows = notifications.all(ctx, 'WHERE user_id = ? ORDER BY created_at DESC, id DESC', me(ctx)).filter((n) => read === null || (n.read === 1) === read);
        const index = Number(a.page_index ?? 0);
        const limit = Number(a.page_limit ?? PAGE_LIMIT_DEFAULT);
        return rows.slice(index * limit, index * limit + limit).map(view);
      },
    ),
    def('show_notifications_count', { description: 'Count your notifications.', params: [ACCESS_TOKEN, opt.bool('read')], response: { notifications_count: 0.0 } }, (ctx, a) => {
      const read = optBool(a, 'read');
      const n =
        read === null
          ? count(ctx, `SELECT count(*) AS n FROM ${table} WHERE user_id = ?`, me(ctx))
          : count(ctx, `SELECT count(*) AS n FROM ${table} WHERE user_id = ? AND read = ?`, me(ctx), read ? 1 : 0);
      return { notifications_count: n };
    }),
    def('delete_notification', { method: 'DELETE', description: 'Delete one of your notifications.', params: [req.int('notification_id')], response: MESSAGE }, (ctx, a) => {
      ctx.db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(own(ctx, Number(a.notification_id)).id);
      return ok('Notification deleted.');
    }),
    def('mark_notification', { method: 'PATCH', description: 'Mark one notification read or unread.', params: [req.int('notification_id'), req.bool('read')], response: MESSAGE }, (ctx, a) => {
      ctx.db.prepare(`UPDATE ${table} SET read = ? WHERE id = ?`).run(a.read === true ? 1 : 0, own(ctx, Number(a.notification_id)).id);
      return ok(`Notification marked as ${a.read === true ? 'read' : 'unread'}.`);
    }),
    def('delete_notifications', { method: 'DELETE', description: 'Delete all your notifications.', response: MESSAGE }, (ctx) => {
      ctx.db.prepare(`DELETE FROM ${table} WHERE user_id = ?`).run(me(ctx));
      return ok('Notifications deleted.');
    }),
    def('mark_notifications', { method: 'PATCH', description: 'Mark all your notifications read or unread.', params: [req.bool('read')], response: MESSAGE }, (ctx, a) => {
      ctx.db.prepare(`UPDATE ${table} SET read = ? WHERE user_id = ?`).run(a.read === true ? 1 : 0, me(ctx));
      return ok(`Notifications marked as ${a.read === true ? 'read' : 'unread'}.`);
    }),
  ];
}
