// todoist's shared parameter options and write helpers: paging, due dates, dense order indexes
// (`order_index` -1 appends, 0 prepends), notifications, deleting tasks, attachments.
import { me } from '../../define.js';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_UNCAPPED, PAGING } from '../../params.js';
import { ids, row, rows } from '../../tables.js';
import { ApiError, type ApiContext, type Args, type Json, type ParamDef } from '../../types.js';
import { userById } from '../shared/accounts.js';
import { readFromFileSystem } from '../file_system.js';
import { TODOIST_COLORS, TODOIST_PRIORITIES } from '../../../world/todoist.js';
import { fullName } from './views.js';

export const COLOR = (o: { default?: string } = {}) => ({ constraints: [{ kind: 'enum' as const, values: TODOIST_COLORS }], ...o });
export const PRIORITY = (o: { default?: string } = {}) => ({ constraints: [{ kind: 'enum' as const, values: TODOIST_PRIORITIES }], ...o });
export const DURATION_UNIT = { constraints: [{ kind: 'enum' as const, values: ['minutes', 'hours', 'days'] }] };
export const NAME = { constraints: [{ kind: 'minLength' as const, value: 1 }] };
/** page_limit without the usual 20 cap (AppWorld's projects and labels listings). */
export const UNCAPPED_PAGING: ParamDef[] = [PAGING[0]!, PAGE_LIMIT_UNCAPPED];
export function page<T>(rows: T[], a: Args): T[] {
  const index = Number(a.page_index ?? 0);
  const limit = Number(a.page_limit ?? PAGE_LIMIT_DEFAULT);
  return rows.slice(index * limit, index * limit + limit);
}
/** `YYYY-MM-DD` (or a full ISO datetime) → the stored `YYYY-MM-DDT00:00:00`; null stays null. */
export function dueDate(raw: string | null, param = 'due_date'): string | null {
  if (raw === null) return null;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/.test(raw) || Number.isNaN(Date.parse(raw.slice(0, 10))))
    throw new ApiError(422, `Validation error. Reason: \n${param}: the date must be in YYYY-MM-DD format.`);
  return `${raw.slice(0, 10)}T00:00:00`;
}
/** The index of a new item among `count` ordered items: 0 = top, -1 = end, -2 = above the last … */
export function insertionIndex(requested: number, count: number): number {
  const at = requested < 0 ? count + 1 + requested : requested;
  return Math.max(0, Math.min(count, at));
}
/** Places `id` at `index` in an ordered scope (`table` rows matching `where`) and renumbers 0..n-1. */
export function reorder(ctx: ApiContext, table: string, where: string, params: unknown[], id: number, index: number): void {
  const others = ids(ctx, `SELECT id FROM ${table} WHERE ${where} AND id != ? ORDER BY order_index, id`, ...params, id);
  others.splice(insertionIndex(index, others.length), 0, id);
  renumber(ctx, table, others);
}
/** Renumbers a scope 0..n-1 in its current order (after a deletion). */
export function compact(ctx: ApiContext, table: string, where: string, params: unknown[]): void {
  renumber(ctx, table, ids(ctx, `SELECT id FROM ${table} WHERE ${where} ORDER BY order_index, id`, ...params));
}
export function renumber(ctx: ApiContext, table: string, ids: readonly number[]): void {
  const set = ctx.db.prepare(`UPDATE ${table} SET order_index = ? WHERE id = ? AND order_index != ?`);
  ids.forEach((rowId, i) => set.run(i, rowId, i));
}
export const sectionScope = (projectId: number, sectionId: number | null): [string, unknown[]] =>
  sectionId === null ? ['project_id = ? AND section_id IS NULL', [projectId]] : ['project_id = ? AND section_id = ?', [projectId, sectionId]];
export function notify(ctx: ApiContext, userId: number, type: string, title: string, message: string, data: Record<string, Json>): void {
  if (userId === me(ctx)) return;
  ctx.db
    .prepare('INSERT INTO todoist_notifications (user_id, type, title, message, read, created_at, data) VALUES (?, ?, ?, ?, 0, ?, ?)')
    .run(userId, type, title, message, ctx.now, JSON.stringify(data));
}
export const myName = (ctx: ApiContext) => fullName(userById(ctx, me(ctx))!);

/** Deletes tasks with everything hanging off them (sub-tasks, label links, comments, attachments). */
export function deleteTasks(ctx: ApiContext, ids: readonly number[]): void {
  for (const id of ids) {
    for (const c of rows<{ id: number }>(ctx, 'SELECT id FROM todoist_task_comments WHERE task_id = ?', id)) ctx.db.prepare('DELETE FROM todoist_attachments WHERE task_comment_id = ?').run(c.id);
    ctx.db.prepare('DELETE FROM todoist_task_comments WHERE task_id = ?').run(id);
    ctx.db.prepare('DELETE FROM todoist_sub_tasks WHERE task_id = ?').run(id);
    ctx.db.prepare('DELETE FROM todoist_task_labels WHERE task_id = ?').run(id);
    ctx.db.prepare('DELETE FROM todoist_tasks WHERE id = ?').run(id);
  }
}

export function attach(ctx: ApiContext, commentId: number, fsToken: string | null, path: string, overwrite: boolean): string {
  const file = readFromFileSystem(ctx, fsToken, path);
  const existing = row<{ id: number }>(ctx, 'SELECT id FROM todoist_attachments WHERE task_comment_id = ? AND file_name = ?', commentId, file.name);
  if (existing && !overwrite) throw new ApiError(422, `An attachment named ${file.name} already exists on this comment.`);
  if (existing) ctx.db.prepare('UPDATE todoist_attachments SET content = ? WHERE id = ?').run(file.content, existing.id);
  else ctx.db.prepare('INSERT INTO todoist_attachments (task_comment_id, file_name, content) VALUES (?, ?, ?)').run(commentId, file.name, file.content);
  return file.name;
}

export const PRIORITY_RANK: Record<string, number> = { high: 1, medium: 2, low: 3 };
