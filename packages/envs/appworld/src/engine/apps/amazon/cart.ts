// amazon's cart and wish list: lines within stock, moves between them, gift wrapping, promo codes.
import { declarer, me, ok, optBool, str } from '../../define.js';
import { opt, req } from '../../params.js';
import { row, rows } from '../../tables.js';
import { ApiError, type ApiContext, type ApiDef } from '../../types.js';
import { promoOf, cartPromoCode, cartItem, product, wishItem } from './tables.js';
import { cartView, CART_RESPONSE, MESSAGE } from './views.js';
import { QUANTITY_1 } from './params.js';

const def = declarer('amazon');

function ensureCart(ctx: ApiContext): void {
  ctx.db.prepare('INSERT OR IGNORE INTO amazon_carts (user_id, promo_code) VALUES (?, NULL)').run(me(ctx));
}
/** Adds to the cart (creating the line or raising its quantity), within the product's stock. */
function addToCart(ctx: ApiContext, productId: number, quantity: number): void {
  const p = product(ctx, productId);
  const existing = row<{ id: number; quantity: number }>(ctx, 'SELECT id, quantity FROM amazon_cart_items WHERE user_id = ? AND product_id = ?', me(ctx), p.id);
  const total = (existing?.quantity ?? 0) + quantity;
  if (total > p.inventory_quantity) throw new ApiError(422, `Only ${p.inventory_quantity} units of this product are in stock.`);
  ensureCart(ctx);
  if (existing) ctx.db.prepare('UPDATE amazon_cart_items SET quantity = ? WHERE id = ?').run(total, existing.id);
  else ctx.db.prepare('INSERT INTO amazon_cart_items (user_id, product_id, quantity, gift_wrap_quantity) VALUES (?, ?, ?, 0)').run(me(ctx), p.id, quantity);
}
function addToWishList(ctx: ApiContext, productId: number, quantity: number): void {
  const p = product(ctx, productId);
  const existing = row<{ id: number; quantity: number }>(ctx, 'SELECT id, quantity FROM amazon_wish_list_items WHERE user_id = ? AND product_id = ?', me(ctx), p.id);
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

export const cartApis: ApiDef[] = [
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
    if (!cartPromoCode(ctx)) throw new ApiError(422, 'No promo code is applied to your cart.');
    ctx.db.prepare('UPDATE amazon_carts SET promo_code = NULL WHERE user_id = ?').run(me(ctx));
    return ok('Promo code removed from cart.');
  }),
  def('show_wish_list', { description: 'Get the list of products in your wish list.', response: [{ product_id: 1, product_name: 'string', quantity: 1, price: 0.0 }] }, (ctx) => {
    const items = rows<{ product_id: number; quantity: number; name: string; price: number }>(
      ctx,
      'SELECT w.product_id, w.quantity, p.name, p.price FROM amazon_wish_list_items w JOIN amazon_products p ON p.id = w.product_id WHERE w.user_id = ? ORDER BY w.id',
      me(ctx),
    );
    return items.map((r) => ({ product_id: r.product_id, product_name: r.name, quantity: r.quantity, price: r.price }));
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
];
