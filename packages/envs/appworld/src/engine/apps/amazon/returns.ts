// amazon's returns: list, show, deliverers, and initiating a return of delivered units.
import { createHash } from 'node:crypto';
import { declarer, me, notFound, ok, optNum } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req, sortBy } from '../../params.js';
import { rows } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { ownOrder, orderItemRows, returns } from './tables.js';
import { RETURN_RESPONSE, returnView, round2, withId } from './views.js';

const def = declarer('amazon');

export const returnApis: ApiDef[] = [
  def('show_returns', { description: 'Get a list of your product returns.', params: [opt.int('order_id'), ...PAGING, sortBy('-initiated_at')], response: [RETURN_RESPONSE] }, (ctx, a) => {
    const order = optNum(a, 'order_id');
    const rows = returns.all(ctx, 'WHERE user_id = ? ORDER BY id', me(ctx)).filter((r) => order === null || r.order_id === order);
    return pageOf(
      rows.map((r) => returnView(ctx, r)),
      { ...a, sort_by: typeof a.sort_by === 'string' && a.sort_by.trim() ? a.sort_by : '-initiated_at' },
      ['quantity', 'initiated_at', 'returned_at'],
    );
  }),
  def('show_return', { description: 'Show the status of a product return.', params: [req.int('return_id')], response: RETURN_RESPONSE }, (ctx, a) => {
    const r = returns.byId(ctx, a.return_id);
    if (!r) notFound('return');
    if (r.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this return.');
    return returnView(ctx, r);
  }),
  def('show_return_deliverers', { auth: false, description: 'Get the list of deliverers that pick up product returns.', response: [{ deliverer_id: 1, name: 'UPS' }] }, (ctx) =>
    rows<{ id: number; name: string }>(ctx, 'SELECT id, name FROM amazon_deliverers ORDER BY id').map((d) => ({ deliverer_id: d.id, name: d.name })),
  ),
  def(
    'initiate_return',
    {
      description: 'Start the return of delivered units of a product of an order.',
      params: [req.int('order_id'), req.int('product_id'), req.int('deliverer_id'), req.int('quantity', { constraints: [{ kind: 'min', value: 1 }] })],
      response: withId('return_id'),
    },
    (ctx, a) => {
      const o = ownOrder(ctx, Number(a.order_id));
      const item = orderItemRows.one(ctx, 'WHERE order_id = ? AND product_id = ?', o.id, a.product_id);
      if (!item) throw new ApiError(422, 'The product is not part of this order.');
      if (item.delivered_at === null) throw new ApiError(422, 'The product has not been delivered yet.');
      if (!ctx.db.prepare('SELECT 1 FROM amazon_deliverers WHERE id = ?').get(a.deliverer_id)) notFound('deliverer');
      const q = Number(a.quantity);
      const left = item.ordered_quantity - item.returned_quantity;
      if (q > left) throw new ApiError(422, `Only ${left} units of this product can still be returned.`);
      const code = createHash('sha256').update(`${o.id}:${item.product_id}:${item.returned_quantity}:${q}`).digest('hex').slice(0, 10).toUpperCase();
      const r = ctx.db
        .prepare(
          'INSERT INTO amazon_returns (user_id, order_id, product_id, quantity, deliverer_id, refund_amount, initiated_at, returned_at, confirmation_code) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)',
        )
        .run(me(ctx), o.id, item.product_id, q, Number(a.deliverer_id), round2(item.price * q), ctx.now, code);
      ctx.db.prepare('UPDATE amazon_order_items SET returned_quantity = returned_quantity + ? WHERE id = ?').run(q, item.id);
      return ok('Return initiated.', { return_id: Number(r.lastInsertRowid) });
    },
  ),
];
