// splitwise: groups, expenses split into debtor shares, payments, balances derived from them,
// comments, receipts (from and into the file system) and notifications.
import { declarer, me, notFound, ok, optNum, optStr, str } from '../define.js';
import { inDateRange } from '../listing.js';
import { rankByQuery } from '../ranked.js';
import { ACCESS_TOKEN, EMAIL, opt, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_UNCAPPED, PAGING, req } from '../params.js';
import { ApiError, type ApiContext, type ApiDef, type Args, type Json, type ParamDef } from '../types.js';
import { accountApis, userByEmail, userById, type UserRow } from './shared/accounts.js';
import { downloadToFileSystem, readFromFileSystem } from './file_system.js';
import { notificationApis } from './shared/notifications.js';
import { routed, sharedRoutes } from '../routes.js';
import { equalShares, invitationCode } from '../../world/splitwise.js';

const def = declarer('splitwise');
const round2 = (x: number) => Math.round(x * 100) / 100;

// Response shapes as AppWorld's API docs show them.
const MESSAGE = { message: 'string' };
const PERSON = { name: 'string', email: 'user@example.com' };
const GROUP = { group_id: 1, name: 'string', description: 'string', created_at: '2019-01-01T00:00:00', deleted: true, creator: PERSON, members: [PERSON], invitation_code: 'string' };
const EXPENSE = {
  expense_id: 1,
  group_id: 1,
  description: 'string',
  deleted: true,
  receipt_file_name: 'string',
  created_at: '2019-01-01T00:00:00',
  shares: [{ debtor: PERSON, debt_amount: 0.0 }],
  creator: PERSON,
  payer: PERSON,
  paid_amount: 0.0,
};
const PAYMENT = {
  payment_id: 1,
  group_id: 1,
  description: 'string',
  deleted: true,
  receipt_file_name: 'string',
  created_at: '2019-01-01T00:00:00',
  creator: PERSON,
  payer: PERSON,
  receiver: PERSON,
  paid_amount: 0.0,
};
const EXPENSE_COMMENT = { expense_comment_id: 1, expense_id: 1, comment: 'string', created_at: '2019-01-01T00:00:00', user: PERSON };
const PAYMENT_COMMENT = { payment_comment_id: 1, payment_id: 1, comment: 'string', created_at: '2019-01-01T00:00:00', user: PERSON };
const SIDE = { total: 0.0, breakdown: [{ email: 'user@example.com', name: 'string', amount: 0.0 }] };

interface GroupRow {
  id: number;
  name: string;
  description: string | null;
  creator_id: number;
  invitation_code: string;
  deleted: number;
  created_at: string;
}
interface ExpenseRow {
  id: number;
  group_id: number | null;
  creator_id: number;
  payer_id: number;
  description: string;
  paid_amount: number;
  receipt_file_name: string | null;
  receipt_content: string | null;
  deleted: number;
  created_at: string;
}
interface ShareRow {
  id: number;
  expense_id: number;
  debtor_id: number;
  debt_amount: number;
}
interface PaymentRow {
  id: number;
  group_id: number | null;
  creator_id: number;
  payer_id: number;
  receiver_id: number;
  amount: number;
  description: string;
  receipt_file_name: string | null;
  receipt_content: string | null;
  deleted: number;
  created_at: string;
}
interface CommentRow {
  id: number;
  user_id: number;
  comment: string;
  created_at: string;
  expense_id?: number;
  payment_id?: number;
}

const fullName = (u: UserRow) => `${u.first_name} ${u.last_name}`;
function person(ctx: ApiContext, id: number): Json {
  const u = userById(ctx, id);
  return u ? { name: fullName(u), email: u.email } : null;
}

/** A person with a Splitwise account, by email. */
function splitwiseUser(ctx: ApiContext, email: string): UserRow {
  const u = userByEmail(ctx, email);
  if (!u || !ctx.db.prepare("SELECT 1 FROM accounts WHERE app = 'splitwise' AND user_id = ?").get(u.id)) throw new ApiError(422, `The user with email ${email} does not exist on Splitwise.`);
  return u;
}

// ---- groups ----
const membersOf = (ctx: ApiContext, groupId: number) =>
  (ctx.db.prepare('SELECT user_id FROM splitwise_group_members WHERE group_id = ? ORDER BY id').all(groupId) as { user_id: number }[]).map((r) => r.user_id);
const isMember = (ctx: ApiContext, groupId: number, userId: number) => ctx.db.prepare('SELECT 1 FROM splitwise_group_members WHERE group_id = ? AND user_id = ?').get(groupId, userId) !== undefined;
function groupRow(ctx: ApiContext, id: number): GroupRow {
  const g = ctx.db.prepare('SELECT * FROM splitwise_groups WHERE id = ?').get(id) as GroupRow | undefined;
  if (!g) notFound('group');
  return g;
}
/** A group the caller is a member of. */
function myGroup(ctx: ApiContext, id: number): GroupRow {
  const g = groupRow(ctx, id);
  if (!isMember(ctx, g.id, me(ctx))) throw new ApiError(401, 'You are not a member of this group.');
  return g;
}
const groupView = (ctx: ApiContext, g: GroupRow) => ({
  group_id: g.id,
  name: g.name,
  description: g.description,
  created_at: g.created_at,
  deleted: g.deleted === 1,
  creator: person(ctx, g.creator_id),
  members: membersOf(ctx, g.id).map((m) => person(ctx, m)),
  invitation_code: g.invitation_code,
});
const groupName = (ctx: ApiContext, id: number | null) =>
  id === null ? null : ((ctx.db.prepare('SELECT name FROM splitwise_groups WHERE id = ?').get(id) as { name: string } | undefined)?.name ?? null);

// ---- expenses and payments ----
const sharesOf = (ctx: ApiContext, expenseId: number) => ctx.db.prepare('SELECT * FROM splitwise_expense_shares WHERE expense_id = ? ORDER BY id').all(expenseId) as ShareRow[];
const expenseView = (ctx: ApiContext, e: ExpenseRow) => ({
  expense_id: e.id,
  group_id: e.group_id,
  description: e.description,
  deleted: e.deleted === 1,
  receipt_file_name: e.receipt_file_name,
  created_at: e.created_at,
  shares: sharesOf(ctx, e.id).map((s) => ({ debtor: person(ctx, s.debtor_id), debt_amount: s.debt_amount })),
  creator: person(ctx, e.creator_id),
  payer: person(ctx, e.payer_id),
  paid_amount: e.paid_amount,
});
const paymentView = (ctx: ApiContext, p: PaymentRow) => ({
  payment_id: p.id,
  group_id: p.group_id,
  description: p.description,
  deleted: p.deleted === 1,
  receipt_file_name: p.receipt_file_name,
  created_at: p.created_at,
  creator: person(ctx, p.creator_id),
  payer: person(ctx, p.payer_id),
  receiver: person(ctx, p.receiver_id),
  paid_amount: p.amount,
});
const expenseParties = (ctx: ApiContext, e: ExpenseRow) => new Set([e.creator_id, e.payer_id, ...sharesOf(ctx, e.id).map((s) => s.debtor_id)]);

