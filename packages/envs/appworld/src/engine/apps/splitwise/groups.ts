// splitwise's people, activity and groups: search users, the activity feed, groups, members, invitations.
import { declarer, me, ok, optStr, str } from '../../define.js';
import { rankByQuery } from '../../ranked.js';
import { ACCESS_TOKEN, EMAIL, opt, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_UNCAPPED, PAGING, req } from '../../params.js';
import { count, rows, select } from '../../tables.js';
import { ApiError, type ApiDef, type Json } from '../../types.js';
import type { UserRow } from '../shared/accounts.js';
import { invitationCode } from '../../../world/splitwise.js';
import { expenseRows, groupRows, paymentRows, expenseParties, isMember, myGroup, sharesOf, splitwiseUser, type GroupRow } from './tables.js';
import { fullName, GROUP, groupName, groupView, MESSAGE, person, PERSON, round2 } from './views.js';
import { direction, netBetween } from './balance-math.js';
import { PAGE_INDEX, sortedPage } from './listing.js';
import { leaveGroup, myName, notify } from './writes.js';

const def = declarer('splitwise');
/** Groups with their memberships (the caller's groups, by `m.user_id`). */
const myGroups = select<GroupRow>('SELECT g.* FROM splitwise_groups g JOIN splitwise_group_members m ON m.group_id = g.id');

