// amazon's orders: history and search, placing an order from the cart, receipts.
import { declarer, me, ok, optBool, optStr, str } from '../../define.js';
import { opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage as listing } from '../../ranked.js';
import { ApiError, type ApiDef } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { DOWNLOAD_PARAMS, downloadToFileSystem } from '../file_system.js';
import { orderItems, orders, ownAddress, ownCard, ownOrder, product } from './tables.js';
import { cartView, FILE_PATH, ORDER_RESPONSE, orderView, withId } from './views.js';

const def = declarer('amazon');

function addDays(iso: string, days: number): string {
  return new Date(Date.parse(iso + 'Z') + days * 86_400_000).toISOString().slice(0, 19);
}

export const orderApis: ApiDef[] = [
  def('show_orders', { description: 'Show or search your past orders.', params: [opt.str('query', { default: '' }), ...PAGING, sortBy(null)], response: [ORDER_RESPONSE] }, (ctx, a) => {
    const mine = orders.all(ctx, 'WHERE user_id = ? ORDER BY id', me(ctx));
    const names = ctx.db.prepare<[number], { name: string; product_type: string }>(
      'SELECT p.name, p.product_type FROM amazon_order_items i JOIN amazon_products p ON p.id = i.product_id WHERE i.order_id = ?',
    );
    const matching = rankByQuery(mine, a.query, (o) => names.all(o.id).flatMap((n) => [n.name, n.product_type]));
    return listing(
      matching.map((o) => orderView(ctx, o)),
      a,
      ['created_at'],
      '-created_at',
    );
  }),
  def('show_order', { description: 'Get details of a past order.', params: [req.int('order_id')], response: ORDER_RESPONSE }, (ctx, a) => orderView(ctx, ownOrder(ctx, Number(a.order_id)))),
  def('place_order', { description: 'Place an order for all the items in your cart.', params: [req.int('payment_card_id'), req.int('address_id')], response: withId('order_id') }, (ctx, a) => {
    const card = ownCard(ctx, Number(a.payment_card_id), true);
    const address = ownAddress(ctx, Number(a.address_id));
    const cart = cartView(ctx);
    if (cart.cart_items.length === 0) throw new ApiError(422, 'Your cart is empty.');
    if (cart.promo_code !== null && !cart.promo_valid) throw new ApiError(422, 'The promo code applied to your cart is not valid for this order. Remove it to place the order.');
    for (const it of cart.cart_items) {
      if (it.quantity > product(ctx, it.product_id).inventory_quantity) throw new ApiError(422, `The product ${it.product_id} does not have enough units in stock.`);
    }
    const u = userById(ctx, me(ctx))!;
    const r = ctx.db
      .prepare(
        'INSERT INTO amazon_orders (user_id, address_id, payment_card_id, name, tax, delivery_fee, gift_wrap_fee, discount, address_text, payment_card_digits, paid_amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        me(ctx),
        address.id,
        card.id,
        `${u.first_name} ${u.last_name}`,
        cart.tax,
        cart.delivery_fee,
        cart.gift_wrap_fee,
        cart.discount,
        `${address.street_address}, ${address.city}, ${address.state}, ${address.country}, ${address.zip_code}`,
        card.card_number.slice(-4),
        cart.total_cost,
        ctx.now,
      );
    const orderId = Number(r.lastInsertRowid);
    for (const it of cart.cart_items) {
      ctx.db
        .prepare(
          'INSERT INTO amazon_order_items (order_id, product_id, ordered_quantity, returned_quantity, gift_wrap_quantity, price, expected_delivery_at, delivered_at) VALUES (?, ?, ?, 0, ?, ?, ?, NULL)',
        )
        .run(orderId, it.product_id, it.quantity, it.gift_wrap_quantity, it.price, addDays(ctx.now, it.delivery_days));
      ctx.db.prepare('UPDATE amazon_products SET inventory_quantity = inventory_quantity - ? WHERE id = ?').run(it.quantity, it.product_id);
    }
    ctx.db.prepare('DELETE FROM amazon_cart_items WHERE user_id = ?').run(me(ctx));
    ctx.db.prepare('UPDATE amazon_carts SET promo_code = NULL WHERE user_id = ?').run(me(ctx));
    return ok('Order placed.', { order_id: orderId });
  }),
  def('download_order_receipt', { description: 'Download the receipt of a past order into your file system.', params: [req.int('order_id'), ...DOWNLOAD_PARAMS], response: FILE_PATH }, (ctx, a) => {
    const o = ownOrder(ctx, Number(a.order_id));
    const lines = orderItems(ctx, o.id).map((i) => `- ${product(ctx, i.product_id).name} x ${i.ordered_quantity} @ $${i.price}`);
    const text = `Amazon order receipt\nOrder ID: ${o.id}\nDate: ${o.created_at}\nShip to: ${o.name}, ${o.address_text}\nItems:\n${lines.join('\n')}\nTax: $${o.tax}\nDelivery fee: $${o.delivery_fee}\nGift wrap fee: $${o.gift_wrap_fee}\nDiscount: $${o.discount}\nPaid: $${o.paid_amount}\nCard ending: ${o.payment_card_digits}\n`;
    return ok('Receipt downloaded.', {
      file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), `amazon_order_${o.id}.txt`, text, optBool(a, 'overwrite') === true),
    });
  }),
];
