// splitwise's answers: AppWorld's group, expense and payment views and the response shapes api_docs shows.
import { row } from '../../tables.js';
import type { ApiContext, Json } from '../../types.js';
import { userById, type UserRow } from '../shared/accounts.js';
import { membersOf, sharesOf, type ExpenseRow, type GroupRow, type PaymentRow } from './tables.js';

export const round2 = (x: number) => Math.round(x * 100) / 100;

// Response shapes as AppWorld's API docs show them.
export const MESSAGE = { message: 'string' };
export const PERSON = { name: 'string', email: 'user@example.com' };
export const GROUP = { group_id: 1, name: 'string', description: 'string', created_at: '2019-01-01T00:00:00', deleted: true, creator: PERSON, members: [PERSON], invitation_code: 'string' };
export const EXPENSE = {
  expense_id: 1,
  group_id: 1,
  description: 'string',
  deleted: true,
  receipt_file_name: 'string',
  created_at: '2019-01-01T00:00:00',
  shares: [{ debtor: PERSON, debt_amount: 0.0 }],
  creator: PERSON,
  payer: PERSON,
  paid_amount: 0.0,
};
export const PAYMENT = {
  payment_id: 1,
  group_id: 1,
  description: 'string',
  deleted: true,
  receipt_file_name: 'string',
  created_at: '2019-01-01T00:00:00',
  creator: PERSON,
  payer: PERSON,
  receiver: PERSON,
  paid_amount: 0.0,
};
export const EXPENSE_COMMENT = { expense_comment_id: 1, expense_id: 1, comment: 'string', created_at: '2019-01-01T00:00:00', user: PERSON };
export const PAYMENT_COMMENT = { payment_comment_id: 1, payment_id: 1, comment: 'string', created_at: '2019-01-01T00:00:00', user: PERSON };
export const SIDE = { total: 0.0, breakdown: [{ email: 'user@example.com', name: 'string', amount: 0.0 }] };
export const fullName = (u: UserRow) => `${u.first_name} ${u.last_name}`;
export function person(ctx: ApiContext, id: number): Json {
  const u = userById(ctx, id);
  return u ? { name: fullName(u), email: u.email } : null;
}

/** A person with a Splitwise account, by email. */
export const groupView = (ctx: ApiContext, g: GroupRow) => ({
  group_id: g.id,
  name: g.name,
  description: g.description,
  created_at: g.created_at,
  deleted: g.deleted === 1,
  creator: person(ctx, g.creator_id),
  members: membersOf(ctx, g.id).map((m) => person(ctx, m)),
  invitation_code: g.invitation_code,
});
export const groupName = (ctx: ApiContext, id: number | null) => (id === null ? null : (row<{ name: string }>(ctx, 'SELECT name FROM splitwise_groups WHERE id = ?', id)?.name ?? null));

export const expenseView = (ctx: ApiContext, e: ExpenseRow) => ({
  expense_id: e.id,
  group_id: e.group_id,
  description: e.description,
  deleted: e.deleted === 1,
  receipt_file_name: e.receipt_file_name,
  created_at: e.created_at,
  shares: sharesOf(ctx, e.id).map((s) => ({ debtor: person(ctx, s.debtor_id), debt_amount: s.debt_amount })),
  creator: person(ctx, e.creator_id),
  payer: person(ctx, e.payer_id),
  paid_amount: e.paid_amount,
});
export const paymentView = (ctx: ApiContext, p: PaymentRow) => ({
  payment_id: p.id,
  group_id: p.group_id,
  description: p.description,
  deleted: p.deleted === 1,
  receipt_file_name: p.receipt_file_name,
  created_at: p.created_at,
  creator: person(ctx, p.creator_id),
  payer: person(ctx, p.payer_id),
  receiver: person(ctx, p.receiver_id),
  paid_amount: p.amount,
});
