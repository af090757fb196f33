// todoist's labels: the caller's own, attached to tasks.
import { declarer, me, ok, optNum, optStr, str } from '../../define.js';
import { rankByQuery } from '../../ranked.js';
import { opt, req } from '../../params.js';
import { ApiError, type ApiDef } from '../../types.js';
import { labelRows, labelRow, myLabel, myTask } from './tables.js';
import { LABEL, labelsOfTask, labelView, MESSAGE } from './views.js';
import { COLOR, NAME, page, UNCAPPED_PAGING } from './helpers.js';

const def = declarer('todoist');

export const labelApis: ApiDef[] = [
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
      let rows = labelRows.all(ctx, 'WHERE creator_id = ? ORDER BY id', me(ctx));
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
];
