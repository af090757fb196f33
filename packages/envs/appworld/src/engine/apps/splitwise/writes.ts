// splitwise's write helpers: notifications, share resolution, membership checks, receipts, payments, leaving a group.
import { me, optStr, str } from '../../define.js';
import { opt, req } from '../../params.js';
import { ApiError, type ApiContext, type Args, type Json } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { readFromFileSystem } from '../file_system.js';
import { equalShares } from '../../../world/splitwise.js';
import { isMember, myGroup, splitwiseUser, type GroupRow } from './tables.js';
import { fullName, round2 } from './views.js';
import { pairwiseNet } from './balance-math.js';

// ---- writes ----
export function notify(ctx: ApiContext, userId: number, type: string, title: string, message: string, data: Record<string, Json>): void {
  if (userId === me(ctx)) return;
  ctx.db
    .prepare('INSERT INTO splitwise_notifications (user_id, type, title, message, read, created_at, data) VALUES (?, ?, ?, ?, 0, ?, ?)')
    .run(userId, type, title, message, ctx.now, JSON.stringify(data));
}
export const myName = (ctx: ApiContext) => fullName(userById(ctx, me(ctx))!);

export function positive(amount: number, what: string): number {
  if (!(amount > 0)) throw new ApiError(422, `The ${what} must be greater than 0.`);
  return round2(amount);
}

/** Debtors and their shares: given amounts (same length, summing to the total) or an equal split. */
export function resolveShares(ctx: ApiContext, total: number, emails: readonly string[], amounts: readonly number[] | null): { debtor: number; amount: number }[] {
  if (emails.length === 0) throw new ApiError(422, 'At least one debtor email is required.');
  const ids = emails.map((e) => splitwiseUser(ctx, e).id);
  if (new Set(ids).size !== ids.length) throw new ApiError(422, 'The debtor emails must be unique.');
  if (amounts === null) return equalShares(total, ids.length).map((amount, i) => ({ debtor: ids[i]!, amount }));
  if (amounts.length !== ids.length) throw new ApiError(422, 'The debt_amounts must have the same length as debtor_emails.');
  if (amounts.some((x) => x < 0)) throw new ApiError(422, 'The debt_amounts must not be negative.');
  if (Math.abs(amounts.reduce((s, x) => s + x, 0) - total) > 0.005) throw new ApiError(422, 'The debt_amounts must add up to the paid amount.');
  return amounts.map((amount, i) => ({ debtor: ids[i]!, amount: round2(amount) }));
}

export function requireGroupMembers(ctx: ApiContext, groupId: number | null, userIds: readonly number[]): void {
  if (groupId === null) return;
  const g = myGroup(ctx, groupId);
  if (g.deleted === 1) throw new ApiError(422, 'The group has been deleted.');
  const outsider = userIds.find((u) => !isMember(ctx, g.id, u));
  if (outsider !== undefined) throw new ApiError(422, `The user with email ${userById(ctx, outsider)!.email} is not a member of this group.`);
}

export function attachReceipt(ctx: ApiContext, table: 'splitwise_expenses' | 'splitwise_payments', id: number, a: Args, overwrite: boolean, existing: string | null): void {
  if (existing !== null && !overwrite) throw new ApiError(422, 'A receipt file is already attached. Pass overwrite=true to replace it.');
  const file = readFromFileSystem(ctx, optStr(a, 'file_system_access_token'), str(a, 'receipt_file_path'));
  ctx.db.prepare(`UPDATE ${table} SET receipt_file_name = ?, receipt_content = ? WHERE id = ?`).run(file.name, file.content, id);
}

export const RECEIPT = req.str('receipt_file_path', { desc: 'Absolute path of the receipt in your file system.' });
export const FS_TOKEN = req.str('file_system_access_token', { desc: 'Access token from the file_system app login.' });
export const OPT_FS_TOKEN = opt.str('file_system_access_token', { desc: 'Access token from the file_system app login; needed with a receipt.' });
export const OVERWRITE = opt.bool('overwrite', { default: false });
export const DOWNLOAD_TO = opt.str('download_to_file_path', { desc: 'Where to save the file (absolute or ~/); defaults to ~/downloads/.' });

export function recordPayment(ctx: ApiContext, groupId: number | null, payer: number, receiver: number, amount: number, description: string): number {
  const id = Number(
    ctx.db
      .prepare(
        'INSERT INTO splitwise_payments (group_id, creator_id, payer_id, receiver_id, amount, description, receipt_file_name, receipt_content, deleted, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, 0, ?)',
      )
      .run(groupId, me(ctx), payer, receiver, amount, description, ctx.now).lastInsertRowid,
  );
  for (const u of [payer, receiver]) notify(ctx, u, 'payment_added', 'Payment recorded', `${myName(ctx)} recorded a payment of $${amount}.`, { payment_id: id });
  return id;
}

/** Removes a member whose balances in the group are all settled. */
export function leaveGroup(ctx: ApiContext, g: GroupRow, userId: number): void {
  if (!isMember(ctx, g.id, userId)) throw new ApiError(422, 'The user is not a member of this group.');
  for (const key of pairwiseNet(ctx, me(ctx), g.id).keys())
    if (key.split(':').map(Number).includes(userId)) throw new ApiError(422, 'The user has an outstanding balance in this group; settle up first.');
  ctx.db.prepare('DELETE FROM splitwise_group_members WHERE group_id = ? AND user_id = ?').run(g.id, userId);
}