/** An expense the caller may see and change: they take part in it, or belong to its group. */
function myExpense(ctx: ApiContext, id: number): ExpenseRow {
  const e = ctx.db.prepare('SELECT * FROM splitwise_expenses WHERE id = ?').get(id) as ExpenseRow | undefined;
  if (!e) notFound('expense');
  if (!expenseParties(ctx, e).has(me(ctx)) && !(e.group_id !== null && isMember(ctx, e.group_id, me(ctx)))) throw new ApiError(401, 'You are not authorized to access this expense.');
  return e;
}
function myPayment(ctx: ApiContext, id: number): PaymentRow {
  const p = ctx.db.prepare('SELECT * FROM splitwise_payments WHERE id = ?').get(id) as PaymentRow | undefined;
  if (!p) notFound('payment');
  const self = me(ctx);
  if (![p.creator_id, p.payer_id, p.receiver_id].includes(self) && !(p.group_id !== null && isMember(ctx, p.group_id, self))) throw new ApiError(401, 'You are not authorized to access this payment.');
  return p;
}

/**
 * Every non-deleted debt edge among the given records: a debtor's share of an expense is owed to
 * its payer; a payment reduces what the payer owes the receiver (the receiver now "owes" it back).
 */
function debtEdges(ctx: ApiContext, userId: number): { group_id: number | null; from: number; to: number; amount: number }[] {
  const edges: { group_id: number | null; from: number; to: number; amount: number }[] = [];
  const shares = ctx.db
    .prepare(`SELECT e.group_id, s.debtor_id, e.payer_id, s.debt_amount FROM splitwise_expense_shares s JOIN splitwise_expenses e ON e.id = s.expense_id
    WHERE e.deleted = 0 AND s.debtor_id != e.payer_id AND (e.group_id IN (SELECT group_id FROM splitwise_group_members WHERE user_id = ?) OR s.debtor_id = ? OR e.payer_id = ?)`)
    .all(userId, userId, userId) as { group_id: number | null; debtor_id: number; payer_id: number; debt_amount: number }[];
  for (const s of shares) edges.push({ group_id: s.group_id, from: s.debtor_id, to: s.payer_id, amount: s.debt_amount });
  const pays = ctx.db
    .prepare(`SELECT group_id, payer_id, receiver_id, amount FROM splitwise_payments
    WHERE deleted = 0 AND (group_id IN (SELECT group_id FROM splitwise_group_members WHERE user_id = ?) OR payer_id = ? OR receiver_id = ?)`)
    .all(userId, userId, userId) as { group_id: number | null; payer_id: number; receiver_id: number; amount: number }[];
  for (const p of pays) edges.push({ group_id: p.group_id, from: p.receiver_id, to: p.payer_id, amount: p.amount });
  return edges;
}

/** Net amount `a` owes `b` (negative: `b` owes `a`), per group key (`null` = no group). */
function netBetween(ctx: ApiContext, a: number, b: number): Map<number | null, number> {
  const out = new Map<number | null, number>();
  for (const e of debtEdges(ctx, a)) {
    const sign = e.from === a && e.to === b ? 1 : e.from === b && e.to === a ? -1 : 0;
    if (sign !== 0) out.set(e.group_id, round2((out.get(e.group_id) ?? 0) + sign * e.amount));
  }
  return out;
}

/** Net pairwise debts within one group (or among non-group records of `viewer`): key `from:to` → amount > 0. */
function pairwiseNet(ctx: ApiContext, viewer: number, groupId: number | null): Map<string, number> {
  const raw = new Map<string, number>();
  for (const e of debtEdges(ctx, viewer)) {
    if (e.group_id !== groupId) continue;
    if (groupId === null && e.from !== viewer && e.to !== viewer) continue;
    const [lo, hi] = e.from < e.to ? [e.from, e.to] : [e.to, e.from];
    const key = `${lo}:${hi}`;
    raw.set(key, (raw.get(key) ?? 0) + (e.from === lo ? e.amount : -e.amount));
  }
  const out = new Map<string, number>();
  for (const [key, v] of raw) {
    const [lo, hi] = key.split(':');
    const amount = round2(v);
    if (amount > 0) out.set(`${lo}:${hi}`, amount);
    else if (amount < 0) out.set(`${hi}:${lo}`, -amount);
  }
  return out;
}

const direction = (youOwe: number) => (youOwe > 0 ? 'you_owe_them' : youOwe < 0 ? 'they_owe_you' : 'settled');

// ---- listing ----
const QUERY = opt.str('query', { default: '' });
const PARTICIPANT = opt.str('participant_email', { desc: 'Email of a payer, debtor or receiver to filter by.', constraints: EMAIL });
const MIN_AMOUNT = opt.num('min_amount', { default: 0, constraints: [{ kind: 'min', value: 0 }] });
const MAX_AMOUNT = opt.num('max_amount', { default: 9223372036854775807, constraints: [{ kind: 'min', value: 0 }] });
const MIN_AT = opt.str('min_created_at', { default: '1500-01-01' });
const MAX_AT = opt.str('max_created_at', { default: '3000-01-01' });
const DELETED = opt.bool('deleted', { default: false });
const [PAGE_INDEX, PAGE_LIMIT] = PAGING as [ParamDef, ParamDef];
const SORT = opt.str('sort_by', { desc: 'created_at or amount, prefixed with + or -; defaults to -created_at without a query.' });

/** Without a query: sorted by `±created_at` / `±amount` (default -created_at), then one page. With one: the rows
 * (ranked by the caller) are paged first and `sort_by` orders that page, as AppWorld's searches do. */
