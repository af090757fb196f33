// venmo's answers: AppWorld's transaction, request, transfer, notification and comment views and response shapes.
import { opt } from '../../params.js';
import type { ApiContext, Json } from '../../types.js';
import { userById, type UserRow } from '../shared/accounts.js';
import type { NotificationRow } from '../shared/rows.js';
import { cardDigits, commentCount, type CommentRow, type RequestRow, type TransferRow, type TxRow } from './tables.js';

export const round2 = (x: number) => Math.round(x * 100) / 100;
export const personOf = (u: UserRow | undefined): Json => (u ? { name: `${u.first_name} ${u.last_name}`, email: u.email } : null);
/** The card's last four digits, or null when paid from the balance (AppWorld shows digits, never the card id). */
export const txView = (ctx: ApiContext, t: TxRow) => ({
  transaction_id: t.id,
  amount: t.amount,
  description: t.description,
  created_at: t.created_at,
  updated_at: t.updated_at ?? t.created_at,
  private: t.private === 1,
  like_count: t.like_count,
  comment_count: commentCount(ctx, t.id),
  payment_card_digits: cardDigits(ctx, t.payment_card_id),
  sender: personOf(userById(ctx, t.sender_id)),
  receiver: personOf(userById(ctx, t.receiver_id)),
});
export const requestStatus = (r: RequestRow) => (r.approved_at ? 'approved' : r.denied_at ? 'denied' : 'pending');
export const requestView = (ctx: ApiContext, r: RequestRow) => ({
  payment_request_id: r.id,
  amount: r.amount,
  description: r.description,
  created_at: r.created_at,
  updated_at: r.approved_at ?? r.denied_at ?? r.created_at,
  approved_at: r.approved_at,
  denied_at: r.denied_at,
  private: r.private === 1,
  sender: personOf(userById(ctx, r.sender_id)),
  receiver: personOf(userById(ctx, r.receiver_id)),
});
export const transferView = (t: TransferRow) => ({ bank_transfer_id: t.id, transfer_type: t.transfer_type, amount: t.amount, payment_card_digits: t.payment_card_digits, created_at: t.created_at });
export const notificationView = (n: NotificationRow) => ({
  notification_id: n.id,
  type: n.type,
  title: n.title,
  message: n.message,
  read: n.read === 1,
  created_at: n.created_at,
  data: JSON.parse(n.data) as Json,
});
export const nameOf = (ctx: ApiContext, id: number) => {
  const u = userById(ctx, id);
  return u ? `${u.first_name} ${u.last_name}` : 'Someone';
};
/** Venmo tells a user about money and requests that concern them. */
export const commentView = (ctx: ApiContext, c: CommentRow) => ({
  transaction_id: c.transaction_id,
  comment: c.comment,
  created_at: c.created_at,
  like_count: c.like_count,
  comment_id: c.id,
  user: personOf(userById(ctx, c.user_id)),
});
/** AppWorld's `value > 0.0`. */
export const AMOUNT = { constraints: [{ kind: 'exclusiveMin' as const, value: 0 }] };
export const TX_SORT = ['amount', 'created_at', 'like_count'];
export const REQUEST_STATUS = opt.str('status', { constraints: [{ kind: 'enum', values: ['pending', 'approved', 'denied'] }] });

export const USER_RESPONSE = { first_name: 'string', last_name: 'string', email: 'user@example.com', registered_at: '2019-01-01T00:00:00', friends_since: '2019-01-01T00:00:00' };
export const TRANSACTION_RESPONSE = {
  transaction_id: 1,
  amount: 0.0,
  description: 'string',
  created_at: '2019-01-01T00:00:00',
  updated_at: '2019-01-01T00:00:00',
  private: true,
  like_count: 1,
  payment_card_digits: 'string',
  comment_count: 1,
  sender: { name: 'string', email: 'user@example.com' },
  receiver: { name: 'string', email: 'user@example.com' },
};
export const TRANSACTION_COMMENT_RESPONSE = {
  transaction_id: 1,
  comment: 'string',
  created_at: '2019-01-01T00:00:00',
  like_count: 1,
  comment_id: 1,
  user: { name: 'string', email: 'user@example.com' },
};
export const PAYMENT_REQUEST_RESPONSE = {
  payment_request_id: 1,
  amount: 0.0,
  description: 'string',
  created_at: '2019-01-01T00:00:00',
  updated_at: '2019-01-01T00:00:00',
  approved_at: '2019-01-01T00:00:00',
  denied_at: '2019-01-01T00:00:00',
  private: true,
  sender: { name: 'string', email: 'user@example.com' },
  receiver: { name: 'string', email: 'user@example.com' },
};
export function num2(v: Json | undefined): number {
  return round2(Number(v));
}
