// venmo: friends, balance, transactions and payment requests, with Venmo's money rules.
import { declarer, me, notFound, ok, optBool, optNum, optStr, str } from '../define.js';
import { inDateRange, pageOf } from '../listing.js';
import { rankByQuery, rankedPage } from '../ranked.js';
import { DATE_RANGE, opt, PAGING, req, sortBy, ACCESS_TOKEN, EMAIL } from '../params.js';
import { ApiError, type ApiContext, type ApiDef, type Json } from '../types.js';
import { paymentCardApis } from './shared/payment-cards.js';
import { DOWNLOAD_PARAMS, downloadToFileSystem } from './file_system.js';
import { accountApis, userByEmail, userById, type UserRow } from './shared/accounts.js';
import { routed, sharedRoutes } from '../routes.js';

const def = declarer('venmo');

interface TxRow {
  id: number;
  sender_id: number;
  receiver_id: number;
  amount: number;
  description: string;
  private: number;
  payment_card_id: number | null;
  like_count: number;
  created_at: string;
  updated_at?: string | null;
}
interface RequestRow {
  id: number;
  sender_id: number;
  receiver_id: number;
  amount: number;
  description: string;
  private: number;
  created_at: string;
  approved_at: string | null;
  denied_at: string | null;
}
interface CardRow {
  id: number;
  user_id: number;
  card_name: string;
  owner_name: string;
  card_number: string;
  expiry_year: number;
  expiry_month: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const personOf = (u: UserRow | undefined): Json => (u ? { name: `${u.first_name} ${u.last_name}`, email: u.email } : null);
/** The card's last four digits, or null when paid from the balance (AppWorld shows digits, never the card id). */
const cardDigits = (ctx: ApiContext, id: number | null) =>
  id === null ? null : ((ctx.db.prepare('SELECT card_number FROM venmo_payment_cards WHERE id = ?').get(id) as { card_number: string } | undefined)?.card_number.slice(-4) ?? null);
const commentCount = (ctx: ApiContext, id: number) => (ctx.db.prepare('SELECT count(*) AS n FROM venmo_comments WHERE transaction_id = ?').get(id) as { n: number }).n;
const txView = (ctx: ApiContext, t: TxRow) => ({
  transaction_id: t.id,
  amount: t.amount,
  description: t.description,
  created_at: t.created_at,
  updated_at: t.updated_at ?? t.created_at,
  private: t.private === 1,
  like_count: t.like_count,
  comment_count: commentCount(ctx, t.id),
  payment_card_digits: cardDigits(ctx, t.payment_card_id),
  sender: personOf(userById(ctx, t.sender_id)),
  receiver: personOf(userById(ctx, t.receiver_id)),
});
const requestStatus = (r: RequestRow) => (r.approved_at ? 'approved' : r.denied_at ? 'denied' : 'pending');
const requestView = (ctx: ApiContext, r: RequestRow) => ({
  payment_request_id: r.id,
  amount: r.amount,
  description: r.description,
  created_at: r.created_at,
  updated_at: r.approved_at ?? r.denied_at ?? r.created_at,
  approved_at: r.approved_at,
  denied_at: r.denied_at,
  private: r.private === 1,
  sender: personOf(userById(ctx, r.sender_id)),
  receiver: personOf(userById(ctx, r.receiver_id)),
});

interface TransferRow {
  id: number;
  user_id: number;
  transfer_type: string;
  amount: number;
  payment_card_digits: string;
  created_at: string;
}
const transferView = (t: TransferRow) => ({ bank_transfer_id: t.id, transfer_type: t.transfer_type, amount: t.amount, payment_card_digits: t.payment_card_digits, created_at: t.created_at });
function recordTransfer(ctx: ApiContext, type: 'card_to_venmo' | 'venmo_to_card', amount: number, card: CardRow): number {
  return Number(
    ctx.db
      .prepare('INSERT INTO venmo_bank_transfers (user_id, transfer_type, amount, payment_card_digits, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(me(ctx), type, amount, card.card_number.slice(-4), ctx.now).lastInsertRowid,
  );
}

interface NotificationRow {
  id: number;
  user_id: number;
  type: string;
  title: string;
  message: string;
  read: number;
  created_at: string;
  data: string;
}
const notificationView = (n: NotificationRow) => ({
  notification_id: n.id,
  type: n.type,
  title: n.title,
  message: n.message,
  read: n.read === 1,
  created_at: n.created_at,
  data: JSON.parse(n.data) as Json,
});
const nameOf = (ctx: ApiContext, id: number) => {
  const u = userById(ctx, id);
  return u ? `${u.first_name} ${u.last_name}` : 'Someone';
};
/** Venmo tells a user about money and requests that concern them. */
function notify(ctx: ApiContext, userId: number, type: string, title: string, message: string, data: Record<string, Json>): void {
  ctx.db
    .prepare('INSERT INTO venmo_notifications (user_id, type, title, message, read, created_at, data) VALUES (?, ?, ?, ?, 0, ?, ?)')
    .run(userId, type, title, message, ctx.now, JSON.stringify(data));
}
function ownNotification(ctx: ApiContext, id: number): NotificationRow {
  const n = ctx.db.prepare('SELECT * FROM venmo_notifications WHERE id = ?').get(id) as NotificationRow | undefined;
  if (!n) notFound('notification');
  if (n.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this notification.');
  return n;
}

/** A transaction the caller may see: public, or private with the caller as a party. */
function visibleTx(ctx: ApiContext, id: number): TxRow {
  const t = ctx.db.prepare('SELECT * FROM venmo_transactions WHERE id = ?').get(id) as TxRow | undefined;
  if (!t) notFound('transaction');
  if (t.private === 1 && t.sender_id !== me(ctx) && t.receiver_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this transaction.');
  return t;
}

interface CommentRow {
  id: number;
  transaction_id: number;
  user_id: number;
  comment: string;
  like_count: number;
  created_at: string;
  updated_at: string;
}
const commentView = (ctx: ApiContext, c: CommentRow) => ({
  transaction_id: c.transaction_id,
  comment: c.comment,
  created_at: c.created_at,
  like_count: c.like_count,
  comment_id: c.id,
  user: personOf(userById(ctx, c.user_id)),
});
function visibleComment(ctx: ApiContext, id: number): CommentRow {
  const c = ctx.db.prepare('SELECT * FROM venmo_comments WHERE id = ?').get(id) as CommentRow | undefined;
  if (!c) notFound('comment');
  visibleTx(ctx, c.transaction_id);
  return c;
}
function ownComment(ctx: ApiContext, id: number): CommentRow {
  const c = visibleComment(ctx, id);
  if (c.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to modify this comment.');
  return c;
}

function venmoUser(ctx: ApiContext, email: string): UserRow {
  const u = userByEmail(ctx, email);
  if (!u || !ctx.db.prepare("SELECT 1 FROM accounts WHERE app = 'venmo' AND user_id = ?").get(u.id)) throw new ApiError(422, 'The user with this email does not exist on Venmo.');
  return u;
}
/** When the caller and `id` became Venmo friends, or null. */
const friendsSince = (ctx: ApiContext, id: number): string | null =>
  (ctx.db.prepare('SELECT created_at FROM venmo_friends WHERE user_id = ? AND friend_id = ?').get(me(ctx), id) as { created_at: string } | undefined)?.created_at ?? null;
const balanceOf = (ctx: ApiContext, id: number) => (ctx.db.prepare('SELECT balance FROM venmo_balances WHERE user_id = ?').get(id) as { balance: number } | undefined)?.balance ?? 0;
const addBalance = (ctx: ApiContext, id: number, delta: number) => {
  if (ctx.db.prepare('UPDATE venmo_balances SET balance = round(balance + ?, 2) WHERE user_id = ?').run(delta, id).changes === 0)
    ctx.db.prepare('INSERT INTO venmo_balances (user_id, balance) VALUES (?, ?)').run(id, round2(delta));
};

function usableCard(ctx: ApiContext, cardId: number): CardRow {
  const c = ctx.db.prepare('SELECT * FROM venmo_payment_cards WHERE id = ?').get(cardId) as CardRow | undefined;
  if (!c || c.user_id !== me(ctx)) throw new ApiError(422, 'The payment card does not exist.');
  const [y, m] = [Number(ctx.now.slice(0, 4)), Number(ctx.now.slice(5, 7))];
  if (c.expiry_year < y || (c.expiry_year === y && c.expiry_month < m)) throw new ApiError(422, 'The payment card has expired.');
  return c;
}

/** Moves money from the caller to `receiver` from the balance or a card; returns the transaction id. */
function pay(ctx: ApiContext, receiverId: number, amount: number, description: string, isPrivate: boolean, cardId: number | null): number {
  const self = me(ctx);
  if (receiverId === self) throw new ApiError(422, 'You cannot send money to yourself.');
  if (cardId === null) {
    if (balanceOf(ctx, self) < amount) throw new ApiError(422, 'Insufficient money in the Venmo balance.');
    addBalance(ctx, self, -amount);
  } else usableCard(ctx, cardId);
  addBalance(ctx, receiverId, amount);
  const r = ctx.db
    .prepare('INSERT INTO venmo_transactions (sender_id, receiver_id, amount, description, private, payment_card_id, like_count, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)')
    .run(self, receiverId, amount, description, isPrivate ? 1 : 0, cardId, ctx.now);
  const id = Number(r.lastInsertRowid);
  notify(ctx, receiverId, 'transaction_received', 'Money received', `${nameOf(ctx, self)} sent you $${amount}.`, { transaction_id: id });
  return id;
}

function ownRequest(ctx: ApiContext, id: number, side: 'sender_id' | 'receiver_id'): RequestRow {
  const r = ctx.db.prepare('SELECT * FROM venmo_payment_requests WHERE id = ?').get(id) as RequestRow | undefined;
  if (!r) notFound('payment request');
  if (r[side] !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this payment request.');
  return r;
}

/** AppWorld's `value > 0.0`. */
const AMOUNT = { constraints: [{ kind: 'exclusiveMin' as const, value: 0 }] };
const TX_SORT = ['amount', 'created_at', 'like_count'];
const REQUEST_STATUS = opt.str('status', { constraints: [{ kind: 'enum', values: ['pending', 'approved', 'denied'] }] });

const USER_RESPONSE = { first_name: 'string', last_name: 'string', email: 'user@example.com', registered_at: '2019-01-01T00:00:00', friends_since: '2019-01-01T00:00:00' };
const TRANSACTION_RESPONSE = {
  transaction_id: 1,
  amount: 0.0,
  description: 'string',
  created_at: '2019-01-01T00:00:00',
  updated_at: '2019-01-01T00:00:00',
  private: true,
  like_count: 1,
  payment_card_digits: 'string',
  comment_count: 1,
  sender: { name: 'string', email: 'user@example.com' },
  receiver: { name: 'string', email: 'user@example.com' },
};
const TRANSACTION_COMMENT_RESPONSE = { transaction_id: 1, comment: 'string', created_at: '2019-01-01T00:00:00', like_count: 1, comment_id: 1, user: { name: 'string', email: 'user@example.com' } };
const PAYMENT_REQUEST_RESPONSE = {
  payment_request_id: 1,
  amount: 0.0,
  description: 'string',
  created_at: '2019-01-01T00:00:00',
  updated_at: '2019-01-01T00:00:00',
  approved_at: '2019-01-01T00:00:00',
  denied_at: '2019-01-01T00:00:00',
  private: true,
  sender: { name: 'string', email: 'user@example.com' },
  receiver: { name: 'string', email: 'user@example.com' },
};

/** The received and sent payment-request listings: the same API on the request's other side. */
function paymentRequestList(name: string, side: 'receiver_id' | 'sender_id', description: string): ApiDef {
  return def(name, { response: [PAYMENT_REQUEST_RESPONSE], description, params: [ACCESS_TOKEN, REQUEST_STATUS, ...PAGING] }, (ctx, a) => {
    const rows = (ctx.db.prepare(`SELECT * FROM venmo_payment_requests WHERE ${side} = ? ORDER BY id`).all(me(ctx)) as RequestRow[]).filter(
      (r) => optStr(a, 'status') === null || requestStatus(r) === optStr(a, 'status'),
    );
    return pageOf(
      rows.map((r) => requestView(ctx, r)),
      a,
      ['amount', 'created_at'],
    );
  });
}

const apis: ApiDef[] = [
  ...accountApis('venmo', {
    verification: true,
    profileAuth: true,
    extras: {
      response: { venmo_balance: 0.0, friend_count: 1 },
      view: (ctx, id) => ({ venmo_balance: balanceOf(ctx, id), friend_count: (ctx.db.prepare('SELECT count(*) AS n FROM venmo_friends WHERE user_id = ?').get(id) as { n: number }).n }),
      profile: { response: { friends_since: '2019-01-01T00:00:00' }, view: (ctx, id) => ({ friends_since: friendsSince(ctx, id) }) },
    },
  }),
  def(
    'search_users',
    {
      description: 'Search Venmo users by name or email.',
      params: [opt.str('query', { default: '' }), ...PAGING],
      response: [USER_RESPONSE],
    },
    (ctx, a) => {
      me(ctx);
      const found = ctx.db.prepare("SELECT u.*, a.created_at AS registered_at FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = 'venmo' ORDER BY u.id").all() as (UserRow & {
        registered_at: string;
      })[];
      const rows = rankByQuery(found, a.query, (u) => [u.first_name, u.last_name, u.email]);
      return pageOf(
        rows.map((u) => ({ first_name: u.first_name, last_name: u.last_name, email: u.email, registered_at: u.registered_at, friends_since: friendsSince(ctx, u.id) })),
        a,
        [],
      );
    },
  ),
  def(
    'search_friends',
    {
      response: [USER_RESPONSE],
      description: "Search your or others' friends by name or email.",
      params: [opt.str('query', { default: '' }), opt.str('user_email', { desc: 'Search the friends of this user instead of yours.', constraints: EMAIL }), ...PAGING],
    },
    (ctx, a) => {
      const whose = optStr(a, 'user_email') === null ? me(ctx) : venmoUser(ctx, str(a, 'user_email')).id;
      const found = ctx.db
        .prepare(
          "SELECT u.*, f.created_at AS friends_since, acc.created_at AS registered_at FROM users u JOIN venmo_friends f ON f.friend_id = u.id JOIN accounts acc ON acc.user_id = u.id AND acc.app = 'venmo' WHERE f.user_id = ? ORDER BY f.id",
        )
        .all(whose) as (UserRow & { friends_since: string; registered_at: string })[];
      const rows = rankByQuery(found, a.query, (u) => [u.first_name, u.last_name, u.email]);
      return pageOf(
        rows.map((u) => ({ first_name: u.first_name, last_name: u.last_name, email: u.email, registered_at: u.registered_at, friends_since: u.friends_since })),
        a,
        [],
      );
    },
  ),
  def('add_friend', { description: 'Add a friend.', params: [req.str('user_email', { constraints: EMAIL })], response: { message: 'string' } }, (ctx, a) => {
    const u = venmoUser(ctx, str(a, 'user_email'));
    if (u.id === me(ctx)) throw new ApiError(422, 'You cannot befriend yourself.');
    if (ctx.db.prepare('SELECT 1 FROM venmo_friends WHERE user_id = ? AND friend_id = ?').get(me(ctx), u.id)) throw new ApiError(422, 'You are already friends with this user.');
    ctx.db.prepare('INSERT INTO venmo_friends (user_id, friend_id, created_at) VALUES (?, ?, ?)').run(me(ctx), u.id, ctx.now);
    ctx.db.prepare('INSERT OR IGNORE INTO venmo_friends (user_id, friend_id, created_at) VALUES (?, ?, ?)').run(u.id, me(ctx), ctx.now);
    return ok('Friend added.');
  }),
  def('remove_friend', { method: 'DELETE', description: 'Remove a friend.', params: [req.str('user_email', { constraints: EMAIL })], response: { message: 'string' } }, (ctx, a) => {
    const u = venmoUser(ctx, str(a, 'user_email'));
    if (ctx.db.prepare('DELETE FROM venmo_friends WHERE user_id = ? AND friend_id = ?').run(me(ctx), u.id).changes === 0) throw new ApiError(422, 'You are not friends with this user.');
    ctx.db.prepare('DELETE FROM venmo_friends WHERE user_id = ? AND friend_id = ?').run(u.id, me(ctx));
    return ok('Friend removed.');
  }),
  def('show_venmo_balance', { response: { venmo_balance: 0.0 }, description: 'Show your Venmo balance.' }, (ctx) => ({ venmo_balance: balanceOf(ctx, me(ctx)) })),
  def(
    'add_to_venmo_balance',
    { description: 'Add money to your Venmo balance from a payment card.', params: [req.num('amount', AMOUNT), req.int('payment_card_id')], response: { message: 'string', bank_transfer_id: 1 } },
    (ctx, a) => {
      const card = usableCard(ctx, Number(a.payment_card_id));
      addBalance(ctx, me(ctx), num2(a.amount));
      return ok('Money added to the Venmo balance.', { bank_transfer_id: recordTransfer(ctx, 'card_to_venmo', num2(a.amount), card) });
    },
  ),
  def(
    'withdraw_from_venmo_balance',
    { description: 'Withdraw money from your Venmo balance to a payment card.', params: [req.num('amount', AMOUNT), req.int('payment_card_id')], response: { message: 'string', bank_transfer_id: 1 } },
    (ctx, a) => {
      const card = usableCard(ctx, Number(a.payment_card_id));
      if (balanceOf(ctx, me(ctx)) < num2(a.amount)) throw new ApiError(422, 'Insufficient money in the Venmo balance.');
      addBalance(ctx, me(ctx), -num2(a.amount));
      return ok('Money withdrawn from the Venmo balance.', { bank_transfer_id: recordTransfer(ctx, 'venmo_to_card', num2(a.amount), card) });
    },
  ),
  def(
    'show_bank_transfer_history',
    {
      response: [{ bank_transfer_id: 1, transfer_type: 'card_to_venmo', amount: 0.0, payment_card_digits: 'string', created_at: '2019-01-01T00:00:00' }],
      description: 'Show the history of money moved between your Venmo balance and payment cards.',
      params: [ACCESS_TOKEN, opt.str('transfer_type', { constraints: [{ kind: 'enum', values: ['card_to_venmo', 'venmo_to_card'] }] }), ...PAGING],
    },
    (ctx, a) => {
      const rows = (ctx.db.prepare('SELECT * FROM venmo_bank_transfers WHERE user_id = ? ORDER BY id DESC').all(me(ctx)) as TransferRow[]).filter(
        (t) => optStr(a, 'transfer_type') === null || t.transfer_type === optStr(a, 'transfer_type'),
      );
      return pageOf(rows.map(transferView), a, []);
    },
  ),
  def(
    'download_bank_transfer_receipt',
    { description: 'Download the receipt of a bank transfer into your file system.', params: [req.int('bank_transfer_id'), ...DOWNLOAD_PARAMS], response: { message: 'string', file_path: 'string' } },
    (ctx, a) => {
      const t = ctx.db.prepare('SELECT * FROM venmo_bank_transfers WHERE id = ?').get(a.bank_transfer_id) as TransferRow | undefined;
      if (!t) notFound('bank transfer');
      if (t.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this bank transfer.');
      const v = transferView(t);
      const text = `Venmo bank transfer receipt\nTransfer ID: ${t.id}\nType: ${t.transfer_type}\nAmount: $${t.amount}\nCard ending: ${t.payment_card_digits}\nDate: ${t.created_at}\n`;
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(
          ctx,
          str(a, 'file_system_access_token'),
          optStr(a, 'download_to_file_path'),
          `venmo_bank_transfer_${v.bank_transfer_id}.txt`,
          text,
          optBool(a, 'overwrite') === true,
        ),
      });
    },
  ),
  def(
    'download_transaction_receipt',
    { description: 'Download the receipt of a transaction into your file system.', params: [req.int('transaction_id'), ...DOWNLOAD_PARAMS], response: { message: 'string', file_path: 'string' } },
    (ctx, a) => {
      const t = visibleTx(ctx, Number(a.transaction_id));
      if (t.sender_id !== me(ctx) && t.receiver_id !== me(ctx)) throw new ApiError(401, 'Only the sender or the receiver can download this receipt.');
      const v = txView(ctx, t) as { sender: { name: string } | null; receiver: { name: string } | null };
      const text = `Venmo transaction receipt\nTransaction ID: ${t.id}\nFrom: ${v.sender?.name ?? ''}\nTo: ${v.receiver?.name ?? ''}\nAmount: $${t.amount}\nDescription: ${t.description}\nDate: ${t.created_at}\n`;
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), `venmo_transaction_${t.id}.txt`, text, optBool(a, 'overwrite') === true),
      });
    },
  ),
  ...paymentCardApis('venmo', 'venmo_payment_cards', { showCvv: true }),
  def(
    'show_transactions',
    {
      response: [TRANSACTION_RESPONSE],
      description: 'Get a list of your transactions.',
      params: [
        opt.str('query', { default: '' }),
        opt.str('user_email', { desc: 'Only transactions with this user.', constraints: EMAIL }),
        ...DATE_RANGE,
        opt.int('min_like_count', { default: 0 }),
        opt.int('max_like_count', { default: Number.MAX_SAFE_INTEGER }),
        // AppWorld: amounts must be > 0 (cents are the smallest unit here), min defaults to 0.01.
        opt.num('min_amount', { default: 0.01, ...AMOUNT }),
        opt.num('max_amount', { default: Number.MAX_SAFE_INTEGER, ...AMOUNT }),
        opt.bool('private'),
        opt.str('direction', { desc: 'sent or received.', constraints: [{ kind: 'enum', values: ['sent', 'received'] }] }),
        ...PAGING,
        sortBy(null),
      ],
    },
    (ctx, a) => {
      const self = me(ctx);
      const other = optStr(a, 'user_email') ? (userByEmail(ctx, str(a, 'user_email'))?.id ?? -1) : null;
      const dir = optStr(a, 'direction');
      const rows = (ctx.db.prepare('SELECT * FROM venmo_transactions WHERE sender_id = ? OR receiver_id = ? ORDER BY id').all(self, self) as TxRow[]).filter(
        (t) =>
          (other === null || t.sender_id === other || t.receiver_id === other) &&
          (dir === null || (dir === 'sent' ? t.sender_id === self : t.receiver_id === self)) &&
          (optNum(a, 'min_amount') === null || t.amount >= optNum(a, 'min_amount')!) &&
          (optNum(a, 'max_amount') === null || t.amount <= optNum(a, 'max_amount')!) &&
          (optNum(a, 'min_like_count') === null || t.like_count >= optNum(a, 'min_like_count')!) &&
          (optNum(a, 'max_like_count') === null || t.like_count <= optNum(a, 'max_like_count')!) &&
          (optBool(a, 'private') === null || (t.private === 1) === optBool(a, 'private')) &&
          inDateRange(t.created_at, a),
      );
      return rankedPage(
        rankByQuery(rows, a.query, (t) => [t.description]).map((t) => txView(ctx, t)),
        a,
        TX_SORT,
        '-created_at',
      );
    },
  ),
  def(
    'show_transaction',
    {
      response: TRANSACTION_RESPONSE,
      description: 'Show details of a transaction.',
      params: [req.int('transaction_id')],
    },
    (ctx, a) => txView(ctx, visibleTx(ctx, Number(a.transaction_id))),
  ),
  def(
    'create_transaction',
    {
      description: 'Send money to a user.',
      params: [
        req.str('receiver_email', { constraints: EMAIL }),
        req.num('amount', AMOUNT),
        opt.str('description', { default: '' }),
        opt.int('payment_card_id'),
        opt.bool('private', { default: false }),
      ],
      response: { message: 'string', transaction_id: 1 },
    },
    (ctx, a) => {
      const u = venmoUser(ctx, str(a, 'receiver_email'));
      const id = pay(ctx, u.id, num2(a.amount), str(a, 'description'), optBool(a, 'private') === true, optNum(a, 'payment_card_id'));
      return ok('Sent money.', { transaction_id: id });
    },
  ),
  def(
    'update_transaction',
    {
      method: 'PATCH',
      description: 'Update the description or privacy of a transaction you sent.',
      params: [req.int('transaction_id'), opt.str('description'), opt.bool('private')],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const t = visibleTx(ctx, Number(a.transaction_id));
      if (t.sender_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to update this transaction.');
      const priv = optBool(a, 'private');
      ctx.db
        .prepare('UPDATE venmo_transactions SET description = ?, private = ?, updated_at = ? WHERE id = ?')
        .run(optStr(a, 'description') ?? t.description, priv === null ? t.private : priv ? 1 : 0, ctx.now, t.id);
      return ok('Transaction updated.');
    },
  ),
  def('like_transaction', { description: 'Like a transaction.', params: [req.int('transaction_id')], response: { message: 'string' } }, (ctx, a) => {
    const t = visibleTx(ctx, Number(a.transaction_id));
    if (ctx.db.prepare('SELECT 1 FROM venmo_transaction_likes WHERE user_id = ? AND transaction_id = ?').get(me(ctx), t.id)) throw new ApiError(422, 'You have already liked this transaction.');
    ctx.db.prepare('INSERT INTO venmo_transaction_likes (user_id, transaction_id, created_at) VALUES (?, ?, ?)').run(me(ctx), t.id, ctx.now);
    ctx.db.prepare('UPDATE venmo_transactions SET like_count = like_count + 1 WHERE id = ?').run(t.id);
    return ok('Liked transaction.');
  }),
  def('unlike_transaction', { method: 'DELETE', description: 'Unlike a transaction.', params: [req.int('transaction_id')], response: { message: 'string' } }, (ctx, a) => {
    const t = visibleTx(ctx, Number(a.transaction_id));
    if (ctx.db.prepare('DELETE FROM venmo_transaction_likes WHERE user_id = ? AND transaction_id = ?').run(me(ctx), t.id).changes === 0)
      throw new ApiError(422, 'You have not liked this transaction.');
    ctx.db.prepare('UPDATE venmo_transactions SET like_count = like_count - 1 WHERE id = ?').run(t.id);
    return ok('Unliked transaction.');
  }),
  def(
    'show_transaction_comments',
    {
      response: [TRANSACTION_COMMENT_RESPONSE],
      description: 'Get a list of comments on a transaction.',
      params: [req.int('transaction_id'), ...PAGING],
    },
    (ctx, a) => {
      const t = visibleTx(ctx, Number(a.transaction_id));
      const rows = ctx.db.prepare('SELECT * FROM venmo_comments WHERE transaction_id = ? ORDER BY id').all(t.id) as CommentRow[];
      return pageOf(
        rows.map((c) => commentView(ctx, c)),
        a,
        [],
      );
    },
  ),
  def(
    'show_transaction_comment',
    {
      response: TRANSACTION_COMMENT_RESPONSE,
      description: 'Show a comment on a transaction.',
      params: [req.int('comment_id')],
    },
    (ctx, a) => commentView(ctx, visibleComment(ctx, Number(a.comment_id))),
  ),
  def(
    'create_transaction_comment',
    {
      description: 'Comment on a transaction.',
      params: [req.int('transaction_id'), req.str('comment')],
      response: { message: 'string', comment_id: 1 },
    },
    (ctx, a) => {
      const t = visibleTx(ctx, Number(a.transaction_id));
      const r = ctx.db
        .prepare('INSERT INTO venmo_comments (transaction_id, user_id, comment, like_count, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)')
        .run(t.id, me(ctx), str(a, 'comment'), ctx.now, ctx.now);
      return ok('Comment created.', { comment_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'update_transaction_comment',
    {
      method: 'PATCH',
      description: 'Update your comment on a transaction.',
      params: [req.int('comment_id'), req.str('comment')],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const c = ownComment(ctx, Number(a.comment_id));
      ctx.db.prepare('UPDATE venmo_comments SET comment = ?, updated_at = ? WHERE id = ?').run(str(a, 'comment'), ctx.now, c.id);
      return ok('Comment updated.');
    },
  ),
  def('delete_transaction_comment', { method: 'DELETE', description: 'Delete your comment on a transaction.', params: [req.int('comment_id')], response: { message: 'string' } }, (ctx, a) => {
    const c = ownComment(ctx, Number(a.comment_id));
    ctx.db.prepare('DELETE FROM venmo_comment_likes WHERE comment_id = ?').run(c.id);
    ctx.db.prepare('DELETE FROM venmo_comments WHERE id = ?').run(c.id);
    return ok('Comment deleted.');
  }),
  def('like_transaction_comment', { description: 'Like a comment on a transaction.', params: [req.int('comment_id')], response: { message: 'string' } }, (ctx, a) => {
    const c = visibleComment(ctx, Number(a.comment_id));
    if (ctx.db.prepare('SELECT 1 FROM venmo_comment_likes WHERE user_id = ? AND comment_id = ?').get(me(ctx), c.id)) throw new ApiError(422, 'You have already liked this comment.');
    ctx.db.prepare('INSERT INTO venmo_comment_likes (user_id, comment_id, created_at) VALUES (?, ?, ?)').run(me(ctx), c.id, ctx.now);
    ctx.db.prepare('UPDATE venmo_comments SET like_count = like_count + 1 WHERE id = ?').run(c.id);
    return ok('Liked comment.');
  }),
  def('unlike_transaction_comment', { method: 'DELETE', description: 'Unlike a comment on a transaction.', params: [req.int('comment_id')], response: { message: 'string' } }, (ctx, a) => {
    const c = visibleComment(ctx, Number(a.comment_id));
    if (ctx.db.prepare('DELETE FROM venmo_comment_likes WHERE user_id = ? AND comment_id = ?').run(me(ctx), c.id).changes === 0) throw new ApiError(422, 'You have not liked this comment.');
    ctx.db.prepare('UPDATE venmo_comments SET like_count = like_count - 1 WHERE id = ?').run(c.id);
    return ok('Unliked comment.');
  }),
  paymentRequestList('show_received_payment_requests', 'receiver_id', 'Get a list of payment requests you have received.'),
  paymentRequestList('show_sent_payment_requests', 'sender_id', 'Get a list of payment requests you have sent.'),
  def(
    'create_payment_request',
    {
      description: 'Request money from a user.',
      params: [req.str('user_email', { constraints: EMAIL }), req.num('amount', AMOUNT), opt.str('description', { default: '' }), opt.bool('private', { default: false })],
      response: { message: 'string', payment_request_id: 1 },
    },
    (ctx, a) => {
      const u = venmoUser(ctx, str(a, 'user_email'));
      if (u.id === me(ctx)) throw new ApiError(422, 'You cannot request money from yourself.');
      const r = ctx.db
        .prepare('INSERT INTO venmo_payment_requests (sender_id, receiver_id, amount, description, private, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(me(ctx), u.id, num2(a.amount), str(a, 'description'), optBool(a, 'private') ? 1 : 0, ctx.now);
      notify(ctx, u.id, 'payment_request_received', 'Payment request received', `${nameOf(ctx, me(ctx))} requested $${num2(a.amount)}.`, { payment_request_id: Number(r.lastInsertRowid) });
      return ok('Payment request created.', { payment_request_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'approve_payment_request',
    { description: 'Approve a payment request you received (pays it).', params: [req.int('payment_request_id'), opt.int('payment_card_id')], response: { message: 'string' } },
    (ctx, a) => {
      const r = ownRequest(ctx, Number(a.payment_request_id), 'receiver_id');
      if (requestStatus(r) !== 'pending') throw new ApiError(422, `The payment request has already been ${requestStatus(r)}.`);
      pay(ctx, r.sender_id, r.amount, r.description, r.private === 1, optNum(a, 'payment_card_id'));
      ctx.db.prepare('UPDATE venmo_payment_requests SET approved_at = ? WHERE id = ?').run(ctx.now, r.id);
      notify(ctx, r.sender_id, 'payment_request_approved', 'Payment request approved', `${nameOf(ctx, me(ctx))} approved your request for $${r.amount}.`, { payment_request_id: r.id });
      return ok('Payment request approved.');
    },
  ),
  def('deny_payment_request', { description: 'Deny a payment request you received.', params: [req.int('payment_request_id')], response: { message: 'string' } }, (ctx, a) => {
    const r = ownRequest(ctx, Number(a.payment_request_id), 'receiver_id');
    if (requestStatus(r) !== 'pending') throw new ApiError(422, `The payment request has already been ${requestStatus(r)}.`);
    ctx.db.prepare('UPDATE venmo_payment_requests SET denied_at = ? WHERE id = ?').run(ctx.now, r.id);
    notify(ctx, r.sender_id, 'payment_request_denied', 'Payment request denied', `${nameOf(ctx, me(ctx))} denied your request for $${r.amount}.`, { payment_request_id: r.id });
    return ok('Payment request denied.');
  }),
  def(
    'update_payment_request',
    {
      method: 'PATCH',
      description: 'Update a pending payment request you sent.',
      params: [req.int('payment_request_id'), opt.num('amount', AMOUNT), opt.str('description'), opt.bool('private')],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const r = ownRequest(ctx, Number(a.payment_request_id), 'sender_id');
      if (requestStatus(r) !== 'pending') throw new ApiError(422, `The payment request has already been ${requestStatus(r)}.`);
      const priv = optBool(a, 'private');
      ctx.db
        .prepare('UPDATE venmo_payment_requests SET amount = ?, description = ?, private = ? WHERE id = ?')
        .run(optNum(a, 'amount') === null ? r.amount : round2(optNum(a, 'amount')!), optStr(a, 'description') ?? r.description, priv === null ? r.private : priv ? 1 : 0, r.id);
      return ok('Payment request updated.');
    },
  ),
  def('delete_payment_request', { method: 'DELETE', description: 'Delete a pending payment request you sent.', params: [req.int('payment_request_id')], response: { message: 'string' } }, (ctx, a) => {
    const r = ownRequest(ctx, Number(a.payment_request_id), 'sender_id');
    if (requestStatus(r) !== 'pending') throw new ApiError(422, `The payment request has already been ${requestStatus(r)}.`);
    ctx.db.prepare('DELETE FROM venmo_payment_requests WHERE id = ?').run(r.id);
    return ok('Payment request deleted.');
  }),
  def(
    'show_social_feed',
    {
      response: [
        {
          transaction_id: 1,
          amount: 0.0,
          description: 'string',
          created_at: '2019-01-01T00:00:00',
          updated_at: '2019-01-01T00:00:00',
          private: true,
          like_count: 1,
          comment_count: 1,
          sender: { name: 'string', email: 'user@example.com' },
          receiver: { name: 'string', email: 'user@example.com' },
        },
      ],
      description: 'Show your social feed (transactions of your friends).',
      params: [...PAGING],
    },
    (ctx, a) => {
      const self = me(ctx);
      // Friends' public transactions, newest first, without the card details a transaction view shows its parties.
      const rows = ctx.db
        .prepare(
          'SELECT * FROM venmo_transactions WHERE private = 0 AND (sender_id IN (SELECT friend_id FROM venmo_friends WHERE user_id = ?) OR receiver_id IN (SELECT friend_id FROM venmo_friends WHERE user_id = ?)) ORDER BY created_at DESC, id DESC',
        )
        .all(self, self) as TxRow[];
      return pageOf(
        rows.map((t) => {
          const { payment_card_digits: _d, ...rest } = txView(ctx, t);
          return rest;
        }),
        a,
        [],
      );
    },
  ),
  def(
    'show_notifications',
    {
      response: [{ notification_id: 1, type: 'string', title: 'string', message: 'string', read: true, created_at: '2019-01-01T00:00:00', data: {} }],
      description: 'Get a list of your notifications.',
      params: [...PAGING, opt.bool('read')],
    },
    (ctx, a) => {
      const rows = (ctx.db.prepare('SELECT * FROM venmo_notifications WHERE user_id = ? ORDER BY created_at DESC, id DESC').all(me(ctx)) as NotificationRow[]).filter(
        (n) => optBool(a, 'read') === null || (n.read === 1) === optBool(a, 'read'),
      );
      return pageOf(rows.map(notificationView), a, []);
    },
  ),
  def('show_notifications_count', { response: { notifications_count: 0.0 }, description: 'Get the count of your notifications.', params: [ACCESS_TOKEN, opt.bool('read')] }, (ctx, a) => {
    const read = optBool(a, 'read');
    const row = (
      read === null
        ? ctx.db.prepare('SELECT count(*) AS n FROM venmo_notifications WHERE user_id = ?').get(me(ctx))
        : ctx.db.prepare('SELECT count(*) AS n FROM venmo_notifications WHERE user_id = ? AND read = ?').get(me(ctx), read ? 1 : 0)
    ) as { n: number };
    return { notifications_count: row.n };
  }),
  def('delete_notification', { method: 'DELETE', description: 'Delete a notification.', params: [req.int('notification_id')], response: { message: 'string' } }, (ctx, a) => {
    ctx.db.prepare('DELETE FROM venmo_notifications WHERE id = ?').run(ownNotification(ctx, Number(a.notification_id)).id);
    return ok('Notification deleted.');
  }),
  def(
    'mark_notification',
    { method: 'PATCH', description: 'Mark a notification as read or unread.', params: [req.int('notification_id'), req.bool('read')], response: { message: 'string' } },
    (ctx, a) => {
      ctx.db.prepare('UPDATE venmo_notifications SET read = ? WHERE id = ?').run(a.read === true ? 1 : 0, ownNotification(ctx, Number(a.notification_id)).id);
      return ok(`Notification marked as ${a.read === true ? 'read' : 'unread'}.`);
    },
  ),
  def('delete_notifications', { method: 'DELETE', description: 'Delete all of your notifications.', response: { message: 'string' } }, (ctx) => {
    ctx.db.prepare('DELETE FROM venmo_notifications WHERE user_id = ?').run(me(ctx));
    return ok('Notifications deleted.');
  }),
  def('mark_notifications', { method: 'PATCH', description: 'Mark all notifications as read or unread.', params: [req.bool('read')], response: { message: 'string' } }, (ctx, a) => {
    ctx.db.prepare('UPDATE venmo_notifications SET read = ? WHERE user_id = ?').run(a.read === true ? 1 : 0, me(ctx));
    return ok(`Notifications marked as ${a.read === true ? 'read' : 'unread'}.`);
  }),
  def('remind_payment_request', { description: 'Send a reminder for a pending payment request you sent.', params: [req.int('payment_request_id')], response: { message: 'string' } }, (ctx, a) => {
    const r = ownRequest(ctx, Number(a.payment_request_id), 'sender_id');
    if (requestStatus(r) !== 'pending') throw new ApiError(422, `The payment request has already been ${requestStatus(r)}.`);
    notify(ctx, r.receiver_id, 'payment_request_reminder', 'Payment request reminder', `${nameOf(ctx, me(ctx))} reminded you of their request for $${r.amount}.`, { payment_request_id: r.id });
    return ok('Reminder sent.');
  }),
];

/** AppWorld's routes of the venmo app (its API docs' method and path). */
const V = '/venmo';
export const venmoApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('venmo', { verification: true, notifications: true }),
  search_users: `GET ${V}/users`,
  search_friends: `GET ${V}/friends`,
  add_friend: `POST ${V}/friends/{user_email}`,
  remove_friend: `DELETE ${V}/friends/{user_email}`,
  show_venmo_balance: `GET ${V}/balance`,
  add_to_venmo_balance: `POST ${V}/balance`,
  withdraw_from_venmo_balance: `DELETE ${V}/balance`,
  show_bank_transfer_history: `GET ${V}/bank_transfers`,
  download_bank_transfer_receipt: `GET ${V}/bank_transfers/{bank_transfer_id}/receipt`,
  show_transaction: `GET ${V}/transactions/{transaction_id}`,
  update_transaction: `PATCH ${V}/transactions/{transaction_id}`,
  show_transactions: `GET ${V}/transactions`,
  create_transaction: `POST ${V}/transactions`,
  download_transaction_receipt: `GET ${V}/transactions/{transaction_id}/receipt`,
  like_transaction: `POST ${V}/transactions/{transaction_id}/likes`,
  unlike_transaction: `DELETE ${V}/transactions/{transaction_id}/likes`,
  show_transaction_comments: `GET ${V}/transactions/{transaction_id}/comments`,
  create_transaction_comment: `POST ${V}/transactions/{transaction_id}/comments`,
  show_transaction_comment: `GET ${V}/comments/{comment_id}`,
  delete_transaction_comment: `DELETE ${V}/comments/{comment_id}`,
  update_transaction_comment: `PATCH ${V}/comments/{comment_id}`,
  like_transaction_comment: `POST ${V}/comments/{comment_id}/likes`,
  unlike_transaction_comment: `DELETE ${V}/comments/{comment_id}/likes`,
  show_payment_card: `GET ${V}/payment_cards/{payment_card_id}`,
  delete_payment_card: `DELETE ${V}/payment_cards/{payment_card_id}`,
  update_payment_card: `PATCH ${V}/payment_cards/{payment_card_id}`,
  show_payment_cards: `GET ${V}/payment_cards`,
  add_payment_card: `POST ${V}/payment_cards`,
  show_received_payment_requests: `GET ${V}/received_payment_requests`,
  show_sent_payment_requests: `GET ${V}/sent_payment_requests`,
  create_payment_request: `POST ${V}/payment_requests`,
  delete_payment_request: `DELETE ${V}/payment_requests/{payment_request_id}`,
  update_payment_request: `PATCH ${V}/payment_requests/{payment_request_id}`,
  approve_payment_request: `POST ${V}/payment_requests/{payment_request_id}/approve`,
  deny_payment_request: `POST ${V}/payment_requests/{payment_request_id}/deny`,
  remind_payment_request: `POST ${V}/payment_requests/{payment_request_id}/remind`,
  show_social_feed: `GET ${V}/social_feed`,
});

function num2(v: Json | undefined): number {
  return round2(Number(v));
}
