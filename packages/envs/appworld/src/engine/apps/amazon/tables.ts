// amazon's tables: the row types (declared once), typed reads over them, and the lookups the APIs
// share (a product, the caller's own card, address, order, cart line or wish-list line, or an error).
import { me, notFound } from '../../define.js';
import { exists, row, rows, select, table, type Table } from '../../tables.js';
import { ApiError, type ApiContext } from '../../types.js';
import type { CardRow, PaidSubscriptionRow } from '../shared/rows.js';

export interface ProductRow {
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
export interface OrderRow {
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
export interface OrderItemRow {
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
export interface ReturnRow {
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
export interface AddressRow {
  id: number;
  user_id: number;
  name: string;
  street_address: string;
  city: string;
  state: string;
  country: string;
  zip_code: number;
}
export interface CartItem {
  product_id: number;
  quantity: number;
  gift_wrap_quantity: number;
}
export interface Promo {
  code: string;
  discount_percent: number;
  min_base_cost: number;
  valid_until: string;
}
export interface ReviewRow {
  id: number;
  product_id: number;
  user_id: number;
  rating: number;
  title: string;
  text: string;
  is_verified: number;
  created_at: string;
}
export interface QuestionRow {
  id: number;
  product_id: number;
  user_id: number;
  question: string;
  created_at: string;
}
export interface AnswerRow {
  id: number;
  question_id: number;
  user_id: number;
  answer: string;
  is_verified: number;
  created_at: string;
}
export interface SellerRow {
  id: number;
  name: string;
  rating: number;
}
export type PrimeSubscriptionRow = PaidSubscriptionRow;
/** The columns of `amazon_payment_cards` an order or a subscription reads. */
export type OrderCard = Pick<CardRow, 'id' | 'user_id' | 'card_number' | 'expiry_year' | 'expiry_month'>;

export const products = table<ProductRow>('amazon_products');
export const sellers = table<SellerRow>('amazon_sellers');
export const orders = table<OrderRow>('amazon_orders');
export const orderItemRows = table<OrderItemRow>('amazon_order_items');
export const returns = table<ReturnRow>('amazon_returns');
export const addresses = table<AddressRow>('amazon_addresses');
export const reviews = table<ReviewRow>('amazon_product_reviews');
export const questions = table<QuestionRow>('amazon_product_questions');
export const answers = table<AnswerRow>('amazon_question_answers');
export const primeSubscriptions = table<PrimeSubscriptionRow>('amazon_prime_subscriptions');
const promoCodes = table<Promo>('amazon_promo_codes');
const orderCards = select<OrderCard>('SELECT id, user_id, card_number, expiry_year, expiry_month FROM amazon_payment_cards');

export function product(ctx: ApiContext, id: number): ProductRow {
  return products.byId(ctx, id) ?? notFound('product');
}
/** A row of the caller's own in `t` (a review, question or answer), or 422/401 naming `what`. */
export function own<T extends { user_id: number }>(ctx: ApiContext, t: Table<T>, id: number, what: string): T {
  const r = t.byId(ctx, id);
  if (!r) notFound(what);
  if (r.user_id !== me(ctx)) throw new ApiError(401, `You are not authorized to modify this ${what}.`);
  return r;
}
export function ownCard(ctx: ApiContext, id: number, checkExpiry: boolean): OrderCard {
  const c = orderCards.one(ctx, 'WHERE id = ?', id);
  if (!c) notFound('payment card');
  if (c.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to use this payment card.');
  if (checkExpiry && c.expiry_year * 12 + c.expiry_month < Number(ctx.now.slice(0, 4)) * 12 + Number(ctx.now.slice(5, 7))) throw new ApiError(422, 'The payment card has expired.');
  return c;
}
export function ownAddress(ctx: ApiContext, id: number): AddressRow {
  const a = addresses.byId(ctx, id);
  if (!a) notFound('address');
  if (a.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this address.');
  return a;
}
export function ownOrder(ctx: ApiContext, id: number): OrderRow {
  const o = orders.byId(ctx, id);
  if (!o) notFound('order');
  if (o.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this order.');
  return o;
}
export const orderItems = (ctx: ApiContext, orderId: number) => orderItemRows.all(ctx, 'WHERE order_id = ? ORDER BY id', orderId);

export const cartItems = (ctx: ApiContext) => rows<CartItem>(ctx, 'SELECT product_id, quantity, gift_wrap_quantity FROM amazon_cart_items WHERE user_id = ? ORDER BY id', me(ctx));
export function cartItem(ctx: ApiContext, productId: number): CartItem & { id: number } {
  const it = row<CartItem & { id: number }>(ctx, 'SELECT id, product_id, quantity, gift_wrap_quantity FROM amazon_cart_items WHERE user_id = ? AND product_id = ?', me(ctx), productId);
  if (!it) throw new ApiError(422, 'The product is not in your cart.');
  return it;
}
export function wishItem(ctx: ApiContext, productId: number): { id: number; quantity: number } {
  const it = row<{ id: number; quantity: number }>(ctx, 'SELECT id, quantity FROM amazon_wish_list_items WHERE user_id = ? AND product_id = ?', me(ctx), productId);
  if (!it) throw new ApiError(422, 'The product is not in your wish list.');
  return it;
}
/** The promo code applied to the caller's cart (null without a cart or a code). */
export const cartPromoCode = (ctx: ApiContext) => row<{ promo_code: string | null }>(ctx, 'SELECT promo_code FROM amazon_carts WHERE user_id = ?', me(ctx))?.promo_code ?? null;
export const promoOf = (ctx: ApiContext, code: string) => promoCodes.one(ctx, 'WHERE code = ?', code);

export function isPrime(ctx: Pick<ApiContext, 'db' | 'now'>, userId: number): boolean {
  return exists(ctx, 'SELECT 1 FROM amazon_prime_subscriptions WHERE user_id = ? AND start_date <= ? AND end_date >= ?', userId, ctx.now, ctx.now);
}
