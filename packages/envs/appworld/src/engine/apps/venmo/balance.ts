// venmo's balance: show, add from a card, withdraw to a card, bank transfers and receipts.
import { declarer, me, notFound, ok, optBool, optStr, str } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req, ACCESS_TOKEN } from '../../params.js';
import { ApiError, type ApiDef } from '../../types.js';
import { DOWNLOAD_PARAMS, downloadToFileSystem } from '../file_system.js';
import { balanceOf, transferRows, usableCard, visibleTx } from './tables.js';
import { AMOUNT, num2, transferView, txView } from './views.js';
import { addBalance, recordTransfer } from './money.js';

const def = declarer('venmo');

export const balanceApis: ApiDef[] = [
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
      const rows = transferRows.all(ctx, 'WHERE user_id = ? ORDER BY id DESC', me(ctx)).filter((t) => optStr(a, 'transfer_type') === null || t.transfer_type === optStr(a, 'transfer_type'));
      return pageOf(rows.map(transferView), a, []);
    },
  ),
  def(
    'download_bank_transfer_receipt',
    { description: 'Download the receipt of a bank transfer into your file system.', params: [req.int('bank_transfer_id'), ...DOWNLOAD_PARAMS], response: { message: 'string', file_path: 'string' } },
    (ctx, a) => {
      const t = transferRows.byId(ctx, a.bank_transfer_id);
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
];
