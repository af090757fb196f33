// spotify premium: plans, subscribing with a payment card, receipts and the subscription history.
import { declarer, me, notFound, ok, optBool, optStr, str } from '../../define.js';
import { pageOf } from '../../listing.js';
import { PAGING, req } from '../../params.js';
import { exists, row, rows } from '../../tables.js';
import { ApiError, type ApiContext, type ApiDef, type Json } from '../../types.js';
import { DOWNLOAD_PARAMS, downloadToFileSystem } from '../file_system.js';
import type { CardRow } from '../shared/rows.js';
import { premiumSubscriptions } from './tables.js';

const def = declarer('spotify');

/** Premium prices in dollars (this world's, not AppWorld's data). */
export const PREMIUM_PRICES = { monthly: 10, yearly: 100 } as const;

/** Whether the user's premium subscription covers today (show_account's is_premium). */
export const isPremium = (ctx: ApiContext, userId: number): boolean =>
  exists(ctx, 'SELECT 1 FROM spotify_premium_subscriptions WHERE user_id = ? AND substr(start_date, 1, 10) <= ? AND substr(end_date, 1, 10) >= ?', userId, ctx.now.slice(0, 10), ctx.now.slice(0, 10));

export const premiumApis: ApiDef[] = [
  def('show_premium_plans', { response: { monthly: 1, yearly: 1 }, auth: false, description: 'Show information about premium plans available.' }, () => ({ ...PREMIUM_PRICES })),
  def(
    'subscribe_premium',
    {
      description: 'Subscribe to premium membership.',
      params: [req.int('payment_card_id'), req.str('duration', { constraints: [{ kind: 'enum', values: ['monthly', 'yearly'] }] })],
      response: { message: 'string', premium_subscription_id: 1 },
    },
    (ctx, a) => {
      const card = row<Pick<CardRow, 'id' | 'user_id' | 'card_number' | 'expiry_year' | 'expiry_month'>>(
        ctx,
        'SELECT id, user_id, card_number, expiry_year, expiry_month FROM spotify_payment_cards WHERE id = ?',
        a.payment_card_id,
      );
      if (!card) notFound('payment card');
      if (card.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to use this payment card.');
      if (card.expiry_year * 12 + card.expiry_month < Number(ctx.now.slice(0, 4)) * 12 + Number(ctx.now.slice(5, 7))) throw new ApiError(422, 'The payment card has expired.');
      // A new subscription starts when the current one ends, so renewing early never loses days.
      const last = row<{ end: string | null }>(ctx, 'SELECT max(end_date) AS end FROM spotify_premium_subscriptions WHERE user_id = ?', me(ctx))!;
      const start = last.end && last.end > ctx.now ? last.end : ctx.now;
      const d = new Date(start + 'Z');
      if (a.duration === 'yearly') d.setUTCFullYear(d.getUTCFullYear() + 1);
      else d.setUTCMonth(d.getUTCMonth() + 1);
      const end = d.toISOString().slice(0, 19);
      const paid = PREMIUM_PRICES[a.duration as 'monthly' | 'yearly'];
      const r = ctx.db
        .prepare('INSERT INTO spotify_premium_subscriptions (user_id, payment_card_id, payment_card_digits, start_date, end_date, paid_amount) VALUES (?, ?, ?, ?, ?, ?)')
        .run(me(ctx), card.id, card.card_number.slice(-4), start, end, paid);
      return ok('Subscribed to premium.', { premium_subscription_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'download_premium_subscription_receipt',
    {
      description: 'Download the receipt for a premium subscription into your file system.',
      params: [req.int('premium_subscription_id'), ...DOWNLOAD_PARAMS],
      response: { message: 'string', file_path: 'string' },
    },
    (ctx, a) => {
      const p = premiumSubscriptions.byId(ctx, a.premium_subscription_id);
      if (!p) notFound('premium subscription');
      if (p.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this premium subscription.');
      const text = `Spotify premium receipt\nSubscription ID: ${p.id}\nFrom: ${p.start_date}\nTo: ${p.end_date}\nPaid: $${p.paid_amount}\nCard ending: ${p.payment_card_digits}\n`;
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), `spotify_premium_${p.id}.txt`, text, optBool(a, 'overwrite') === true),
      });
    },
  ),
  def(
    'show_premium_subscriptions',
    {
      response: [{ premium_subscription_id: 1, start_date: '2019-01-01T00:00:00', end_date: '2019-01-01T00:00:00', payment_card_digits: 'string', paid_amount: 0.0 }],
      description: 'Show your premium subscription history.',
      params: [...PAGING],
    },
    (ctx, a) => {
      const history = rows<{ [k: string]: Json }>(
        ctx,
        'SELECT id AS premium_subscription_id, start_date, end_date, payment_card_digits, paid_amount FROM spotify_premium_subscriptions WHERE user_id = ? ORDER BY id',
        me(ctx),
      );
      return pageOf(history, a, []);
    },
  ),
];
