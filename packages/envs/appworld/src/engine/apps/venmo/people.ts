// venmo's people: search users and friends, add and remove friends.
import { declarer, me, ok, optStr, str } from '../../define.js';
import { pageOf } from '../../listing.js';
import { rankByQuery } from '../../ranked.js';
import { opt, PAGING, req, EMAIL } from '../../params.js';
import { select } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import type { UserRow } from '../shared/accounts.js';
import { friendsSince, venmoUser } from './tables.js';
import { USER_RESPONSE } from './views.js';

const def = declarer('venmo');
/** People with their venmo friendships and accounts (someone's friends, by `f.user_id`). */
const friendsOf = select<UserRow & { friends_since: string; registered_at: string }>(
  "SELECT u.*, f.created_at AS friends_since, acc.created_at AS registered_at FROM users u JOIN venmo_friends f ON f.friend_id = u.id JOIN accounts acc ON acc.user_id = u.id AND acc.app = 'venmo'",
);

export const peopleApis: ApiDef[] = [
  def(
    'search_users',
    {
      description: 'Search Venmo users by name or email.',
      params: [opt.str('query', { default: '' }), ...PAGING],
      response: [USER_RESPONSE],
    },
    (ctx, a) => {
      me(ctx);
      const found = select<UserRow & { registered_at: string }>("SELECT u.*, a.created_at AS registered_at FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = 'venmo'").all(
        ctx,
        'ORDER BY u.id',
      );
      const rows = rankByQuery(found, a.query, (u) => [u.first_name, u.last_name, u.email]);
      return pageOf(
        rows.map((u) => ({ first_name: u.first_name, last_name: u.last_name, email: u.email, registered_at: u.registered_at, friends_since: friendsSince(ctx, u.id) })),
        a,
        [],
      );
    },
  ),
  def(
    'search_friends',
    {
      response: [USER_RESPONSE],
      description: "Search your or others' friends by name or email.",
      params: [opt.str('query', { default: '' }), opt.str('user_email', { desc: 'Search the friends of this user instead of yours.', constraints: EMAIL }), ...PAGING],
    },
    (ctx, a) => {
      const whose = optStr(a, 'user_email') === null ? me(ctx) : venmoUser(ctx, str(a, 'user_email')).id;
      const found = friendsOf.all(ctx, 'WHERE f.user_id = ? ORDER BY f.id', whose);
      const rows = rankByQuery(found, a.query, (u) => [u.first_name, u.last_name, u.email]);
      return pageOf(
        rows.map((u) => ({ first_name: u.first_name, last_name: u.last_name, email: u.email, registered_at: u.registered_at, friends_since: u.friends_since })),
        a,
        [],
      );
    },
  ),
  def('add_friend', { description: 'Add a friend.', params: [req.str('user_email', { constraints: EMAIL })], response: { message: 'string' } }, (ctx, a) => {
    const u = venmoUser(ctx, str(a, 'user_email'));
    if (u.id === me(ctx)) throw new ApiError(422, 'You cannot befriend yourself.');
    if (ctx.db.prepare('SELECT 1 FROM venmo_friends WHERE user_id = ? AND friend_id = ?').get(me(ctx), u.id)) throw new ApiError(422, 'You are already friends with this user.');
    ctx.db.prepare('INSERT INTO venmo_friends (user_id, friend_id, created_at) VALUES (?, ?, ?)').run(me(ctx), u.id, ctx.now);
    ctx.db.prepare('INSERT OR IGNORE INTO venmo_friends (user_id, friend_id, created_at) VALUES (?, ?, ?)').run(u.id, me(ctx), ctx.now);
    return ok('Friend added.');
  }),
  def('remove_friend', { method: 'DELETE', description: 'Remove a friend.', params: [req.str('user_email', { constraints: EMAIL })], response: { message: 'string' } }, (ctx, a) => {
    const u = venmoUser(ctx, str(a, 'user_email'));
    if (ctx.db.prepare('DELETE FROM venmo_friends WHERE user_id = ? AND friend_id = ?').run(me(ctx), u.id).changes === 0) throw new ApiError(422, 'You are not friends with this user.');
    ctx.db.prepare('DELETE FROM venmo_friends WHERE user_id = ? AND friend_id = ?').run(u.id, me(ctx));
    return ok('Friend removed.');
  }),
];
