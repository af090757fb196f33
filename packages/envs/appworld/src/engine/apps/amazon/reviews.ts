// amazon's product reviews and Q&A: a review per buyer (verified when bought), questions and answers.
import { declarer, me, notFound, ok, optBool, optNum, optStr, str } from '../../define.js';
import { EMAIL, opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage as listing } from '../../ranked.js';
import { ApiError, type ApiContext, type ApiDef, type Args } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { answers, own, product, questions, reviews } from './tables.js';
import { MESSAGE, person, PERSON, withId } from './views.js';
import { NON_EMPTY, RATING } from './params.js';

const def = declarer('amazon');

function refreshRating(ctx: ApiContext, productId: number): void {
  ctx.db.prepare('UPDATE amazon_products SET rating = COALESCE((SELECT round(avg(rating), 1) FROM amazon_product_reviews WHERE product_id = ?), 0) WHERE id = ?').run(productId, productId);
}
const boughtBy = (ctx: ApiContext, userId: number, productId: number) =>
  Boolean(ctx.db.prepare('SELECT 1 FROM amazon_order_items i JOIN amazon_orders o ON o.id = i.order_id WHERE o.user_id = ? AND i.product_id = ?').get(userId, productId));

const emailOf = (ctx: ApiContext, id: number) => userById(ctx, id)?.email ?? '';
const userFilter = (ctx: ApiContext, a: Args, userId: number) => optStr(a, 'user_email') === null || emailOf(ctx, userId) === optStr(a, 'user_email');

