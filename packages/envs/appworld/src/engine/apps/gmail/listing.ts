// gmail's thread listings (inbox, outbox, archived, spam) with their filters, and the flag setters.
import { me, ok, optBool, optStr } from '../../define.js';
import { inDateRange } from '../../listing.js';
import { DATE_RANGE, EMAIL, opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage } from '../../ranked.js';
import type { ApiContext, Args, Json } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { attachmentsOf, emailsOf, ownThread, threadRows } from './tables.js';
import { emailList, flags, THREAD_SHORT, threadShort, type Row } from './views.js';

// ---- thread listings -------------------------------------------------------------------------------
export type Category = 'inbox' | 'outbox' | 'archived' | 'spam';
export function threadFilters(category: Category) {
  return [
    opt.str('query', { default: '' }),
    ...PAGING,
    opt.str('label'),
    opt.bool('starred'),
    ...(category === 'archived' ? [] : [opt.bool('archived', { default: false })]),
    ...(category === 'spam' ? [] : [opt.bool('spam', { default: false })]),
    opt.bool('read'),
    opt.bool('attachment'),
    opt.str('from_email', { constraints: EMAIL }),
    opt.str('to_email', { constraints: EMAIL }),
    ...DATE_RANGE,
    sortBy(null),
  ];
}
export function listThreads(ctx: ApiContext, a: Args, category: Category): Row[] {
  const threads = threadRows.all(ctx, 'WHERE user_id = ? ORDER BY id', me(ctx));
  const rows: { short: Row; text: string[] }[] = [];
  for (const t of threads) {
    const emails = emailsOf(ctx, t.id);
    const f = flags(ctx, t, emails) as { incoming: boolean; outgoing: boolean };
    const inCategory = category === 'inbox' ? f.incoming : category === 'outbox' ? f.outgoing : category === 'archived' ? t.archived === 1 : t.spam === 1;
    if (!inCategory) continue;
    const want = (key: string, value: number) => optBool(a, key) === null || (value === 1) === optBool(a, key);
    if (!want('starred', t.starred) || !want('read', t.read) || (category !== 'archived' && !want('archived', t.archived)) || (category !== 'spam' && !want('spam', t.spam))) continue;
    const label = optStr(a, 'label');
    if (label !== null && (t.label ?? '').toLowerCase() !== label.toLowerCase()) continue;
    const hasAttachment = emails.some((e) => attachmentsOf(ctx, 'email_id', e.id).length > 0);
    if (optBool(a, 'attachment') !== null && hasAttachment !== optBool(a, 'attachment')) continue;
    const from = optStr(a, 'from_email');
    if (from !== null && !emails.some((e) => userById(ctx, e.sender_id)?.email === from)) continue;
    const to = optStr(a, 'to_email');
    if (to !== null && !emails.some((e) => emailList(e.recipients).includes(to))) continue;
    if (!inDateRange(t.created_at, a)) continue;
    const short = threadShort(ctx, t);
    const people = (short.participants as { name: string; email: string }[]).flatMap((p) => [p.name, p.email]);
    rows.push({ short, text: [String(short.subject), ...emails.map((e) => e.body), ...people] });
  }
  const ranked = rankByQuery(rows, a.query, (r) => r.text).map((r) => r.short);
  return rankedPage(ranked, a, ['created_at', 'updated_at'], '-updated_at');
}

export function setFlag(column: 'read' | 'archived' | 'spam' | 'starred', value: 0 | 1, done: string) {
  return (ctx: ApiContext, a: Args): Json => {
    ctx.db.prepare(`UPDATE gmail_threads SET ${column} = ? WHERE id = ?`).run(value, ownThread(ctx, Number(a.email_thread_id)).id);
    return ok(done);
  };
}
export const THREAD_ID = [req.int('email_thread_id')];
export const LIST_RESPONSE = [THREAD_SHORT];
