// splitwise's payments: record, receipts, show, list, update, delete/undelete.
import { declarer, me, ok, optNum, optStr, str } from '../../define.js';
import { EMAIL, opt, req } from '../../params.js';
import { ApiError, type ApiDef } from '../../types.js';
import { downloadToFileSystem } from '../file_system.js';
import { myGroup, myPayment, splitwiseUser } from './tables.js';
import { MESSAGE, PAYMENT, paymentView } from './views.js';
import { DELETED, listPayments, MAX_AMOUNT, MAX_AT, MIN_AMOUNT, MIN_AT, PAGE_INDEX, PAGE_LIMIT, PARTICIPANT, QUERY, SORT } from './listing.js';
import { attachReceipt, DOWNLOAD_TO, FS_TOKEN, OPT_FS_TOKEN, OVERWRITE, positive, RECEIPT, recordPayment, requireGroupMembers } from './writes.js';

const def = declarer('splitwise');

export const paymentApis: ApiDef[] = [
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
];
