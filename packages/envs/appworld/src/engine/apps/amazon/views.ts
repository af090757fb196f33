// amazon's answers: AppWorld's product, cart, order, return and address views and the response
// shapes api_docs shows.
import { AMAZON_PRICING } from '../../../world/amazon.js';
import { me } from '../../define.js';
import { count, row, rows } from '../../tables.js';
import type { ApiContext, Json } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { cartItems, cartPromoCode, isPrime, orderItems, product, promoOf, type AddressRow, type OrderRow, type ProductRow, type ReturnRow } from './tables.js';

type Row = { [key: string]: Json };

export const round2 = (x: number) => Math.round(x * 100) / 100;
export const person = (ctx: ApiContext, id: number): Json => {
  const u = userById(ctx, id);
  return u ? { name: `${u.first_name} ${u.last_name}`, email: u.email } : null;
};

// ---- response shapes, as AppWorld's API docs show them -------------------------------------------
export const PERSON = { name: 'string', email: 'user@example.com' };
export const PRODUCT_RESPONSE = {
  product_id: 1,
  seller_id: 1,
  product_type: 'string',
  name: 'string',
  description: 'string',
  price: 0.0,
  delivery_days: 1,
  inventory_quantity: 0,
  weight: 0.0,
  length: 0.0,
  width: 0.0,
  height: 0.0,
  color: 'string',
  relative_size: 'extra-small',
  rating: 0.0,
  num_product_reviews: 1,
  num_product_questions: 1,
  variations: [{ product_id: 1, relative_size: 'extra-small', color: 'string' }],
};
export const CART_RESPONSE = {
  delivery_fee: 0.0,
  base_cost: 0.0,
  tax: 0.0,
  gift_wrap_fee: 0.0,
  discount: 0.0,
  total_cost: 0.0,
  promo_code: 'string',
  promo_valid: true,
  cart_items: [{ product_id: 1, product_name: 'string', delivery_days: 1, quantity: 1, price: 0.0, gift_wrap_quantity: 1 }],
};
export const ORDER_RESPONSE = {
  order_id: 1,
  address_id: 1,
  payment_card_id: 1,
  name: 'string',
  tax: 0.0,
  delivery_fee: 0.0,
  gift_wrap_fee: 0.0,
  discount: 0.0,
  created_at: '2019-01-01T00:00:00',
  address_text: 'string',
  payment_card_digits: 'string',
  paid_amount: 0.0,
  order_items: [{ product_id: 1, ordered_quantity: 1, returned_quantity: 1, gift_wrap_quantity: 1, price: 0.0, expected_delivery_at: '2019-01-01T00:00:00', delivered_at: '2019-01-01T00:00:00' }],
};
export const RETURN_RESPONSE = {
  return_id: 1,
  order_id: 1,
  product_id: 1,
  product_name: 'string',
  quantity: 1,
  deliverer_id: 1,
  deliverer_name: 'UPS',
  refund_amount: 0.0,
  initiated_at: '2019-01-01T00:00:00',
  returned_at: '2019-01-01T00:00:00',
  confirmation_code: 'string',
};
export const ADDRESS_RESPONSE = { address_id: 1, name: 'string', street_address: 'string', city: 'string', state: 'string', country: 'string', zip_code: 10000 };
export const MESSAGE = { message: 'string' };
export const withId = (key: string) => ({ message: 'string', [key]: 1 });
export const FILE_PATH = { message: 'string', file_path: 'string' };
export function productView(ctx: ApiContext, p: ProductRow): Row {
  const variations = rows<Pick<ProductRow, 'id' | 'relative_size' | 'color'>>(
    ctx,
    'SELECT id, relative_size, color FROM amazon_products WHERE variation_group = ? AND id != ? ORDER BY id',
    p.variation_group,
    p.id,
  );
  return {
    product_id: p.id,
    seller_id: p.seller_id,
    product_type: p.product_type,
    name: p.name,
    description: p.description,
    price: p.price,
    delivery_days: p.delivery_days,
    inventory_quantity: p.inventory_quantity,
    weight: p.weight,
    length: p.length,
    width: p.width,
    height: p.height,
    color: p.color,
    relative_size: p.relative_size,
    rating: p.rating,
    num_product_reviews: count(ctx, 'SELECT count(*) AS n FROM amazon_product_reviews WHERE product_id = ?', p.id),
    num_product_questions: count(ctx, 'SELECT count(*) AS n FROM amazon_product_questions WHERE product_id = ?', p.id),
    variations: variations.map((v) => ({ product_id: v.id, relative_size: v.relative_size, color: v.color })),
  };
}
/** A product's rating follows its reviews (mean to one decimal, 0 without any). */
/** The cart as AppWorld shows it, with every cost worked out. */
export function cartView(ctx: ApiContext) {
  const items = cartItems(ctx).map((it) => ({ it, p: product(ctx, it.product_id) }));
  const code = cartPromoCode(ctx);
  const base = round2(items.reduce((s, { it, p }) => s + p.price * it.quantity, 0));
  const promo = code === null ? undefined : promoOf(ctx, code);
  const promoValid = promo !== undefined && promo.valid_until >= ctx.now && base >= promo.min_base_cost;
  const discount = promoValid ? round2((base * promo.discount_percent) / 100) : 0;
  const tax = round2(((base - discount) * AMAZON_PRICING.taxPercent) / 100);
  const delivery = items.length === 0 || isPrime(ctx, me(ctx)) ? 0 : AMAZON_PRICING.deliveryFee;
  const giftWrap = round2(items.reduce((s, { it }) => s + it.gift_wrap_quantity * AMAZON_PRICING.giftWrapFee, 0));
  return {
    delivery_fee: delivery,
    base_cost: base,
    tax,
    gift_wrap_fee: giftWrap,
    discount,
    total_cost: round2(base - discount + tax + delivery + giftWrap),
    promo_code: code,
    promo_valid: promoValid,
    cart_items: items.map(({ it, p }) => ({
      product_id: p.id,
      product_name: p.name,
      delivery_days: p.delivery_days,
      quantity: it.quantity,
      price: p.price,
      gift_wrap_quantity: it.gift_wrap_quantity,
    })),
  };
}

