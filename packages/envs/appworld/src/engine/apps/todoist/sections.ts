// todoist's ordered sections of a project, and collaboration: invites (accept/decline) and collaborators.
import { createHash } from 'node:crypto';
import { declarer, me, ok, optNum, optStr, str } from '../../define.js';
import { EMAIL, opt, req } from '../../params.js';
import { ids } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { inviteRows, sectionRows, isCollaborator, myProject, mySection, todoistUser } from './tables.js';
import { MESSAGE, taskCount } from './views.js';
import { compact, deleteTasks, myName, NAME, notify, reorder } from './helpers.js';

const def = declarer('todoist');

export const sectionApis: ApiDef[] = [
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
      return sectionRows.all(ctx, 'WHERE project_id = ? ORDER BY order_index, id', p.id).map((s) => ({
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
    deleteTasks(ctx, ids(ctx, 'SELECT id FROM todoist_tasks WHERE section_id = ?', s.id));
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
    const i = inviteRows.one(ctx, 'WHERE invite_code = ?', str(a, 'invite_code'));
    if (!i || i.invitee_id !== me(ctx)) throw new ApiError(422, 'The invite code is invalid.');
    ctx.db.prepare('INSERT OR IGNORE INTO todoist_collaborators (project_id, user_id, created_at) VALUES (?, ?, ?)').run(i.project_id, me(ctx), ctx.now);
    ctx.db.prepare('DELETE FROM todoist_invites WHERE id = ?').run(i.id);
    notify(ctx, i.inviter_id, 'collaborator_added', 'Invite accepted', `${myName(ctx)} joined your project.`, { project_id: i.project_id });
    return ok('Invite accepted.', { project_id: i.project_id });
  }),
  def('delete_project_invite', { description: 'Withdraw or decline a project invite.', params: [req.str('invite_code')], response: MESSAGE }, (ctx, a) => {
    const i = inviteRows.one(ctx, 'WHERE invite_code = ?', str(a, 'invite_code'));
    if (!i || (i.invitee_id !== me(ctx) && i.inviter_id !== me(ctx))) throw new ApiError(422, 'The invite code is invalid.');
    ctx.db.prepare('DELETE FROM todoist_invites WHERE id = ?').run(i.id);
    return ok('Invite deleted.');
  }),
];
