// todoist's users and projects: search users, the Inbox and shared projects (create, show, update, delete).
import { declarer, me, ok, optBool, optStr, str } from '../../define.js';
import { rankByQuery } from '../../ranked.js';
import { opt, PAGING, req } from '../../params.js';
import { ids, select } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import type { UserRow } from '../shared/accounts.js';
import { myProject, type ProjectRow } from './tables.js';
import { MESSAGE, PROJECT, projectView } from './views.js';
import { COLOR, deleteTasks, NAME, page, UNCAPPED_PAGING } from './helpers.js';

const def = declarer('todoist');
/** Projects with their collaborators (the caller's projects, by `c.user_id`). */
const collaborating = select<ProjectRow>('SELECT p.* FROM todoist_projects p JOIN todoist_collaborators c ON c.project_id = p.id');

export const projectApis: ApiDef[] = [
  def(
    'search_users',
    {
      auth: false,
      description: 'Search Todoist users by name or email.',
      params: [opt.str('query', { default: '' }), ...PAGING],
      response: [{ first_name: 'string', last_name: 'string', email: 'user@example.com', registered_at: '2019-01-01T00:00:00' }],
    },
    (ctx, a) => {
      const users = select<UserRow & { registered_at: string }>("SELECT u.*, a.created_at AS registered_at FROM users u JOIN accounts a ON a.user_id = u.id AND a.app = 'todoist'").all(
        ctx,
        'ORDER BY u.id',
      );
      return page(
        rankByQuery(users, a.query, (u) => [u.first_name, u.last_name, u.email]),
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
      let rows = collaborating
        .all(ctx, 'WHERE c.user_id = ? ORDER BY p.id', me(ctx))
        .filter(
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
    deleteTasks(ctx, ids(ctx, 'SELECT id FROM todoist_tasks WHERE project_id = ?', p.id));
    for (const t of ['todoist_sections', 'todoist_collaborators', 'todoist_invites']) ctx.db.prepare(`DELETE FROM ${t} WHERE project_id = ?`).run(p.id);
    ctx.db.prepare('DELETE FROM todoist_projects WHERE id = ?').run(p.id);
    return ok('Project deleted.');
  }),
];
