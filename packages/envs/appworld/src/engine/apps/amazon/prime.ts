// amazon prime: plans, subscribing with a card, the subscription history and receipts.
import { AMAZON_PRICING } from '../../../world/amazon.js';
import { declarer, me, notFound, ok, optBool, optStr, str } from '../../define.js';
import { pageOf } from '../../listing.js';
import { PAGING, req } from '../../params.js';
import { row } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { DOWNLOAD_PARAMS, downloadToFileSystem } from '../file_system.js';
import { ownCard, primeSubscriptions } from './tables.js';
import { FILE_PATH, withId } from './views.js';

const def = declarer('amazon');

export const primeApis: ApiDef[] = [
  def('show_prime_plans', { auth: false, description: 'Show the prime plans and their prices. Prime members pay no delivery fee.', response: { monthly: 1, yearly: 1 } }, () => ({
    ...AMAZON_PRICING.primePlans,
  })),
  def(
    'subscribe_prime',
    {
      description: 'Subscribe to prime membership.',
      params: [req.int('payment_card_id'), req.str('duration', { constraints: [{ kind: 'enum', values: ['monthly', 'yearly'] }] })],
      response: withId('prime_subscription_id'),
    },
    (ctx, a) => {
      const card = ownCard(ctx, Number(a.payment_card_id), true);
      // A new subscription starts when the current one ends, so renewing early never loses days.
      const last = row<{ end: string | null }>(ctx, 'SELECT max(end_date) AS end FROM amazon_prime_subscriptions WHERE user_id = ?', me(ctx))!;
      const start = last.end && last.end > ctx.now ? last.end : ctx.now;
      const d = new Date(start + 'Z');
      if (a.duration === 'yearly') d.setUTCFullYear(d.getUTCFullYear() + 1);
      else d.setUTCMonth(d.getUTCMonth() + 1);
      const paid = AMAZON_PRICING.primePlans[a.duration as 'monthly' | 'yearly'];
      const r = ctx.db
        .prepare('INSERT INTO amazon_prime_subscriptions (user_id, payment_card_id, payment_card_digits, start_date, end_date, paid_amount) VALUES (?, ?, ?, ?, ?, ?)')
        .run(me(ctx), card.id, card.card_number.slice(-4), start, d.toISOString().slice(0, 19), paid);
      return ok('Subscribed to prime.', { prime_subscription_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'show_prime_subscriptions',
    {
      description: 'Show your prime subscription history.',
      params: [...PAGING],
      response: [{ prime_subscription_id: 1, start_date: '2019-01-01T00:00:00', end_date: '2019-01-01T00:00:00', payment_card_digits: 'string', paid_amount: 0.0 }],
    },
    (ctx, a) => {
      const rows = primeSubscriptions.all(ctx, 'WHERE user_id = ? ORDER BY start_date DESC, id DESC', me(ctx));
      return pageOf(
        rows.map((s) => ({ prime_subscription_id: s.id, start_date: s.start_date, end_date: s.end_date, payment_card_digits: s.payment_card_digits, paid_amount: s.paid_amount })),
        a,
        [],
      );
    },
  ),
  def(
    'download_prime_subscription_receipt',
    { description: 'Download the receipt of a prime subscription into your file system.', params: [req.int('prime_subscription_id'), ...DOWNLOAD_PARAMS], response: FILE_PATH },
    (ctx, a) => {
      const p = primeSubscriptions.byId(ctx, a.prime_subscription_id);
      if (!p) notFound('prime subscription');
      if (p.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this prime subscription.');
      const text = `Amazon prime receipt\nSubscription ID: ${p.id}\nFrom: ${p.start_date}\nTo: ${p.end_date}\nPaid: $${p.paid_amount}\nCard ending: ${p.payment_card_digits}\n`;
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), `amazon_prime_subscription_${p.id}.txt`, text, optBool(a, 'overwrite') === true),
      });
    },
  ),
];