export const groupApis: ApiDef[] = [
  def(
    'search_users',
    {
      description: 'Search Splitwise users by name or email, with your balance with each.',
      params: [opt.str('query', { default: '' }), ...PAGING],
      response: [{ name: 'string', email: 'user@example.com', direction: 'you_owe_them', amount: 0.0 }],
    },
    (ctx, a) => {
      const self = me(ctx);
      const users = rankByQuery(rows<UserRow>(ctx, "SELECT u.* FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = 'splitwise' WHERE u.id != ? ORDER BY u.id", self), a.query, (u) => [
        u.first_name,
        u.last_name,
        u.email,
      ]);
      const index = Number(a.page_index ?? 0);
      const limit = Number(a.page_limit ?? PAGE_LIMIT_DEFAULT);
      return users.slice(index * limit, index * limit + limit).map((u) => {
        const owe = round2([...netBetween(ctx, self, u.id).values()].reduce((s, x) => s + x, 0));
        return { name: fullName(u), email: u.email, direction: direction(owe), amount: Math.abs(owe) };
      });
    },
  ),
  def(
    'show_activity',
    {
      description: 'Your expenses and payments, newest first.',
      params: [...PAGING, opt.bool('show_expenses', { default: true }), opt.bool('show_payments', { default: true }), opt.str('sort_by', { default: '-created_at' })],
      response: [
        {
          record_type: 'expense',
          amount: 0.0,
          paid_by: PERSON,
          owed_by: [{ name: 'string', email: 'user@example.com', amount: 0.0 }],
          description: 'string',
          group_id: 1,
          group_name: 'string',
          created_at: '2019-01-01T00:00:00',
        },
      ],
    },
    (ctx, a) => {
      const self = me(ctx);
      const records: { created_at: string; amount: number; view: Json }[] = [];
      const withAmount = (id: number, amount: number) => {
        const p = person(ctx, id) as { name: string; email: string };
        return { ...p, amount };
      };
      if (a.show_expenses !== false) {
        for (const e of expenseRows.all(ctx, 'WHERE deleted = 0 ORDER BY id')) {
          if (!expenseParties(ctx, e).has(self)) continue;
          records.push({
            created_at: e.created_at,
            amount: e.paid_amount,
            view: {
              record_type: 'expense',
              amount: e.paid_amount,
              paid_by: person(ctx, e.payer_id),
              owed_by: sharesOf(ctx, e.id).map((s) => withAmount(s.debtor_id, s.debt_amount)),
              description: e.description,
              group_id: e.group_id,
              group_name: groupName(ctx, e.group_id),
              created_at: e.created_at,
            },
          });
        }
      }
      if (a.show_payments !== false) {
        for (const p of paymentRows.all(ctx, 'WHERE deleted = 0 AND (payer_id = ? OR receiver_id = ? OR creator_id = ?) ORDER BY id', self, self, self))
          records.push({
            created_at: p.created_at,
            amount: p.amount,
            view: {
              record_type: 'payment',
              amount: p.amount,
              paid_by: person(ctx, p.payer_id),
              owed_by: [withAmount(p.receiver_id, p.amount)],
              description: p.description,
              group_id: p.group_id,
              group_name: groupName(ctx, p.group_id),
              created_at: p.created_at,
            },
          });
      }
      return sortedPage(records, { ...a, query: '' }, ['created_at']).map((r) => r.view);
    },
  ),

  // Groups.
  def(
    'create_group',
    {
      description: 'Create a group to share expenses in; you are a member.',
      params: [req.str('name', { constraints: [{ kind: 'minLength', value: 1 }] }), req.list('member_emails', { desc: 'Emails of the other members.' }), opt.str('description')],
      response: { message: 'string', group_id: 1 },
    },
    (ctx, a) => {
      const self = me(ctx);
      const members = [...new Set([self, ...((a.member_emails as string[]) ?? []).map((e) => splitwiseUser(ctx, e).id)])];
      const next = count(ctx, 'SELECT coalesce(max(id), 0) + 1 AS n FROM splitwise_groups');
      const id = Number(
        ctx.db
          .prepare('INSERT INTO splitwise_groups (id, name, description, creator_id, invitation_code, deleted, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)')
          .run(next, str(a, 'name'), optStr(a, 'description'), self, invitationCode(next, `${str(a, 'name')}:${ctx.now}`), ctx.now).lastInsertRowid,
      );
      for (const m of members) {
        ctx.db.prepare('INSERT INTO splitwise_group_members (group_id, user_id, created_at) VALUES (?, ?, ?)').run(id, m, ctx.now);
        notify(ctx, m, 'group_added', 'Added to a group', `${myName(ctx)} added you to the group "${str(a, 'name')}".`, { group_id: id });
      }
      return ok('Group created.', { group_id: id });
    },
  ),
  def('show_group', { description: 'Show a group you are a member of.', params: [req.int('group_id')], response: GROUP }, (ctx, a) => groupView(ctx, myGroup(ctx, Number(a.group_id)))),
  def(
    'show_groups',
    {
      description: 'List the groups you are a member of.',
      params: [ACCESS_TOKEN, opt.bool('delete', { default: false }), PAGE_INDEX, PAGE_LIMIT_UNCAPPED],
      response: [GROUP],
    },
    (ctx, a) => {
      const rows = myGroups.all(ctx, 'WHERE m.user_id = ? ORDER BY g.id', me(ctx)).filter((g) => (g.deleted === 1) === (a.delete === true));
      const index = Number(a.page_index ?? 0);
      const limit = Number(a.page_limit ?? PAGE_LIMIT_DEFAULT);
      return rows.slice(index * limit, index * limit + limit).map((g) => groupView(ctx, g));
    },
  ),
  def(
    'update_group',
    {
      method: 'PATCH',
      description: 'Rename a group or change its description.',
      params: [req.int('group_id'), opt.str('name', { constraints: [{ kind: 'minLength', value: 1 }] }), opt.str('description')],
      response: MESSAGE,
    },
    (ctx, a) => {
      const g = myGroup(ctx, Number(a.group_id));
      ctx.db.prepare('UPDATE splitwise_groups SET name = ?, description = ? WHERE id = ?').run(optStr(a, 'name') ?? g.name, optStr(a, 'description') ?? g.description, g.id);
      return ok('Group updated.');
    },
  ),
  def('delete_group', { method: 'DELETE', description: 'Delete a group you are a member of (any member can undelete it).', params: [req.int('group_id')], response: MESSAGE }, (ctx, a) => {
    const g = myGroup(ctx, Number(a.group_id));
    if (g.deleted === 1) throw new ApiError(422, 'The group is already deleted.');
    ctx.db.prepare('UPDATE splitwise_groups SET deleted = 1 WHERE id = ?').run(g.id);
    return ok('Group deleted.');
  }),
  def('undelete_group', { method: 'PATCH', description: 'Restore a deleted group you are a member of.', params: [req.int('group_id')], response: MESSAGE }, (ctx, a) => {
    const g = myGroup(ctx, Number(a.group_id));
    if (g.deleted === 0) throw new ApiError(422, 'The group is not deleted.');
    ctx.db.prepare('UPDATE splitwise_groups SET deleted = 0 WHERE id = ?').run(g.id);
    return ok('Group restored.');
  }),
  def(
    'add_member_to_group',
    { description: 'Add someone to a group you are a member of.', params: [req.int('group_id'), req.str('user_email', { constraints: EMAIL })], response: MESSAGE },
    (ctx, a) => {
      const g = myGroup(ctx, Number(a.group_id));
      const u = splitwiseUser(ctx, str(a, 'user_email'));
      if (isMember(ctx, g.id, u.id)) throw new ApiError(422, 'The user is already a member of this group.');
      ctx.db.prepare('INSERT INTO splitwise_group_members (group_id, user_id, created_at) VALUES (?, ?, ?)').run(g.id, u.id, ctx.now);
      notify(ctx, u.id, 'group_added', 'Added to a group', `${myName(ctx)} added you to the group "${g.name}".`, { group_id: g.id });
      return ok('Member added.');
    },
  ),
  def(
    'remove_member_from_group',
    { method: 'DELETE', description: 'Remove a member with no outstanding balance from a group.', params: [req.int('group_id'), req.str('user_email', { constraints: EMAIL })], response: MESSAGE },
    (ctx, a) => {
      const g = myGroup(ctx, Number(a.group_id));
      const u = splitwiseUser(ctx, str(a, 'user_email'));
      leaveGroup(ctx, g, u.id);
      return ok('Member removed.');
    },
  ),
  def('exit_group', { description: 'Leave a group where you have no outstanding balance.', params: [req.int('group_id')], response: MESSAGE }, (ctx, a) => {
    leaveGroup(ctx, myGroup(ctx, Number(a.group_id)), me(ctx));
    return ok('You left the group.');
  }),
  def(
    'regenerate_invitation_code',
    { method: 'PATCH', description: "Replace a group's invitation code; the old one stops working.", params: [req.int('group_id')], response: { message: 'string', invitation_code: 'string' } },
    (ctx, a) => {
      const g = myGroup(ctx, Number(a.group_id));
      const code = invitationCode(g.id, `${g.invitation_code}:${ctx.now}`);
      ctx.db.prepare('UPDATE splitwise_groups SET invitation_code = ? WHERE id = ?').run(code, g.id);
      return ok('Invitation code regenerated.', { invitation_code: code });
    },
  ),
  def('accept_group_invitation', { description: 'Join a group with its invitation code.', params: [req.str('invitation_code')], response: MESSAGE }, (ctx, a) => {
    const g = groupRows.one(ctx, 'WHERE invitation_code = ?', str(a, 'invitation_code'));
    if (!g || g.deleted === 1) throw new ApiError(422, 'The invitation code is invalid.');
    if (isMember(ctx, g.id, me(ctx))) throw new ApiError(422, 'You are already a member of this group.');
    ctx.db.prepare('INSERT INTO splitwise_group_members (group_id, user_id, created_at) VALUES (?, ?, ?)').run(g.id, me(ctx), ctx.now);
    return ok('You joined the group.');
  }),

  // Expenses.
];
