// simple_note: notes with titles, contents, tags and pins.
import { declarer, jsonList, me, notFound, ok, optBool, optStr, str } from '../define.js';
import { pageOf } from '../listing.js';
import { rankByQuery, rankedPage } from '../ranked.js';
import { opt, PAGING, req, sortBy } from '../params.js';
import { table } from '../tables.js';
import { ApiError, type ApiContext, type ApiDef } from '../types.js';
import { accountApis } from './shared/accounts.js';
import { routed, sharedRoutes } from '../routes.js';

const def = declarer('simple_note');

interface NoteRow {
  id: number;
  user_id: number;
  title: string;
  content: string;
  tags: string;
  pinned: number;
  created_at: string;
  updated_at: string;
}
const notes = table<NoteRow>('notes');

const summary = (n: NoteRow) => ({ note_id: n.id, title: n.title, tags: jsonList(n.tags), created_at: n.created_at, updated_at: n.updated_at, pinned: n.pinned === 1 });

function ownNote(ctx: ApiContext, id: number): NoteRow {
  const n = notes.byId(ctx, id);
  if (!n) notFound('note');
  if (n.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this note.');
  return n;
}

const NOTE_SORT = ['title', 'created_at', 'updated_at'];

const apis: ApiDef[] = [
  ...accountApis('simple_note', { verification: true }),
  def(
    'search_notes',
    {
      response: [{ note_id: 1, title: 'string', tags: ['string'], created_at: '2019-01-01T00:00:00', updated_at: '2019-01-01T00:00:00', pinned: true }],
      description: 'Search your notes. This will not show contents of the notes. Pinned notes come first unless dont_reorder_pinned is true.',
      params: [opt.str('query', { default: '' }), opt.list('tags'), opt.bool('pinned'), opt.bool('dont_reorder_pinned'), ...PAGING, sortBy(null)],
    },
    (ctx, a) => {
      const tags = Array.isArray(a.tags) ? (a.tags as string[]) : null;
      const rows = notes
        .all(ctx, 'WHERE user_id = ? ORDER BY id', me(ctx))
        .filter((n) => (tags === null || tags.every((t) => jsonList(n.tags).includes(t))) && (optBool(a, 'pinned') === null || (n.pinned === 1) === optBool(a, 'pinned')));
      const views = rankByQuery(rows, a.query, (n) => [n.title, n.content, ...jsonList(n.tags)]).map(summary);
      const sortKey = typeof a.sort_by === 'string' ? a.sort_by : '-updated_at';
      const pinnedFirst = (v: typeof views) => (optBool(a, 'dont_reorder_pinned') ? v : [...v.filter((n) => n.pinned), ...v.filter((n) => !n.pinned)]);
      // With a query the ranking decides the pages, and sort_by (when given) and pinning order each page;
      // without one, sort_by defaults to -updated_at (AppWorld's docs).
      if (typeof a.query === 'string' && a.query.trim() !== '') return pinnedFirst(rankedPage(views, a, NOTE_SORT));
      const sorted = pageOf(views, { ...a, sort_by: sortKey, page_index: 0, page_limit: views.length || 1 }, NOTE_SORT);
      return pageOf(pinnedFirst(sorted), { ...a, sort_by: null }, []);
    },
  ),
  def(
    'create_note',
    {
      description: 'Create a new note.',
      params: [req.str('title', { constraints: [{ kind: 'minLength', value: 1 }] }), req.str('content'), opt.list('tags'), opt.bool('pinned', { default: false })],
      response: { message: 'string', note_id: 1 },
    },
    (ctx, a) => {
      const r = ctx.db
        .prepare('INSERT INTO notes (user_id, title, content, tags, pinned, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(me(ctx), str(a, 'title'), str(a, 'content'), JSON.stringify(a.tags ?? []), optBool(a, 'pinned') ? 1 : 0, ctx.now, ctx.now);
      return ok('Note created.', { note_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'show_note',
    {
      response: { note_id: 1, title: 'string', content: 'string', tags: ['string'], created_at: '2019-01-01T00:00:00', updated_at: '2019-01-01T00:00:00', pinned: true },
      description: 'Show detailed information of a note, including its content.',
      params: [req.int('note_id')],
    },
    (ctx, a) => {
      const n = ownNote(ctx, Number(a.note_id));
      return { ...summary(n), content: n.content };
    },
  ),
  def('delete_note', { method: 'DELETE', description: 'Delete a note.', params: [req.int('note_id')], response: { message: 'string' } }, (ctx, a) => {
    ctx.db.prepare('DELETE FROM notes WHERE id = ?').run(ownNote(ctx, Number(a.note_id)).id);
    return ok('Note deleted.');
  }),
  def(
    'update_note',
    {
      method: 'PATCH',
      description: "Update a note's title, content, tags or pin.",
      params: [req.int('note_id'), opt.str('title', { constraints: [{ kind: 'minLength', value: 1 }] }), opt.str('content'), opt.list('tags'), opt.bool('pinned')],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const n = ownNote(ctx, Number(a.note_id));
      const pinned = optBool(a, 'pinned');
      ctx.db
        .prepare('UPDATE notes SET title = ?, content = ?, tags = ?, pinned = ?, updated_at = ? WHERE id = ?')
        .run(optStr(a, 'title') ?? n.title, optStr(a, 'content') ?? n.content, Array.isArray(a.tags) ? JSON.stringify(a.tags) : n.tags, pinned === null ? n.pinned : pinned ? 1 : 0, ctx.now, n.id);
      return ok('Note updated.');
    },
  ),
  def(
    'add_content_to_note',
    {
      description: 'Append or prepend content to a note.',
      params: [req.int('note_id'), req.str('append_or_prepend', { constraints: [{ kind: 'enum', values: ['append', 'prepend'] }] }), req.str('added_content')],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const n = ownNote(ctx, Number(a.note_id));
      const content = a.append_or_prepend === 'prepend' ? str(a, 'added_content') + n.content : n.content + str(a, 'added_content');
      ctx.db.prepare('UPDATE notes SET content = ?, updated_at = ? WHERE id = ?').run(content, ctx.now, n.id);
      return ok('Content added to the note.');
    },
  ),
];

/** AppWorld's routes of the simple_note app. */
const N = '/simple_note';
export const simpleNoteApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('simple_note', { verification: true, notifications: false }),
  search_notes: `GET ${N}/notes`,
  show_note: `GET ${N}/notes/{note_id}`,
  create_note: `POST ${N}/notes`,
  update_note: `PATCH ${N}/notes/{note_id}`,
  add_content_to_note: `PATCH ${N}/notes/{note_id}/{append_or_prepend}`,
  delete_note: `DELETE ${N}/notes/{note_id}`,
});
