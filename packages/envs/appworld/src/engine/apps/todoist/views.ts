// todoist's answers: AppWorld's project, task, sub-task, label and comment views and response shapes.
import { count, rows } from '../../tables.js';
import type { ApiContext, Json } from '../../types.js';
import { userById, type UserRow } from '../shared/accounts.js';
import { inviteRows, sectionRows, collaboratorsOf, type CommentRow, type LabelRow, type ProjectRow, type SubTaskRow, type TaskRow } from './tables.js';

// Response shapes as AppWorld's API docs show them.
export const MESSAGE = { message: 'string' };
export const PERSON = { name: 'string', email: 'user@example.com' };
export const LABEL_REF = { id: 1, color: 'string', name: 'string' };
export const PROJECT = {
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
export const TASK_ITEM = {
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
export const TASK = {
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
export const SUB_TASK = {
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
export const LABEL = { name: 'string', color: 'charcoal', label_id: 1, creator: PERSON };
export const COMMENT = { task_id: 1, content: 'string', created_at: '2019-01-01T00:00:00', task_comment_id: 1, user: PERSON, attachment_file_names: ['string'] };
export const fullName = (u: UserRow) => `${u.first_name} ${u.last_name}`;
export function person(ctx: ApiContext, id: number): Json {
  const u = userById(ctx, id);
  return u ? { name: fullName(u), email: u.email } : null;
}
// ---- views ----
export const taskCount = (ctx: ApiContext, where: string, ...params: unknown[]) => count(ctx, `SELECT count(*) AS n FROM todoist_tasks WHERE ${where}`, ...params);
export function projectView(ctx: ApiContext, p: ProjectRow): Json {
  const sections = sectionRows.all(ctx, 'WHERE project_id = ? ORDER BY order_index, id', p.id);
  const collaborators = collaboratorsOf(ctx, p.id);
  const invites = inviteRows.all(ctx, 'WHERE project_id = ? ORDER BY id', p.id);
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
export const labelsOfTask = (ctx: ApiContext, taskId: number) =>
  rows<LabelRow>(ctx, 'SELECT l.* FROM todoist_labels l JOIN todoist_task_labels tl ON tl.label_id = l.id WHERE tl.task_id = ? ORDER BY tl.id', taskId);
export const subTaskCount = (ctx: ApiContext, taskId: number) => count(ctx, 'SELECT count(*) AS n FROM todoist_sub_tasks WHERE task_id = ?', taskId);
export const taskItem = (ctx: ApiContext, t: TaskRow) => ({
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
export const taskView = (ctx: ApiContext, t: TaskRow) => ({
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
export const subTaskView = (s: SubTaskRow) => ({
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
export const labelView = (ctx: ApiContext, l: LabelRow) => ({ name: l.name, color: l.color, label_id: l.id, creator: person(ctx, l.creator_id) });
export const attachmentsOf = (ctx: ApiContext, commentId: number) =>
  rows<{ file_name: string }>(ctx, 'SELECT file_name FROM todoist_attachments WHERE task_comment_id = ? ORDER BY id', commentId).map((r) => r.file_name);
export const commentView = (ctx: ApiContext, c: CommentRow) => ({
  task_id: c.task_id,
  content: c.content,
  created_at: c.created_at,
  task_comment_id: c.id,
  user: person(ctx, c.user_id),
  attachment_file_names: attachmentsOf(ctx, c.id),
});
