// spotify's reviews of songs, albums and playlists: the same five APIs for each kind.
import { declarer, me, notFound, ok, optNum, optStr, str } from '../../define.js';
import { opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage } from '../../ranked.js';
import { ApiError, type ApiContext, type ApiDef } from '../../types.js';
import { QUERY, STARS, within } from './filters.js';
import { reviews, type ReviewKind, type ReviewRow } from './tables.js';

const def = declarer('spotify');

/** The five review APIs of songs, albums and playlists: list, create (one per user), show, update, delete. */
export function reviewApis(kind: ReviewKind, model: string, target: (ctx: ApiContext, id: number) => number): ApiDef[] {
  const table = `${kind}_reviews`;
  const idKey = `${kind}_id`;
  const view = (r: ReviewRow & Record<string, unknown>) => ({
    [`${kind}_review_id`]: r.id,
    [idKey]: r[idKey] as number,
    user: { name: `${r.first_name} ${r.last_name}`, email: r.email },
    rating: r.rating,
    title: r.title,
    text: r.text,
    created_at: r.created_at,
  });
  const withAuthor = reviews(kind);
  const own = (ctx: ApiContext, id: number) => {
    const r = withAuthor.one(ctx, 'WHERE r.id = ?', id);
    if (!r) notFound(`${kind} review`);
    if (r.user_id !== me(ctx)) throw new ApiError(401, `You are not authorized to modify this ${kind} review.`);
    return r;
  };
  const rating = (required: boolean) =>
    (required ? req.int : opt.int)('rating', {
      constraints: [
        { kind: 'min', value: 1 },
        { kind: 'max', value: 5 },
      ],
    });
  const reviewId = req.int('review_id');
  return [
    def(
      `show_${kind}_reviews`,
      {
        response: [{ [`${kind}_review_id`]: 1, [idKey]: 1, rating: 1.0, title: 'string', text: 'string', created_at: '2019-01-01T00:00:00', user: { name: 'string', email: 'user@example.com' } }],
        auth: kind === 'playlist',
        description: `Get a list of reviews for a ${kind}.`,
        params: [
          req.int(idKey),
          QUERY,
          opt.str('user_email', { constraints: [{ kind: 'email' }] }),
          opt.int('min_rating', { default: 1, constraints: STARS }),
          opt.int('max_rating', { default: 5, constraints: STARS }),
          ...PAGING,
          sortBy(null),
        ],
      },
      (ctx, a) => {
        const id = kind === 'playlist' ? target(ctx, Number(a[idKey])) : Number(a[idKey]);
        if (kind !== 'playlist') target(ctx, id);
        const rows = withAuthor
          .all(ctx, `WHERE r.${idKey} = ? ORDER BY r.id`, id)
          .filter((r) => (optStr(a, 'user_email') === null || r.email === optStr(a, 'user_email')) && within(a, 'rating', r.rating));
        return rankedPage(rankByQuery(rows, a.query, (r) => [r.title, r.text]).map(view), a, ['rating', 'created_at', 'updated_at']);
      },
    ),
    def(
      `review_${kind}`,
      {
        response: { message: 'string', [`${kind}_review_id`]: 1 },
        description: `Rate or review a ${kind}.`,
        params: [req.int(idKey), rating(true), opt.str('title', { default: '' }), opt.str('text', { default: '' })],
      },
      (ctx, a) => {
        const id = target(ctx, Number(a[idKey]));
        if (ctx.db.prepare(`SELECT 1 FROM ${table} WHERE user_id = ? AND ${idKey} = ?`).get(me(ctx), id)) throw new ApiError(409, `${model}Review with this ${idKey} and user_id already exists.`);
        const r = ctx.db
          .prepare(`INSERT INTO ${table} (user_id, ${idKey}, rating, title, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
          .run(me(ctx), id, a.rating, str(a, 'title'), str(a, 'text'), ctx.now, ctx.now);
        return ok(`Added a new ${kind} review.`, { [`${kind}_review_id`]: Number(r.lastInsertRowid) });
      },
    ),
    def(
      `show_${kind}_review`,
      {
        response: { [`${kind}_review_id`]: 1, [idKey]: 1, rating: 1.0, title: 'string', text: 'string', created_at: '2019-01-01T00:00:00', user: { name: 'string', email: 'user@example.com' } },
        auth: kind === 'playlist',
        description: `Show a ${kind} review.`,
        params: [reviewId],
      },
      (ctx, a) => {
        const r = withAuthor.one(ctx, 'WHERE r.id = ?', a.review_id);
        return view(r ?? notFound(`${kind} review`));
      },
    ),
    def(
      `update_${kind}_review`,
      { method: 'PATCH', description: `Update a ${kind} review.`, params: [reviewId, rating(false), opt.str('title'), opt.str('text')], response: { message: 'string' } },
      (ctx, a) => {
        const r = own(ctx, Number(a.review_id));
        ctx.db
          .prepare(`UPDATE ${table} SET rating = ?, title = ?, text = ?, updated_at = ? WHERE id = ?`)
          .run(optNum(a, 'rating') ?? r.rating, optStr(a, 'title') ?? r.title, optStr(a, 'text') ?? r.text, ctx.now, r.id);
        return ok(`Updated the ${kind} review.`);
      },
    ),
    def(`delete_${kind}_review`, { method: 'DELETE', description: `Delete a ${kind} review.`, params: [reviewId], response: { message: 'string' } }, (ctx, a) => {
      ctx.db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(own(ctx, Number(a.review_id)).id);
      return ok(`Deleted the ${kind} review.`);
    }),
  ];
}
