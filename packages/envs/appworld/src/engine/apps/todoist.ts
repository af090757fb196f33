// todoist: projects (project 0 is your Inbox) shared with collaborators by invite, ordered sections,
// tasks and sub-tasks, labels, comments with file attachments, and notifications.
import { createHash } from 'node:crypto';
import { declarer, me, notFound, ok, optBool, optNum, optStr, str } from '../define.js';
import { rankByQuery } from '../ranked.js';
import { EMAIL, opt, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_UNCAPPED, PAGING, req } from '../params.js';
import { ApiError, type ApiContext, type ApiDef, type Args, type Json, type ParamDef } from '../types.js';
import { accountApis, userByEmail, userById, type UserRow } from './shared/accounts.js';
import { downloadToFileSystem, readFromFileSystem } from './file_system.js';
import { notificationApis } from './shared/notifications.js';
import { routed, sharedRoutes } from '../routes.js';
import { TODOIST_COLORS, TODOIST_PRIORITIES } from '../../world/todoist.js';

const def = declarer('todoist');

// Response shapes as AppWorld's API docs show them.
const MESSAGE = { message: 'string' };
const PERSON = { name: 'string', email: 'user@example.com' };
const LABEL_REF = { id: 1, color: 'string', name: 'string' };
const PROJECT = {
  name: 'string',
  color: 'charcoal',
  is_inbox: true,
  description: 'string',
  is_favorite: true,
  is_archived: true,
  created_at: '2019-01-01T00:00:00',
  project_id: 1,
  creator: PERSON,
  num_tasks: 1,
  sections: [{ id: 1, name: 'string', num_tasks: 1 }],
  collaborators: [PERSON],
  pending_invites: [{ invite_code: 'string', invitee: PERSON, inviter: PERSON }],
  is_shared: true,
};
const TASK_ITEM = {
  order_index: 1,
  task_id: 1,
  title: 'string',
  description: 'string',
  num_sub_tasks: 1,
  is_completed: true,
  due_date: '2019-01-01T00:00:00',
  priority: 'high',
  duration: 0.0,
  duration_unit: 'minutes',
  assignee_id: 1,
  labels: [LABEL_REF],
};
const TASK = {
  project_id: 1,
  section_id: 1,
  title: 'string',
  description: 'string',
  due_date: '2019-01-01T00:00:00',
  priority: 'high',
  is_completed: true,
  duration: 0.0,
  duration_unit: 'minutes',
  order_index: 0.0,
  assignee_id: 1,
  assigner_id: 1,
  created_at: '2019-01-01T00:00:00',
  task_id: 1,
  labels: [LABEL_REF],
  creator: PERSON,
  num_sub_tasks: 1,
};
const SUB_TASK = {
  task_id: 1,
  title: 'string',
  description: 'string',
  due_date: '2019-01-01T00:00:00',
  priority: 'high',
  is_completed: true,
  duration: 0.0,
  duration_unit: 'minutes',
  order_index: 0.0,
  created_at: '2019-01-01T00:00:00',
  sub_task_id: 1,
};
const LABEL = { name: 'string', color: 'charcoal', label_id: 1, creator: PERSON };
const COMMENT = { task_id: 1, content: 'string', created_at: '2019-01-01T00:00:00', task_comment_id: 1, user: PERSON, attachment_file_names: ['string'] };

interface ProjectRow {
  id: number;
  creator_id: number;
  name: string;
  color: string;
  description: string;
  is_favorite: number;
  is_archived: number;
  is_inbox: number;
  created_at: string;
}
interface SectionRow {
  id: number;
  project_id: number;
  name: string;
  order_index: number;
  created_at: string;
}
interface TaskRow {
  id: number;
  project_id: number;
  section_id: number | null;
  title: string;
  description: string;
  due_date: string | null;
  priority: string;
  is_completed: number;
  duration: number | null;
  duration_unit: string | null;
  order_index: number;
  assignee_id: number | null;
  assigner_id: number | null;
  creator_id: number;
  created_at: string;
}
interface SubTaskRow {
  id: number;
  task_id: number;
  title: string;
  description: string;
  due_date: string | null;
  priority: string;
  is_completed: number;
  order_index: number;
  created_at: string;
}
interface LabelRow {
  id: number;
  creator_id: number;
  name: string;
  color: string;
  created_at: string;
}
interface CommentRow {
  id: number;
  task_id: number;
  user_id: number;
  content: string;
  created_at: string;
}
interface InviteRow {
  id: number;
  project_id: number;
  invite_code: string;
  inviter_id: number;
  invitee_id: number;
  created_at: string;
}

const COLOR = (o: { default?: string } = {}) => ({ constraints: [{ kind: 'enum' as const, values: TODOIST_COLORS }], ...o });
const PRIORITY = (o: { default?: string } = {}) => ({ constraints: [{ kind: 'enum' as const, values: TODOIST_PRIORITIES }], ...o });
const DURATION_UNIT = { constraints: [{ kind: 'enum' as const, values: ['minutes', 'hours', 'days'] }] };
const NAME = { constraints: [{ kind: 'minLength' as const, value: 1 }] };
/** page_limit without the usual 20 cap (AppWorld's projects and labels listings). */
const UNCAPPED_PAGING: ParamDef[] = [PAGING[0]!, PAGE_LIMIT_UNCAPPED];

const fullName = (u: UserRow) => `${u.first_name} ${u.last_name}`;
function person(ctx: ApiContext, id: number): Json {
  const u = userById(ctx, id);
  return u ? { name: fullName(u), email: u.email } : null;
}
function todoistUser(ctx: ApiContext, email: string): UserRow {
  const u = userByEmail(ctx, email);
  if (!u || !ctx.db.prepare("SELECT 1 FROM accounts WHERE app = 'todoist' AND user_id = ?").get(u.id)) throw new ApiError(422, `The user with email ${email} does not exist on Todoist.`);
  return u;
}
function page<T>(rows: T[], a: Args): T[] {
  const index = Number(a.page_index ?? 0);
  const limit = Number(a.page_limit ?? PAGE_LIMIT_DEFAULT);
  return rows.slice(index * limit, index * limit + limit);
}
/** `YYYY-MM-DD` (or a full ISO datetime) → the stored `YYYY-MM-DDT00:00:00`; null stays null. */
function dueDate(raw: string | null, param = 'due_date'): string | null {
  if (raw === null) return null;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?$/.test(raw) || Number.isNaN(Date.parse(raw.slice(0, 10))))
    throw new ApiError(422, `Validation error. Reason: \n${param}: the date must be in YYYY-MM-DD format.`);
  return `${raw.slice(0, 10)}T00:00:00`;
}
/** The index of a new item among `count` ordered items: 0 = top, -1 = end, -2 = above the last … */
function insertionIndex(requested: number, count: number): number {
  const at = requested < 0 ? count + 1 + requested : requested;
  return Math.max(0, Math.min(count, at));
}
/** Places `id` at `index` in an ordered scope (`table` rows matching `where`) and renumbers 0..n-1. */
function reorder(ctx: ApiContext, table: string, where: string, params: unknown[], id: number, index: number): void {
  const others = (ctx.db.prepare(`SELECT id FROM ${table} WHERE ${where} AND id != ? ORDER BY order_index, id`).all(...params, id) as { id: number }[]).map((r) => r.id);
  others.splice(insertionIndex(index, others.length), 0, id);
  renumber(ctx, table, others);
}
/** Renumbers a scope 0..n-1 in its current order (after a deletion). */
function compact(ctx: ApiContext, table: string, where: string, params: unknown[]): void {
  renumber(
    ctx,
    table,
    (ctx.db.prepare(`SELECT id FROM ${table} WHERE ${where} ORDER BY order_index, id`).all(...params) as { id: number }[]).map((r) => r.id),
  );
}
function renumber(ctx: ApiContext, table: string, ids: readonly number[]): void {
  const set = ctx.db.prepare(`UPDATE ${table} SET order_index = ? WHERE id = ? AND order_index != ?`);
  ids.forEach((rowId, i) => set.run(i, rowId, i));
}
const sectionScope = (projectId: number, sectionId: number | null): [string, unknown[]] =>
  sectionId === null ? ['project_id = ? AND section_id IS NULL', [projectId]] : ['project_id = ? AND section_id = ?', [projectId, sectionId]];

