// todoist's tables: the row types (declared once), typed reads over them, and the lookups the APIs share
// (a project the caller collaborates on, and the sections, tasks, sub-tasks, labels and comments in it).
import { me, notFound } from '../../define.js';
import { rows, table } from '../../tables.js';
import { ApiError, type ApiContext } from '../../types.js';
import { userByEmail, type UserRow } from '../shared/accounts.js';

export interface ProjectRow {
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
export interface SectionRow {
  id: number;
  project_id: number;
  name: string;
  order_index: number;
  created_at: string;
}
export interface TaskRow {
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
export interface SubTaskRow {
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
export interface LabelRow {
  id: number;
  creator_id: number;
  name: string;
  color: string;
  created_at: string;
}
export interface CommentRow {
  id: number;
  task_id: number;
  user_id: number;
  content: string;
  created_at: string;
}
export interface InviteRow {
  id: number;
  project_id: number;
  invite_code: string;
  inviter_id: number;
  invitee_id: number;
  created_at: string;
}
export function todoistUser(ctx: ApiContext, email: string): UserRow {
  const u = userByEmail(ctx, email);
  if (!u || !ctx.db.prepare("SELECT 1 FROM accounts WHERE app = 'todoist' AND user_id = ?").get(u.id)) throw new ApiError(422, `The user with email ${email} does not exist on Todoist.`);
  return u;
}
// ---- access ----
export const isCollaborator = (ctx: ApiContext, projectId: number, userId: number) =>
  ctx.db.prepare('SELECT 1 FROM todoist_collaborators WHERE project_id = ? AND user_id = ?').get(projectId, userId) !== undefined;
export const collaboratorsOf = (ctx: ApiContext, projectId: number) =>
  rows<{ user_id: number }>(ctx, 'SELECT user_id FROM todoist_collaborators WHERE project_id = ? ORDER BY id', projectId).map((r) => r.user_id);
/** A project the caller collaborates on; 0 is the caller's Inbox. */
export function myProject(ctx: ApiContext, id: number): ProjectRow {
  const p = id === 0 ? projectRows.one(ctx, 'WHERE creator_id = ? AND is_inbox = 1', me(ctx)) : projectRows.byId(ctx, id);
  if (!p) notFound('project');
  if (!isCollaborator(ctx, p.id, me(ctx))) throw new ApiError(401, 'You are not a collaborator of this project.');
  return p;
}
export function mySection(ctx: ApiContext, id: number): SectionRow {
  const s = sectionRows.byId(ctx, id);
  if (!s) notFound('section');
  myProject(ctx, s.project_id);
  return s;
}
export function myTask(ctx: ApiContext, id: number): TaskRow {
  const t = taskRows.byId(ctx, id);
  if (!t) notFound('task');
  myProject(ctx, t.project_id);
  return t;
}
export function mySubTask(ctx: ApiContext, id: number): SubTaskRow {
  const s = subTaskRows.byId(ctx, id);
  if (!s) notFound('sub_task');
  myTask(ctx, s.task_id);
  return s;
}
export function labelRow(ctx: ApiContext, id: number): LabelRow {
  const l = labelRows.byId(ctx, id);
  if (!l) notFound('label');
  return l;
}
export function myLabel(ctx: ApiContext, id: number): LabelRow {
  const l = labelRow(ctx, id);
  if (l.creator_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this label.');
  return l;
}
export function visibleComment(ctx: ApiContext, id: number): CommentRow {
  const c = commentRows.byId(ctx, id);
  if (!c) notFound('task comment');
  myTask(ctx, c.task_id);
  return c;
}
export function ownComment(ctx: ApiContext, id: number): CommentRow {
  const c = visibleComment(ctx, id);
  if (c.user_id !== me(ctx)) throw new ApiError(401, 'You can only change your own comments.');
  return c;
}

export const projectRows = table<ProjectRow>('todoist_projects');
export const sectionRows = table<SectionRow>('todoist_sections');
export const taskRows = table<TaskRow>('todoist_tasks');
export const subTaskRows = table<SubTaskRow>('todoist_sub_tasks');
export const labelRows = table<LabelRow>('todoist_labels');
export const commentRows = table<CommentRow>('todoist_task_comments');
export const inviteRows = table<InviteRow>('todoist_invites');
