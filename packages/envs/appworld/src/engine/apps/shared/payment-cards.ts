// The payment-card block that venmo and spotify share: list, show, add (validated), rename, delete
// — each user sees and changes only their own cards.
import { declarer, me, notFound, ok, str } from '../../define.js';
import { req } from '../../params.js';
import { ApiError, type ApiContext, type ApiDef, type Json } from '../../types.js';
import { cardTable, type CardRow } from './rows.js';

export function paymentCardApis(app: string, table: string, { showCvv }: { showCvv: boolean }): ApiDef[] {
  const def = declarer(app);
  const cards = cardTable(table);
  // AppWorld answers card and CVV numbers as numbers (PaymentCardResponse); they are stored as text here.
  const view = (c: CardRow): Json => ({
    payment_card_id: c.id,
    card_name: c.card_name,
    owner_name: c.owner_name,
    card_number: Number(c.card_number),
    expiry_year: c.expiry_year,
    expiry_month: c.expiry_month,
    ...(showCvv ? { cvv_number: Number(c.cvv_number) } : {}),
  });
  const CARD = { payment_card_id: 1, card_name: 'string', owner_name: 'string', card_number: 1000000000000000.0, expiry_year: 1, expiry_month: 1.0, ...(showCvv ? { cvv_number: 100.0 } : {}) };
  const own = (ctx: ApiContext, id: number): CardRow => {
    const c = cards.byId(ctx, id);
    if (!c) notFound('payment card');
    if (c.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this payment card.');
    return c;
  };
  const name = { constraints: [{ kind: 'minLength', value: 1 }] } as const;
  return [
    def('show_payment_cards', { response: [CARD], description: 'Show your payment cards.' }, (ctx) => cards.all(ctx, 'WHERE user_id = ? ORDER BY id', me(ctx)).map(view)),
    def('show_payment_card', { response: CARD, description: 'Show one of your payment cards.', params: [req.int('payment_card_id')] }, (ctx, a) => view(own(ctx, Number(a.payment_card_id)))),
    def(
      'add_payment_card',
      {
        description: 'Add a payment card to your account.',
        params: [
          req.str('card_name', name),
          req.str('owner_name', name),
          // 16 digits (AppWorld: value >= 1000000000000000.0, < 1e+16).
          req.int('card_number', {
            constraints: [
              { kind: 'min', value: 1e15 },
              { kind: 'exclusiveMax', value: 1e16 },
            ],
          }),
          req.int('expiry_year'),
          req.int('expiry_month', {
            constraints: [
              { kind: 'min', value: 1 },
              { kind: 'max', value: 12 },
            ],
          }),
          req.int('cvv_number', {
            constraints: [
              { kind: 'min', value: 100 },
              { kind: 'exclusiveMax', value: 1000 },
            ],
          }),
        ],
        response: { message: 'string', payment_card_id: 1 },
      },
      (ctx, a) => {
        const number = String(a.card_number);
        const [year, month] = [Number(a.expiry_year), Number(a.expiry_month)];
        if (year * 12 + month < Number(ctx.now.slice(0, 4)) * 12 + Number(ctx.now.slice(5, 7))) throw new ApiError(422, 'The payment card has expired.');
        if (ctx.db.prepare(`SELECT 1 FROM ${table} WHERE user_id = ? AND card_number = ?`).get(me(ctx), number)) throw new ApiError(422, 'This payment card is already added.');
        const r = ctx.db
          .prepare(`INSERT INTO ${table} (user_id, card_name, owner_name, card_number, expiry_year, expiry_month, cvv_number) VALUES (?, ?, ?, ?, ?, ?, ?)`)
          .run(me(ctx), str(a, 'card_name'), str(a, 'owner_name'), number, year, month, String(a.cvv_number));
        return ok('Payment card added.', { payment_card_id: Number(r.lastInsertRowid) });
      },
    ),
    def(
      'update_payment_card',
      { method: 'PATCH', description: 'Rename one of your payment cards.', params: [req.int('payment_card_id'), req.str('card_name', name)], response: { message: 'string' } },
      (ctx, a) => {
        ctx.db.prepare(`UPDATE ${table} SET card_name = ? WHERE id = ?`).run(str(a, 'card_name'), own(ctx, Number(a.payment_card_id)).id);
        return ok('Payment card updated.');
      },
    ),
    def('delete_payment_card', { method: 'DELETE', description: 'Remove one of your payment cards.', params: [req.int('payment_card_id')], response: { message: 'string' } }, (ctx, a) => {
      ctx.db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(own(ctx, Number(a.payment_card_id)).id);
      return ok('Payment card deleted.');
    }),
  ];
}
