// amazon: catalogue (products with variations, sellers, types), cart with promo codes and gift
// wrapping, wish list, orders with receipts, returns, reviews, Q&A, addresses, cards and prime.
// Prices: tax on the discounted base cost, a flat delivery fee that prime waives, a fee per
// gift-wrapped unit (world/amazon.ts AMAZON_PRICING).
import { createHash } from 'node:crypto';
import { declarer, me, notFound, ok, optBool, optNum, optStr, str } from '../define.js';
import { pageOf } from '../listing.js';
import { rankByQuery, rankedPage as listing } from '../ranked.js';
import { EMAIL, opt, PAGE_LIMIT_UNCAPPED, PAGING, req, sortBy } from '../params.js';
import { ApiError, type ApiContext, type ApiDef, type Args, type Json } from '../types.js';
import { AMAZON_PRICING, RELATIVE_SIZES } from '../../world/amazon.js';
import { accountApis, userById } from './shared/accounts.js';
import { DOWNLOAD_PARAMS, downloadToFileSystem } from './file_system.js';
import { paymentCardApis } from './shared/payment-cards.js';
import { routed, sharedRoutes } from '../routes.js';

const def = declarer('amazon');
type Row = { [key: string]: Json };

interface ProductRow {
  id: number;
  seller_id: number;
  product_type: string;
  name: string;
  description: string;
  price: number;
  delivery_days: number;
  inventory_quantity: number;
  weight: number;
  length: number;
  width: number;
  height: number;
  color: string;
  relative_size: string;
  rating: number;
  variation_group: number;
}
interface OrderRow {
  id: number;
  user_id: number;
  address_id: number;
  payment_card_id: number;
  name: string;
  tax: number;
  delivery_fee: number;
  gift_wrap_fee: number;
  discount: number;
  address_text: string;
  payment_card_digits: string;
  paid_amount: number;
  created_at: string;
}
interface OrderItemRow {
  id: number;
  order_id: number;
  product_id: number;
  ordered_quantity: number;
  returned_quantity: number;
  gift_wrap_quantity: number;
  price: number;
  expected_delivery_at: string;
  delivered_at: string | null;
}
interface ReturnRow {
  id: number;
  user_id: number;
  order_id: number;
  product_id: number;
  quantity: number;
  deliverer_id: number;
  refund_amount: number;
  initiated_at: string;
  returned_at: string | null;
  confirmation_code: string;
}
interface CardRow {
  id: number;
  user_id: number;
  card_number: string;
  expiry_year: number;
  expiry_month: number;
}
interface AddressRow {
  id: number;
  user_id: number;
  name: string;
  street_address: string;
  city: string;
  state: string;
  country: string;
  zip_code: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const person = (ctx: ApiContext, id: number): Json => {
  const u = userById(ctx, id);
  return u ? { name: `${u.first_name} ${u.last_name}`, email: u.email } : null;
};

// ---- response shapes, as AppWorld's API docs show them -------------------------------------------
const PERSON = { name: 'string', email: 'user@example.com' };
const PRODUCT_RESPONSE = {
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
const CART_RESPONSE = {
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
const ORDER_RESPONSE = {
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
const RETURN_RESPONSE = {
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
const ADDRESS_RESPONSE = { address_id: 1, name: 'string', street_address: 'string', city: 'string', state: 'string', country: 'string', zip_code: 10000 };
const MESSAGE = { message: 'string' };
const withId = (key: string) => ({ message: 'string', [key]: 1 });
const FILE_PATH = { message: 'string', file_path: 'string' };

// ---- catalogue -------------------------------------------------------------------------------------
function product(ctx: ApiContext, id: number): ProductRow {
  return (ctx.db.prepare('SELECT * FROM amazon_products WHERE id = ?').get(id) as ProductRow | undefined) ?? notFound('product');
}
const count = (ctx: ApiContext, sql: string, ...args: unknown[]) => (ctx.db.prepare(sql).get(...args) as { n: number }).n;
function productView(ctx: ApiContext, p: ProductRow): Row {
  const variations = ctx.db.prepare('SELECT id, relative_size, color FROM amazon_products WHERE variation_group = ? AND id != ? ORDER BY id').all(p.variation_group, p.id) as {
    id: number;
    relative_size: string;
    color: string;
  }[];
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
function refreshRating(ctx: ApiContext, productId: number): void {
  ctx.db.prepare('UPDATE amazon_products SET rating = COALESCE((SELECT round(avg(rating), 1) FROM amazon_product_reviews WHERE product_id = ?), 0) WHERE id = ?').run(productId, productId);
}
const boughtBy = (ctx: ApiContext, userId: number, productId: number) =>
  Boolean(ctx.db.prepare('SELECT 1 FROM amazon_order_items i JOIN amazon_orders o ON o.id = i.order_id WHERE o.user_id = ? AND i.product_id = ?').get(userId, productId));

function sellerRating(ctx: ApiContext, sellerId: number): number {
  return (ctx.db.prepare('SELECT rating FROM amazon_sellers WHERE id = ?').get(sellerId) as { rating: number } | undefined)?.rating ?? 0;
}

// ---- cart, wish list, prime ------------------------------------------------------------------------
interface CartItem {
  product_id: number;
  quantity: number;
  gift_wrap_quantity: number;
}
const cartItems = (ctx: ApiContext) => ctx.db.prepare('SELECT product_id, quantity, gift_wrap_quantity FROM amazon_cart_items WHERE user_id = ? ORDER BY id').all(me(ctx)) as CartItem[];
function cartItem(ctx: ApiContext, productId: number): CartItem & { id: number } {
  const it = ctx.db.prepare('SELECT id, product_id, quantity, gift_wrap_quantity FROM amazon_cart_items WHERE user_id = ? AND product_id = ?').get(me(ctx), productId) as
    | (CartItem & { id: number })
    | undefined;
  if (!it) throw new ApiError(422, 'The product is not in your cart.');
  return it;
}
function wishItem(ctx: ApiContext, productId: number): { id: number; quantity: number } {
  const it = ctx.db.prepare('SELECT id, quantity FROM amazon_wish_list_items WHERE user_id = ? AND product_id = ?').get(me(ctx), productId) as { id: number; quantity: number } | undefined;
  if (!it) throw new ApiError(422, 'The product is not in your wish list.');
  return it;
}
function ensureCart(ctx: ApiContext): void {
  ctx.db.prepare('INSERT OR IGNORE INTO amazon_carts (user_id, promo_code) VALUES (?, NULL)').run(me(ctx));
}
/** Adds to the cart (creating the line or raising its quantity), within the product's stock. */
function addToCart(ctx: ApiContext, productId: number, quantity: number): void {
  const p = product(ctx, productId);
  const existing = ctx.db.prepare('SELECT id, quantity FROM amazon_cart_items WHERE user_id = ? AND product_id = ?').get(me(ctx), p.id) as { id: number; quantity: number } | undefined;
  const total = (existing?.quantity ?? 0) + quantity;
  if (total > p.inventory_quantity) throw new ApiError(422, `Only ${p.inventory_quantity} units of this product are in stock.`);
  ensureCart(ctx);
  if (existing) ctx.db.prepare('UPDATE amazon_cart_items SET quantity = ? WHERE id = ?').run(total, existing.id);
  else ctx.db.prepare('INSERT INTO amazon_cart_items (user_id, product_id, quantity, gift_wrap_quantity) VALUES (?, ?, ?, 0)').run(me(ctx), p.id, quantity);
}
function addToWishList(ctx: ApiContext, productId: number, quantity: number): void {
  const p = product(ctx, productId);
  const existing = ctx.db.prepare('SELECT id, quantity FROM amazon_wish_list_items WHERE user_id = ? AND product_id = ?').get(me(ctx), p.id) as { id: number; quantity: number } | undefined;
  if (existing) ctx.db.prepare('UPDATE amazon_wish_list_items SET quantity = ? WHERE id = ?').run(existing.quantity + quantity, existing.id);
  else ctx.db.prepare('INSERT INTO amazon_wish_list_items (user_id, product_id, quantity) VALUES (?, ?, ?)').run(me(ctx), p.id, quantity);
}
/** Lowers a cart line by `quantity` (removing it at zero); gift wrapping never exceeds what is left. */
function takeFromCart(ctx: ApiContext, productId: number, quantity: number): void {
  const it = cartItem(ctx, productId);
  if (quantity > it.quantity) throw new ApiError(422, `Only ${it.quantity} units of this product are in your cart.`);
  const left = it.quantity - quantity;
  if (left === 0) ctx.db.prepare('DELETE FROM amazon_cart_items WHERE id = ?').run(it.id);
  else ctx.db.prepare('UPDATE amazon_cart_items SET quantity = ?, gift_wrap_quantity = min(gift_wrap_quantity, ?) WHERE id = ?').run(left, left, it.id);
}
function takeFromWishList(ctx: ApiContext, productId: number, quantity: number): void {
  const it = wishItem(ctx, productId);
  if (quantity > it.quantity) throw new ApiError(422, `Only ${it.quantity} units of this product are in your wish list.`);
  if (it.quantity === quantity) ctx.db.prepare('DELETE FROM amazon_wish_list_items WHERE id = ?').run(it.id);
  else ctx.db.prepare('UPDATE amazon_wish_list_items SET quantity = ? WHERE id = ?').run(it.quantity - quantity, it.id);
}

export function isPrime(ctx: Pick<ApiContext, 'db' | 'now'>, userId: number): boolean {
  return Boolean(ctx.db.prepare('SELECT 1 FROM amazon_prime_subscriptions WHERE user_id = ? AND start_date <= ? AND end_date >= ?').get(userId, ctx.now, ctx.now));
}

interface Promo {
  code: string;
  discount_percent: number;
  min_base_cost: number;
  valid_until: string;
}
const promoOf = (ctx: ApiContext, code: string) => ctx.db.prepare('SELECT * FROM amazon_promo_codes WHERE code = ?').get(code) as Promo | undefined;

/** The cart as AppWorld shows it, with every cost worked out. */
function cartView(ctx: ApiContext) {
  const items = cartItems(ctx).map((it) => ({ it, p: product(ctx, it.product_id) }));
  const code = (ctx.db.prepare('SELECT promo_code FROM amazon_carts WHERE user_id = ?').get(me(ctx)) as { promo_code: string | null } | undefined)?.promo_code ?? null;
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

function ownCard(ctx: ApiContext, id: number, checkExpiry: boolean): CardRow {
  const c = ctx.db.prepare('SELECT id, user_id, card_number, expiry_year, expiry_month FROM amazon_payment_cards WHERE id = ?').get(id) as CardRow | undefined;
  if (!c) notFound('payment card');
  if (c.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to use this payment card.');
  if (checkExpiry && c.expiry_year * 12 + c.expiry_month < Number(ctx.now.slice(0, 4)) * 12 + Number(ctx.now.slice(5, 7))) throw new ApiError(422, 'The payment card has expired.');
  return c;
}
function ownAddress(ctx: ApiContext, id: number): AddressRow {
  const a = ctx.db.prepare('SELECT * FROM amazon_addresses WHERE id = ?').get(id) as AddressRow | undefined;
  if (!a) notFound('address');
  if (a.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this address.');
  return a;
}
const addressView = (a: AddressRow) => ({ address_id: a.id, name: a.name, street_address: a.street_address, city: a.city, state: a.state, country: a.country, zip_code: a.zip_code });

// ---- orders and returns ----------------------------------------------------------------------------
function ownOrder(ctx: ApiContext, id: number): OrderRow {
  const o = ctx.db.prepare('SELECT * FROM amazon_orders WHERE id = ?').get(id) as OrderRow | undefined;
  if (!o) notFound('order');
  if (o.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this order.');
  return o;
}
const orderItems = (ctx: ApiContext, orderId: number) => ctx.db.prepare('SELECT * FROM amazon_order_items WHERE order_id = ? ORDER BY id').all(orderId) as OrderItemRow[];
function orderView(ctx: ApiContext, o: OrderRow): Row {
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
function returnView(ctx: ApiContext, r: ReturnRow): Row {
  const name = (ctx.db.prepare('SELECT name FROM amazon_products WHERE id = ?').get(r.product_id) as { name: string } | undefined)?.name ?? '';
  const deliverer = (ctx.db.prepare('SELECT name FROM amazon_deliverers WHERE id = ?').get(r.deliverer_id) as { name: string } | undefined)?.name ?? '';
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
function addDays(iso: string, days: number): string {
  return new Date(Date.parse(iso + 'Z') + days * 86_400_000).toISOString().slice(0, 19);
}

// ---- reviews and Q&A -------------------------------------------------------------------------------
interface ReviewRow {
  id: number;
  product_id: number;
  user_id: number;
  rating: number;
  title: string;
  text: string;
  is_verified: number;
  created_at: string;
}
interface QuestionRow {
  id: number;
  product_id: number;
  user_id: number;
  question: string;
  created_at: string;
}
interface AnswerRow {
  id: number;
  question_id: number;
  user_id: number;
  answer: string;
  is_verified: number;
  created_at: string;
}
function own<T extends { user_id: number }>(ctx: ApiContext, table: string, id: number, what: string): T {
  const r = ctx.db.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as T | undefined;
  if (!r) notFound(what);
  if (r.user_id !== me(ctx)) throw new ApiError(401, `You are not authorized to modify this ${what}.`);
  return r;
}
const emailOf = (ctx: ApiContext, id: number) => userById(ctx, id)?.email ?? '';
const userFilter = (ctx: ApiContext, a: Args, userId: number) => optStr(a, 'user_email') === null || emailOf(ctx, userId) === optStr(a, 'user_email');

const QUANTITY_1 = { default: 1, constraints: [{ kind: 'min', value: 1 }] } as const;
const RATING = {
  constraints: [
    { kind: 'min', value: 1 },
    { kind: 'max', value: 5 },
  ],
} as const;
const RATING_0_5 = (d: number) =>
  ({
    default: d,
    constraints: [
      { kind: 'min', value: 0 },
      { kind: 'max', value: 5 },
    ],
  }) as const;
const NON_EMPTY = { constraints: [{ kind: 'minLength', value: 1 }] } as const;

const apis: ApiDef[] = [
  ...accountApis('amazon', { verification: true, extras: { response: { is_prime: true }, view: (ctx, id) => ({ is_prime: isPrime(ctx, id) }) } }),
  def('show_product', { auth: false, description: 'Show product information based on its ID.', params: [req.int('product_id')], response: PRODUCT_RESPONSE }, (ctx, a) =>
    productView(ctx, product(ctx, Number(a.product_id))),
  ),
  def(
    'search_sellers',
    { auth: false, description: 'Search for sellers with a query.', params: [opt.str('query', { default: '' }), ...PAGING], response: [{ seller_id: 1, name: 'string' }] },
    (ctx, a) => {
      const rows = ctx.db.prepare('SELECT id, name FROM amazon_sellers ORDER BY id').all() as { id: number; name: string }[];
      return pageOf(
        rankByQuery(rows, a.query, (s) => [s.name]).map((s) => ({ seller_id: s.id, name: s.name })),
        a,
        [],
      );
    },
  ),
  def(
    'show_seller',
    { auth: false, description: 'Show a detailed information about the seller.', params: [req.int('seller_id')], response: { seller_id: 1, name: 'string', rating: 0.0 } },
    (ctx, a) => {
      const s = ctx.db.prepare('SELECT * FROM amazon_sellers WHERE id = ?').get(a.seller_id) as { id: number; name: string; rating: number } | undefined;
      if (!s) notFound('seller');
      return { seller_id: s.id, name: s.name, rating: s.rating };
    },
  ),
  def(
    'search_product_types',
    {
      auth: false,
      description: 'Search product types present in the database.',
      response: ['string'],
      params: [opt.str('query', { default: '' }), opt.int('page_index', { default: 0, constraints: [{ kind: 'min', value: 0 }] }), PAGE_LIMIT_UNCAPPED],
    },
    (ctx, a) => {
      const types = rankByQuery(
        (ctx.db.prepare('SELECT DISTINCT product_type FROM amazon_products ORDER BY product_type').all() as { product_type: string }[]).map((r) => r.product_type),
        a.query,
        (t) => [t],
      );
      const [index, limit] = [Number(a.page_index), Number(a.page_limit)];
      return types.slice(index * limit, index * limit + limit);
    },
  ),
  def(
    'show_product_feature_choices',
    {
      auth: false,
      description: 'Show the colors, relative sizes and sellers available over all products of a product type (or over all products when none is given).',
      params: [opt.str('product_type')],
      response: { colors: ['string'], relative_sizes: ['extra-small'], sellers: [{ seller_id: 1, name: 'string' }] },
    },
    (ctx, a) => {
      const type = optStr(a, 'product_type');
      const rows = (type === null ? ctx.db.prepare('SELECT * FROM amazon_products').all() : ctx.db.prepare('SELECT * FROM amazon_products WHERE product_type = ?').all(type)) as ProductRow[];
      if (type !== null && rows.length === 0) throw new ApiError(422, `No products of the product type "${type}" exist.`);
      const sellerIds = [...new Set(rows.map((p) => p.seller_id))].sort((x, y) => x - y);
      return {
        colors: [...new Set(rows.map((p) => p.color))].sort(),
        relative_sizes: RELATIVE_SIZES.filter((s) => rows.some((p) => p.relative_size === s)),
        sellers: sellerIds.map((id) => ({ seller_id: id, name: (ctx.db.prepare('SELECT name FROM amazon_sellers WHERE id = ?').get(id) as { name: string }).name })),
      };
    },
  ),
  def(
    'search_products',
    {
      auth: false,
      description: 'Search for products with a query and various filtering criteria.',
      response: [PRODUCT_RESPONSE],
      params: [
        opt.str('query', { default: '' }),
        ...PAGING,
        opt.str('product_type'),
        opt.str('color'),
        opt.str('relative_size', { constraints: [{ kind: 'enum', values: RELATIVE_SIZES }] }),
        opt.num('min_price', { default: 0, constraints: [{ kind: 'min', value: 0 }] }),
        opt.num('max_price', { default: Number.MAX_SAFE_INTEGER, constraints: [{ kind: 'min', value: 0 }] }),
        opt.num('min_product_rating', RATING_0_5(0)),
        opt.num('max_product_rating', RATING_0_5(5)),
        opt.num('min_seller_rating', RATING_0_5(0)),
        opt.num('max_seller_rating', RATING_0_5(5)),
        opt.int('seller_id'),
        sortBy(null),
      ],
    },
    (ctx, a) => {
      const [type, color, size, seller] = [optStr(a, 'product_type'), optStr(a, 'color'), optStr(a, 'relative_size'), optNum(a, 'seller_id')];
      const rows = (ctx.db.prepare('SELECT * FROM amazon_products ORDER BY id').all() as ProductRow[]).filter((p) => {
        const sr = sellerRating(ctx, p.seller_id);
        return (
          (type === null || p.product_type.toLowerCase() === type.toLowerCase()) &&
          (color === null || p.color.toLowerCase() === color.toLowerCase()) &&
          (size === null || p.relative_size === size) &&
          (seller === null || p.seller_id === seller) &&
          p.price >= Number(a.min_price) &&
          p.price <= Number(a.max_price) &&
          p.rating >= Number(a.min_product_rating) &&
          p.rating <= Number(a.max_product_rating) &&
          sr >= Number(a.min_seller_rating) &&
          sr <= Number(a.max_seller_rating)
        );
      });
      return listing(
        rankByQuery(rows, a.query, (p) => [p.name, p.description, p.product_type]).map((p) => productView(ctx, p)),
        a,
        ['rating', 'price', 'delivery_days'],
      );
    },
  ),
  def('show_cart', { description: 'Show your cart.', response: CART_RESPONSE }, (ctx) => cartView(ctx)),
  def(
    'add_product_to_cart',
    {
      description: 'Add a product by id and quantity to your cart.',
      params: [req.int('product_id'), opt.int('quantity', QUANTITY_1), opt.bool('clear_cart_first', { default: false })],
      response: MESSAGE,
    },
    (ctx, a) => {
      product(ctx, Number(a.product_id));
      if (optBool(a, 'clear_cart_first') === true) ctx.db.prepare('DELETE FROM amazon_cart_items WHERE user_id = ?').run(me(ctx));
      addToCart(ctx, Number(a.product_id), Number(a.quantity));
      return ok('Product added to cart.');
    },
  ),
  def(
    'update_product_quantity_in_cart',
    {
      method: 'PATCH',
      description: 'Update the quantity of a product in your cart (0 removes it).',
      params: [req.int('product_id'), req.int('quantity', { constraints: [{ kind: 'min', value: 0 }] })],
      response: MESSAGE,
    },
    (ctx, a) => {
      const it = cartItem(ctx, Number(a.product_id));
      const q = Number(a.quantity);
      if (q === 0) ctx.db.prepare('DELETE FROM amazon_cart_items WHERE id = ?').run(it.id);
      else {
        const p = product(ctx, it.product_id);
        if (q > p.inventory_quantity) throw new ApiError(422, `Only ${p.inventory_quantity} units of this product are in stock.`);
        ctx.db.prepare('UPDATE amazon_cart_items SET quantity = ?, gift_wrap_quantity = min(gift_wrap_quantity, ?) WHERE id = ?').run(q, q, it.id);
      }
      return ok('Product quantity updated in cart.');
    },
  ),
  def('delete_product_from_cart', { method: 'DELETE', description: 'Remove a product from your cart.', params: [req.int('product_id')], response: MESSAGE }, (ctx, a) => {
    ctx.db.prepare('DELETE FROM amazon_cart_items WHERE id = ?').run(cartItem(ctx, Number(a.product_id)).id);
    return ok('Product removed from cart.');
  }),
  def('apply_promo_code_to_cart', { description: 'Apply a promo code to your cart.', params: [req.str('promo_code')], response: MESSAGE }, (ctx, a) => {
    const promo = promoOf(ctx, str(a, 'promo_code').trim());
    if (!promo) throw new ApiError(422, 'The promo code is invalid.');
    if (promo.valid_until < ctx.now) throw new ApiError(422, 'The promo code has expired.');
    ensureCart(ctx);
    ctx.db.prepare('UPDATE amazon_carts SET promo_code = ? WHERE user_id = ?').run(promo.code, me(ctx));
    return ok('Promo code applied to cart.');
  }),
  def('remove_promo_code_from_cart', { method: 'DELETE', description: 'Remove the promo code from your cart.', response: MESSAGE }, (ctx) => {
    const cart = ctx.db.prepare('SELECT promo_code FROM amazon_carts WHERE user_id = ?').get(me(ctx)) as { promo_code: string | null } | undefined;
    if (!cart?.promo_code) throw new ApiError(422, 'No promo code is applied to your cart.');
    ctx.db.prepare('UPDATE amazon_carts SET promo_code = NULL WHERE user_id = ?').run(me(ctx));
    return ok('Promo code removed from cart.');
  }),
  def('show_wish_list', { description: 'Get the list of products in your wish list.', response: [{ product_id: 1, product_name: 'string', quantity: 1, price: 0.0 }] }, (ctx) => {
    const rows = ctx.db
      .prepare('SELECT w.product_id, w.quantity, p.name, p.price FROM amazon_wish_list_items w JOIN amazon_products p ON p.id = w.product_id WHERE w.user_id = ? ORDER BY w.id')
      .all(me(ctx)) as { product_id: number; quantity: number; name: string; price: number }[];
    return rows.map((r) => ({ product_id: r.product_id, product_name: r.name, quantity: r.quantity, price: r.price }));
  }),
  def(
    'add_product_to_wish_list',
    {
      description: 'Add a product by id and quantity to your wish list.',
      params: [req.int('product_id'), opt.int('quantity', QUANTITY_1), opt.bool('clear_wish_list_first', { default: false })],
      response: MESSAGE,
    },
    (ctx, a) => {
      product(ctx, Number(a.product_id));
      if (optBool(a, 'clear_wish_list_first') === true) ctx.db.prepare('DELETE FROM amazon_wish_list_items WHERE user_id = ?').run(me(ctx));
      addToWishList(ctx, Number(a.product_id), Number(a.quantity));
      return ok('Product added to wish list.');
    },
  ),
  def(
    'update_product_quantity_in_wish_list',
    {
      method: 'PATCH',
      description: 'Update the quantity of a product in your wish list (0 removes it).',
      params: [req.int('product_id'), req.int('quantity', { constraints: [{ kind: 'min', value: 0 }] })],
      response: MESSAGE,
    },
    (ctx, a) => {
      const it = wishItem(ctx, Number(a.product_id));
      if (Number(a.quantity) === 0) ctx.db.prepare('DELETE FROM amazon_wish_list_items WHERE id = ?').run(it.id);
      else ctx.db.prepare('UPDATE amazon_wish_list_items SET quantity = ? WHERE id = ?').run(Number(a.quantity), it.id);
      return ok('Product quantity updated in wish list.');
    },
  ),
  def('delete_product_from_wish_list', { method: 'DELETE', description: 'Remove a product from your wish list.', params: [req.int('product_id')], response: MESSAGE }, (ctx, a) => {
    ctx.db.prepare('DELETE FROM amazon_wish_list_items WHERE id = ?').run(wishItem(ctx, Number(a.product_id)).id);
    return ok('Product removed from wish list.');
  }),
  def(
    'move_product_from_cart_to_wish_list',
    { description: 'Move a product from your cart to your wish list.', params: [req.int('product_id'), opt.int('quantity', QUANTITY_1)], response: MESSAGE },
    (ctx, a) => {
      takeFromCart(ctx, Number(a.product_id), Number(a.quantity));
      addToWishList(ctx, Number(a.product_id), Number(a.quantity));
      return ok('Product moved from cart to wish list.');
    },
  ),
  def(
    'move_product_from_wish_list_to_cart',
    { description: 'Move a product from your wish list to your cart.', params: [req.int('product_id'), opt.int('quantity', QUANTITY_1)], response: MESSAGE },
    (ctx, a) => {
      takeFromWishList(ctx, Number(a.product_id), Number(a.quantity));
      addToCart(ctx, Number(a.product_id), Number(a.quantity));
      return ok('Product moved from wish list to cart.');
    },
  ),
  def('clear_cart', { method: 'DELETE', description: 'Clear your cart.', response: MESSAGE }, (ctx) => {
    ctx.db.prepare('DELETE FROM amazon_cart_items WHERE user_id = ?').run(me(ctx));
    return ok('Cart cleared.');
  }),
  def(
    'add_gift_wrapping_to_product',
    {
      description: 'Gift wrap units of a product in your cart; if it is already gift wrapped, its gift-wrap quantity is updated.',
      params: [req.int('product_id'), opt.int('quantity', QUANTITY_1)],
      response: MESSAGE,
    },
    (ctx, a) => {
      const it = cartItem(ctx, Number(a.product_id));
      if (Number(a.quantity) > it.quantity) throw new ApiError(422, `Only ${it.quantity} units of this product are in your cart.`);
      ctx.db.prepare('UPDATE amazon_cart_items SET gift_wrap_quantity = ? WHERE id = ?').run(Number(a.quantity), it.id);
      return ok('Gift wrapping added to product.');
    },
  ),
  def('remove_gift_wrapping_from_product', { method: 'DELETE', description: 'Remove gift wrapping from a product in your cart.', params: [req.int('product_id')], response: MESSAGE }, (ctx, a) => {
    const it = cartItem(ctx, Number(a.product_id));
    if (it.gift_wrap_quantity === 0) throw new ApiError(422, 'The product is not gift wrapped.');
    ctx.db.prepare('UPDATE amazon_cart_items SET gift_wrap_quantity = 0 WHERE id = ?').run(it.id);
    return ok('Gift wrapping removed from product.');
  }),
  def('clear_wish_list', { method: 'DELETE', description: 'Clear your wish list.', response: MESSAGE }, (ctx) => {
    ctx.db.prepare('DELETE FROM amazon_wish_list_items WHERE user_id = ?').run(me(ctx));
    return ok('Wish list cleared.');
  }),
  def('show_orders', { description: 'Show or search your past orders.', params: [opt.str('query', { default: '' }), ...PAGING, sortBy(null)], response: [ORDER_RESPONSE] }, (ctx, a) => {
    const orders = ctx.db.prepare('SELECT * FROM amazon_orders WHERE user_id = ? ORDER BY id').all(me(ctx)) as OrderRow[];
    const names = ctx.db.prepare('SELECT p.name, p.product_type FROM amazon_order_items i JOIN amazon_products p ON p.id = i.product_id WHERE i.order_id = ?');
    const matching = rankByQuery(orders, a.query, (o) => (names.all(o.id) as { name: string; product_type: string }[]).flatMap((n) => [n.name, n.product_type]));
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
  ...paymentCardApis('amazon', 'amazon_payment_cards', { showCvv: true }),
  def('show_addresses', { description: 'Get a list of your addresses.', response: [ADDRESS_RESPONSE] }, (ctx) =>
    (ctx.db.prepare('SELECT * FROM amazon_addresses WHERE user_id = ? ORDER BY id').all(me(ctx)) as AddressRow[]).map(addressView),
  ),
  def(
    'add_address',
    {
      description: 'Add a new address.',
      response: withId('address_id'),
      params: [
        req.str('name', NON_EMPTY),
        req.str('street_address', NON_EMPTY),
        req.str('city', NON_EMPTY),
        req.str('state', NON_EMPTY),
        req.str('country', NON_EMPTY),
        req.int('zip_code', {
          constraints: [
            { kind: 'min', value: 10000 },
            { kind: 'exclusiveMax', value: 100000 },
          ],
        }),
      ],
    },
    (ctx, a) => {
      if (ctx.db.prepare('SELECT 1 FROM amazon_addresses WHERE user_id = ? AND lower(name) = lower(?)').get(me(ctx), str(a, 'name')))
        throw new ApiError(422, `An address named "${str(a, 'name')}" already exists.`);
      const r = ctx.db
        .prepare('INSERT INTO amazon_addresses (user_id, name, street_address, city, state, country, zip_code) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(me(ctx), str(a, 'name'), str(a, 'street_address'), str(a, 'city'), str(a, 'state'), str(a, 'country'), Number(a.zip_code));
      return ok('Address added.', { address_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'update_address',
    {
      method: 'PATCH',
      description: 'Update address information.',
      response: MESSAGE,
      params: [
        req.int('address_id'),
        opt.str('name', NON_EMPTY),
        opt.str('street_address', NON_EMPTY),
        opt.str('city', NON_EMPTY),
        opt.str('state', NON_EMPTY),
        opt.str('country', NON_EMPTY),
        opt.int('zip_code', {
          constraints: [
            { kind: 'min', value: 10000 },
            { kind: 'max', value: 99999 },
          ],
        }),
      ],
    },
    (ctx, a) => {
      const cur = ownAddress(ctx, Number(a.address_id));
      const next = {
        name: optStr(a, 'name') ?? cur.name,
        street_address: optStr(a, 'street_address') ?? cur.street_address,
        city: optStr(a, 'city') ?? cur.city,
        state: optStr(a, 'state') ?? cur.state,
        country: optStr(a, 'country') ?? cur.country,
        zip_code: optNum(a, 'zip_code') ?? cur.zip_code,
      };
      ctx.db
        .prepare('UPDATE amazon_addresses SET name = ?, street_address = ?, city = ?, state = ?, country = ?, zip_code = ? WHERE id = ?')
        .run(next.name, next.street_address, next.city, next.state, next.country, next.zip_code, cur.id);
      return ok('Address updated.');
    },
  ),
  def('delete_address', { method: 'DELETE', description: 'Delete an address.', params: [req.int('address_id')], response: MESSAGE }, (ctx, a) => {
    ctx.db.prepare('DELETE FROM amazon_addresses WHERE id = ?').run(ownAddress(ctx, Number(a.address_id)).id);
    return ok('Address deleted.');
  }),
  def(
    'show_product_reviews',
    {
      auth: false,
      description: 'Get a list of reviews of a product.',
      response: [{ review_id: 1, product_id: 1, is_verified: true, rating: 1, title: 'string', text: 'string', created_at: '2019-01-01T00:00:00', user: PERSON }],
      params: [
        req.int('product_id'),
        opt.str('query', { default: '' }),
        opt.str('user_email', { constraints: EMAIL }),
        ...PAGING,
        opt.int('min_rating', { default: 1, ...RATING }),
        opt.int('max_rating', { default: 5, ...RATING }),
        opt.bool('is_verified'),
        sortBy(null),
      ],
    },
    (ctx, a) => {
      const p = product(ctx, Number(a.product_id));
      const verified = optBool(a, 'is_verified');
      const rows = (ctx.db.prepare('SELECT * FROM amazon_product_reviews WHERE product_id = ? ORDER BY id').all(p.id) as ReviewRow[]).filter(
        (r) => userFilter(ctx, a, r.user_id) && r.rating >= Number(a.min_rating) && r.rating <= Number(a.max_rating) && (verified === null || (r.is_verified === 1) === verified),
      );
      return listing(
        rankByQuery(rows, a.query, (r) => [r.title, r.text]).map((r) => ({
          review_id: r.id,
          product_id: r.product_id,
          is_verified: r.is_verified === 1,
          rating: r.rating,
          title: r.title,
          text: r.text,
          created_at: r.created_at,
          user: person(ctx, r.user_id),
        })),
        a,
        ['rating', 'created_at'],
      );
    },
  ),
  def(
    'write_product_review',
    {
      description: 'Write a review of a product.',
      params: [req.int('product_id'), req.int('rating', RATING), opt.str('title', { default: '' }), opt.str('text', { default: '' })],
      response: withId('product_review_id'),
    },
    (ctx, a) => {
      const p = product(ctx, Number(a.product_id));
      if (ctx.db.prepare('SELECT 1 FROM amazon_product_reviews WHERE product_id = ? AND user_id = ?').get(p.id, me(ctx)))
        throw new ApiError(422, 'You have already reviewed this product. Update the review instead.');
      const r = ctx.db
        .prepare('INSERT INTO amazon_product_reviews (product_id, user_id, rating, title, text, is_verified, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(p.id, me(ctx), Number(a.rating), str(a, 'title'), str(a, 'text'), boughtBy(ctx, me(ctx), p.id) ? 1 : 0, ctx.now);
      refreshRating(ctx, p.id);
      return ok('Product review written.', { product_review_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'update_product_review',
    { method: 'PATCH', description: 'Update one of your product reviews.', params: [req.int('review_id'), opt.int('rating', RATING), opt.str('title'), opt.str('text')], response: MESSAGE },
    (ctx, a) => {
      const r = own<ReviewRow>(ctx, 'amazon_product_reviews', Number(a.review_id), 'product review');
      ctx.db
        .prepare('UPDATE amazon_product_reviews SET rating = ?, title = ?, text = ? WHERE id = ?')
        .run(optNum(a, 'rating') ?? r.rating, optStr(a, 'title') ?? r.title, optStr(a, 'text') ?? r.text, r.id);
      refreshRating(ctx, r.product_id);
      return ok('Product review updated.');
    },
  ),
  def('delete_product_review', { method: 'DELETE', description: 'Delete one of your product reviews.', params: [req.int('review_id')], response: MESSAGE }, (ctx, a) => {
    const r = own<ReviewRow>(ctx, 'amazon_product_reviews', Number(a.review_id), 'product review');
    ctx.db.prepare('DELETE FROM amazon_product_reviews WHERE id = ?').run(r.id);
    refreshRating(ctx, r.product_id);
    return ok('Product review deleted.');
  }),
  def(
    'show_product_questions',
    {
      auth: false,
      description: 'Get a list of questions asked about a product.',
      response: [{ product_id: 1, question_id: 1, question: 'string', created_at: '2019-01-01T00:00:00', user: PERSON }],
      params: [req.int('product_id'), opt.str('query', { default: '' }), opt.str('user_email', { constraints: EMAIL }), ...PAGING, sortBy(null)],
    },
    (ctx, a) => {
      const p = product(ctx, Number(a.product_id));
      const rows = (ctx.db.prepare('SELECT * FROM amazon_product_questions WHERE product_id = ? ORDER BY id').all(p.id) as QuestionRow[]).filter((q) => userFilter(ctx, a, q.user_id));
      return listing(
        rankByQuery(rows, a.query, (q) => [q.question]).map((q) => ({ product_id: q.product_id, question_id: q.id, question: q.question, created_at: q.created_at, user: person(ctx, q.user_id) })),
        a,
        ['created_at'],
      );
    },
  ),
  def(
    'show_product_question_answers',
    {
      auth: false,
      description: 'Get a list of answers to a product question.',
      response: [{ question_answer_id: 1, question_id: 1, is_verified: true, answer: 'string', created_at: '2019-01-01T00:00:00', user: PERSON }],
      params: [req.int('question_id'), opt.str('query', { default: '' }), opt.str('user_email', { constraints: EMAIL }), opt.bool('is_verified'), ...PAGING, sortBy(null)],
    },
    (ctx, a) => {
      if (!ctx.db.prepare('SELECT 1 FROM amazon_product_questions WHERE id = ?').get(a.question_id)) notFound('product question');
      const verified = optBool(a, 'is_verified');
      const rows = (ctx.db.prepare('SELECT * FROM amazon_question_answers WHERE question_id = ? ORDER BY id').all(a.question_id) as AnswerRow[]).filter(
        (r) => userFilter(ctx, a, r.user_id) && (verified === null || (r.is_verified === 1) === verified),
      );
      return listing(
        rankByQuery(rows, a.query, (r) => [r.answer]).map((r) => ({
          question_answer_id: r.id,
          question_id: r.question_id,
          is_verified: r.is_verified === 1,
          answer: r.answer,
          created_at: r.created_at,
          user: person(ctx, r.user_id),
        })),
        a,
        ['created_at'],
      );
    },
  ),
  def('write_product_question', { description: 'Ask a question about a product.', params: [req.int('product_id'), req.str('question', NON_EMPTY)], response: withId('question_id') }, (ctx, a) => {
    const p = product(ctx, Number(a.product_id));
    const r = ctx.db.prepare('INSERT INTO amazon_product_questions (product_id, user_id, question, created_at) VALUES (?, ?, ?, ?)').run(p.id, me(ctx), str(a, 'question'), ctx.now);
    return ok('Product question written.', { question_id: Number(r.lastInsertRowid) });
  }),
  def(
    'write_product_question_answer',
    { description: 'Answer a question about a product.', params: [req.int('question_id'), req.str('answer', NON_EMPTY)], response: withId('question_answer_id') },
    (ctx, a) => {
      const q = ctx.db.prepare('SELECT * FROM amazon_product_questions WHERE id = ?').get(a.question_id) as QuestionRow | undefined;
      if (!q) notFound('product question');
      const r = ctx.db
        .prepare('INSERT INTO amazon_question_answers (question_id, user_id, answer, is_verified, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(q.id, me(ctx), str(a, 'answer'), boughtBy(ctx, me(ctx), q.product_id) ? 1 : 0, ctx.now);
      return ok('Product question answer written.', { question_answer_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'update_product_question',
    { method: 'PATCH', description: 'Update one of your product questions.', params: [req.int('question_id'), opt.str('question', NON_EMPTY)], response: MESSAGE },
    (ctx, a) => {
      const q = own<QuestionRow>(ctx, 'amazon_product_questions', Number(a.question_id), 'product question');
      ctx.db.prepare('UPDATE amazon_product_questions SET question = ? WHERE id = ?').run(optStr(a, 'question') ?? q.question, q.id);
      return ok('Product question updated.');
    },
  ),
  def(
    'update_product_question_answer',
    { method: 'PATCH', description: 'Update one of your answers to a product question.', params: [req.int('question_answer_id'), opt.str('answer', NON_EMPTY)], response: MESSAGE },
    (ctx, a) => {
      const r = own<AnswerRow>(ctx, 'amazon_question_answers', Number(a.question_answer_id), 'product question answer');
      ctx.db.prepare('UPDATE amazon_question_answers SET answer = ? WHERE id = ?').run(optStr(a, 'answer') ?? r.answer, r.id);
      return ok('Product question answer updated.');
    },
  ),
  def('delete_product_question', { method: 'DELETE', description: 'Delete one of your product questions (and its answers).', params: [req.int('question_id')], response: MESSAGE }, (ctx, a) => {
    const q = own<QuestionRow>(ctx, 'amazon_product_questions', Number(a.question_id), 'product question');
    ctx.db.prepare('DELETE FROM amazon_question_answers WHERE question_id = ?').run(q.id);
    ctx.db.prepare('DELETE FROM amazon_product_questions WHERE id = ?').run(q.id);
    return ok('Product question deleted.');
  }),
  def(
    'delete_product_question_answer',
    { method: 'DELETE', description: 'Delete one of your answers to a product question.', params: [req.int('question_answer_id')], response: MESSAGE },
    (ctx, a) => {
      ctx.db.prepare('DELETE FROM amazon_question_answers WHERE id = ?').run(own<AnswerRow>(ctx, 'amazon_question_answers', Number(a.question_answer_id), 'product question answer').id);
      return ok('Product question answer deleted.');
    },
  ),
  def('show_returns', { description: 'Get a list of your product returns.', params: [opt.int('order_id'), ...PAGING, sortBy('-initiated_at')], response: [RETURN_RESPONSE] }, (ctx, a) => {
    const order = optNum(a, 'order_id');
    const rows = (ctx.db.prepare('SELECT * FROM amazon_returns WHERE user_id = ? ORDER BY id').all(me(ctx)) as ReturnRow[]).filter((r) => order === null || r.order_id === order);
    return pageOf(
      rows.map((r) => returnView(ctx, r)),
      { ...a, sort_by: typeof a.sort_by === 'string' && a.sort_by.trim() ? a.sort_by : '-initiated_at' },
      ['quantity', 'initiated_at', 'returned_at'],
    );
  }),
  def('show_return', { description: 'Show the status of a product return.', params: [req.int('return_id')], response: RETURN_RESPONSE }, (ctx, a) => {
    const r = ctx.db.prepare('SELECT * FROM amazon_returns WHERE id = ?').get(a.return_id) as ReturnRow | undefined;
    if (!r) notFound('return');
    if (r.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this return.');
    return returnView(ctx, r);
  }),
  def('show_return_deliverers', { auth: false, description: 'Get the list of deliverers that pick up product returns.', response: [{ deliverer_id: 1, name: 'UPS' }] }, (ctx) =>
    (ctx.db.prepare('SELECT id, name FROM amazon_deliverers ORDER BY id').all() as { id: number; name: string }[]).map((d) => ({ deliverer_id: d.id, name: d.name })),
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
      const item = ctx.db.prepare('SELECT * FROM amazon_order_items WHERE order_id = ? AND product_id = ?').get(o.id, a.product_id) as OrderItemRow | undefined;
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
      const last = ctx.db.prepare('SELECT max(end_date) AS end FROM amazon_prime_subscriptions WHERE user_id = ?').get(me(ctx)) as { end: string | null };
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
      const rows = ctx.db.prepare('SELECT * FROM amazon_prime_subscriptions WHERE user_id = ? ORDER BY start_date DESC, id DESC').all(me(ctx)) as {
        id: number;
        start_date: string;
        end_date: string;
        payment_card_digits: string;
        paid_amount: number;
      }[];
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
      const p = ctx.db.prepare('SELECT * FROM amazon_prime_subscriptions WHERE id = ?').get(a.prime_subscription_id) as
        | { id: number; user_id: number; start_date: string; end_date: string; payment_card_digits: string; paid_amount: number }
        | undefined;
      if (!p) notFound('prime subscription');
      if (p.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this prime subscription.');
      const text = `Amazon prime receipt\nSubscription ID: ${p.id}\nFrom: ${p.start_date}\nTo: ${p.end_date}\nPaid: $${p.paid_amount}\nCard ending: ${p.payment_card_digits}\n`;
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), `amazon_prime_subscription_${p.id}.txt`, text, optBool(a, 'overwrite') === true),
      });
    },
  ),
];

/** AppWorld's routes of the amazon app (its API docs' method and path). */
const A = '/amazon';
export const amazonApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('amazon', { verification: true, notifications: false }),
  show_product: `GET ${A}/products/{product_id}`,
  search_sellers: `GET ${A}/sellers`,
  show_seller: `GET ${A}/sellers/{seller_id}`,
  search_product_types: `GET ${A}/product_types`,
  show_product_feature_choices: `GET ${A}/product_feature_choices`,
  search_products: `GET ${A}/products`,
  show_cart: `GET ${A}/cart`,
  clear_cart: `DELETE ${A}/cart`,
  add_product_to_cart: `POST ${A}/cart/{product_id}`,
  delete_product_from_cart: `DELETE ${A}/cart/{product_id}`,
  update_product_quantity_in_cart: `PATCH ${A}/cart/{product_id}`,
  apply_promo_code_to_cart: `POST ${A}/cart_promos`,
  remove_promo_code_from_cart: `DELETE ${A}/cart_promos`,
  show_wish_list: `GET ${A}/wish_list`,
  clear_wish_list: `DELETE ${A}/wish_list`,
  add_product_to_wish_list: `POST ${A}/wish_list/{product_id}`,
  delete_product_from_wish_list: `DELETE ${A}/wish_list/{product_id}`,
  update_product_quantity_in_wish_list: `PATCH ${A}/wish_lists/{product_id}`,
  move_product_from_cart_to_wish_list: `POST ${A}/cart_to_wish_list/{product_id}`,
  move_product_from_wish_list_to_cart: `POST ${A}/wish_list_to_cart/{product_id}`,
  add_gift_wrapping_to_product: `POST ${A}/cart/{product_id}/gift_wrap`,
  remove_gift_wrapping_from_product: `DELETE ${A}/cart/{product_id}/gift_wrap`,
  show_orders: `GET ${A}/orders`,
  place_order: `POST ${A}/orders`,
  show_order: `GET ${A}/order/{order_id}`,
  download_order_receipt: `GET ${A}/order_receipt/{order_id}`,
  show_payment_cards: `GET ${A}/payment_cards`,
  add_payment_card: `POST ${A}/payment_cards`,
  show_payment_card: `GET ${A}/payment_cards/{payment_card_id}`,
  delete_payment_card: `DELETE ${A}/payment_cards/{payment_card_id}`,
  update_payment_card: `PATCH ${A}/payment_cards/{payment_card_id}`,
  show_addresses: `GET ${A}/addresses`,
  add_address: `POST ${A}/addresses`,
  delete_address: `DELETE ${A}/addresses/{address_id}`,
  update_address: `PATCH ${A}/addresses/{address_id}`,
  show_product_reviews: `GET ${A}/products/{product_id}/reviews`,
  write_product_review: `POST ${A}/products/{product_id}/reviews`,
  delete_product_review: `DELETE ${A}/reviews/{review_id}`,
  update_product_review: `PATCH ${A}/reviews/{review_id}`,
  show_product_questions: `GET ${A}/products/{product_id}/questions`,
  write_product_question: `POST ${A}/products/{product_id}/questions`,
  show_product_question_answers: `GET ${A}/products/{question_id}/question_answers`,
  write_product_question_answer: `POST ${A}/questions/{question_id}/answers`,
  delete_product_question: `DELETE ${A}/questions/{question_id}`,
  update_product_question: `PATCH ${A}/questions/{question_id}`,
  delete_product_question_answer: `DELETE ${A}/question_answers/{question_answer_id}`,
  update_product_question_answer: `PATCH ${A}/question_answers/{question_answer_id}`,
  show_returns: `GET ${A}/returns`,
  initiate_return: `POST ${A}/returns`,
  show_return: `GET ${A}/returns/{return_id}`,
  show_return_deliverers: `GET ${A}/return_deliverers`,
  show_prime_plans: `GET ${A}/prime/plans`,
  show_prime_subscriptions: `GET ${A}/prime/subscriptions`,
  subscribe_prime: `POST ${A}/prime/subscriptions`,
  download_prime_subscription_receipt: `GET ${A}/prime/subscriptions/{prime_subscription_id}/receipt`,
});
