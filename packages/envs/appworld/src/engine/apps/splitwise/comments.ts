// splitwise's comments on expenses and on payments: the same APIs for both kinds.
import { declarer, me, notFound, ok, str } from '../../define.js';
import { PAGE_LIMIT_DEFAULT, PAGING, req } from '../../params.js';
import { ApiError, type ApiContext, type ApiDef, type Json } from '../../types.js';
import { commentRows, myExpense, myPayment, type CommentRow } from './tables.js';
import { EXPENSE_COMMENT, MESSAGE, PAYMENT_COMMENT, person } from './views.js';

const def = declarer('splitwise');

export function commentApis(kind: 'expense' | 'payment'): ApiDef[] {
  const comments = commentRows(kind);
  const table = comments.name;
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
    const c = comments.byId(ctx, id);
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
      const rows = comments.all(ctx, `WHERE ${idKey} = ? ORDER BY created_at, id`, p.id).map((c) => view(c, ctx));
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
