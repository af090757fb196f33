// supervisor: the task owner's profile, credentials, addresses, cards, and the active task (all 6 APIs).
import { declarer, ok } from '../define.js';
import { opt } from '../params.js';
import { row, rows } from '../tables.js';
import type { CardRow } from './shared/rows.js';
import { ApiError, type ApiDef, type Json } from '../types.js';
import { userById } from './shared/accounts.js';
import { routed } from '../routes.js';

const def = declarer('supervisor');

const apis: ApiDef[] = [
  def('show_active_task', { response: { instruction: 'string', status: 'string', answer: 'string' }, auth: false, description: "Show the supervisor's active task." }, (ctx) => {
    const t = row<{ instruction: string; status: string; answer: string | null }>(
      ctx,
      'SELECT instruction, status, answer FROM supervisor_tasks WHERE user_id = ? ORDER BY id DESC LIMIT 1',
      ctx.supervisorId,
    );
    if (!t) throw new ApiError(422, 'There is no active task.');
    return { instruction: t.instruction, status: t.status, answer: t.answer };
  }),
  def(
    'complete_task',
    {
      auth: false,
      description: 'Mark the currently active task as complete with the given answer.',
      params: [
        opt.any('answer', { desc: 'The answer to the task, if it asks for one (an entity or a number).' }),
        opt.str('status', { desc: 'The status of the task.', default: 'success', constraints: [{ kind: 'enum', values: ['success', 'fail'] }] }),
      ],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const t = row<{ id: number; status: string }>(ctx, 'SELECT id, status FROM supervisor_tasks WHERE user_id = ? ORDER BY id DESC LIMIT 1', ctx.supervisorId);
      if (!t) throw new ApiError(422, 'There is no active task.');
      if (t.status !== 'active') throw new ApiError(422, 'The active task has already been completed.');
      const answer = a.answer === null || a.answer === undefined ? null : typeof a.answer === 'string' ? a.answer : JSON.stringify(a.answer);
      ctx.db.prepare('UPDATE supervisor_tasks SET status = ?, answer = ? WHERE id = ?').run(a.status ?? 'success', answer, t.id);
      return ok('Marked the active task complete.');
    },
  ),
  def(
    'show_profile',
    {
      response: { first_name: 'string', last_name: 'string', email: 'user@example.com', phone_number: 'string', birthday: 'string', sex: 'male' },
      auth: false,
      description: "Show the supervisor's profile information.",
    },
    (ctx) => {
      const u = userById(ctx, ctx.supervisorId)!;
      return { first_name: u.first_name, last_name: u.last_name, email: u.email, phone_number: u.phone_number, birthday: u.birthday, sex: u.sex };
    },
  ),
  def(
    'show_addresses',
    { response: [{ name: 'Home', street_address: 'string', city: 'string', state: 'string', country: 'string', zip_code: 10000.0 }], auth: false, description: "Show the supervisor's addresses." },
    (ctx) => rows<{ [key: string]: Json }>(ctx, 'SELECT name, street_address, city, state, country, zip_code FROM addresses WHERE user_id = ? ORDER BY id', ctx.supervisorId),
  ),
  def(
    'show_payment_cards',
    {
      response: [{ owner_name: 'string', card_name: 'Visa', card_number: 1000000000000000.0, expiry_year: 1, expiry_month: 1.0, cvv_number: 100.0 }],
      auth: false,
      description: "Show the supervisor's payment cards.",
    },
    (ctx) =>
      // AppWorld answers card and CVV numbers as numbers (they are stored as text here).
      rows<Omit<CardRow, 'id' | 'user_id'>>(
        ctx,
        'SELECT owner_name, card_name, card_number, expiry_year, expiry_month, cvv_number FROM payment_cards WHERE user_id = ? ORDER BY id',
        ctx.supervisorId,
      ).map((c) => ({ ...c, card_number: Number(c.card_number), cvv_number: Number(c.cvv_number) })),
  ),
  def('show_account_passwords', { response: [{ account_name: 'string', password: 'string' }], auth: false, description: "Show the supervisor's app account passwords." }, (ctx) =>
    rows<{ account_name: string; password: string }>(ctx, 'SELECT app AS account_name, password FROM accounts WHERE user_id = ? ORDER BY app', ctx.supervisorId),
  ),
];

/** AppWorld's routes of the supervisor app (its API docs' method and path). */
const S = '/supervisor';
export const supervisorApis: ApiDef[] = routed(apis, {
  show_active_task: `GET ${S}/active_task`,
  complete_task: `POST ${S}/message`,
  show_profile: `GET ${S}/profile`,
  show_addresses: `GET ${S}/addresses`,
  show_payment_cards: `GET ${S}/payment_cards`,
  show_account_passwords: `GET ${S}/account_passwords`,
});
