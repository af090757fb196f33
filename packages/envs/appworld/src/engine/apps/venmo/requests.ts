// venmo's payment requests: received and sent listings, create, approve, deny, update, delete.
import { declarer, me, ok, optBool, optNum, optStr, str } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req, ACCESS_TOKEN, EMAIL } from '../../params.js';
import { ApiError, type ApiDef } from '../../types.js';
import { ownRequest, requestRows, venmoUser } from './tables.js';
import { AMOUNT, nameOf, num2, PAYMENT_REQUEST_RESPONSE, REQUEST_STATUS, requestStatus, requestView, round2 } from './views.js';
import { notify, pay } from './money.js';

const def = declarer('venmo');

/** The received and sent payment-request listings: the same API on the request's other side. */
function paymentRequestList(name: string, side: 'receiver_id' | 'sender_id', description: string): ApiDef {
  return def(name, { response: [PAYMENT_REQUEST_RESPONSE], description, params: [ACCESS_TOKEN, REQUEST_STATUS, ...PAGING] }, (ctx, a) => {
    const rows = requestRows.all(ctx, `WHERE ${side} = ? ORDER BY id`, me(ctx)).filter((r) => optStr(a, 'status') === null || requestStatus(r) === optStr(a, 'status'));
    return pageOf(
      rows.map((r) => requestView(ctx, r)),
      a,
      ['amount', 'created_at'],
    );
  });
}

export const requestApis: ApiDef[] = [
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
];