export const addressView = (a: AddressRow) => ({ address_id: a.id, name: a.name, street_address: a.street_address, city: a.city, state: a.state, country: a.country, zip_code: a.zip_code });
export function orderView(ctx: ApiContext, o: OrderRow): Row {
  return {
    order_id: o.id,
    address_id: o.address_id,
    payment_card_id: o.payment_card_id,
    name: o.name,
    tax: o.tax,
    delivery_fee: o.delivery_fee,
    gift_wrap_fee: o.gift_wrap_fee,
    discount: o.discount,
    created_at: o.created_at,
    address_text: o.address_text,
    payment_card_digits: o.payment_card_digits,
    paid_amount: o.paid_amount,
    order_items: orderItems(ctx, o.id).map((i) => ({
      product_id: i.product_id,
      ordered_quantity: i.ordered_quantity,
      returned_quantity: i.returned_quantity,
      gift_wrap_quantity: i.gift_wrap_quantity,
      price: i.price,
      expected_delivery_at: i.expected_delivery_at,
      delivered_at: i.delivered_at,
    })),
  };
}
export function returnView(ctx: ApiContext, r: ReturnRow): Row {
  const name = row<{ name: string }>(ctx, 'SELECT name FROM amazon_products WHERE id = ?', r.product_id)?.name ?? '';
  const deliverer = row<{ name: string }>(ctx, 'SELECT name FROM amazon_deliverers WHERE id = ?', r.deliverer_id)?.name ?? '';
  return {
    return_id: r.id,
    order_id: r.order_id,
    product_id: r.product_id,
    product_name: name,
    quantity: r.quantity,
    deliverer_id: r.deliverer_id,
    deliverer_name: deliverer,
    refund_amount: r.refund_amount,
    initiated_at: r.initiated_at,
    returned_at: r.returned_at,
    confirmation_code: r.confirmation_code,
  };
}
