// splitwise's balances are never stored: they are derived from the non-deleted expenses and payments
// (debt edges, per pair and per group, `null` for outside groups).
import { rows } from '../../tables.js';
import type { ApiContext } from '../../types.js';
import { round2 } from './views.js';

export function debtEdges(ctx: ApiContext, userId: number): { group_id: number | null; from: number; to: number; amount: number }[] {
  const edges: { group_id: number | null; from: number; to: number; amount: number }[] = [];
  const debts = rows<{ group_id: number | null; debtor_id: number; payer_id: number; debt_amount: number }>(
    ctx,
    `SELECT e.group_id, s.debtor_id, e.payer_id, s.debt_amount FROM splitwise_expense_shares s JOIN splitwise_expenses e ON e.id = s.expense_id
    WHERE e.deleted = 0 AND s.debtor_id != e.payer_id AND (e.group_id IN (SELECT group_id FROM splitwise_group_members WHERE user_id = ?) OR s.debtor_id = ? OR e.payer_id = ?)`,
    userId,
    userId,
    userId,
  );
  for (const s of debts) edges.push({ group_id: s.group_id, from: s.debtor_id, to: s.payer_id, amount: s.debt_amount });
  const pays = rows<{ group_id: number | null; payer_id: number; receiver_id: number; amount: number }>(
    ctx,
    `SELECT group_id, payer_id, receiver_id, amount FROM splitwise_payments
    WHERE deleted = 0 AND (group_id IN (SELECT group_id FROM splitwise_group_members WHERE user_id = ?) OR payer_id = ? OR receiver_id = ?)`,
    userId,
    userId,
    userId,
  );
  for (const p of pays) edges.push({ group_id: p.group_id, from: p.receiver_id, to: p.payer_id, amount: p.amount });
  return edges;
}

/** Net amount `a` owes `b` (negative: `b` owes `a`), per group key (`null` = no group). */
export function netBetween(ctx: ApiContext, a: number, b: number): Map<number | null, number> {
  const out = new Map<number | null, number>();
  for (const e of debtEdges(ctx, a)) {
    const sign = e.from === a && e.to === b ? 1 : e.from === b && e.to === a ? -1 : 0;
    if (sign !== 0) out.set(e.group_id, round2((out.get(e.group_id) ?? 0) + sign * e.amount));
  }
  return out;
}

/** Net pairwise debts within one group (or among non-group records of `viewer`): key `from:to` → amount > 0. */
export function pairwiseNet(ctx: ApiContext, viewer: number, groupId: number | null): Map<string, number> {
  const raw = new Map<string, number>();
  for (const e of debtEdges(ctx, viewer)) {
    if (e.group_id !== groupId) continue;
    if (groupId === null && e.from !== viewer && e.to !== viewer) continue;
    const [lo, hi] = e.from < e.to ? [e.from, e.to] : [e.to, e.from];
    const key = `${lo}:${hi}`;
    raw.set(key, (raw.get(key) ?? 0) + (e.from === lo ? e.amount : -e.amount));
  }
  const out = new Map<string, number>();
  for (const [key, v] of raw) {
    const [lo, hi] = key.split(':');
    const amount = round2(v);
    if (amount > 0) out.set(`${lo}:${hi}`, amount);
    else if (amount < 0) out.set(`${hi}:${lo}`, -amount);
  }
  return out;
}

export const direction = (youOwe: number) => (youOwe > 0 ? 'you_owe_them' : youOwe < 0 ? 'they_owe_you' : 'settled');