// ---- access ----
const isCollaborator = (ctx: ApiContext, projectId: number, userId: number) =>
  ctx.db.prepare('SELECT 1 FROM todoist_collaborators WHERE project_id = ? AND user_id = ?').get(projectId, userId) !== undefined;
const collaboratorsOf = (ctx: ApiContext, projectId: number) =>
  (ctx.db.prepare('SELECT user_id FROM todoist_collaborators WHERE project_id = ? ORDER BY id').all(projectId) as { user_id: number }[]).map((r) => r.user_id);
/** A project the caller collaborates on; 0 is the caller's Inbox. */
function myProject(ctx: ApiContext, id: number): ProjectRow {
  const p = (id === 0 ? ctx.db.prepare('SELECT * FROM todoist_projects WHERE creator_id = ? AND is_inbox = 1').get(me(ctx)) : ctx.db.prepare('SELECT * FROM todoist_projects WHERE id = ?').get(id)) as
    | ProjectRow
    | undefined;
  if (!p) notFound('project');
  if (!isCollaborator(ctx, p.id, me(ctx))) throw new ApiError(401, 'You are not a collaborator of this project.');
  return p;
}
function mySection(ctx: ApiContext, id: number): SectionRow {
  const s = ctx.db.prepare('SELECT * FROM todoist_sections WHERE id = ?').get(id) as SectionRow | undefined;
  if (!s) notFound('section');
  myProject(ctx, s.project_id);
  return s;
}
function myTask(ctx: ApiContext, id: number): TaskRow {
  const t = ctx.db.prepare('SELECT * FROM todoist_tasks WHERE id = ?').get(id) as TaskRow | undefined;
  if (!t) notFound('task');
  myProject(ctx, t.project_id);
  return t;
}
function mySubTask(ctx: ApiContext, id: number): SubTaskRow {
  const s = ctx.db.prepare('SELECT * FROM todoist_sub_tasks WHERE id = ?').get(id) as SubTaskRow | undefined;
  if (!s) notFound('sub_task');
  myTask(ctx, s.task_id);
  return s;
}
function labelRow(ctx: ApiContext, id: number): LabelRow {
  const l = ctx.db.prepare('SELECT * FROM todoist_labels WHERE id = ?').get(id) as LabelRow | undefined;
  if (!l) notFound('label');
  return l;
}
function myLabel(ctx: ApiContext, id: number): LabelRow {
  const l = labelRow(ctx, id);
  if (l.creator_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this label.');
  return l;
}
function visibleComment(ctx: ApiContext, id: number): CommentRow {
  const c = ctx.db.prepare('SELECT * FROM todoist_task_comments WHERE id = ?').get(id) as CommentRow | undefined;
  if (!c) notFound('task comment');
  myTask(ctx, c.task_id);
  return c;
}
function ownComment(ctx: ApiContext, id: number): CommentRow {
  const c = visibleComment(ctx, id);
  if (c.user_id !== me(ctx)) throw new ApiError(401, 'You can only change your own comments.');
  return c;
}

// ---- views ----
const taskCount = (ctx: ApiContext, where: string, ...params: unknown[]) => (ctx.db.prepare(`SELECT count(*) AS n FROM todoist_tasks WHERE ${where}`).get(...params) as { n: number }).n;
function projectView(ctx: ApiContext, p: ProjectRow): Json {
  const sections = ctx.db.prepare('SELECT * FROM todoist_sections WHERE project_id = ? ORDER BY order_index, id').all(p.id) as SectionRow[];
  const collaborators = collaboratorsOf(ctx, p.id);
  const invites = ctx.db.prepare('SELECT * FROM todoist_invites WHERE project_id = ? ORDER BY id').all(p.id) as InviteRow[];
  return {
    name: p.name,
    color: p.color,
    is_inbox: p.is_inbox === 1,
    description: p.description,
    is_favorite: p.is_favorite === 1,
    is_archived: p.is_archived === 1,
    created_at: p.created_at,
    project_id: p.id,
    creator: person(ctx, p.creator_id),
    num_tasks: taskCount(ctx, 'project_id = ?', p.id),
    sections: sections.map((s) => ({ id: s.id, name: s.name, num_tasks: taskCount(ctx, 'section_id = ?', s.id) })),
    collaborators: collaborators.map((c) => person(ctx, c)),
    pending_invites: invites.map((i) => ({ invite_code: i.invite_code, invitee: person(ctx, i.invitee_id), inviter: person(ctx, i.inviter_id) })),
    is_shared: collaborators.length > 1,
  };
}
const labelsOfTask = (ctx: ApiContext, taskId: number) =>
  ctx.db.prepare('SELECT l.* FROM todoist_labels l JOIN todoist_task_labels tl ON tl.label_id = l.id WHERE tl.task_id = ? ORDER BY tl.id').all(taskId) as LabelRow[];
const subTaskCount = (ctx: ApiContext, taskId: number) => (ctx.db.prepare('SELECT count(*) AS n FROM todoist_sub_tasks WHERE task_id = ?').get(taskId) as { n: number }).n;
const taskItem = (ctx: ApiContext, t: TaskRow) => ({
  order_index: t.order_index,
  task_id: t.id,
  title: t.title,
  description: t.description,
  num_sub_tasks: subTaskCount(ctx, t.id),
  is_completed: t.is_completed === 1,
  due_date: t.due_date,
  priority: t.priority,
  duration: t.duration,
  duration_unit: t.duration_unit,
  assignee_id: t.assignee_id,
  labels: labelsOfTask(ctx, t.id).map((l) => ({ id: l.id, color: l.color, name: l.name })),
});
const taskView = (ctx: ApiContext, t: TaskRow) => ({
  project_id: t.project_id,
  section_id: t.section_id,
  title: t.title,
  description: t.description,
  due_date: t.due_date,
  priority: t.priority,
  is_completed: t.is_completed === 1,
  duration: t.duration,
  duration_unit: t.duration_unit,
  order_index: t.order_index,
  assignee_id: t.assignee_id,
  assigner_id: t.assigner_id,
  created_at: t.created_at,
  task_id: t.id,
  labels: labelsOfTask(ctx, t.id).map((l) => ({ id: l.id, color: l.color, name: l.name })),
  creator: person(ctx, t.creator_id),
  num_sub_tasks: subTaskCount(ctx, t.id),
});
const subTaskView = (s: SubTaskRow) => ({
  task_id: s.task_id,
  title: s.title,
  description: s.description,
  due_date: s.due_date,
  priority: s.priority,
  is_completed: s.is_completed === 1,
  duration: null,
  duration_unit: null,
  order_index: s.order_index,
  created_at: s.created_at,
  sub_task_id: s.id,
});
const labelView = (ctx: ApiContext, l: LabelRow) => ({ name: l.name, color: l.color, label_id: l.id, creator: person(ctx, l.creator_id) });
const attachmentsOf = (ctx: ApiContext, commentId: number) =>
  (ctx.db.prepare('SELECT file_name FROM todoist_attachments WHERE task_comment_id = ? ORDER BY id').all(commentId) as { file_name: string }[]).map((r) => r.file_name);
const commentView = (ctx: ApiContext, c: CommentRow) => ({
  task_id: c.task_id,
  content: c.content,
  created_at: c.created_at,
  task_comment_id: c.id,
  user: person(ctx, c.user_id),
  attachment_file_names: attachmentsOf(ctx, c.id),
});

function notify(ctx: ApiContext, userId: number, type: string, title: string, message: string, data: Record<string, Json>): void {
  if (userId === me(ctx)) return;
  ctx.db
    .prepare('INSERT INTO todoist_notifications (user_id, type, title, message, read, created_at, data) VALUES (?, ?, ?, ?, 0, ?, ?)')
    .run(userId, type, title, message, ctx.now, JSON.stringify(data));
}
const myName = (ctx: ApiContext) => fullName(userById(ctx, me(ctx))!);

/** Deletes tasks with everything hanging off them (sub-tasks, label links, comments, attachments). */
function deleteTasks(ctx: ApiContext, ids: readonly number[]): void {
  for (const id of ids) {
    for (const c of ctx.db.prepare('SELECT id FROM todoist_task_comments WHERE task_id = ?').all(id) as { id: number }[])
      ctx.db.prepare('DELETE FROM todoist_attachments WHERE task_comment_id = ?').run(c.id);
    ctx.db.prepare('DELETE FROM todoist_task_comments WHERE task_id = ?').run(id);
    ctx.db.prepare('DELETE FROM todoist_sub_tasks WHERE task_id = ?').run(id);
    ctx.db.prepare('DELETE FROM todoist_task_labels WHERE task_id = ?').run(id);
    ctx.db.prepare('DELETE FROM todoist_tasks WHERE id = ?').run(id);
  }
}

function attach(ctx: ApiContext, commentId: number, fsToken: string | null, path: string, overwrite: boolean): string {
  const file = readFromFileSystem(ctx, fsToken, path);
  const existing = ctx.db.prepare('SELECT id FROM todoist_attachments WHERE task_comment_id = ? AND file_name = ?').get(commentId, file.name) as { id: number } | undefined;
  if (existing && !overwrite) throw new ApiError(422, `An attachment named ${file.name} already exists on this comment.`);
  if (existing) ctx.db.prepare('UPDATE todoist_attachments SET content = ? WHERE id = ?').run(file.content, existing.id);
  else ctx.db.prepare('INSERT INTO todoist_attachments (task_comment_id, file_name, content) VALUES (?, ?, ?)').run(commentId, file.name, file.content);
  return file.name;
}

const PRIORITY_RANK: Record<string, number> = { high: 1, medium: 2, low: 3 };

const apis: ApiDef[] = [
  ...accountApis('todoist', { verification: true }),
  def(
    'search_users',
    {
      auth: false,
      description: 'Search Todoist users by name or email.',
      params: [opt.str('query', { default: '' }), ...PAGING],
      response: [{ first_name: 'string', last_name: 'string', email: 'user@example.com', registered_at: '2019-01-01T00:00:00' }],
    },
    (ctx, a) => {
      const rows = ctx.db.prepare("SELECT u.*, a.created_at AS registered_at FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = 'todoist' ORDER BY u.id").all() as (UserRow & {
        registered_at: string;
      })[];
      return page(
        rankByQuery(rows, a.query, (u) => [u.first_name, u.last_name, u.email]),
        a,
      ).map((u) => ({ first_name: u.first_name, last_name: u.last_name, email: u.email, registered_at: u.registered_at }));
    },
  ),

  // Projects.
  def(
    'create_project',
    {
      description: 'Create a project.',
      params: [req.str('name', NAME), opt.str('color', COLOR({ default: 'charcoal' })), opt.str('description', { default: '' }), opt.bool('is_favorite', { default: false })],
      response: { message: 'string', project_id: 1 },
    },
    (ctx, a) => {
      const id = Number(
        ctx.db
          .prepare('INSERT INTO todoist_projects (creator_id, name, color, description, is_favorite, is_archived, is_inbox, created_at) VALUES (?, ?, ?, ?, ?, 0, 0, ?)')
          .run(me(ctx), str(a, 'name'), str(a, 'color') || 'charcoal', str(a, 'description'), a.is_favorite === true ? 1 : 0, ctx.now).lastInsertRowid,
      );
      ctx.db.prepare('INSERT INTO todoist_collaborators (project_id, user_id, created_at) VALUES (?, ?, ?)').run(id, me(ctx), ctx.now);
      return ok('Project created.', { project_id: id });
    },
  ),
  def('show_project', { description: 'Show a project (0 for your Inbox).', params: [req.int('project_id')], response: PROJECT }, (ctx, a) => projectView(ctx, myProject(ctx, Number(a.project_id)))),
  def(
    'show_projects',
    {
      description: 'Show or search your projects.',
      params: [
        opt.str('query', { default: '' }),
        opt.str('color', COLOR()),
        opt.bool('is_favorite'),
        opt.bool('is_archived'),
        ...UNCAPPED_PAGING,
        opt.str('sort_by', { desc: 'created_at with + or -; defaults to -created_at without a query.' }),
      ],
      response: [PROJECT],
    },
    (ctx, a) => {
      let rows = (ctx.db.prepare('SELECT p.* FROM todoist_projects p JOIN todoist_collaborators c ON c.project_id = p.id WHERE c.user_id = ? ORDER BY p.id').all(me(ctx)) as ProjectRow[]).filter(
        (p) =>
          (optStr(a, 'color') === null || p.color === a.color) &&
          (optBool(a, 'is_favorite') === null || (p.is_favorite === 1) === a.is_favorite) &&
          (optBool(a, 'is_archived') === null || (p.is_archived === 1) === a.is_archived),
      );
      // A query ranks the projects and decides the page; sort_by then orders only that page (AppWorld's search).
      const hasQuery = str(a, 'query').trim() !== '';
      rows = rankByQuery(rows, a.query, (p) => [p.name, p.description]);
      let spec = optStr(a, 'sort_by')?.trim() ?? '';
      if (spec === '' && !hasQuery) spec = '-created_at';
      if (spec !== '') {
        if (spec.replace(/^[+-]/, '') !== 'created_at')
          throw new ApiError(422, `Validation error. Reason: \nsort_by: the attribute '${spec.replace(/^[+-]/, '')}' is not sortable. Sortable attributes are: ['created_at']`);
        const sign = spec.startsWith('-') ? -1 : 1;
        const byCreated = (x: ProjectRow, y: ProjectRow) => sign * (x.created_at < y.created_at ? -1 : x.created_at > y.created_at ? 1 : x.id - y.id);
        if (hasQuery) return [...page(rows, a)].sort(byCreated).map((p) => projectView(ctx, p));
        rows = [...rows].sort(byCreated);
      }
      return page(rows, a).map((p) => projectView(ctx, p));
    },
  ),
  def(
    'update_project',
    {
      method: 'PATCH',
      description: "Change a project's name, color, description, favorite or archived state.",
      params: [req.int('project_id'), opt.str('name', NAME), opt.str('color', COLOR()), opt.str('description'), opt.bool('is_favorite'), opt.bool('is_archived')],
      response: MESSAGE,
    },
    (ctx, a) => {
      const p = myProject(ctx, Number(a.project_id));
      if (p.is_inbox === 1 && (optStr(a, 'name') !== null || a.is_archived === true)) throw new ApiError(422, 'The Inbox project cannot be renamed or archived.');
      ctx.db
        .prepare('UPDATE todoist_projects SET name = ?, color = ?, description = ?, is_favorite = ?, is_archived = ? WHERE id = ?')
        .run(
          optStr(a, 'name') ?? p.name,
          optStr(a, 'color') ?? p.color,
          optStr(a, 'description') ?? p.description,
          optBool(a, 'is_favorite') === null ? p.is_favorite : a.is_favorite ? 1 : 0,
          optBool(a, 'is_archived') === null ? p.is_archived : a.is_archived ? 1 : 0,
          p.id,
        );
      return ok('Project updated.');
    },
  ),
  def('delete_project', { method: 'DELETE', description: 'Delete a project you created, with its sections and tasks.', params: [req.int('project_id')], response: MESSAGE }, (ctx, a) => {
    const p = myProject(ctx, Number(a.project_id));
    if (p.is_inbox === 1) throw new ApiError(422, 'The Inbox project cannot be deleted.');
    if (p.creator_id !== me(ctx)) throw new ApiError(401, 'Only the creator of a project can delete it.');
    deleteTasks(
      ctx,
      (ctx.db.prepare('SELECT id FROM todoist_tasks WHERE project_id = ?').all(p.id) as { id: number }[]).map((r) => r.id),
    );
    for (const t of ['todoist_sections', 'todoist_collaborators', 'todoist_invites']) ctx.db.prepare(`DELETE FROM ${t} WHERE project_id = ?`).run(p.id);
    ctx.db.prepare('DELETE FROM todoist_projects WHERE id = ?').run(p.id);
    return ok('Project deleted.');
  }),

  // Sections.
  def(
    'create_section',
    {
      description: 'Add a section to a project at an order index (-1: last).',
      params: [req.int('project_id'), req.str('name', NAME), opt.int('order_index', { default: -1 })],
      response: { message: 'string', section_id: 1 },
    },
    (ctx, a) => {
      const p = myProject(ctx, Number(a.project_id));
      const id = Number(ctx.db.prepare('INSERT INTO todoist_sections (project_id, name, order_index, created_at) VALUES (?, ?, ?, ?)').run(p.id, str(a, 'name'), 1_000_000, ctx.now).lastInsertRowid);
      reorder(ctx, 'todoist_sections', 'project_id = ?', [p.id], id, Number(a.order_index ?? -1));
      return ok('Section created.', { section_id: id });
    },
  ),
  def(
    'show_sections',
    {
      description: "List a project's sections in order.",
      params: [req.int('project_id')],
      response: [{ project_id: 1, name: 'string', order_index: 0.0, created_at: '2019-01-01T00:00:00', section_id: 1, num_tasks: 1 }],
    },
    (ctx, a) => {
      const p = myProject(ctx, Number(a.project_id));
      return (ctx.db.prepare('SELECT * FROM todoist_sections WHERE project_id = ? ORDER BY order_index, id').all(p.id) as SectionRow[]).map((s) => ({
        project_id: s.project_id,
        name: s.name,
        order_index: s.order_index,
        created_at: s.created_at,
        section_id: s.id,
        num_tasks: taskCount(ctx, 'section_id = ?', s.id),
      }));
    },
  ),
  def('update_section', { method: 'PATCH', description: 'Rename or move a section.', params: [req.int('section_id'), opt.str('name', NAME), opt.int('order_index')], response: MESSAGE }, (ctx, a) => {
    const s = mySection(ctx, Number(a.section_id));
    ctx.db.prepare('UPDATE todoist_sections SET name = ? WHERE id = ?').run(optStr(a, 'name') ?? s.name, s.id);
    if (optNum(a, 'order_index') !== null) reorder(ctx, 'todoist_sections', 'project_id = ?', [s.project_id], s.id, Number(a.order_index));
    return ok('Section updated.');
  }),
  def('delete_section', { method: 'DELETE', description: 'Delete a section and its tasks.', params: [req.int('section_id')], response: MESSAGE }, (ctx, a) => {
    const s = mySection(ctx, Number(a.section_id));
    deleteTasks(
      ctx,
      (ctx.db.prepare('SELECT id FROM todoist_tasks WHERE section_id = ?').all(s.id) as { id: number }[]).map((r) => r.id),
    );
    ctx.db.prepare('DELETE FROM todoist_sections WHERE id = ?').run(s.id);
    compact(ctx, 'todoist_sections', 'project_id = ?', [s.project_id]);
    return ok('Section deleted.');
  }),

  // Collaboration.
  def(
    'remove_collaborator_from_project',
    {
      method: 'DELETE',
      description: 'Remove a collaborator (or yourself) from a project; their tasks get unassigned.',
      params: [req.int('project_id'), req.str('email', { constraints: EMAIL })],
      response: MESSAGE,
    },
    (ctx, a) => {
      const p = myProject(ctx, Number(a.project_id));
      const u = todoistUser(ctx, str(a, 'email'));
      if (!isCollaborator(ctx, p.id, u.id)) throw new ApiError(422, 'The user is not a collaborator of this project.');
      if (u.id === p.creator_id) throw new ApiError(422, 'The creator of a project cannot be removed from it.');
      ctx.db.prepare('DELETE FROM todoist_collaborators WHERE project_id = ? AND user_id = ?').run(p.id, u.id);
      ctx.db.prepare('UPDATE todoist_tasks SET assignee_id = NULL, assigner_id = NULL WHERE project_id = ? AND assignee_id = ?').run(p.id, u.id);
      return ok('Collaborator removed.');
    },
  ),
  def(
    'send_project_invite',
    {
      description: 'Invite someone to collaborate on a project; returns the invite code.',
      params: [req.int('project_id'), req.str('email', { constraints: EMAIL })],
      response: { message: 'string', invite_code: 'string' },
    },
    (ctx, a) => {
      const p = myProject(ctx, Number(a.project_id));
      if (p.is_inbox === 1) throw new ApiError(422, 'The Inbox project cannot be shared.');
      const u = todoistUser(ctx, str(a, 'email'));
      if (isCollaborator(ctx, p.id, u.id)) throw new ApiError(422, 'The user is already a collaborator of this project.');
      if (ctx.db.prepare('SELECT 1 FROM todoist_invites WHERE project_id = ? AND invitee_id = ?').get(p.id, u.id)) throw new ApiError(422, 'The user already has a pending invite to this project.');
      const code = createHash('sha256')
        .update(`todoist:${p.id}:${u.id}:${me(ctx)}:${ctx.now}`)
        .digest('hex')
        .slice(0, 10);
      ctx.db.prepare('INSERT INTO todoist_invites (project_id, invite_code, inviter_id, invitee_id, created_at) VALUES (?, ?, ?, ?, ?)').run(p.id, code, me(ctx), u.id, ctx.now);
      notify(ctx, u.id, 'project_invite', 'Project invite', `${myName(ctx)} invited you to the project "${p.name}".`, { project_id: p.id, invite_code: code });
      return ok('Invite sent.', { invite_code: code });
    },
  ),
  def('accept_project_invite', { description: 'Join a project with an invite code sent to you.', params: [req.str('invite_code')], response: { message: 'string', project_id: 1 } }, (ctx, a) => {
    const i = ctx.db.prepare('SELECT * FROM todoist_invites WHERE invite_code = ?').get(str(a, 'invite_code')) as InviteRow | undefined;
    if (!i || i.invitee_id !== me(ctx)) throw new ApiError(422, 'The invite code is invalid.');
    ctx.db.prepare('INSERT OR IGNORE INTO todoist_collaborators (project_id, user_id, created_at) VALUES (?, ?, ?)').run(i.project_id, me(ctx), ctx.now);
    ctx.db.prepare('DELETE FROM todoist_invites WHERE id = ?').run(i.id);
    notify(ctx, i.inviter_id, 'collaborator_added', 'Invite accepted', `${myName(ctx)} joined your project.`, { project_id: i.project_id });
    return ok('Invite accepted.', { project_id: i.project_id });
  }),
  def('delete_project_invite', { description: 'Withdraw or decline a project invite.', params: [req.str('invite_code')], response: MESSAGE }, (ctx, a) => {
    const i = ctx.db.prepare('SELECT * FROM todoist_invites WHERE invite_code = ?').get(str(a, 'invite_code')) as InviteRow | undefined;
    if (!i || (i.invitee_id !== me(ctx) && i.inviter_id !== me(ctx))) throw new ApiError(422, 'The invite code is invalid.');
    ctx.db.prepare('DELETE FROM todoist_invites WHERE id = ?').run(i.id);
    return ok('Invite deleted.');
  }),

  // Tasks.
  def(
    'create_task',
    {
      description: 'Add a task to a project (0: Inbox), optionally in a section, at an order index (-1: last).',
      params: [
        req.int('project_id'),
        opt.int('section_id'),
        req.str('title', NAME),
        opt.str('description', { default: '' }),
        opt.str('due_date', { desc: 'YYYY-MM-DD.' }),
        opt.num('duration'),
        opt.str('duration_unit', DURATION_UNIT),
        opt.int('order_index', { default: -1 }),
        opt.str('priority', PRIORITY({ default: 'medium' })),
      ],
      response: { message: 'string', task_id: 1 },
    },
    (ctx, a) => {
      const p = myProject(ctx, Number(a.project_id));
      const sectionId = optNum(a, 'section_id');
      if (sectionId !== null && mySection(ctx, sectionId).project_id !== p.id) throw new ApiError(422, 'The section does not belong to this project.');
      const id = Number(
        ctx.db
          .prepare(
            'INSERT INTO todoist_tasks (project_id, section_id, title, description, due_date, priority, is_completed, duration, duration_unit, order_index, assignee_id, assigner_id, creator_id, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, NULL, NULL, ?, ?)',
          )
          .run(
            p.id,
            sectionId,
            str(a, 'title'),
            str(a, 'description'),
            dueDate(optStr(a, 'due_date')),
            str(a, 'priority') || 'medium',
            optNum(a, 'duration'),
            optStr(a, 'duration_unit'),
            1_000_000,
            me(ctx),
            ctx.now,
          ).lastInsertRowid,
      );
      const [where, params] = sectionScope(p.id, sectionId);
      reorder(ctx, 'todoist_tasks', where, params, id, Number(a.order_index ?? -1));
      return ok('Task created.', { task_id: id });
    },
  ),
  def(
    'assign_or_unassign_task',
    { description: 'Assign a task to a collaborator, or unassign it without an email.', params: [req.int('task_id'), opt.str('assignee_email', { constraints: EMAIL })], response: MESSAGE },
    (ctx, a) => {
      const t = myTask(ctx, Number(a.task_id));
      if (optStr(a, 'assignee_email') === null) {
        ctx.db.prepare('UPDATE todoist_tasks SET assignee_id = NULL, assigner_id = NULL WHERE id = ?').run(t.id);
        return ok('Task unassigned.');
      }
      const u = todoistUser(ctx, str(a, 'assignee_email'));
      if (!isCollaborator(ctx, t.project_id, u.id)) throw new ApiError(422, 'Tasks can only be assigned to collaborators of the project.');
      ctx.db.prepare('UPDATE todoist_tasks SET assignee_id = ?, assigner_id = ? WHERE id = ?').run(u.id, me(ctx), t.id);
      notify(ctx, u.id, 'task_assigned', 'Task assigned', `${myName(ctx)} assigned you "${t.title}".`, { task_id: t.id });
      return ok('Task assigned.');
    },
  ),
  def(
    'show_tasks',
    {
      description: "List a project's tasks by section, with filters.",
      params: [
        req.int('project_id'),
        opt.int('section_id', { desc: '0 for tasks without a section.' }),
        opt.str('assignee_email', { constraints: EMAIL }),
        opt.str('assigner_email', { constraints: EMAIL }),
        opt.str('priority', PRIORITY()),
        opt.bool('is_completed'),
        opt.bool('due_today', { default: false }),
        opt.int('label_id'),
        opt.bool('overdue', { default: false }),
        opt.str('min_due_date', { default: '1500-01-01' }),
        opt.str('max_due_date', { default: '3000-01-01' }),
        opt.str('sort_by', { default: '+order_index' }),
      ],
      response: { project_id: 1, no_section_tasks: [TASK_ITEM], sections: [{ section_id: 1, tasks: [TASK_ITEM] }] },
    },
    (ctx, a) => {
      const p = myProject(ctx, Number(a.project_id));
      const assignee = optStr(a, 'assignee_email') === null ? null : todoistUser(ctx, str(a, 'assignee_email')).id;
      const assigner = optStr(a, 'assigner_email') === null ? null : todoistUser(ctx, str(a, 'assigner_email')).id;
      const today = ctx.now.slice(0, 10);
      const [minDue, maxDue] = [str(a, 'min_due_date') || '1500-01-01', str(a, 'max_due_date') || '3000-01-01'];
      const dueRange = minDue !== '1500-01-01' || maxDue !== '3000-01-01';
      const labelled =
        optNum(a, 'label_id') === null ? null : new Set((ctx.db.prepare('SELECT task_id FROM todoist_task_labels WHERE label_id = ?').all(a.label_id) as { task_id: number }[]).map((r) => r.task_id));
      const sectionFilter = optNum(a, 'section_id');
      const tasks = (ctx.db.prepare('SELECT * FROM todoist_tasks WHERE project_id = ? ORDER BY order_index, id').all(p.id) as TaskRow[]).filter((t) => {
        const day = t.due_date?.slice(0, 10) ?? null;
        return (
          (sectionFilter === null || (sectionFilter === 0 ? t.section_id === null : t.section_id === sectionFilter)) &&
          (assignee === null || t.assignee_id === assignee) &&
          (assigner === null || t.assigner_id === assigner) &&
          (optStr(a, 'priority') === null || t.priority === a.priority) &&
          (optBool(a, 'is_completed') === null || (t.is_completed === 1) === a.is_completed) &&
          (a.due_today !== true || day === today) &&
          (a.overdue !== true || (day !== null && day < today && t.is_completed === 0)) &&
          (labelled === null || labelled.has(t.id)) &&
          (!dueRange ? true : day !== null && day >= minDue.slice(0, 10) && day <= maxDue.slice(0, 10))
        );
      });
      const spec = str(a, 'sort_by').trim() || '+order_index';
      const key = spec.replace(/^[+-]/, '');
      if (!['order_index', 'due_date', 'priority'].includes(key))
        throw new ApiError(422, `Validation error. Reason: \nsort_by: the attribute '${key}' is not sortable. Sortable attributes are: ['order_index', 'due_date', 'priority']`);
      const sign = spec.startsWith('-') ? -1 : 1;
      const value = (t: TaskRow): number | string => (key === 'priority' ? (PRIORITY_RANK[t.priority] ?? 2) : key === 'due_date' ? (t.due_date ?? '9999') : t.order_index);
      tasks.sort((x, y) => {
        const [vx, vy] = [value(x), value(y)];
        return sign * (vx < vy ? -1 : vx > vy ? 1 : x.order_index - y.order_index);
      });
      const sections = ctx.db.prepare('SELECT * FROM todoist_sections WHERE project_id = ? ORDER BY order_index, id').all(p.id) as SectionRow[];
      return {
        project_id: p.id,
        no_section_tasks: tasks.filter((t) => t.section_id === null).map((t) => taskItem(ctx, t)),
        sections: sections
          .filter((s) => sectionFilter === null || s.id === sectionFilter)
          .map((s) => ({ section_id: s.id, tasks: tasks.filter((t) => t.section_id === s.id).map((t) => taskItem(ctx, t)) })),
      };
    },
  ),
  def('show_task', { description: 'Show a task.', params: [req.int('task_id')], response: TASK }, (ctx, a) => taskView(ctx, myTask(ctx, Number(a.task_id)))),
  def(
    'update_task',
    {
      method: 'PATCH',
      description: 'Change a task: title, description, due date, duration, completion, order or priority.',
      params: [
        req.int('task_id'),
        opt.str('title', NAME),
        opt.str('description'),
        opt.str('due_date'),
        opt.num('duration'),
        opt.str('duration_unit', DURATION_UNIT),
        opt.bool('is_completed'),
        opt.int('order_index'),
        opt.str('priority', PRIORITY()),
      ],
      response: MESSAGE,
    },
    (ctx, a) => {
      const t = myTask(ctx, Number(a.task_id));
      ctx.db
        .prepare('UPDATE todoist_tasks SET title = ?, description = ?, due_date = ?, duration = ?, duration_unit = ?, is_completed = ?, priority = ? WHERE id = ?')
        .run(
          optStr(a, 'title') ?? t.title,
          optStr(a, 'description') ?? t.description,
          optStr(a, 'due_date') === null ? t.due_date : dueDate(optStr(a, 'due_date')),
          optNum(a, 'duration') ?? t.duration,
          optStr(a, 'duration_unit') ?? t.duration_unit,
          optBool(a, 'is_completed') === null ? t.is_completed : a.is_completed ? 1 : 0,
          optStr(a, 'priority') ?? t.priority,
          t.id,
        );
      if (optNum(a, 'order_index') !== null) {
        const [where, params] = sectionScope(t.project_id, t.section_id);
        reorder(ctx, 'todoist_tasks', where, params, t.id, Number(a.order_index));
      }
      return ok('Task updated.');
    },
  ),
  def('delete_task', { method: 'DELETE', description: 'Delete a task with its sub-tasks and comments.', params: [req.int('task_id')], response: MESSAGE }, (ctx, a) => {
    const t = myTask(ctx, Number(a.task_id));
    deleteTasks(ctx, [t.id]);
    const [where, params] = sectionScope(t.project_id, t.section_id);
    compact(ctx, 'todoist_tasks', where, params);
    return ok('Task deleted.');
  }),

  // Sub-tasks.
  def(
    'create_sub_task',
    {
      description: 'Add a sub-task to a task at an order index (-1: last).',
      params: [
        req.int('task_id'),
        req.str('title', NAME),
        opt.str('description', { default: '' }),
        opt.str('due_date', { desc: 'YYYY-MM-DD.' }),
        opt.str('priority', PRIORITY({ default: 'medium' })),
        opt.int('order_index', { default: -1 }),
      ],
      response: { message: 'string', sub_task_id: 1 },
    },
    (ctx, a) => {
      const t = myTask(ctx, Number(a.task_id));
      const id = Number(
        ctx.db
          .prepare('INSERT INTO todoist_sub_tasks (task_id, title, description, due_date, priority, is_completed, order_index, created_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)')
          .run(t.id, str(a, 'title'), str(a, 'description'), dueDate(optStr(a, 'due_date')), str(a, 'priority') || 'medium', 1_000_000, ctx.now).lastInsertRowid,
      );
      reorder(ctx, 'todoist_sub_tasks', 'task_id = ?', [t.id], id, Number(a.order_index ?? -1));
      return ok('Sub-task created.', { sub_task_id: id });
    },
  ),
  def('show_sub_tasks', { description: "List a task's sub-tasks in order.", params: [req.int('task_id')], response: [SUB_TASK] }, (ctx, a) =>
    (ctx.db.prepare('SELECT * FROM todoist_sub_tasks WHERE task_id = ? ORDER BY order_index, id').all(myTask(ctx, Number(a.task_id)).id) as SubTaskRow[]).map(subTaskView),
  ),
  def(
    'update_sub_task',
    {
      method: 'PATCH',
      description: 'Change a sub-task.',
      params: [req.int('sub_task_id'), opt.str('title', NAME), opt.str('description'), opt.str('due_date'), opt.str('priority', PRIORITY()), opt.bool('is_completed'), opt.int('order_index')],
      response: MESSAGE,
    },
    (ctx, a) => {
      const s = mySubTask(ctx, Number(a.sub_task_id));
      ctx.db
        .prepare('UPDATE todoist_sub_tasks SET title = ?, description = ?, due_date = ?, priority = ?, is_completed = ? WHERE id = ?')
        .run(
          optStr(a, 'title') ?? s.title,
          optStr(a, 'description') ?? s.description,
          optStr(a, 'due_date') === null ? s.due_date : dueDate(optStr(a, 'due_date')),
          optStr(a, 'priority') ?? s.priority,
          optBool(a, 'is_completed') === null ? s.is_completed : a.is_completed ? 1 : 0,
          s.id,
        );
      if (optNum(a, 'order_index') !== null) reorder(ctx, 'todoist_sub_tasks', 'task_id = ?', [s.task_id], s.id, Number(a.order_index));
      return ok('Sub-task updated.');
    },
  ),
  def('delete_sub_task', { method: 'DELETE', description: 'Delete a sub-task.', params: [req.int('sub_task_id')], response: MESSAGE }, (ctx, a) => {
    const s = mySubTask(ctx, Number(a.sub_task_id));
    ctx.db.prepare('DELETE FROM todoist_sub_tasks WHERE id = ?').run(s.id);
    compact(ctx, 'todoist_sub_tasks', 'task_id = ?', [s.task_id]);
    return ok('Sub-task deleted.');
  }),

  // Labels.
  def('create_label', { description: 'Create a label.', params: [req.str('name', NAME), opt.str('color', COLOR({ default: 'charcoal' }))], response: { message: 'string', label_id: 1 } }, (ctx, a) => {
    if (ctx.db.prepare('SELECT 1 FROM todoist_labels WHERE creator_id = ? AND lower(name) = lower(?)').get(me(ctx), str(a, 'name')))
      throw new ApiError(422, 'You already have a label with this name.');
    const id = Number(
      ctx.db.prepare('INSERT INTO todoist_labels (creator_id, name, color, created_at) VALUES (?, ?, ?, ?)').run(me(ctx), str(a, 'name'), str(a, 'color') || 'charcoal', ctx.now).lastInsertRowid,
    );
    return ok('Label created.', { label_id: id });
  }),
  def('show_label', { auth: false, description: 'Show a label.', params: [req.int('label_id')], response: LABEL }, (ctx, a) => labelView(ctx, labelRow(ctx, Number(a.label_id)))),
  def(
    'search_labels',
    {
      description: 'Search your labels, or those on (or not on) a task.',
      params: [opt.str('query', { default: '' }), opt.int('task_id'), opt.str('color', COLOR()), opt.bool('task_attached', { default: true }), ...UNCAPPED_PAGING],
      response: [LABEL],
    },
    (ctx, a) => {
      let rows = ctx.db.prepare('SELECT * FROM todoist_labels WHERE creator_id = ? ORDER BY id').all(me(ctx)) as LabelRow[];
      if (optNum(a, 'task_id') !== null) {
        const attached = labelsOfTask(ctx, myTask(ctx, Number(a.task_id)).id);
        rows = a.task_attached === false ? rows.filter((l) => !attached.some((x) => x.id === l.id)) : attached;
      }
      return page(
        rankByQuery(
          rows.filter((l) => optStr(a, 'color') === null || l.color === a.color),
          a.query,
          (l) => [l.name],
        ),
        a,
      ).map((l) => labelView(ctx, l));
    },
  ),
  def('update_label', { method: 'PATCH', description: 'Rename or recolor a label.', params: [req.int('label_id'), opt.str('name', NAME), opt.str('color', COLOR())], response: MESSAGE }, (ctx, a) => {
    const l = myLabel(ctx, Number(a.label_id));
    ctx.db.prepare('UPDATE todoist_labels SET name = ?, color = ? WHERE id = ?').run(optStr(a, 'name') ?? l.name, optStr(a, 'color') ?? l.color, l.id);
    return ok('Label updated.');
  }),
  def('delete_label', { method: 'DELETE', description: 'Delete a label and take it off every task.', params: [req.int('label_id')], response: MESSAGE }, (ctx, a) => {
    const l = myLabel(ctx, Number(a.label_id));
    ctx.db.prepare('DELETE FROM todoist_task_labels WHERE label_id = ?').run(l.id);
    ctx.db.prepare('DELETE FROM todoist_labels WHERE id = ?').run(l.id);
    return ok('Label deleted.');
  }),
  def('add_label_to_task', { description: 'Put one of your labels on a task.', params: [req.int('task_id'), req.int('label_id')], response: MESSAGE }, (ctx, a) => {
    const t = myTask(ctx, Number(a.task_id));
    const l = myLabel(ctx, Number(a.label_id));
    if (ctx.db.prepare('SELECT 1 FROM todoist_task_labels WHERE task_id = ? AND label_id = ?').get(t.id, l.id)) throw new ApiError(422, 'The task already has this label.');
    ctx.db.prepare('INSERT INTO todoist_task_labels (task_id, label_id) VALUES (?, ?)').run(t.id, l.id);
    return ok('Label added to the task.');
  }),
  def('remove_label_from_task', { method: 'DELETE', description: 'Take a label off a task.', params: [req.int('task_id'), req.int('label_id')], response: MESSAGE }, (ctx, a) => {
    const t = myTask(ctx, Number(a.task_id));
    if (ctx.db.prepare('DELETE FROM todoist_task_labels WHERE task_id = ? AND label_id = ?').run(t.id, Number(a.label_id)).changes === 0) throw new ApiError(422, 'The task does not have this label.');
    return ok('Label removed from the task.');
  }),

  // Comments and attachments.
  def(
    'post_task_comment',
    {
      description: 'Comment on a task, optionally attaching files from your file system.',
      params: [req.int('task_id'), req.str('content'), opt.list('attachment_file_paths'), opt.str('file_system_access_token')],
      response: { message: 'string', task_comment_id: 1 },
    },
    (ctx, a) => {
      const t = myTask(ctx, Number(a.task_id));
      const id = Number(ctx.db.prepare('INSERT INTO todoist_task_comments (task_id, user_id, content, created_at) VALUES (?, ?, ?, ?)').run(t.id, me(ctx), str(a, 'content'), ctx.now).lastInsertRowid);
      for (const path of (a.attachment_file_paths as string[] | null) ?? []) attach(ctx, id, optStr(a, 'file_system_access_token'), path, false);
      for (const c of collaboratorsOf(ctx, t.project_id)) notify(ctx, c, 'task_comment', 'New comment', `${myName(ctx)} commented on "${t.title}".`, { task_id: t.id, task_comment_id: id });
      return ok('Comment posted.', { task_comment_id: id });
    },
  ),
  def('show_task_comments', { description: "List a task's comments.", params: [req.int('task_id'), ...PAGING], response: [COMMENT] }, (ctx, a) =>
    page(ctx.db.prepare('SELECT * FROM todoist_task_comments WHERE task_id = ? ORDER BY created_at, id').all(myTask(ctx, Number(a.task_id)).id) as CommentRow[], a).map((c) => commentView(ctx, c)),
  ),
  def('show_task_comment', { description: 'Show one task comment.', params: [req.int('task_comment_id')], response: COMMENT }, (ctx, a) =>
    commentView(ctx, visibleComment(ctx, Number(a.task_comment_id))),
  ),
  def('update_task_comment', { method: 'PATCH', description: 'Edit a comment you posted.', params: [req.int('task_comment_id'), opt.str('content')], response: MESSAGE }, (ctx, a) => {
    const c = ownComment(ctx, Number(a.task_comment_id));
    ctx.db.prepare('UPDATE todoist_task_comments SET content = ? WHERE id = ?').run(optStr(a, 'content') ?? c.content, c.id);
    return ok('Comment updated.');
  }),
  def('delete_task_comment', { method: 'DELETE', description: 'Delete a comment you posted, with its attachments.', params: [req.int('task_comment_id')], response: MESSAGE }, (ctx, a) => {
    const c = ownComment(ctx, Number(a.task_comment_id));
    ctx.db.prepare('DELETE FROM todoist_attachments WHERE task_comment_id = ?').run(c.id);
    ctx.db.prepare('DELETE FROM todoist_task_comments WHERE id = ?').run(c.id);
    return ok('Comment deleted.');
  }),
  def(
    'upload_attachment',
    {
      description: 'Attach a file from your file system to your comment.',
      params: [req.int('task_comment_id'), req.str('upload_from_file_path'), opt.bool('overwrite', { default: false }), req.str('file_system_access_token')],
      response: { message: 'string', attachment_file_name: 'string' },
    },
    (ctx, a) => {
      const c = ownComment(ctx, Number(a.task_comment_id));
      return ok('Attachment uploaded.', { attachment_file_name: attach(ctx, c.id, str(a, 'file_system_access_token'), str(a, 'upload_from_file_path'), a.overwrite === true) });
    },
  ),
  def(
    'download_attachment',
    {
      description: "Save a comment's attachment into your file system.",
      params: [req.int('task_comment_id'), req.str('attachment_file_name'), opt.str('download_to_file_path'), opt.bool('overwrite', { default: false }), req.str('file_system_access_token')],
      response: { message: 'string', file_path: 'string' },
    },
    (ctx, a) => {
      const c = visibleComment(ctx, Number(a.task_comment_id));
      const f = ctx.db.prepare('SELECT * FROM todoist_attachments WHERE task_comment_id = ? AND file_name = ?').get(c.id, str(a, 'attachment_file_name')) as
        | { file_name: string; content: string }
        | undefined;
      if (!f) notFound('attachment');
      return ok('Attachment downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), f.file_name, f.content, a.overwrite === true),
      });
    },
  ),
  def(
    'delete_attachment',
    { method: 'DELETE', description: 'Remove an attachment from your comment.', params: [req.int('task_comment_id'), req.str('attachment_file_name')], response: MESSAGE },
    (ctx, a) => {
      const c = ownComment(ctx, Number(a.task_comment_id));
      if (ctx.db.prepare('DELETE FROM todoist_attachments WHERE task_comment_id = ? AND file_name = ?').run(c.id, str(a, 'attachment_file_name')).changes === 0) notFound('attachment');
      return ok('Attachment deleted.');
    },
  ),
  ...notificationApis('todoist', { type: 'collaborator_added' }),
];

