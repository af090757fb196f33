// todoist's task comments and their file attachments (read from and downloaded into the file system).
import { declarer, me, notFound, ok, optStr, str } from '../../define.js';
import { opt, PAGING, req } from '../../params.js';
import type { ApiDef } from '../../types.js';
import { downloadToFileSystem } from '../file_system.js';
import { row } from '../../tables.js';
import { commentRows, collaboratorsOf, myTask, ownComment, visibleComment } from './tables.js';
import { COMMENT, commentView, MESSAGE } from './views.js';
import { attach, myName, notify, page } from './helpers.js';

const def = declarer('todoist');

export const commentApis: ApiDef[] = [
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
    page(commentRows.all(ctx, 'WHERE task_id = ? ORDER BY created_at, id', myTask(ctx, Number(a.task_id)).id), a).map((c) => commentView(ctx, c)),
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
      const f = row<{ file_name: string; content: string }>(ctx, 'SELECT * FROM todoist_attachments WHERE task_comment_id = ? AND file_name = ?', c.id, str(a, 'attachment_file_name'));
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
];