function sortedPage<T extends { created_at: string; amount: number }>(rows: T[], a: Args, sortable: readonly string[]): T[] {
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

function listExpenses(ctx: ApiContext, a: Args, groupId: number | null): Json {
  const rows =
    groupId === null
      ? (ctx.db.prepare('SELECT * FROM splitwise_expenses WHERE group_id IS NULL ORDER BY id').all() as ExpenseRow[]).filter((e) => expenseParties(ctx, e).has(me(ctx)))
      : (ctx.db.prepare('SELECT * FROM splitwise_expenses WHERE group_id = ? ORDER BY id').all(groupId) as ExpenseRow[]);
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

function listPayments(ctx: ApiContext, a: Args, groupId: number | null): Json {
  const self = me(ctx);
  const rows =
    groupId === null
      ? (ctx.db.prepare('SELECT * FROM splitwise_payments WHERE group_id IS NULL AND (payer_id = ? OR receiver_id = ? OR creator_id = ?) ORDER BY id').all(self, self, self) as PaymentRow[])
      : (ctx.db.prepare('SELECT * FROM splitwise_payments WHERE group_id = ? ORDER BY id').all(groupId) as PaymentRow[]);
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

// ---- writes ----
function notify(ctx: ApiContext, userId: number, type: string, title: string, message: string, data: Record<string, Json>): void {
  if (userId === me(ctx)) return;
  ctx.db
    .prepare('INSERT INTO splitwise_notifications (user_id, type, title, message, read, created_at, data) VALUES (?, ?, ?, ?, 0, ?, ?)')
    .run(userId, type, title, message, ctx.now, JSON.stringify(data));
}
const myName = (ctx: ApiContext) => fullName(userById(ctx, me(ctx))!);

function positive(amount: number, what: string): number {
  if (!(amount > 0)) throw new ApiError(422, `The ${what} must be greater than 0.`);
  return round2(amount);
}

/** Debtors and their shares: given amounts (same length, summing to the total) or an equal split. */
function resolveShares(ctx: ApiContext, total: number, emails: readonly string[], amounts: readonly number[] | null): { debtor: number; amount: number }[] {
  if (emails.length === 0) throw new ApiError(422, 'At least one debtor email is required.');
  const ids = emails.map((e) => splitwiseUser(ctx, e).id);
  if (new Set(ids).size !== ids.length) throw new ApiError(422, 'The debtor emails must be unique.');
  if (amounts === null) return equalShares(total, ids.length).map((amount, i) => ({ debtor: ids[i]!, amount }));
  if (amounts.length !== ids.length) throw new ApiError(422, 'The debt_amounts must have the same length as debtor_emails.');
  if (amounts.some((x) => x < 0)) throw new ApiError(422, 'The debt_amounts must not be negative.');
  if (Math.abs(amounts.reduce((s, x) => s + x, 0) - total) > 0.005) throw new ApiError(422, 'The debt_amounts must add up to the paid amount.');
  return amounts.map((amount, i) => ({ debtor: ids[i]!, amount: round2(amount) }));
}

function requireGroupMembers(ctx: ApiContext, groupId: number | null, userIds: readonly number[]): void {
  if (groupId === null) return;
  const g = myGroup(ctx, groupId);
  if (g.deleted === 1) throw new ApiError(422, 'The group has been deleted.');
  const outsider = userIds.find((u) => !isMember(ctx, g.id, u));
  if (outsider !== undefined) throw new ApiError(422, `The user with email ${userById(ctx, outsider)!.email} is not a member of this group.`);
}

function attachReceipt(ctx: ApiContext, table: 'splitwise_expenses' | 'splitwise_payments', id: number, a: Args, overwrite: boolean, existing: string | null): void {
  if (existing !== null && !overwrite) throw new ApiError(422, 'A receipt file is already attached. Pass overwrite=true to replace it.');
  const file = readFromFileSystem(ctx, optStr(a, 'file_system_access_token'), str(a, 'receipt_file_path'));
  ctx.db.prepare(`UPDATE ${table} SET receipt_file_name = ?, receipt_content = ? WHERE id = ?`).run(file.name, file.content, id);
}

function commentApis(kind: 'expense' | 'payment'): ApiDef[] {
  const table = `splitwise_${kind}_comments`;
  const idKey = `${kind}_id`;
  const view = (c: CommentRow, ctx: ApiContext): Json => ({
    [`${kind}_comment_id`]: c.id,
    [idKey]: c[idKey as 'expense_id'] as number,
    comment: c.comment,
    created_at: c.created_at,
    user: person(ctx, c.user_id),
  });
  const parent = (ctx: ApiContext, id: number) => (kind === 'expense' ? myExpense(ctx, id) : myPayment(ctx, id));
  const visible = (ctx: ApiContext, id: number): CommentRow => {
    const c = ctx.db.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id) as CommentRow | undefined;
    if (!c) notFound(`${kind} comment`);
    parent(ctx, c[idKey as 'expense_id'] as number);
    return c;
  };
  const own = (ctx: ApiContext, id: number): CommentRow => {
    const c = visible(ctx, id);
    if (c.user_id !== me(ctx)) throw new ApiError(401, 'You can only change your own comments.');
    return c;
  };
  const schema = kind === 'expense' ? EXPENSE_COMMENT : PAYMENT_COMMENT;
  const listParams = kind === 'expense' ? [req.int(idKey), ...PAGING] : [req.int(idKey)];
  return [
    def(
      `post_${kind}_comment`,
      {
        description: `Comment on ${kind === 'expense' ? 'an expense' : 'a payment'}.`,
        params: [
          req.int(idKey),
          req.str(
            'comment',
            kind === 'expense'
              ? {
                  constraints: [
                    { kind: 'minLength', value: 1 },
                    { kind: 'maxLength', value: 1000 },
                  ],
                }
              : {},
          ),
        ],
        response: { message: 'string', [`${kind}_comment_id`]: 1 },
      },
      (ctx, a) => {
        const p = parent(ctx, Number(a[idKey]));
        if (str(a, 'comment').trim() === '') throw new ApiError(422, 'The comment must not be empty.');
        const id = Number(ctx.db.prepare(`INSERT INTO ${table} (${idKey}, user_id, comment, created_at) VALUES (?, ?, ?, ?)`).run(p.id, me(ctx), str(a, 'comment'), ctx.now).lastInsertRowid);
        return ok('Comment posted.', { [`${kind}_comment_id`]: id });
      },
    ),
    def(
      `update_${kind}_comment`,
      {
        method: 'PATCH',
        description: `Edit a comment you posted on ${kind === 'expense' ? 'an expense' : 'a payment'}.`,
        params: [req.int('comment_id'), req.str('comment', { constraints: [{ kind: 'minLength', value: 1 }] })],
        response: MESSAGE,
      },
      (ctx, a) => {
        ctx.db.prepare(`UPDATE ${table} SET comment = ? WHERE id = ?`).run(str(a, 'comment'), own(ctx, Number(a.comment_id)).id);
        return ok('Comment updated.');
      },
    ),
    def(
      `delete_${kind}_comment`,
      { method: 'DELETE', description: `Delete a comment you posted on ${kind === 'expense' ? 'an expense' : 'a payment'}.`, params: [req.int('comment_id')], response: MESSAGE },
      (ctx, a) => {
        ctx.db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(own(ctx, Number(a.comment_id)).id);
        return ok('Comment deleted.');
      },
    ),
    def(`show_${kind}_comments`, { description: `List the comments on ${kind === 'expense' ? 'an expense' : 'a payment'}.`, params: listParams, response: [schema] }, (ctx, a) => {
      const p = parent(ctx, Number(a[idKey]));
      const rows = (ctx.db.prepare(`SELECT * FROM ${table} WHERE ${idKey} = ? ORDER BY created_at, id`).all(p.id) as CommentRow[]).map((c) => view(c, ctx));
      if (kind === 'payment') return rows;
      const index = Number(a.page_index ?? 0);
      const limit = Number(a.page_limit ?? PAGE_LIMIT_DEFAULT);
      return rows.slice(index * limit, index * limit + limit);
    }),
    def(`show_${kind}_comment`, { description: `Show one comment on ${kind === 'expense' ? 'an expense' : 'a payment'}.`, params: [req.int('comment_id')], response: schema }, (ctx, a) =>
      view(visible(ctx, Number(a.comment_id)), ctx),
    ),
  ];
}

const RECEIPT = req.str('receipt_file_path', { desc: 'Absolute path of the receipt in your file system.' });
const FS_TOKEN = req.str('file_system_access_token', { desc: 'Access token from the file_system app login.' });
const OPT_FS_TOKEN = opt.str('file_system_access_token', { desc: 'Access token from the file_system app login; needed with a receipt.' });
const OVERWRITE = opt.bool('overwrite', { default: false });
const DOWNLOAD_TO = opt.str('download_to_file_path', { desc: 'Where to save the file (absolute or ~/); defaults to ~/downloads/.' });

const apis: ApiDef[] = [
  ...accountApis('splitwise', { verification: true }),
  def(
    'search_users',
    {
      description: 'Search Splitwise users by name or email, with your balance with each.',
      params: [opt.str('query', { default: '' }), ...PAGING],
      response: [{ name: 'string', email: 'user@example.com', direction: 'you_owe_them', amount: 0.0 }],
    },
    (ctx, a) => {
      const self = me(ctx);
      const users = rankByQuery(
        ctx.db.prepare("SELECT u.* FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = 'splitwise' WHERE u.id != ? ORDER BY u.id").all(self) as UserRow[],
        a.query,
        (u) => [u.first_name, u.last_name, u.email],
      );
      const index = Number(a.page_index ?? 0);
      const limit = Number(a.page_limit ?? PAGE_LIMIT_DEFAULT);
      return users.slice(index * limit, index * limit + limit).map((u) => {
        const owe = round2([...netBetween(ctx, self, u.id).values()].reduce((s, x) => s + x, 0));
        return { name: fullName(u), email: u.email, direction: direction(owe), amount: Math.abs(owe) };
      });
    },
  ),
  def(
    'show_activity',
    {
      description: 'Your expenses and payments, newest first.',
      params: [...PAGING, opt.bool('show_expenses', { default: true }), opt.bool('show_payments', { default: true }), opt.str('sort_by', { default: '-created_at' })],
      response: [
        {
          record_type: 'expense',
          amount: 0.0,
          paid_by: PERSON,
          owed_by: [{ name: 'string', email: 'user@example.com', amount: 0.0 }],
          description: 'string',
          group_id: 1,
          group_name: 'string',
          created_at: '2019-01-01T00:00:00',
        },
      ],
    },
    (ctx, a) => {
      const self = me(ctx);
      const records: { created_at: string; amount: number; view: Json }[] = [];
      const withAmount = (id: number, amount: number) => {
        const p = person(ctx, id) as { name: string; email: string };
        return { ...p, amount };
      };
      if (a.show_expenses !== false) {
        for (const e of ctx.db.prepare('SELECT * FROM splitwise_expenses WHERE deleted = 0 ORDER BY id').all() as ExpenseRow[]) {
          if (!expenseParties(ctx, e).has(self)) continue;
          records.push({
            created_at: e.created_at,
            amount: e.paid_amount,
            view: {
              record_type: 'expense',
              amount: e.paid_amount,
              paid_by: person(ctx, e.payer_id),
              owed_by: sharesOf(ctx, e.id).map((s) => withAmount(s.debtor_id, s.debt_amount)),
              description: e.description,
              group_id: e.group_id,
              group_name: groupName(ctx, e.group_id),
              created_at: e.created_at,
            },
          });
        }
      }
      if (a.show_payments !== false) {
        for (const p of ctx.db.prepare('SELECT * FROM splitwise_payments WHERE deleted = 0 AND (payer_id = ? OR receiver_id = ? OR creator_id = ?) ORDER BY id').all(self, self, self) as PaymentRow[])
          records.push({
            created_at: p.created_at,
            amount: p.amount,
            view: {
              record_type: 'payment',
              amount: p.amount,
              paid_by: person(ctx, p.payer_id),
              owed_by: [withAmount(p.receiver_id, p.amount)],
              description: p.description,
              group_id: p.group_id,
              group_name: groupName(ctx, p.group_id),
              created_at: p.created_at,
            },
          });
      }
      return sortedPage(records, { ...a, query: '' }, ['created_at']).map((r) => r.view);
    },
  ),

  // Groups.
  def(
    'create_group',
    {
      description: 'Create a group to share expenses in; you are a member.',
      params: [req.str('name', { constraints: [{ kind: 'minLength', value: 1 }] }), req.list('member_emails', { desc: 'Emails of the other members.' }), opt.str('description')],
      response: { message: 'string', group_id: 1 },
    },
    (ctx, a) => {
      const self = me(ctx);
      const members = [...new Set([self, ...((a.member_emails as string[]) ?? []).map((e) => splitwiseUser(ctx, e).id)])];
      const next = (ctx.db.prepare('SELECT coalesce(max(id), 0) + 1 AS n FROM splitwise_groups').get() as { n: number }).n;
      const id = Number(
        ctx.db
          .prepare('INSERT INTO splitwise_groups (id, name, description, creator_id, invitation_code, deleted, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)')
          .run(next, str(a, 'name'), optStr(a, 'description'), self, invitationCode(next, `${str(a, 'name')}:${ctx.now}`), ctx.now).lastInsertRowid,
      );
      for (const m of members) {
        ctx.db.prepare('INSERT INTO splitwise_group_members (group_id, user_id, created_at) VALUES (?, ?, ?)').run(id, m, ctx.now);
        notify(ctx, m, 'group_added', 'Added to a group', `${myName(ctx)} added you to the group "${str(a, 'name')}".`, { group_id: id });
      }
      return ok('Group created.', { group_id: id });
    },
  ),
  def('show_group', { description: 'Show a group you are a member of.', params: [req.int('group_id')], response: GROUP }, (ctx, a) => groupView(ctx, myGroup(ctx, Number(a.group_id)))),
  def(
    'show_groups',
    {
      description: 'List the groups you are a member of.',
      params: [ACCESS_TOKEN, opt.bool('delete', { default: false }), PAGE_INDEX, PAGE_LIMIT_UNCAPPED],
      response: [GROUP],
    },
    (ctx, a) => {
      const rows = (ctx.db.prepare('SELECT g.* FROM splitwise_groups g JOIN splitwise_group_members m ON m.group_id = g.id WHERE m.user_id = ? ORDER BY g.id').all(me(ctx)) as GroupRow[]).filter(
        (g) => (g.deleted === 1) === (a.delete === true),
      );
      const index = Number(a.page_index ?? 0);
      const limit = Number(a.page_limit ?? PAGE_LIMIT_DEFAULT);
      return rows.slice(index * limit, index * limit + limit).map((g) => groupView(ctx, g));
    },
  ),
  def(
    'update_group',
    {
      method: 'PATCH',
      description: 'Rename a group or change its description.',
      params: [req.int('group_id'), opt.str('name', { constraints: [{ kind: 'minLength', value: 1 }] }), opt.str('description')],
      response: MESSAGE,
    },
    (ctx, a) => {
      const g = myGroup(ctx, Number(a.group_id));
      ctx.db.prepare('UPDATE splitwise_groups SET name = ?, description = ? WHERE id = ?').run(optStr(a, 'name') ?? g.name, optStr(a, 'description') ?? g.description, g.id);
      return ok('Group updated.');
    },
  ),
  def('delete_group', { method: 'DELETE', description: 'Delete a group you are a member of (any member can undelete it).', params: [req.int('group_id')], response: MESSAGE }, (ctx, a) => {
    const g = myGroup(ctx, Number(a.group_id));
    if (g.deleted === 1) throw new ApiError(422, 'The group is already deleted.');
    ctx.db.prepare('UPDATE splitwise_groups SET deleted = 1 WHERE id = ?').run(g.id);
    return ok('Group deleted.');
  }),
  def('undelete_group', { method: 'PATCH', description: 'Restore a deleted group you are a member of.', params: [req.int('group_id')], response: MESSAGE }, (ctx, a) => {
    const g = myGroup(ctx, Number(a.group_id));
    if (g.deleted === 0) throw new ApiError(422, 'The group is not deleted.');
    ctx.db.prepare('UPDATE splitwise_groups SET deleted = 0 WHERE id = ?').run(g.id);
    return ok('Group restored.');
  }),
  def(
    'add_member_to_group',
    { description: 'Add someone to a group you are a member of.', params: [req.int('group_id'), req.str('user_email', { constraints: EMAIL })], response: MESSAGE },
    (ctx, a) => {
      const g = myGroup(ctx, Number(a.group_id));
      const u = splitwiseUser(ctx, str(a, 'user_email'));
      if (isMember(ctx, g.id, u.id)) throw new ApiError(422, 'The user is already a member of this group.');
      ctx.db.prepare('INSERT INTO splitwise_group_members (group_id, user_id, created_at) VALUES (?, ?, ?)').run(g.id, u.id, ctx.now);
      notify(ctx, u.id, 'group_added', 'Added to a group', `${myName(ctx)} added you to the group "${g.name}".`, { group_id: g.id });
      return ok('Member added.');
    },
  ),
  def(
    'remove_member_from_group',
    { method: 'DELETE', description: 'Remove a member with no outstanding balance from a group.', params: [req.int('group_id'), req.str('user_email', { constraints: EMAIL })], response: MESSAGE },
    (ctx, a) => {
      const g = myGroup(ctx, Number(a.group_id));
      const u = splitwiseUser(ctx, str(a, 'user_email'));
      leaveGroup(ctx, g, u.id);
      return ok('Member removed.');
    },
  ),
  def('exit_group', { description: 'Leave a group where you have no outstanding balance.', params: [req.int('group_id')], response: MESSAGE }, (ctx, a) => {
    leaveGroup(ctx, myGroup(ctx, Number(a.group_id)), me(ctx));
    return ok('You left the group.');
  }),
  def(
    'regenerate_invitation_code',
    { method: 'PATCH', description: "Replace a group's invitation code; the old one stops working.", params: [req.int('group_id')], response: { message: 'string', invitation_code: 'string' } },
    (ctx, a) => {
      const g = myGroup(ctx, Number(a.group_id));
      const code = invitationCode(g.id, `${g.invitation_code}:${ctx.now}`);
      ctx.db.prepare('UPDATE splitwise_groups SET invitation_code = ? WHERE id = ?').run(code, g.id);
      return ok('Invitation code regenerated.', { invitation_code: code });
    },
  ),
  def('accept_group_invitation', { description: 'Join a group with its invitation code.', params: [req.str('invitation_code')], response: MESSAGE }, (ctx, a) => {
    const g = ctx.db.prepare('SELECT * FROM splitwise_groups WHERE invitation_code = ?').get(str(a, 'invitation_code')) as GroupRow | undefined;
    if (!g || g.deleted === 1) throw new ApiError(422, 'The invitation code is invalid.');
    if (isMember(ctx, g.id, me(ctx))) throw new ApiError(422, 'You are already a member of this group.');
    ctx.db.prepare('INSERT INTO splitwise_group_members (group_id, user_id, created_at) VALUES (?, ?, ?)').run(g.id, me(ctx), ctx.now);
    return ok('You joined the group.');
  }),

  // Expenses.
  def(
    'record_expense',
    {
      description: 'Record an expense paid by one person and owed by others.',
      params: [
        req.str('description'),
        req.num('paid_amount'),
        req.str('payer_email', { constraints: EMAIL }),
        req.list('debtor_emails'),
        opt.numbers('debt_amounts', { desc: "Each debtor's share, in debtor order; equal shares when omitted." }),
        opt.int('group_id'),
        opt.str('receipt_file_path', { desc: 'Absolute path of a receipt in your file system.' }),
        OPT_FS_TOKEN,
      ],
      response: { message: 'string', expense_id: 1 },
    },
    (ctx, a) => {
      const total = positive(Number(a.paid_amount), 'paid amount');
      const payer = splitwiseUser(ctx, str(a, 'payer_email')).id;
      const shares = resolveShares(ctx, total, a.debtor_emails as string[], (a.debt_amounts as number[] | null) ?? null);
      const groupId = optNum(a, 'group_id');
      const self = me(ctx);
      if (groupId === null && payer !== self && !shares.some((s) => s.debtor === self)) throw new ApiError(422, 'An expense outside a group must involve you as the payer or a debtor.');
      requireGroupMembers(ctx, groupId, [payer, ...shares.map((s) => s.debtor)]);
      const id = Number(
        ctx.db
          .prepare(
            'INSERT INTO splitwise_expenses (group_id, creator_id, payer_id, description, paid_amount, receipt_file_name, receipt_content, deleted, created_at) VALUES (?, ?, ?, ?, ?, NULL, NULL, 0, ?)',
          )
          .run(groupId, self, payer, str(a, 'description'), total, ctx.now).lastInsertRowid,
      );
      for (const s of shares) ctx.db.prepare('INSERT INTO splitwise_expense_shares (expense_id, debtor_id, debt_amount) VALUES (?, ?, ?)').run(id, s.debtor, s.amount);
      if (optStr(a, 'receipt_file_path') !== null) attachReceipt(ctx, 'splitwise_expenses', id, a, true, null);
      for (const s of shares)
        if (s.debtor !== payer) notify(ctx, s.debtor, 'expense_added', 'New expense', `${myName(ctx)} added "${str(a, 'description')}"; your share is $${s.amount}.`, { expense_id: id });
      return ok('Expense recorded.', { expense_id: id });
    },
  ),
  def(
    'attach_expense_receipt_file',
    { description: 'Attach a receipt from your file system to an expense.', params: [req.int('expense_id'), RECEIPT, OVERWRITE, FS_TOKEN], response: MESSAGE },
    (ctx, a) => {
      const e = myExpense(ctx, Number(a.expense_id));
      attachReceipt(ctx, 'splitwise_expenses', e.id, a, a.overwrite === true, e.receipt_file_name);
      return ok('Receipt attached.');
    },
  ),
  def('delete_expense_receipt_file', { method: 'DELETE', description: 'Remove the receipt of an expense.', params: [req.int('expense_id')], response: MESSAGE }, (ctx, a) => {
    const e = myExpense(ctx, Number(a.expense_id));
    if (e.receipt_file_name === null) throw new ApiError(422, 'The expense has no receipt file.');
    ctx.db.prepare('UPDATE splitwise_expenses SET receipt_file_name = NULL, receipt_content = NULL WHERE id = ?').run(e.id);
    return ok('Receipt deleted.');
  }),
  def(
    'download_expense_receipt_file',
    {
      description: 'Save the receipt of an expense into your file system.',
      params: [req.int('expense_id'), OPT_FS_TOKEN, DOWNLOAD_TO, OVERWRITE],
      response: { message: 'string', file_path: 'string' },
    },
    (ctx, a) => {
      const e = myExpense(ctx, Number(a.expense_id));
      if (e.receipt_file_name === null) throw new ApiError(422, 'The expense has no receipt file.');
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), e.receipt_file_name, e.receipt_content ?? '', a.overwrite === true),
      });
    },
  ),
  def('show_expense', { description: 'Show an expense with its shares.', params: [req.int('expense_id')], response: EXPENSE }, (ctx, a) => expenseView(ctx, myExpense(ctx, Number(a.expense_id)))),
  def(
    'show_group_expenses',
    {
      description: 'Show or search the expenses of a group you belong to.',
      params: [req.int('group_id'), QUERY, PARTICIPANT, MIN_AMOUNT, MAX_AMOUNT, MIN_AT, MAX_AT, DELETED, PAGE_INDEX, PAGE_LIMIT, SORT],
      response: [EXPENSE],
    },
    (ctx, a) => listExpenses(ctx, a, myGroup(ctx, Number(a.group_id)).id),
  ),
  def(
    'show_no_group_expenses',
    {
      description: 'Show or search your expenses outside any group.',
      params: [QUERY, PARTICIPANT, PAGE_INDEX, PAGE_LIMIT, MIN_AMOUNT, MAX_AMOUNT, MIN_AT, MAX_AT, DELETED, SORT],
      response: [EXPENSE],
    },
    (ctx, a) => listExpenses(ctx, a, null),
  ),
  def(
    'update_expense',
    {
      method: 'PATCH',
      description: 'Change an expense: description, amount, payer or shares.',
      params: [req.int('expense_id'), opt.str('description'), opt.num('paid_amount'), opt.str('payer_email', { constraints: EMAIL }), opt.list('debtor_emails'), opt.numbers('debt_amounts')],
      response: MESSAGE,
    },
    (ctx, a) => {
      const e = myExpense(ctx, Number(a.expense_id));
      if (a.debt_amounts !== null && a.debtor_emails === null) throw new ApiError(422, 'debt_amounts can only be passed together with debtor_emails.');
      const total = optNum(a, 'paid_amount') === null ? e.paid_amount : positive(Number(a.paid_amount), 'paid amount');
      const payer = optStr(a, 'payer_email') === null ? e.payer_id : splitwiseUser(ctx, str(a, 'payer_email')).id;
      const current = sharesOf(ctx, e.id);
      const emails = (a.debtor_emails as string[] | null) ?? current.map((s) => userById(ctx, s.debtor_id)!.email);
      // Shares change when the debtors or the total change; new debtors without amounts split equally.
      const resplit = a.debtor_emails !== null || total !== e.paid_amount;
      const shares = resplit ? resolveShares(ctx, total, emails, (a.debt_amounts as number[] | null) ?? null) : current.map((s) => ({ debtor: s.debtor_id, amount: s.debt_amount }));
      requireGroupMembers(ctx, e.group_id, [payer, ...shares.map((s) => s.debtor)]);
      ctx.db.prepare('UPDATE splitwise_expenses SET description = ?, paid_amount = ?, payer_id = ? WHERE id = ?').run(optStr(a, 'description') ?? e.description, total, payer, e.id);
      if (resplit) {
        ctx.db.prepare('DELETE FROM splitwise_expense_shares WHERE expense_id = ?').run(e.id);
        for (const s of shares) ctx.db.prepare('INSERT INTO splitwise_expense_shares (expense_id, debtor_id, debt_amount) VALUES (?, ?, ?)').run(e.id, s.debtor, s.amount);
      }
      return ok('Expense updated.');
    },
  ),
  def('delete_expense', { method: 'DELETE', description: 'Mark an expense you take part in as deleted.', params: [req.int('expense_id')], response: MESSAGE }, (ctx, a) => {
    const e = myExpense(ctx, Number(a.expense_id));
    if (e.deleted === 1) throw new ApiError(422, 'The expense is already deleted.');
    ctx.db.prepare('UPDATE splitwise_expenses SET deleted = 1 WHERE id = ?').run(e.id);
    return ok('Expense deleted.');
  }),
  def('undelete_expense', { method: 'PATCH', description: 'Restore a deleted expense.', params: [req.int('expense_id')], response: MESSAGE }, (ctx, a) => {
    const e = myExpense(ctx, Number(a.expense_id));
    if (e.deleted === 0) throw new ApiError(422, 'The expense is not deleted.');
    ctx.db.prepare('UPDATE splitwise_expenses SET deleted = 0 WHERE id = ?').run(e.id);
    return ok('Expense restored.');
  }),
  ...commentApis('expense'),

  // Payments.
  def(
    'record_payment',
    {
      description: 'Record that one person paid another (no money moves).',
      params: [
        opt.int('group_id'),
        req.str('payer_email', { constraints: EMAIL }),
        req.str('receiver_email', { constraints: EMAIL }),
        req.num('amount'),
        opt.str('description'),
        opt.str('receipt_file_path', { desc: 'Absolute path of a proof of payment in your file system.' }),
        OPT_FS_TOKEN,
      ],
      response: { message: 'string', payment_id: 1 },
    },
    (ctx, a) => {
      const amount = positive(Number(a.amount), 'amount');
      const payer = splitwiseUser(ctx, str(a, 'payer_email')).id;
      const receiver = splitwiseUser(ctx, str(a, 'receiver_email')).id;
      if (payer === receiver) throw new ApiError(422, 'The payer and the receiver must be different people.');
      const groupId = optNum(a, 'group_id');
      if (groupId === null && payer !== me(ctx) && receiver !== me(ctx)) throw new ApiError(422, 'A payment outside a group must involve you as the payer or the receiver.');
      requireGroupMembers(ctx, groupId, [payer, receiver]);
      const id = recordPayment(ctx, groupId, payer, receiver, amount, optStr(a, 'description') ?? 'Payment');
      if (optStr(a, 'receipt_file_path') !== null) attachReceipt(ctx, 'splitwise_payments', id, a, true, null);
      return ok('Payment recorded.', { payment_id: id });
    },
  ),
  def(
    'attach_payment_receipt_file',
    { description: 'Attach a receipt from your file system to a payment.', params: [req.int('payment_id'), RECEIPT, OVERWRITE, FS_TOKEN], response: MESSAGE },
    (ctx, a) => {
      const p = myPayment(ctx, Number(a.payment_id));
      attachReceipt(ctx, 'splitwise_payments', p.id, a, a.overwrite === true, p.receipt_file_name);
      return ok('Receipt attached.');
    },
  ),
  def('delete_payment_receipt_file', { method: 'DELETE', description: 'Remove the receipt of a payment.', params: [req.int('payment_id')], response: MESSAGE }, (ctx, a) => {
    const p = myPayment(ctx, Number(a.payment_id));
    if (p.receipt_file_name === null) throw new ApiError(422, 'The payment has no receipt file.');
    ctx.db.prepare('UPDATE splitwise_payments SET receipt_file_name = NULL, receipt_content = NULL WHERE id = ?').run(p.id);
    return ok('Receipt deleted.');
  }),
  def(
    'download_payment_receipt_file',
    { description: 'Save the receipt of a payment into your file system.', params: [req.int('payment_id'), DOWNLOAD_TO, OVERWRITE, FS_TOKEN], response: { message: 'string', file_path: 'string' } },
    (ctx, a) => {
      const p = myPayment(ctx, Number(a.payment_id));
      if (p.receipt_file_name === null) throw new ApiError(422, 'The payment has no receipt file.');
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), p.receipt_file_name, p.receipt_content ?? '', a.overwrite === true),
      });
    },
  ),
  def('show_payment', { description: 'Show a payment.', params: [req.int('payment_id')], response: PAYMENT }, (ctx, a) => paymentView(ctx, myPayment(ctx, Number(a.payment_id)))),
  def(
    'show_group_payments',
    {
      description: 'Show or search the payments of a group you belong to.',
      params: [req.int('group_id'), QUERY, PARTICIPANT, MIN_AMOUNT, MAX_AMOUNT, MIN_AT, MAX_AT, DELETED, PAGE_INDEX, PAGE_LIMIT, SORT],
      response: [PAYMENT],
    },
    (ctx, a) => listPayments(ctx, a, myGroup(ctx, Number(a.group_id)).id),
  ),
  def(
    'show_no_group_payments',
    {
      description: 'Show or search your payments outside any group.',
      params: [QUERY, PARTICIPANT, MIN_AMOUNT, MAX_AMOUNT, MIN_AT, MAX_AT, PAGE_INDEX, PAGE_LIMIT, DELETED, SORT],
      response: [PAYMENT],
    },
    (ctx, a) => listPayments(ctx, a, null),
  ),
  def(
    'update_payment',
    { method: 'PATCH', description: 'Change the amount or description of a payment.', params: [req.int('payment_id'), opt.num('amount'), opt.str('description')], response: MESSAGE },
    (ctx, a) => {
      const p = myPayment(ctx, Number(a.payment_id));
      const amount = optNum(a, 'amount') === null ? p.amount : positive(Number(a.amount), 'amount');
      ctx.db.prepare('UPDATE splitwise_payments SET amount = ?, description = ? WHERE id = ?').run(amount, optStr(a, 'description') ?? p.description, p.id);
      return ok('Payment updated.');
    },
  ),
  def('delete_payment', { method: 'DELETE', description: 'Mark a payment you take part in as deleted.', params: [req.int('payment_id')], response: MESSAGE }, (ctx, a) => {
    const p = myPayment(ctx, Number(a.payment_id));
    if (p.deleted === 1) throw new ApiError(422, 'The payment is already deleted.');
    ctx.db.prepare('UPDATE splitwise_payments SET deleted = 1 WHERE id = ?').run(p.id);
    return ok('Payment deleted.');
  }),
  def('undelete_payment', { method: 'PATCH', description: 'Restore a deleted payment.', params: [req.int('payment_id')], response: MESSAGE }, (ctx, a) => {
    const p = myPayment(ctx, Number(a.payment_id));
    if (p.deleted === 0) throw new ApiError(422, 'The payment is not deleted.');
    ctx.db.prepare('UPDATE splitwise_payments SET deleted = 0 WHERE id = ?').run(p.id);
    return ok('Payment restored.');
  }),

  // Balances.
  def(
    'show_person_balance',
    {
      description: 'What you and one person owe each other, per group (no group: group_id null).',
      params: [req.str('email', { constraints: EMAIL })],
      response: { direction: 'you_owe_them', total: 0.0, breakdown: [{ group_id: 1, group_name: 'string', direction: 'you_owe_them', amount: 0.0 }] },
    },
    (ctx, a) => {
      const other = splitwiseUser(ctx, str(a, 'email'));
      const net = netBetween(ctx, me(ctx), other.id);
      const breakdown = [...net].filter(([, v]) => v !== 0).map(([g, v]) => ({ group_id: g, group_name: groupName(ctx, g), direction: direction(v), amount: Math.abs(v) }));
      const total = round2([...net.values()].reduce((s, x) => s + x, 0));
      return { direction: direction(total), total: Math.abs(total), breakdown };
    },
  ),
  def(
    'show_people_balance',
    {
      description: 'What you owe each person and they owe you, over all groups.',
      response: { you_owe_others: 0.0, others_owe_you: 0.0, breakdown: [{ email: 'user@example.com', name: 'string', direction: 'you_owe_them', amount: 0.0 }] },
    },
    (ctx) => {
      const self = me(ctx);
      const byPerson = new Map<number, number>();
      for (const e of debtEdges(ctx, self)) {
        if (e.from === self) byPerson.set(e.to, (byPerson.get(e.to) ?? 0) + e.amount);
        else if (e.to === self) byPerson.set(e.from, (byPerson.get(e.from) ?? 0) - e.amount);
      }
      const rows = [...byPerson]
        .map(([id, v]) => [id, round2(v)] as const)
        .filter(([, v]) => v !== 0)
        .sort((x, y) => x[0] - y[0]);
      return {
        you_owe_others: round2(rows.reduce((s, [, v]) => s + Math.max(v, 0), 0)),
        others_owe_you: round2(rows.reduce((s, [, v]) => s + Math.max(-v, 0), 0)),
        breakdown: rows.map(([id, v]) => {
          const u = userById(ctx, id)!;
          return { email: u.email, name: fullName(u), direction: direction(v), amount: Math.abs(v) };
        }),
      };
    },
  ),
  def(
    'show_group_balance',
    {
      description: 'Who owes whom in a group; without group_id, your balances outside groups.',
      params: [opt.int('group_id'), opt.str('email', { constraints: EMAIL })],
      response: [{ source: PERSON, source_owes_to_targets: SIDE, targets_owe_to_source: SIDE }],
    },
    (ctx, a) => {
      const self = me(ctx);
      const groupId = optNum(a, 'group_id');
      let sources: number[];
      if (groupId === null) {
        if (optStr(a, 'email') !== null && splitwiseUser(ctx, str(a, 'email')).id !== self) throw new ApiError(422, 'Without a group_id, email can only be your own email.');
        sources = [self];
      } else {
        const g = myGroup(ctx, groupId);
        sources = optStr(a, 'email') === null ? membersOf(ctx, g.id) : [splitwiseUser(ctx, str(a, 'email')).id];
        if (!sources.every((s) => isMember(ctx, g.id, s))) throw new ApiError(422, 'The user is not a member of this group.');
      }
      const net = pairwiseNet(ctx, self, groupId);
      const side = (entries: [number, number][]) => ({
        total: round2(entries.reduce((s, [, v]) => s + v, 0)),
        breakdown: entries.map(([id, amount]) => {
          const u = userById(ctx, id)!;
          return { email: u.email, name: fullName(u), amount };
        }),
      });
      return sources.map((src) => {
        const owes: [number, number][] = [];
        const owed: [number, number][] = [];
        for (const [key, v] of net) {
          const [from, to] = key.split(':').map(Number) as [number, number];
          if (from === src) owes.push([to, v]);
          if (to === src) owed.push([from, v]);
        }
        return { source: person(ctx, src), source_owes_to_targets: side(owes), targets_owe_to_source: side(owed) };
      });
    },
  ),
  def(
    'show_groups_balance',
    {
      description: 'What you owe and are owed in each of your groups (no group: group_id null).',
      response: { you_owe_others: 0.0, others_owe_you: 0.0, breakdown: [{ group_id: 1, group_name: 'string', you_owe_others: 0.0, others_owe_you: 0.0 }] },
    },
    (ctx) => {
      const self = me(ctx);
      const groups: (number | null)[] = [
        ...(
          ctx.db.prepare('SELECT g.id FROM splitwise_groups g JOIN splitwise_group_members m ON m.group_id = g.id WHERE m.user_id = ? AND g.deleted = 0 ORDER BY g.id').all(self) as { id: number }[]
        ).map((r) => r.id),
        null,
      ];
      const breakdown = groups.map((g) => {
        let owe = 0;
        let owed = 0;
        for (const [key, v] of pairwiseNet(ctx, self, g)) {
          const [from, to] = key.split(':').map(Number);
          if (from === self) owe += v;
          if (to === self) owed += v;
        }
        return { group_id: g, group_name: groupName(ctx, g), you_owe_others: round2(owe), others_owe_you: round2(owed) };
      });
      return { you_owe_others: round2(breakdown.reduce((s, b) => s + b.you_owe_others, 0)), others_owe_you: round2(breakdown.reduce((s, b) => s + b.others_owe_you, 0)), breakdown };
    },
  ),
  def(
    'settle_up',
    {
      description: 'Record the payment that clears your balance with someone in a group (or outside groups).',
      params: [opt.int('group_id'), req.str('email', { constraints: EMAIL }), opt.str('description', { default: 'Settle up balance.' })],
      response: MESSAGE,
    },
    (ctx, a) => {
      const self = me(ctx);
      const other = splitwiseUser(ctx, str(a, 'email'));
      const groupId = optNum(a, 'group_id');
      if (groupId !== null) requireGroupMembers(ctx, groupId, [self, other.id]);
      const owe = netBetween(ctx, self, other.id).get(groupId) ?? 0;
      if (owe === 0) throw new ApiError(422, 'There is no outstanding balance to settle with this user.');
      const [payer, receiver] = owe > 0 ? [self, other.id] : [other.id, self];
      recordPayment(ctx, groupId, payer, receiver, Math.abs(owe), str(a, 'description') || 'Settle up balance.');
      return ok('Balance settled.');
    },
  ),
  ...commentApis('payment'),
  ...notificationApis('splitwise', { type: 'expense_added' }),
];

