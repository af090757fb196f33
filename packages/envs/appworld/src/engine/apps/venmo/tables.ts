// venmo's tables: the row types (declared once; cards and notifications are the shared rows), typed
// reads, and the lookups the APIs share (a visible transaction or comment, the caller's own request, card, notification).
import { me, notFound } from '../../define.js';
import { count, row, table } from '../../tables.js';
import { ApiError, type ApiContext } from '../../types.js';
import { userByEmail, type UserRow } from '../shared/accounts.js';
import { notificationTable, type CardRow, type NotificationRow } from '../shared/rows.js';

export interface TxRow {
  id: number;
  sender_id: number;
  receiver_id: number;
  amount: number;
  description: string;
  private: number;
  payment_card_id: number | null;
  like_count: number;
  created_at: string;
  updated_at?: string | null;
}
export interface RequestRow {
  id: number;
  sender_id: number;
  receiver_id: number;
  amount: number;
  description: string;
  private: number;
  created_at: string;
  approved_at: string | null;
  denied_at: string | null;
}
export interface TransferRow {
  id: number;
  user_id: number;
  transfer_type: string;
  amount: number;
  payment_card_digits: string;
  created_at: string;
}
export interface CommentRow {
  id: number;
  transaction_id: number;
  user_id: number;
  comment: string;
  like_count: number;
  created_at: string;
  updated_at: string;
}
export const cardDigits = (ctx: ApiContext, id: number | null) =>
  id === null ? null : (row<{ card_number: string }>(ctx, 'SELECT card_number FROM venmo_payment_cards WHERE id = ?', id)?.card_number.slice(-4) ?? null);
export const commentCount = (ctx: ApiContext, id: number) => count(ctx, 'SELECT count(*) AS n FROM venmo_comments WHERE transaction_id = ?', id);
export function ownNotification(ctx: ApiContext, id: number): NotificationRow {
  const n = notifications.byId(ctx, id);
  if (!n) notFound('notification');
  if (n.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this notification.');
  return n;
}

/** A transaction the caller may see: public, or private with the caller as a party. */
export function visibleTx(ctx: ApiContext, id: number): TxRow {
  const t = transactionRows.byId(ctx, id);
  if (!t) notFound('transaction');
  if (t.private === 1 && t.sender_id !== me(ctx) && t.receiver_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this transaction.');
  return t;
}

export function visibleComment(ctx: ApiContext, id: number): CommentRow {
  const c = commentRows.byId(ctx, id);
  if (!c) notFound('comment');
  visibleTx(ctx, c.transaction_id);
  return c;
}
export function ownComment(ctx: ApiContext, id: number): CommentRow {
  const c = visibleComment(ctx, id);
  if (c.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to modify this comment.');
  return c;
}

export function venmoUser(ctx: ApiContext, email: string): UserRow {
  const u = userByEmail(ctx, email);
  if (!u || !ctx.db.prepare("SELECT 1 FROM accounts WHERE app = 'venmo' AND user_id = ?").get(u.id)) throw new ApiError(422, 'The user with this email does not exist on Venmo.');
  return u;
}
/** When the caller and `id` became Venmo friends, or null. */
export const friendsSince = (ctx: ApiContext, id: number): string | null =>
  row<{ created_at: string }>(ctx, 'SELECT created_at FROM venmo_friends WHERE user_id = ? AND friend_id = ?', me(ctx), id)?.created_at ?? null;
export const balanceOf = (ctx: ApiContext, id: number) => row<{ balance: number }>(ctx, 'SELECT balance FROM venmo_balances WHERE user_id = ?', id)?.balance ?? 0;

export function usableCard(ctx: ApiContext, cardId: number): CardRow {
  const c = cards.byId(ctx, cardId);
  if (!c || c.user_id !== me(ctx)) throw new ApiError(422, 'The payment card does not exist.');
  const [y, m] = [Number(ctx.now.slice(0, 4)), Number(ctx.now.slice(5, 7))];
  if (c.expiry_year < y || (c.expiry_year === y && c.expiry_month < m)) throw new ApiError(422, 'The payment card has expired.');
  return c;
}
export function ownRequest(ctx: ApiContext, id: number, side: 'sender_id' | 'receiver_id'): RequestRow {
  const r = requestRows.byId(ctx, id);
  if (!r) notFound('payment request');
  if (r[side] !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this payment request.');
  return r;
}

export const transactionRows = table<TxRow>('venmo_transactions');
export const requestRows = table<RequestRow>('venmo_payment_requests');
export const transferRows = table<TransferRow>('venmo_bank_transfers');
export const commentRows = table<CommentRow>('venmo_comments');
export const notifications = notificationTable('venmo');
const cards = table<CardRow>('venmo_payment_cards');
