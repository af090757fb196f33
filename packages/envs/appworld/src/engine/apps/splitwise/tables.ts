// splitwise's tables: the row types (declared once), typed reads over them, and the lookups the APIs
// share (a user with a splitwise account, a group the caller belongs to, an expense or payment they take part in).
import { me, notFound } from '../../define.js';
import { rows, table } from '../../tables.js';
import { ApiError, type ApiContext } from '../../types.js';
import { userByEmail, type UserRow } from '../shared/accounts.js';

export interface GroupRow {
  id: number;
  name: string;
  description: string | null;
  creator_id: number;
  invitation_code: string;
  deleted: number;
  created_at: string;
}
export interface ExpenseRow {
  id: number;
  group_id: number | null;
  creator_id: number;
  payer_id: number;
  description: string;
  paid_amount: number;
  receipt_file_name: string | null;
  receipt_content: string | null;
  deleted: number;
  created_at: string;
}
export interface ShareRow {
  id: number;
  expense_id: number;
  debtor_id: number;
  debt_amount: number;
}
export interface PaymentRow {
  id: number;
  group_id: number | null;
  creator_id: number;
  payer_id: number;
  receiver_id: number;
  amount: number;
  description: string;
  receipt_file_name: string | null;
  receipt_content: string | null;
  deleted: number;
  created_at: string;
}
export interface CommentRow {
  id: number;
  user_id: number;
  comment: string;
  created_at: string;
  expense_id?: number;
  payment_id?: number;
}

export function splitwiseUser(ctx: ApiContext, email: string): UserRow {
  const u = userByEmail(ctx, email);
  if (!u || !ctx.db.prepare("SELECT 1 FROM accounts WHERE app = 'splitwise' AND user_id = ?").get(u.id)) throw new ApiError(422, `The user with email ${email} does not exist on Splitwise.`);
  return u;
}

// ---- groups ----
export const membersOf = (ctx: ApiContext, groupId: number) =>
  rows<{ user_id: number }>(ctx, 'SELECT user_id FROM splitwise_group_members WHERE group_id = ? ORDER BY id', groupId).map((r) => r.user_id);
export const isMember = (ctx: ApiContext, groupId: number, userId: number) =>
  ctx.db.prepare('SELECT 1 FROM splitwise_group_members WHERE group_id = ? AND user_id = ?').get(groupId, userId) !== undefined;
export function groupRow(ctx: ApiContext, id: number): GroupRow {
  const g = groupRows.byId(ctx, id);
  if (!g) notFound('group');
  return g;
}
/** A group the caller is a member of. */
export function myGroup(ctx: ApiContext, id: number): GroupRow {
  const g = groupRow(ctx, id);
  if (!isMember(ctx, g.id, me(ctx))) throw new ApiError(401, 'You are not a member of this group.');
  return g;
}
export const sharesOf = (ctx: ApiContext, expenseId: number) => shareRows.all(ctx, 'WHERE expense_id = ? ORDER BY id', expenseId);
export const expenseParties = (ctx: ApiContext, e: ExpenseRow) => new Set([e.creator_id, e.payer_id, ...sharesOf(ctx, e.id).map((s) => s.debtor_id)]);

/** An expense the caller may see and change: they take part in it, or belong to its group. */
export function myExpense(ctx: ApiContext, id: number): ExpenseRow {
  const e = expenseRows.byId(ctx, id);
  if (!e) notFound('expense');
  if (!expenseParties(ctx, e).has(me(ctx)) && !(e.group_id !== null && isMember(ctx, e.group_id, me(ctx)))) throw new ApiError(401, 'You are not authorized to access this expense.');
  return e;
}
export function myPayment(ctx: ApiContext, id: number): PaymentRow {
  const p = paymentRows.byId(ctx, id);
  if (!p) notFound('payment');
  const self = me(ctx);
  if (![p.creator_id, p.payer_id, p.receiver_id].includes(self) && !(p.group_id !== null && isMember(ctx, p.group_id, self))) throw new ApiError(401, 'You are not authorized to access this payment.');
  return p;
}

/**
 * Every non-deleted debt edge among the given records: a debtor's share of an expense is owed to
 * its payer; a payment reduces what the payer owes the receiver (the receiver now "owes" it back).
 */

export const groupRows = table<GroupRow>('splitwise_groups');
export const expenseRows = table<ExpenseRow>('splitwise_expenses');
export const paymentRows = table<PaymentRow>('splitwise_payments');
export const shareRows = table<ShareRow>('splitwise_expense_shares');
/** The comments on expenses or on payments. */
export const commentRows = (kind: 'expense' | 'payment') => table<CommentRow>(`splitwise_${kind}_comments`);