function recordPayment(ctx: ApiContext, groupId: number | null, payer: number, receiver: number, amount: number, description: string): number {
  const id = Number(
    ctx.db
      .prepare(
        'INSERT INTO splitwise_payments (group_id, creator_id, payer_id, receiver_id, amount, description, receipt_file_name, receipt_content, deleted, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, 0, ?)',
      )
      .run(groupId, me(ctx), payer, receiver, amount, description, ctx.now).lastInsertRowid,
  );
  for (const u of [payer, receiver]) notify(ctx, u, 'payment_added', 'Payment recorded', `${myName(ctx)} recorded a payment of $${amount}.`, { payment_id: id });
  return id;
}

/** Removes a member whose balances in the group are all settled. */
function leaveGroup(ctx: ApiContext, g: GroupRow, userId: number): void {
  if (!isMember(ctx, g.id, userId)) throw new ApiError(422, 'The user is not a member of this group.');
  for (const key of pairwiseNet(ctx, me(ctx), g.id).keys())
    if (key.split(':').map(Number).includes(userId)) throw new ApiError(422, 'The user has an outstanding balance in this group; settle up first.');
  ctx.db.prepare('DELETE FROM splitwise_group_members WHERE group_id = ? AND user_id = ?').run(g.id, userId);
}

/** AppWorld's routes of the splitwise app. */
const S = '/splitwise';
export const splitwiseApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('splitwise', { verification: true, notifications: true }),
  search_users: `GET ${S}/users`,
  show_activity: `GET ${S}/account/activity`,
  show_groups: `GET ${S}/groups`,
  create_group: `POST ${S}/groups`,
  show_group: `GET ${S}/groups/{group_id}`,
  delete_group: `DELETE ${S}/groups/{group_id}`,
  update_group: `PATCH ${S}/groups/{group_id}`,
  undelete_group: `PATCH ${S}/groups/{group_id}/undelete`,
  add_member_to_group: `POST ${S}/groups/{group_id}/members`,
  remove_member_from_group: `DELETE ${S}/groups/{group_id}/members/{user_email}`,
  exit_group: `POST ${S}/groups/{group_id}/members/exit`,
  regenerate_invitation_code: `PATCH ${S}/group_invitation/{group_id}/regenerate`,
  accept_group_invitation: `POST ${S}/group_invitation/{invitation_code}/accept`,
  record_expense: `POST ${S}/expenses`,
  download_expense_receipt_file: `GET ${S}/expenses/{expense_id}/file`,
  attach_expense_receipt_file: `POST ${S}/expenses/{expense_id}/file`,
  delete_expense_receipt_file: `DELETE ${S}/expenses/{expense_id}/file`,
  show_expense: `GET ${S}/expenses/{expense_id}`,
  delete_expense: `DELETE ${S}/expenses/{expense_id}`,
  update_expense: `PATCH ${S}/expenses/{expense_id}`,
  show_group_expenses: `GET ${S}/group/{group_id}/expenses`,
  show_no_group_expenses: `GET ${S}/no_group/expenses`,
  undelete_expense: `PATCH ${S}/expenses/{expense_id}/undelete`,
  show_expense_comments: `GET ${S}/expenses/{expense_id}/comments`,
  post_expense_comment: `POST ${S}/expenses/{expense_id}/comments`,
  show_expense_comment: `GET ${S}/expense_comments/{comment_id}`,
  delete_expense_comment: `DELETE ${S}/expense_comments/{comment_id}`,
  update_expense_comment: `PATCH ${S}/expense_comments/{comment_id}`,
  record_payment: `POST ${S}/payments`,
  download_payment_receipt_file: `GET ${S}/payments/{payment_id}/file`,
  attach_payment_receipt_file: `POST ${S}/payments/{payment_id}/file`,
  delete_payment_receipt_file: `DELETE ${S}/payments/{payment_id}/file`,
  show_payment: `GET ${S}/payments/{payment_id}`,
  delete_payment: `DELETE ${S}/payments/{payment_id}`,
  update_payment: `PATCH ${S}/payments/{payment_id}`,
  show_group_payments: `GET ${S}/group/{group_id}/payments`,
  show_no_group_payments: `GET ${S}/no_group/payments`,
  undelete_payment: `PATCH ${S}/payments/{payment_id}/undelete`,
  show_person_balance: `POST ${S}/balance/person/`,
  show_people_balance: `POST ${S}/balance/people`,
  show_group_balance: `GET ${S}/balance/group`,
  show_groups_balance: `GET ${S}/balance/groups`,
  settle_up: `POST ${S}/settle_up`,
  show_payment_comments: `GET ${S}/payments/{payment_id}/comments`,
  post_payment_comment: `POST ${S}/payments/{payment_id}/comments`,
  show_payment_comment: `GET ${S}/payment_comments/{comment_id}`,
  delete_payment_comment: `DELETE ${S}/payment_comments/{comment_id}`,
  update_payment_comment: `PATCH ${S}/payment_comments/{comment_id}`,
});
