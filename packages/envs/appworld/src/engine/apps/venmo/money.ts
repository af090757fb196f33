// venmo's money moves: bank transfers, payments from the balance or a card, balance updates, notifications.
import { me } from '../../define.js';
import { ApiError, type ApiContext, type Json } from '../../types.js';
import type { CardRow } from '../shared/rows.js';
import { balanceOf, usableCard } from './tables.js';
import { nameOf, round2 } from './views.js';

export function recordTransfer(ctx: ApiContext, type: 'card_to_venmo' | 'venmo_to_card', amount: number, card: CardRow): number {
  return Number(
    ctx.db
      .prepare('INSERT INTO venmo_bank_transfers (user_id, transfer_type, amount, payment_card_digits, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(me(ctx), type, amount, card.card_number.slice(-4), ctx.now).lastInsertRowid,
  );
}
export function notify(ctx: ApiContext, userId: number, type: string, title: string, message: string, data: Record<string, Json>): void {
  ctx.db
    .prepare('INSERT INTO venmo_notifications (user_id, type, title, message, read, created_at, data) VALUES (?, ?, ?, ?, 0, ?, ?)')
    .run(userId, type, title, message, ctx.now, JSON.stringify(data));
}
/** Moves money from the caller to `receiver` from the balance or a card; returns the transaction id. */
export function pay(ctx: ApiContext, receiverId: number, amount: number, description: string, isPrivate: boolean, cardId: number | null): number {
  const self = me(ctx);
  if (receiverId === self) throw new ApiError(422, 'You cannot send money to yourself.');
  if (cardId === null) {
    if (balanceOf(ctx, self) < amount) throw new ApiError(422, 'Insufficient money in the Venmo balance.');
    addBalance(ctx, self, -amount);
  } else usableCard(ctx, cardId);
  addBalance(ctx, receiverId, amount);
  const r = ctx.db
    .prepare('INSERT INTO venmo_transactions (sender_id, receiver_id, amount, description, private, payment_card_id, like_count, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)')
    .run(self, receiverId, amount, description, isPrivate ? 1 : 0, cardId, ctx.now);
  const id = Number(r.lastInsertRowid);
  notify(ctx, receiverId, 'transaction_received', 'Money received', `${nameOf(ctx, self)} sent you $${amount}.`, { transaction_id: id });
  return id;
}

export const addBalance = (ctx: ApiContext, id: number, delta: number) => {
  if (ctx.db.prepare('UPDATE venmo_balances SET balance = round(balance + ?, 2) WHERE user_id = ?').run(delta, id).changes === 0)
    ctx.db.prepare('INSERT INTO venmo_balances (user_id, balance) VALUES (?, ?)').run(id, round2(delta));
};
