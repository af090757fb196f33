// splitwise: groups, expenses split into debtor shares, payments, balances derived from them,
// comments, receipts (from and into the file system) and notifications. The APIs keep AppWorld's
// listing order.
import { routed } from '../../routes.js';
import type { ApiDef } from '../../types.js';
import { accountApis } from '../shared/accounts.js';
import { notificationApis } from '../shared/notifications.js';
import { balanceApis } from './balances.js';
import { commentApis } from './comments.js';
import { expenseApis } from './expenses.js';
import { groupApis } from './groups.js';
import { paymentApis } from './payments.js';
import { SPLITWISE_ROUTES } from './routes.js';

const apis: ApiDef[] = [
  ...accountApis('splitwise', { verification: true }),
  ...groupApis,
  ...expenseApis,
  ...commentApis('expense'),
  ...paymentApis,
  ...balanceApis,
  ...commentApis('payment'),
  ...notificationApis('splitwise', { type: 'expense_added' }),
];

export const splitwiseApis: ApiDef[] = routed(apis, SPLITWISE_ROUTES);