/** AppWorld's routes of the todoist app. */
const T = '/todoist';
export const todoistApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('todoist', { verification: true, notifications: true }),
  search_users: `GET ${T}/users`,
  show_projects: `GET ${T}/projects`,
  create_project: `POST ${T}/projects`,
  show_project: `GET ${T}/projects/{project_id}`,
  delete_project: `DELETE ${T}/projects/{project_id}`,
  update_project: `PATCH ${T}/projects/{project_id}`,
  show_sections: `GET ${T}/projects/{project_id}/sections`,
  create_section: `POST ${T}/projects/{project_id}/sections`,
  delete_section: `DELETE ${T}/sections/{section_id}`,
  update_section: `PATCH ${T}/sections/{section_id}`,
  remove_collaborator_from_project: `DELETE ${T}/projects/{project_id}/collaborators`,
  send_project_invite: `POST ${T}/projects/{project_id}/invite`,
  accept_project_invite: `POST ${T}/project_invites/{invite_code}/accept`,
  delete_project_invite: `POST ${T}/project_invites/{invite_code}/delete`,
  show_tasks: `GET ${T}/projects/{project_id}/tasks`,
  create_task: `POST ${T}/projects/{project_id}/tasks`,
  assign_or_unassign_task: `POST ${T}/tasks/{task_id}/assign`,
  show_task: `GET ${T}/tasks/{task_id}`,
  delete_task: `DELETE ${T}/tasks/{task_id}`,
  update_task: `PATCH ${T}/tasks/{task_id}`,
  show_sub_tasks: `GET ${T}/tasks/{task_id}/sub_tasks`,
  create_sub_task: `POST ${T}/tasks/{task_id}/sub_tasks`,
  delete_sub_task: `DELETE ${T}/sub_tasks/{sub_task_id}`,
  update_sub_task: `PATCH ${T}/sub_tasks/{sub_task_id}`,
  search_labels: `GET ${T}/labels`,
  create_label: `POST ${T}/labels`,
  show_label: `GET ${T}/labels/{label_id}`,
  delete_label: `DELETE ${T}/labels/{label_id}`,
  update_label: `PATCH ${T}/labels/{label_id}`,
  add_label_to_task: `POST ${T}/tasks/{task_id}/labels`,
  remove_label_from_task: `DELETE ${T}/tasks/{task_id}/labels/{label_id}`,
  show_task_comments: `GET ${T}/tasks/{task_id}/comments`,
  post_task_comment: `POST ${T}/tasks/{task_id}/comments`,
  show_task_comment: `GET ${T}/task_comments/{task_comment_id}`,
  delete_task_comment: `DELETE ${T}/task_comments/{task_comment_id}`,
  update_task_comment: `PATCH ${T}/task_comments/{task_comment_id}`,
  upload_attachment: `POST ${T}/task_comments/{task_comment_id}/attachments`,
  download_attachment: `GET ${T}/task_comments/{task_comment_id}/attachments/{attachment_file_name}`,
  delete_attachment: `DELETE ${T}/task_comments/{task_comment_id}/attachments/{attachment_file_name}`,
});
