// splitwise's listing parameters and the expense/payment listings (query, participant, amounts, dates, deleted, sort).
import { me, optStr, str } from '../../define.js';
import { inDateRange } from '../../listing.js';
import { rankByQuery } from '../../ranked.js';
import { EMAIL, opt, PAGE_LIMIT_DEFAULT, PAGING } from '../../params.js';
import { ApiError, type ApiContext, type Args, type Json, type ParamDef } from '../../types.js';
import { expenseRows, paymentRows, expenseParties, sharesOf, splitwiseUser } from './tables.js';
import { expenseView, paymentView } from './views.js';

// ---- listing ----
export const QUERY = opt.str('query', { default: '' });
export const PARTICIPANT = opt.str('participant_email', { desc: 'Email of a payer, debtor or receiver to filter by.', constraints: EMAIL });
export const MIN_AMOUNT = opt.num('min_amount', { default: 0, constraints: [{ kind: 'min', value: 0 }] });
export const MAX_AMOUNT = opt.num('max_amount', { default: 9223372036854775807, constraints: [{ kind: 'min', value: 0 }] });
export const MIN_AT = opt.str('min_created_at', { default: '1500-01-01' });
export const MAX_AT = opt.str('max_created_at', { default: '3000-01-01' });
export const DELETED = opt.bool('deleted', { default: false });
export const [PAGE_INDEX, PAGE_LIMIT] = PAGING as [ParamDef, ParamDef];
export const SORT = opt.str('sort_by', { desc: 'created_at or amount, prefixed with + or -; defaults to -created_at without a query.' });

/** Without a query: sorted by `±created_at` / `±amount` (default -created_at), then one page. With one: the rows
 * (ranked by the caller) are paged first and `sort_by` orders that page, as AppWorld's searches do. */
export function sortedPage<T extends { created_at: string; amount: number }>(rows: T[], a: Args, sortable: readonly string[]): T[] {
  const hasQuery = typeof a.query === 'string' && a.query.trim() !== '';
  let spec = typeof a.sort_by === 'string' ? a.sort_by.trim() : '';
  if (spec === '' && !hasQuery) spec = '-created_at';
  const index = typeof a.page_index === 'number' ? a.page_index : 0;
  const limit = typeof a.page_limit === 'number' ? a.page_limit : PAGE_LIMIT_DEFAULT;
  let sorted = hasQuery ? rows.slice(index * limit, index * limit + limit) : rows;
  if (spec !== '') {
    const key = spec.replace(/^[+-]/, '');
    if (!sortable.includes(key))
      throw new ApiError(422, `Validation error. Reason: \nsort_by: the attribute '${key}' is not sortable. Sortable attributes are: [${sortable.map((s) => `'${s}'`).join(', ')}]`);
    const sign = spec.startsWith('-') ? -1 : 1;
    sorted = [...sorted].sort((x, y) => sign * (key === 'amount' ? x.amount - y.amount : x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : 0));
  }
  return hasQuery ? sorted : sorted.slice(index * limit, index * limit + limit);
}

export function listExpenses(ctx: ApiContext, a: Args, groupId: number | null): Json {
  const rows =
    groupId === null ? expenseRows.all(ctx, 'WHERE group_id IS NULL ORDER BY id').filter((e) => expenseParties(ctx, e).has(me(ctx))) : expenseRows.all(ctx, 'WHERE group_id = ? ORDER BY id', groupId);
  const participant = optStr(a, 'participant_email') === null ? null : splitwiseUser(ctx, str(a, 'participant_email')).id;
  const kept = rows.filter(
    (e) =>
      (e.deleted === 1) === (a.deleted === true) &&
      inDateRange(e.created_at, a) &&
      e.paid_amount >= Number(a.min_amount ?? 0) &&
      e.paid_amount <= Number(a.max_amount ?? Infinity) &&
      (participant === null || e.payer_id === participant || sharesOf(ctx, e.id).some((s) => s.debtor_id === participant)),
  );
  return sortedPage(
    rankByQuery(kept, a.query, (e) => [e.description]).map((e) => ({ e, created_at: e.created_at, amount: e.paid_amount })),
    a,
    groupId === null ? ['created_at'] : ['created_at', 'amount'],
  ).map((x) => expenseView(ctx, x.e));
}

export function listPayments(ctx: ApiContext, a: Args, groupId: number | null): Json {
  const self = me(ctx);
  const rows =
    groupId === null
      ? paymentRows.all(ctx, 'WHERE group_id IS NULL AND (payer_id = ? OR receiver_id = ? OR creator_id = ?) ORDER BY id', self, self, self)
      : paymentRows.all(ctx, 'WHERE group_id = ? ORDER BY id', groupId);
  const participant = optStr(a, 'participant_email') === null ? null : splitwiseUser(ctx, str(a, 'participant_email')).id;
  const kept = rows.filter(
    (p) =>
      (p.deleted === 1) === (a.deleted === true) &&
      inDateRange(p.created_at, a) &&
      p.amount >= Number(a.min_amount ?? 0) &&
      p.amount <= Number(a.max_amount ?? Infinity) &&
      (participant === null || p.payer_id === participant || p.receiver_id === participant),
  );
  return sortedPage(
    rankByQuery(kept, a.query, (p) => [p.description]).map((p) => ({ p, created_at: p.created_at, amount: p.amount })),
    a,
    ['created_at', 'amount'],
  ).map((x) => paymentView(ctx, x.p));
}
