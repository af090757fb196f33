// splitwise's expenses: record (equal or uneven shares), receipts, show, list, update, delete/undelete.
import { declarer, me, ok, optNum, optStr, str } from '../../define.js';
import { EMAIL, opt, req } from '../../params.js';
import { ApiError, type ApiDef } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { downloadToFileSystem } from '../file_system.js';
import { myExpense, myGroup, sharesOf, splitwiseUser } from './tables.js';
import { EXPENSE, expenseView, MESSAGE } from './views.js';
import { DELETED, listExpenses, MAX_AMOUNT, MAX_AT, MIN_AMOUNT, MIN_AT, PAGE_INDEX, PAGE_LIMIT, PARTICIPANT, QUERY, SORT } from './listing.js';
import { attachReceipt, DOWNLOAD_TO, FS_TOKEN, myName, notify, OPT_FS_TOKEN, OVERWRITE, positive, RECEIPT, requireGroupMembers, resolveShares } from './writes.js';

const def = declarer('splitwise');

export const expenseApis: ApiDef[] = [
  def(
    'record_expense',
    {
      description: 'Record an expense paid by one person and owed by others.',
      params: [
        req.str('description'),
        req.num('paid_amount'),
        req.str('payer_email', { constraints: EMAIL }),
        req.list('debtor_emails'),
        opt.numbers('debt_amounts', { desc: "Each debtor's share, in debtor order; equal shares when omitted." }),
        opt.int('group_id'),
        opt.str('receipt_file_path', { desc: 'Absolute path of a receipt in your file system.' }),
        OPT_FS_TOKEN,
      ],
      response: { message: 'string', expense_id: 1 },
    },
    (ctx, a) => {
      const total = positive(Number(a.paid_amount), 'paid amount');
      const payer = splitwiseUser(ctx, str(a, 'payer_email')).id;
      const shares = resolveShares(ctx, total, a.debtor_emails as string[], (a.debt_amounts as number[] | null) ?? null);
      const groupId = optNum(a, 'group_id');
      const self = me(ctx);
      if (groupId === null && payer !== self && !shares.some((s) => s.debtor === self)) throw new ApiError(422, 'An expense outside a group must involve you as the payer or a debtor.');
      requireGroupMembers(ctx, groupId, [payer, ...shares.map((s) => s.debtor)]);
      const id = Number(
        ctx.db
          .prepare(
            'INSERT INTO splitwise_expenses (group_id, creator_id, payer_id, description, paid_amount, receipt_file_name, receipt_content, deleted, created_at) VALUES (?, ?, ?, ?, ?, NULL, NULL, 0, ?)',
          )
          .run(groupId, self, payer, str(a, 'description'), total, ctx.now).lastInsertRowid,
      );
      for (const s of shares) ctx.db.prepare('INSERT INTO splitwise_expense_shares (expense_id, debtor_id, debt_amount) VALUES (?, ?, ?)').run(id, s.debtor, s.amount);
      if (optStr(a, 'receipt_file_path') !== null) attachReceipt(ctx, 'splitwise_expenses', id, a, true, null);
      for (const s of shares)
        if (s.debtor !== payer) notify(ctx, s.debtor, 'expense_added', 'New expense', `${myName(ctx)} added "${str(a, 'description')}"; your share is $${s.amount}.`, { expense_id: id });
      return ok('Expense recorded.', { expense_id: id });
    },
  ),
  def(
    'attach_expense_receipt_file',
    { description: 'Attach a receipt from your file system to an expense.', params: [req.int('expense_id'), RECEIPT, OVERWRITE, FS_TOKEN], response: MESSAGE },
    (ctx, a) => {
      const e = myExpense(ctx, Number(a.expense_id));
      attachReceipt(ctx, 'splitwise_expenses', e.id, a, a.overwrite === true, e.receipt_file_name);
      return ok('Receipt attached.');
    },
  ),
  def('delete_expense_receipt_file', { method: 'DELETE', description: 'Remove the receipt of an expense.', params: [req.int('expense_id')], response: MESSAGE }, (ctx, a) => {
    const e = myExpense(ctx, Number(a.expense_id));
    if (e.receipt_file_name === null) throw new ApiError(422, 'The expense has no receipt file.');
    ctx.db.prepare('UPDATE splitwise_expenses SET receipt_file_name = NULL, receipt_content = NULL WHERE id = ?').run(e.id);
    return ok('Receipt deleted.');
  }),
  def(
    'download_expense_receipt_file',
    {
      description: 'Save the receipt of an expense into your file system.',
      params: [req.int('expense_id'), OPT_FS_TOKEN, DOWNLOAD_TO, OVERWRITE],
      response: { message: 'string', file_path: 'string' },
    },
    (ctx, a) => {
      const e = myExpense(ctx, Number(a.expense_id));
      if (e.receipt_file_name === null) throw new ApiError(422, 'The expense has no receipt file.');
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), e.receipt_file_name, e.receipt_content ?? '', a.overwrite === true),
      });
    },
  ),
  def('show_expense', { description: 'Show an expense with its shares.', params: [req.int('expense_id')], response: EXPENSE }, (ctx, a) => expenseView(ctx, myExpense(ctx, Number(a.expense_id)))),
  def(
    'show_group_expenses',
    {
      description: 'Show or search the expenses of a group you belong to.',
      params: [req.int('group_id'), QUERY, PARTICIPANT, MIN_AMOUNT, MAX_AMOUNT, MIN_AT, MAX_AT, DELETED, PAGE_INDEX, PAGE_LIMIT, SORT],
      response: [EXPENSE],
    },
    (ctx, a) => listExpenses(ctx, a, myGroup(ctx, Number(a.group_id)).id),
  ),
  def(
    'show_no_group_expenses',
    {
      description: 'Show or search your expenses outside any group.',
      params: [QUERY, PARTICIPANT, PAGE_INDEX, PAGE_LIMIT, MIN_AMOUNT, MAX_AMOUNT, MIN_AT, MAX_AT, DELETED, SORT],
      response: [EXPENSE],
    },
    (ctx, a) => listExpenses(ctx, a, null),
  ),
  def(
    'update_expense',
    {
      method: 'PATCH',
      description: 'Change an expense: description, amount, payer or shares.',
      params: [req.int('expense_id'), opt.str('description'), opt.num('paid_amount'), opt.str('payer_email', { constraints: EMAIL }), opt.list('debtor_emails'), opt.numbers('debt_amounts')],
      response: MESSAGE,
    },
    (ctx, a) => {
      const e = myExpense(ctx, Number(a.expense_id));
      if (a.debt_amounts !== null && a.debtor_emails === null) throw new ApiError(422, 'debt_amounts can only be passed together with debtor_emails.');
      const total = optNum(a, 'paid_amount') === null ? e.paid_amount : positive(Number(a.paid_amount), 'paid amount');
      const payer = optStr(a, 'payer_email') === null ? e.payer_id : splitwiseUser(ctx, str(a, 'payer_email')).id;
      const current = sharesOf(ctx, e.id);
      const emails = (a.debtor_emails as string[] | null) ?? current.map((s) => userById(ctx, s.debtor_id)!.email);
      // Shares change when the debtors or the total change; new debtors without amounts split equally.
      const resplit = a.debtor_emails !== null || total !== e.paid_amount;
      const shares = resplit ? resolveShares(ctx, total, emails, (a.debt_amounts as number[] | null) ?? null) : current.map((s) => ({ debtor: s.debtor_id, amount: s.debt_amount }));
      requireGroupMembers(ctx, e.group_id, [payer, ...shares.map((s) => s.debtor)]);
      ctx.db.prepare('UPDATE splitwise_expenses SET description = ?, paid_amount = ?, payer_id = ? WHERE id = ?').run(optStr(a, 'description') ?? e.description, total, payer, e.id);
      if (resplit) {
        ctx.db.prepare('DELETE FROM splitwise_expense_shares WHERE expense_id = ?').run(e.id);
        for (const s of shares) ctx.db.prepare('INSERT INTO splitwise_expense_shares (expense_id, debtor_id, debt_amount) VALUES (?, ?, ?)').run(e.id, s.debtor, s.amount);
      }
      return ok('Expense updated.');
    },
  ),
  def('delete_expense', { method: 'DELETE', description: 'Mark an expense you take part in as deleted.', params: [req.int('expense_id')], response: MESSAGE }, (ctx, a) => {
    const e = myExpense(ctx, Number(a.expense_id));
    if (e.deleted === 1) throw new ApiError(422, 'The expense is already deleted.');
    ctx.db.prepare('UPDATE splitwise_expenses SET deleted = 1 WHERE id = ?').run(e.id);
    return ok('Expense deleted.');
  }),
  def('undelete_expense', { method: 'PATCH', description: 'Restore a deleted expense.', params: [req.int('expense_id')], response: MESSAGE }, (ctx, a) => {
    const e = myExpense(ctx, Number(a.expense_id));
    if (e.deleted === 0) throw new ApiError(422, 'The expense is not deleted.');
    ctx.db.prepare('UPDATE splitwise_expenses SET deleted = 0 WHERE id = ?').run(e.id);
    return ok('Expense restored.');
  }),
];
