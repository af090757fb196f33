// venmo: friends, balance, transactions and payment requests, with Venmo's money rules. The APIs
// keep AppWorld's listing order.
import { routed } from '../../routes.js';
import { count } from '../../tables.js';
import type { ApiDef } from '../../types.js';
import { accountApis } from '../shared/accounts.js';
import { paymentCardApis } from '../shared/payment-cards.js';
import { balanceApis } from './balance.js';
import { feedApis } from './notifications.js';
import { peopleApis } from './people.js';
import { requestApis } from './requests.js';
import { VENMO_ROUTES } from './routes.js';
import { balanceOf, friendsSince } from './tables.js';
import { transactionApis } from './transactions.js';

const apis: ApiDef[] = [
  ...accountApis('venmo', {
    verification: true,
    profileAuth: true,
    extras: {
      response: { venmo_balance: 0.0, friend_count: 1 },
      view: (ctx, id) => ({ venmo_balance: balanceOf(ctx, id), friend_count: count(ctx, 'SELECT count(*) AS n FROM venmo_friends WHERE user_id = ?', id) }),
      profile: { response: { friends_since: '2019-01-01T00:00:00' }, view: (ctx, id) => ({ friends_since: friendsSince(ctx, id) }) },
    },
  }),
  ...peopleApis,
  ...balanceApis,
  ...paymentCardApis('venmo', 'venmo_payment_cards', { showCvv: true }),
  ...transactionApis,
  ...requestApis,
  ...feedApis,
];

export const venmoApis: ApiDef[] = routed(apis, VENMO_ROUTES);
