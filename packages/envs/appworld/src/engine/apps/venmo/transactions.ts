// venmo's transactions: list, show, create, update, likes, and comments with their likes.
import { declarer, me, ok, optBool, optNum, optStr, str } from '../../define.js';
import { inDateRange, pageOf } from '../../listing.js';
import { rankByQuery, rankedPage } from '../../ranked.js';
import { DATE_RANGE, opt, PAGING, req, sortBy, EMAIL } from '../../params.js';
import { ApiError, type ApiDef } from '../../types.js';
import { userByEmail } from '../shared/accounts.js';
import { commentRows, ownComment, transactionRows, venmoUser, visibleComment, visibleTx } from './tables.js';
import { AMOUNT, commentView, num2, TRANSACTION_COMMENT_RESPONSE, TRANSACTION_RESPONSE, TX_SORT, txView } from './views.js';
import { pay } from './money.js';

const def = declarer('venmo');

export const transactionApis: ApiDef[] = [
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
      const rows = transactionRows
        .all(ctx, 'WHERE sender_id = ? OR receiver_id = ? ORDER BY id', self, self)
        .filter(
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
      const rows = commentRows.all(ctx, 'WHERE transaction_id = ? ORDER BY id', t.id);
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
];
