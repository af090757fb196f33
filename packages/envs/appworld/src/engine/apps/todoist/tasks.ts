// todoist's tasks and sub-tasks: create, list with filters (overdue, due today, label), show, update, move, order.
import { declarer, me, ok, optBool, optNum, optStr, str } from '../../define.js';
import { EMAIL, opt, req } from '../../params.js';
import { rows } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { sectionRows, subTaskRows, taskRows, isCollaborator, myProject, mySection, mySubTask, myTask, todoistUser, type TaskRow } from './tables.js';
import { MESSAGE, SUB_TASK, subTaskView, TASK, TASK_ITEM, taskItem, taskView } from './views.js';
import { compact, deleteTasks, dueDate, DURATION_UNIT, myName, NAME, notify, PRIORITY, PRIORITY_RANK, reorder, sectionScope } from './helpers.js';

const def = declarer('todoist');

export const taskApis: ApiDef[] = [
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
      const labelled = optNum(a, 'label_id') === null ? null : new Set(rows<{ task_id: number }>(ctx, 'SELECT task_id FROM todoist_task_labels WHERE label_id = ?', a.label_id).map((r) => r.task_id));
      const sectionFilter = optNum(a, 'section_id');
      const tasks = taskRows.all(ctx, 'WHERE project_id = ? ORDER BY order_index, id', p.id).filter((t) => {
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
      const sections = sectionRows.all(ctx, 'WHERE project_id = ? ORDER BY order_index, id', p.id);
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
    subTaskRows.all(ctx, 'WHERE task_id = ? ORDER BY order_index, id', myTask(ctx, Number(a.task_id)).id).map(subTaskView),
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
];
