// amazon's catalogue: products (search, features, variations), product types and sellers.
import { RELATIVE_SIZES } from '../../../world/amazon.js';
import { declarer, notFound, optNum, optStr } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGE_LIMIT_UNCAPPED, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage as listing } from '../../ranked.js';
import { row, rows } from '../../tables.js';
import { ApiError, type ApiContext, type ApiDef } from '../../types.js';
import { product, products, sellers } from './tables.js';
import { PRODUCT_RESPONSE, productView } from './views.js';
import { RATING_0_5 } from './params.js';

const def = declarer('amazon');

function sellerRating(ctx: ApiContext, sellerId: number): number {
  return row<{ rating: number }>(ctx, 'SELECT rating FROM amazon_sellers WHERE id = ?', sellerId)?.rating ?? 0;
}

export const catalogApis: ApiDef[] = [
  def('show_product', { auth: false, description: 'Show product information based on its ID.', params: [req.int('product_id')], response: PRODUCT_RESPONSE }, (ctx, a) =>
    productView(ctx, product(ctx, Number(a.product_id))),
  ),
  def(
    'search_sellers',
    { auth: false, description: 'Search for sellers with a query.', params: [opt.str('query', { default: '' }), ...PAGING], response: [{ seller_id: 1, name: 'string' }] },
    (ctx, a) => {
      const found = rows<{ id: number; name: string }>(ctx, 'SELECT id, name FROM amazon_sellers ORDER BY id');
      return pageOf(
        rankByQuery(found, a.query, (s) => [s.name]).map((s) => ({ seller_id: s.id, name: s.name })),
        a,
        [],
      );
    },
  ),
  def(
    'show_seller',
    { auth: false, description: 'Show a detailed information about the seller.', params: [req.int('seller_id')], response: { seller_id: 1, name: 'string', rating: 0.0 } },
    (ctx, a) => {
      const s = sellers.byId(ctx, a.seller_id);
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
        rows<{ product_type: string }>(ctx, 'SELECT DISTINCT product_type FROM amazon_products ORDER BY product_type').map((r) => r.product_type),
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
      const ofType = type === null ? products.all(ctx) : products.all(ctx, 'WHERE product_type = ?', type);
      if (type !== null && ofType.length === 0) throw new ApiError(422, `No products of the product type "${type}" exist.`);
      const sellerIds = [...new Set(ofType.map((p) => p.seller_id))].sort((x, y) => x - y);
      return {
        colors: [...new Set(ofType.map((p) => p.color))].sort(),
        relative_sizes: RELATIVE_SIZES.filter((s) => ofType.some((p) => p.relative_size === s)),
        sellers: sellerIds.map((id) => ({ seller_id: id, name: row<{ name: string }>(ctx, 'SELECT name FROM amazon_sellers WHERE id = ?', id)!.name })),
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
      const rows = products.all(ctx, 'ORDER BY id').filter((p) => {
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
];
