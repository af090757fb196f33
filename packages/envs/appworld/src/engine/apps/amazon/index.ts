// amazon: catalogue (products with variations, sellers, types), cart with promo codes and gift
// wrapping, wish list, orders with receipts, returns, reviews, Q&A, addresses, cards and prime.
// Prices: tax on the discounted base cost, a flat delivery fee that prime waives, a fee per
// gift-wrapped unit (world/amazon.ts AMAZON_PRICING). The APIs keep AppWorld's listing order.
import { routed } from '../../routes.js';
import type { ApiDef } from '../../types.js';
import { accountApis } from '../shared/accounts.js';
import { paymentCardApis } from '../shared/payment-cards.js';
import { addressApis } from './addresses.js';
import { cartApis } from './cart.js';
import { catalogApis } from './catalog.js';
import { orderApis } from './orders.js';
import { primeApis } from './prime.js';
import { returnApis } from './returns.js';
import { reviewApis } from './reviews.js';
import { AMAZON_ROUTES } from './routes.js';
import { isPrime } from './tables.js';

const apis: ApiDef[] = [
  ...accountApis('amazon', { verification: true, extras: { response: { is_prime: true }, view: (ctx, id) => ({ is_prime: isPrime(ctx, id) }) } }),
  ...catalogApis,
  ...cartApis,
  ...orderApis,
  ...paymentCardApis('amazon', 'amazon_payment_cards', { showCvv: true }),
  ...addressApis,
  ...reviewApis,
  ...returnApis,
  ...primeApis,
];

export const amazonApis: ApiDef[] = routed(apis, AMAZON_ROUTES);