export const reviewApis: ApiDef[] = [
  def(
    'show_product_reviews',
    {
      auth: false,
      description: 'Get a list of reviews of a product.',
      response: [{ review_id: 1, product_id: 1, is_verified: true, rating: 1, title: 'string', text: 'string', created_at: '2019-01-01T00:00:00', user: PERSON }],
      params: [
        req.int('product_id'),
        opt.str('query', { default: '' }),
        opt.str('user_email', { constraints: EMAIL }),
        ...PAGING,
        opt.int('min_rating', { default: 1, ...RATING }),
        opt.int('max_rating', { default: 5, ...RATING }),
        opt.bool('is_verified'),
        sortBy(null),
      ],
    },
    (ctx, a) => {
      const p = product(ctx, Number(a.product_id));
      const verified = optBool(a, 'is_verified');
      const rows = reviews
        .all(ctx, 'WHERE product_id = ? ORDER BY id', p.id)
        .filter((r) => userFilter(ctx, a, r.user_id) && r.rating >= Number(a.min_rating) && r.rating <= Number(a.max_rating) && (verified === null || (r.is_verified === 1) === verified));
      return listing(
        rankByQuery(rows, a.query, (r) => [r.title, r.text]).map((r) => ({
          review_id: r.id,
          product_id: r.product_id,
          is_verified: r.is_verified === 1,
          rating: r.rating,
          title: r.title,
          text: r.text,
          created_at: r.created_at,
          user: person(ctx, r.user_id),
        })),
        a,
        ['rating', 'created_at'],
      );
    },
  ),
  def(
    'write_product_review',
    {
      description: 'Write a review of a product.',
      params: [req.int('product_id'), req.int('rating', RATING), opt.str('title', { default: '' }), opt.str('text', { default: '' })],
      response: withId('product_review_id'),
    },
    (ctx, a) => {
      const p = product(ctx, Number(a.product_id));
      if (ctx.db.prepare('SELECT 1 FROM amazon_product_reviews WHERE product_id = ? AND user_id = ?').get(p.id, me(ctx)))
        throw new ApiError(422, 'You have already reviewed this product. Update the review instead.');
      const r = ctx.db
        .prepare('INSERT INTO amazon_product_reviews (product_id, user_id, rating, title, text, is_verified, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(p.id, me(ctx), Number(a.rating), str(a, 'title'), str(a, 'text'), boughtBy(ctx, me(ctx), p.id) ? 1 : 0, ctx.now);
      refreshRating(ctx, p.id);
      return ok('Product review written.', { product_review_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'update_product_review',
    { method: 'PATCH', description: 'Update one of your product reviews.', params: [req.int('review_id'), opt.int('rating', RATING), opt.str('title'), opt.str('text')], response: MESSAGE },
    (ctx, a) => {
      const r = own(ctx, reviews, Number(a.review_id), 'product review');
      ctx.db
        .prepare('UPDATE amazon_product_reviews SET rating = ?, title = ?, text = ? WHERE id = ?')
        .run(optNum(a, 'rating') ?? r.rating, optStr(a, 'title') ?? r.title, optStr(a, 'text') ?? r.text, r.id);
      refreshRating(ctx, r.product_id);
      return ok('Product review updated.');
    },
  ),
  def('delete_product_review', { method: 'DELETE', description: 'Delete one of your product reviews.', params: [req.int('review_id')], response: MESSAGE }, (ctx, a) => {
    const r = own(ctx, reviews, Number(a.review_id), 'product review');
    ctx.db.prepare('DELETE FROM amazon_product_reviews WHERE id = ?').run(r.id);
    refreshRating(ctx, r.product_id);
    return ok('Product review deleted.');
  }),
  def(
    'show_product_questions',
    {
      auth: false,
      description: 'Get a list of questions asked about a product.',
      response: [{ product_id: 1, question_id: 1, question: 'string', created_at: '2019-01-01T00:00:00', user: PERSON }],
      params: [req.int('product_id'), opt.str('query', { default: '' }), opt.str('user_email', { constraints: EMAIL }), ...PAGING, sortBy(null)],
    },
    (ctx, a) => {
      const p = product(ctx, Number(a.product_id));
      const rows = questions.all(ctx, 'WHERE product_id = ? ORDER BY id', p.id).filter((q) => userFilter(ctx, a, q.user_id));
      return listing(
        rankByQuery(rows, a.query, (q) => [q.question]).map((q) => ({ product_id: q.product_id, question_id: q.id, question: q.question, created_at: q.created_at, user: person(ctx, q.user_id) })),
        a,
        ['created_at'],
      );
    },
  ),
  def(
    'show_product_question_answers',
    {
      auth: false,
      description: 'Get a list of answers to a product question.',
      response: [{ question_answer_id: 1, question_id: 1, is_verified: true, answer: 'string', created_at: '2019-01-01T00:00:00', user: PERSON }],
      params: [req.int('question_id'), opt.str('query', { default: '' }), opt.str('user_email', { constraints: EMAIL }), opt.bool('is_verified'), ...PAGING, sortBy(null)],
    },
    (ctx, a) => {
      if (!ctx.db.prepare('SELECT 1 FROM amazon_product_questions WHERE id = ?').get(a.question_id)) notFound('product question');
      const verified = optBool(a, 'is_verified');
      const rows = answers.all(ctx, 'WHERE question_id = ? ORDER BY id', a.question_id).filter((r) => userFilter(ctx, a, r.user_id) && (verified === null || (r.is_verified === 1) === verified));
      return listing(
        rankByQuery(rows, a.query, (r) => [r.answer]).map((r) => ({
          question_answer_id: r.id,
          question_id: r.question_id,
          is_verified: r.is_verified === 1,
          answer: r.answer,
          created_at: r.created_at,
          user: person(ctx, r.user_id),
        })),
        a,
        ['created_at'],
      );
    },
  ),
  def('write_product_question', { description: 'Ask a question about a product.', params: [req.int('product_id'), req.str('question', NON_EMPTY)], response: withId('question_id') }, (ctx, a) => {
    const p = product(ctx, Number(a.product_id));
    const r = ctx.db.prepare('INSERT INTO amazon_product_questions (product_id, user_id, question, created_at) VALUES (?, ?, ?, ?)').run(p.id, me(ctx), str(a, 'question'), ctx.now);
    return ok('Product question written.', { question_id: Number(r.lastInsertRowid) });
  }),
  def(
    'write_product_question_answer',
    { description: 'Answer a question about a product.', params: [req.int('question_id'), req.str('answer', NON_EMPTY)], response: withId('question_answer_id') },
    (ctx, a) => {
      const q = questions.byId(ctx, a.question_id);
      if (!q) notFound('product question');
      const r = ctx.db
        .prepare('INSERT INTO amazon_question_answers (question_id, user_id, answer, is_verified, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(q.id, me(ctx), str(a, 'answer'), boughtBy(ctx, me(ctx), q.product_id) ? 1 : 0, ctx.now);
      return ok('Product question answer written.', { question_answer_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'update_product_question',
    { method: 'PATCH', description: 'Update one of your product questions.', params: [req.int('question_id'), opt.str('question', NON_EMPTY)], response: MESSAGE },
    (ctx, a) => {
      const q = own(ctx, questions, Number(a.question_id), 'product question');
      ctx.db.prepare('UPDATE amazon_product_questions SET question = ? WHERE id = ?').run(optStr(a, 'question') ?? q.question, q.id);
      return ok('Product question updated.');
    },
  ),
  def(
    'update_product_question_answer',
    { method: 'PATCH', description: 'Update one of your answers to a product question.', params: [req.int('question_answer_id'), opt.str('answer', NON_EMPTY)], response: MESSAGE },
    (ctx, a) => {
      const r = own(ctx, answers, Number(a.question_answer_id), 'product question answer');
      ctx.db.prepare('UPDATE amazon_question_answers SET answer = ? WHERE id = ?').run(optStr(a, 'answer') ?? r.answer, r.id);
      return ok('Product question answer updated.');
    },
  ),
  def('delete_product_question', { method: 'DELETE', description: 'Delete one of your product questions (and its answers).', params: [req.int('question_id')], response: MESSAGE }, (ctx, a) => {
    const q = own(ctx, questions, Number(a.question_id), 'product question');
    ctx.db.prepare('DELETE FROM amazon_question_answers WHERE question_id = ?').run(q.id);
    ctx.db.prepare('DELETE FROM amazon_product_questions WHERE id = ?').run(q.id);
    return ok('Product question deleted.');
  }),
  def(
    'delete_product_question_answer',
    { method: 'DELETE', description: 'Delete one of your answers to a product question.', params: [req.int('question_answer_id')], response: MESSAGE },
    (ctx, a) => {
      ctx.db.prepare('DELETE FROM amazon_question_answers WHERE id = ?').run(own(ctx, answers, Number(a.question_answer_id), 'product question answer').id);
      return ok('Product question answer deleted.');
    },
  ),
];
