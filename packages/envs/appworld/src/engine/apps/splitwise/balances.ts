// splitwise's balance APIs: per person, per people, per group, all groups; settling up records the payment that clears a pair.
import { declarer, me, ok, optNum, optStr, str } from '../../define.js';
import { EMAIL, opt, req } from '../../params.js';
import { ids } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { isMember, membersOf, myGroup, splitwiseUser } from './tables.js';
import { fullName, groupName, MESSAGE, person, PERSON, round2, SIDE } from './views.js';
import { debtEdges, direction, netBetween, pairwiseNet } from './balance-math.js';
import { recordPayment, requireGroupMembers } from './writes.js';

const def = declarer('splitwise');

export const balanceApis: ApiDef[] = [
  def(
    'show_person_balance',
    {
      description: 'What you and one person owe each other, per group (no group: group_id null).',
      params: [req.str('email', { constraints: EMAIL })],
      response: { direction: 'you_owe_them', total: 0.0, breakdown: [{ group_id: 1, group_name: 'string', direction: 'you_owe_them', amount: 0.0 }] },
    },
    (ctx, a) => {
      const other = splitwiseUser(ctx, str(a, 'email'));
      const net = netBetween(ctx, me(ctx), other.id);
      const breakdown = [...net].filter(([, v]) => v !== 0).map(([g, v]) => ({ group_id: g, group_name: groupName(ctx, g), direction: direction(v), amount: Math.abs(v) }));
      const total = round2([...net.values()].reduce((s, x) => s + x, 0));
      return { direction: direction(total), total: Math.abs(total), breakdown };
    },
  ),
  def(
    'show_people_balance',
    {
      description: 'What you owe each person and they owe you, over all groups.',
      response: { you_owe_others: 0.0, others_owe_you: 0.0, breakdown: [{ email: 'user@example.com', name: 'string', direction: 'you_owe_them', amount: 0.0 }] },
    },
    (ctx) => {
      const self = me(ctx);
      const byPerson = new Map<number, number>();
      for (const e of debtEdges(ctx, self)) {
        if (e.from === self) byPerson.set(e.to, (byPerson.get(e.to) ?? 0) + e.amount);
        else if (e.to === self) byPerson.set(e.from, (byPerson.get(e.from) ?? 0) - e.amount);
      }
      const rows = [...byPerson]
        .map(([id, v]) => [id, round2(v)] as const)
        .filter(([, v]) => v !== 0)
        .sort((x, y) => x[0] - y[0]);
      return {
        you_owe_others: round2(rows.reduce((s, [, v]) => s + Math.max(v, 0), 0)),
        others_owe_you: round2(rows.reduce((s, [, v]) => s + Math.max(-v, 0), 0)),
        breakdown: rows.map(([id, v]) => {
          const u = userById(ctx, id)!;
          return { email: u.email, name: fullName(u), direction: direction(v), amount: Math.abs(v) };
        }),
      };
    },
  ),
  def(
    'show_group_balance',
    {
      description: 'Who owes whom in a group; without group_id, your balances outside groups.',
      params: [opt.int('group_id'), opt.str('email', { constraints: EMAIL })],
      response: [{ source: PERSON, source_owes_to_targets: SIDE, targets_owe_to_source: SIDE }],
    },
    (ctx, a) => {
      const self = me(ctx);
      const groupId = optNum(a, 'group_id');
      let sources: number[];
      if (groupId === null) {
        if (optStr(a, 'email') !== null && splitwiseUser(ctx, str(a, 'email')).id !== self) throw new ApiError(422, 'Without a group_id, email can only be your own email.');
        sources = [self];
      } else {
        const g = myGroup(ctx, groupId);
        sources = optStr(a, 'email') === null ? membersOf(ctx, g.id) : [splitwiseUser(ctx, str(a, 'email')).id];
        if (!sources.every((s) => isMember(ctx, g.id, s))) throw new ApiError(422, 'The user is not a member of this group.');
      }
      const net = pairwiseNet(ctx, self, groupId);
      const side = (entries: [number, number][]) => ({
        total: round2(entries.reduce((s, [, v]) => s + v, 0)),
        breakdown: entries.map(([id, amount]) => {
          const u = userById(ctx, id)!;
          return { email: u.email, name: fullName(u), amount };
        }),
      });
      return sources.map((src) => {
        const owes: [number, number][] = [];
        const owed: [number, number][] = [];
        for (const [key, v] of net) {
          const [from, to] = key.split(':').map(Number) as [number, number];
          if (from === src) owes.push([to, v]);
          if (to === src) owed.push([from, v]);
        }
        return { source: person(ctx, src), source_owes_to_targets: side(owes), targets_owe_to_source: side(owed) };
      });
    },
  ),
  def(
    'show_groups_balance',
    {
      description: 'What you owe and are owed in each of your groups (no group: group_id null).',
      response: { you_owe_others: 0.0, others_owe_you: 0.0, breakdown: [{ group_id: 1, group_name: 'string', you_owe_others: 0.0, others_owe_you: 0.0 }] },
    },
    (ctx) => {
      const self = me(ctx);
      const groups: (number | null)[] = [
        ...ids(ctx, 'SELECT g.id FROM splitwise_groups g JOIN splitwise_group_members m ON m.group_id = g.id WHERE m.user_id = ? AND g.deleted = 0 ORDER BY g.id', self),
        null,
      ];
      const breakdown = groups.map((g) => {
        let owe = 0;
        let owed = 0;
        for (const [key, v] of pairwiseNet(ctx, self, g)) {
          const [from, to] = key.split(':').map(Number);
          if (from === self) owe += v;
          if (to === self) owed += v;
        }
        return { group_id: g, group_name: groupName(ctx, g), you_owe_others: round2(owe), others_owe_you: round2(owed) };
      });
      return { you_owe_others: round2(breakdown.reduce((s, b) => s + b.you_owe_others, 0)), others_owe_you: round2(breakdown.reduce((s, b) => s + b.others_owe_you, 0)), breakdown };
    },
  ),
  def(
    'settle_up',
    {
      description: 'Record the payment that clears your balance with someone in a group (or outside groups).',
      params: [opt.int('group_id'), req.str('email', { constraints: EMAIL }), opt.str('description', { default: 'Settle up balance.' })],
      response: MESSAGE,
    },
    (ctx, a) => {
      const self = me(ctx);
      const other = splitwiseUser(ctx, str(a, 'email'));
      const groupId = optNum(a, 'group_id');
      if (groupId !== null) requireGroupMembers(ctx, groupId, [self, other.id]);
      const owe = netBetween(ctx, self, other.id).get(groupId) ?? 0;
      if (owe === 0) throw new ApiError(422, 'There is no outstanding balance to settle with this user.');
      const [payer, receiver] = owe > 0 ? [self, other.id] : [other.id, self];
      recordPayment(ctx, groupId, payer, receiver, Math.abs(owe), str(a, 'description') || 'Settle up balance.');
      return ok('Balance settled.');
    },
  ),
];
