// file_system: a per-user tree under /home/<first name>/, paths absolute or `~/`-relative;
// listings return absolute paths and directories end with `/`.
import { declarer, me, ok, optBool, optStr, str } from '../define.js';
import { opt, req } from '../params.js';
import { select, table } from '../tables.js';
import { ApiError, type ApiContext, type ApiDef, type Args } from '../types.js';
import { userById } from './shared/accounts.js';
import { accountApis } from './shared/accounts.js';
import { routed, sharedRoutes } from '../routes.js';

const def = declarer('file_system');
const DIR_TRANSFER = [req.str('source_directory_path'), req.str('destination_directory_path'), opt.bool('overwrite', { default: false }), opt.bool('retain_dates', { default: false })];

interface Entry {
  id: number;
  owner_id: number;
  path: string;
  type: 'file' | 'directory';
  content: string | null;
  created_at: string;
  updated_at: string;
}
const entries = table<Entry>('fs_entries');
/** Just the path and type of entries (directory listings). */
const entryKinds = select<Pick<Entry, 'path' | 'type'>>('SELECT path, type FROM fs_entries');

export function homeOf(ctx: ApiContext, userId: number): string {
  return `/home/${userById(ctx, userId)!.first_name.toLowerCase()}/`;
}

/** Absolute, normalized path; `~` is the caller's home. Directories get a trailing slash. */
/** An absolute path inside the caller's home (`~` expanded); with `ancestors`, the directories above it (/, /home/) too, for listings. */
function resolve(ctx: ApiContext, raw: string, kind: 'file' | 'directory', param = kind === 'file' ? 'file_path' : 'directory_path', ancestors = false): string {
  const home = homeOf(ctx, me(ctx));
  let p = raw.trim();
  if (p === '~' || p.startsWith('~/')) p = home + p.slice(2);
  if (!p.startsWith('/')) throw new ApiError(422, `The path "${raw}" must be absolute (/home/…) or start with ~/.`);
  const parts = p.split('/').filter((s) => s !== '' && s !== '.');
  if (parts.includes('..')) throw new ApiError(422, `The path "${raw}" must not contain "..".`);
  const norm = '/' + parts.join('/') + (kind === 'directory' && parts.length ? '/' : '');
  if (ancestors && kind === 'directory' && home.startsWith(norm)) return norm;
  if (!(norm + (kind === 'file' ? '' : '')).startsWith(home) && norm !== home.slice(0, -1))
    throw new ApiError(401, `You are not authorized to access the path "${raw}"; your home directory is ${home}.`);
  if (kind === 'file') requireExtension(norm.replace(/\/+$/, ''), param);
  return kind === 'directory' && !norm.endsWith('/') ? norm + '/' : norm;
}

const parentOf = (path: string) => path.replace(/[^/]+\/?$/, '');
const entry = (ctx: ApiContext, path: string) => entries.one(ctx, 'WHERE owner_id = ? AND path = ?', me(ctx), path);

function requireFile(ctx: ApiContext, raw: string): Entry {
  const e = entry(ctx, resolve(ctx, raw, 'file'));
  if (!e || e.type !== 'file') throw new ApiError(422, `The file "${raw}" does not exist.`);
  return e;
}
function requireDir(ctx: ApiContext, path: string, raw: string): void {
  const e = entry(ctx, path);
  if (!e || e.type !== 'directory') throw new ApiError(422, `The directory "${raw}" does not exist.`);
}

/** Destination path of a copy/move: a trailing slash means "into this directory, same name". */
function destination(ctx: ApiContext, raw: string, source: Entry): string {
  const basename = source.path.slice(source.path.lastIndexOf('/') + 1);
  if (raw.trim().endsWith('/') || raw.trim() === '~') return resolve(ctx, raw, 'directory') + basename;
  return resolve(ctx, raw, 'file');
}

function place(ctx: ApiContext, source: Entry, rawDest: string, move: boolean, overwrite: boolean, retainDates: boolean): string {
  const dest = destination(ctx, rawDest, source);
  requireDir(ctx, parentOf(dest), parentOf(dest));
  const existing = entry(ctx, dest);
  if (existing && existing.type === 'directory') throw new ApiError(422, `A directory already exists at "${dest}".`);
  if (existing && !overwrite) throw new ApiError(422, `A file already exists at "${dest}".`);
  if (dest === source.path) throw new ApiError(422, 'The source and destination are the same.');
  if (existing) ctx.db.prepare('DELETE FROM fs_entries WHERE id = ?').run(existing.id);
  // retain_dates keeps the source's timestamps; otherwise the new location is created/updated now.
  if (move) ctx.db.prepare('UPDATE fs_entries SET path = ?, updated_at = ? WHERE id = ?').run(dest, retainDates ? source.updated_at : ctx.now, source.id);
  else
    ctx.db
      .prepare("INSERT INTO fs_entries (owner_id, path, type, content, created_at, updated_at) VALUES (?, ?, 'file', ?, ?, ?)")
      .run(source.owner_id, dest, source.content, retainDates ? source.created_at : ctx.now, retainDates ? source.updated_at : ctx.now);
  return dest;
}

const fileView = (e: Entry) => ({ file_id: e.id, path: e.path, content: e.content ?? '', created_at: e.created_at, updated_at: e.updated_at });

const apis: ApiDef[] = [
  ...accountApis('file_system', { verification: true }),
  def(
    'show_directory',
    {
      description: 'Show a list of files and/or sub-directories, optionally recursively, in a directory.',
      params: [
        opt.str('directory_path', { default: '/', constraints: [{ kind: 'minLength', value: 1 }] }),
        opt.str('substring', { desc: 'Only entries whose name contains this substring.' }),
        opt.str('entry_type', { default: 'all', constraints: [{ kind: 'enum', values: ['all', 'files', 'directories'] }] }),
        opt.bool('recursive', { default: true }),
      ],
      response: ['string'],
    },
    (ctx, a) => {
      const dir = resolve(ctx, optStr(a, 'directory_path') ?? '/', 'directory', 'directory_path', true);
      const recursive = optBool(a, 'recursive') !== false;
      const type = optStr(a, 'entry_type') ?? 'all';
      const sub = optStr(a, 'substring');
      const stored = entryKinds.all(ctx, 'WHERE owner_id = ? AND path > ? AND substr(path, 1, ?) = ? ORDER BY path', me(ctx), dir, dir.length, dir);
      // Directories above the home (the root, /home/) hold no rows of their own: they exist as the
      // ancestors of the person's entries, and list as directories.
      const implied = new Set<string>();
      for (const r of stored) for (let i = r.path.indexOf('/', dir.length); i > 0 && i < r.path.length - 1; i = r.path.indexOf('/', i + 1)) implied.add(r.path.slice(0, i + 1));
      for (const r of stored) implied.delete(r.path);
      if (dir !== '/' && !stored.length) requireDir(ctx, dir, str(a, 'directory_path'));
      const rows = [...stored, ...[...implied].map((path) => ({ path, type: 'directory' as const }))].sort((x, y) => (x.path < y.path ? -1 : 1));
      return rows
        .filter((r) => recursive || !r.path.slice(dir.length).replace(/\/$/, '').includes('/'))
        .filter((r) => type === 'all' || (type === 'files' ? r.type === 'file' : r.type === 'directory'))
        .filter(
          (r) =>
            sub === null ||
            r.path
              .slice(r.path.replace(/\/$/, '').lastIndexOf('/') + 1)
              .toLowerCase()
              .includes(sub.toLowerCase()),
        )
        .map((r) => r.path);
    },
  ),
  def(
    'create_directory',
    {
      description: 'Create a directory if it does not exist, optionally recursively.',
      params: [req.str('directory_path'), opt.bool('recursive', { default: false })],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const dir = resolve(ctx, str(a, 'directory_path'), 'directory');
      if (entry(ctx, dir)) throw new ApiError(422, `The directory "${str(a, 'directory_path')}" already exists.`);
      const missing: string[] = [];
      for (let p = dir; !entry(ctx, p); p = parentOf(p.slice(0, -1))) missing.unshift(p);
      if (missing.length > 1 && !optBool(a, 'recursive')) throw new ApiError(422, `The parent directory "${parentOf(dir.slice(0, -1))}" does not exist; pass recursive=true to create it.`);
      for (const p of missing)
        ctx.db.prepare("INSERT INTO fs_entries (owner_id, path, type, content, created_at, updated_at) VALUES (?, ?, 'directory', NULL, ?, ?)").run(me(ctx), p, ctx.now, ctx.now);
      return ok('Directory created.');
    },
  ),
  def('delete_directory', { method: 'DELETE', description: 'Delete a directory and everything in it.', params: [req.str('directory_path')], response: { message: 'string' } }, (ctx, a) => {
    const dir = resolve(ctx, str(a, 'directory_path'), 'directory');
    requireDir(ctx, dir, str(a, 'directory_path'));
    if (dir === homeOf(ctx, me(ctx))) throw new ApiError(422, 'You cannot delete your home directory.');
    ctx.db.prepare('DELETE FROM fs_entries WHERE owner_id = ? AND substr(path, 1, ?) = ?').run(me(ctx), dir.length, dir);
    return ok('Directory deleted.');
  }),
  def(
    'directory_exists',
    { response: { exists: true }, description: 'Check if a directory exists.', params: [req.str('directory_path', { constraints: [{ kind: 'minLength', value: 1 }] })] },
    (ctx, a) => ({
      exists: entry(ctx, resolve(ctx, str(a, 'directory_path'), 'directory'))?.type === 'directory',
    }),
  ),
  def('file_exists', { response: { exists: true }, description: 'Check if a file exists.', params: [req.str('file_path', { constraints: [{ kind: 'minLength', value: 1 }] })] }, (ctx, a) => ({
    exists: entry(ctx, resolve(ctx, str(a, 'file_path'), 'file'))?.type === 'file',
  })),
  def(
    'show_file',
    {
      response: { file_id: 1, path: 'string', content: 'string', created_at: '2019-01-01T00:00:00', updated_at: '2019-01-01T00:00:00' },
      description: "Show a file's content and other details, if it exists.",
      params: [req.str('file_path')],
    },
    (ctx, a) => fileView(requireFile(ctx, str(a, 'file_path'))),
  ),
  def(
    'create_file',
    {
      description: 'Create a new file with the given content.',
      params: [req.str('file_path'), opt.str('content', { default: '' }), opt.bool('overwrite', { default: false })],
      response: { message: 'string', file_path: 'string' },
    },
    (ctx, a) => {
      const path = resolve(ctx, str(a, 'file_path'), 'file');
      requireDir(ctx, parentOf(path), parentOf(path));
      const existing = entry(ctx, path);
      if (existing && (existing.type === 'directory' || !optBool(a, 'overwrite'))) throw new ApiError(422, `The file "${str(a, 'file_path')}" already exists.`);
      if (existing) ctx.db.prepare('UPDATE fs_entries SET content = ?, updated_at = ? WHERE id = ?').run(str(a, 'content'), ctx.now, existing.id);
      else ctx.db.prepare("INSERT INTO fs_entries (owner_id, path, type, content, created_at, updated_at) VALUES (?, ?, 'file', ?, ?, ?)").run(me(ctx), path, str(a, 'content'), ctx.now, ctx.now);
      return ok('File created.', { file_path: path });
    },
  ),
  def(
    'update_file',
    { method: 'PATCH', description: "Update a file's content.", params: [req.str('file_path'), req.str('content')], response: { message: 'string', file_path: 'string' } },
    (ctx, a) => {
      const e = requireFile(ctx, str(a, 'file_path'));
      ctx.db.prepare('UPDATE fs_entries SET content = ?, updated_at = ? WHERE id = ?').run(str(a, 'content'), ctx.now, e.id);
      return ok('File updated.', { file_path: e.path });
    },
  ),
  def('delete_file', { method: 'DELETE', description: 'Delete a file.', params: [req.str('file_path')], response: { message: 'string', file_path: 'string' } }, (ctx, a) => {
    const e = requireFile(ctx, str(a, 'file_path'));
    ctx.db.prepare('DELETE FROM fs_entries WHERE id = ?').run(e.id);
    return ok('File deleted.', { file_path: e.path });
  }),
  def(
    'copy_file',
    {
      description: 'Copy a file to another location.',
      params: [req.str('source_file_path'), req.str('destination_file_path'), opt.bool('overwrite', { default: false }), opt.bool('retain_dates', { default: false })],
      response: { message: 'string', destination_file_path: 'string' },
    },
    (ctx, a) => {
      const dest = place(ctx, requireFile(ctx, str(a, 'source_file_path')), str(a, 'destination_file_path'), false, optBool(a, 'overwrite') === true, optBool(a, 'retain_dates') === true);
      return ok('File copied.', { destination_file_path: dest });
    },
  ),
  def(
    'move_file',
    {
      description: 'Move a file to another location.',
      params: [req.str('source_file_path'), req.str('destination_file_path'), opt.bool('overwrite', { default: false }), opt.bool('retain_dates', { default: false })],
      response: { message: 'string', destination_file_path: 'string' },
    },
    (ctx, a) => {
      const dest = place(ctx, requireFile(ctx, str(a, 'source_file_path')), str(a, 'destination_file_path'), true, optBool(a, 'overwrite') === true, optBool(a, 'retain_dates') === true);
      return ok('File moved.', { destination_file_path: dest });
    },
  ),
  def(
    'copy_directory',
    { description: 'Copy a directory and everything in it to another location.', params: DIR_TRANSFER, response: { message: 'string', destination_directory_path: 'string' } },
    (ctx, a) => ok('Directory copied.', { destination_directory_path: transferDirectory(ctx, a, false) }),
  ),
  def(
    'move_directory',
    { description: 'Move a directory and everything in it to another location.', params: DIR_TRANSFER, response: { message: 'string', destination_directory_path: 'string' } },
    (ctx, a) => ok('Directory moved.', { destination_directory_path: transferDirectory(ctx, a, true) }),
  ),
  def(
    'compress_directory',
    {
      description: 'Compress a directory into a zip file.',
      params: [
        req.str('directory_path'),
        opt.str('compressed_file_path', { desc: 'Where to write the archive; defaults to the directory path with .zip.' }),
        opt.bool('delete_directory', { default: false }),
        opt.bool('overwrite', { default: false }),
      ],
      response: { message: 'string', compressed_file_path: 'string' },
    },
    (ctx, a) => {
      const dir = resolve(ctx, str(a, 'directory_path'), 'directory');
      requireDir(ctx, dir, str(a, 'directory_path'));
      const target = resolve(ctx, optStr(a, 'compressed_file_path') ?? dir.slice(0, -1) + '.zip', 'file');
      requireExtension(target, 'compressed_file_path');
      if (target.startsWith(dir)) throw new ApiError(422, 'The compressed file cannot be inside the directory being compressed.');
      requireDir(ctx, parentOf(target), parentOf(target));
      const existing = entry(ctx, target);
      if (existing && (existing.type === 'directory' || !optBool(a, 'overwrite'))) throw new ApiError(422, `The file "${target}" already exists.`);
      const inside = entries.all(ctx, 'WHERE owner_id = ? AND path > ? AND substr(path, 1, ?) = ? ORDER BY path', me(ctx), dir, dir.length, dir);
      // The archive is a JSON manifest of the tree (paths relative to the directory), so decompress restores it exactly.
      const manifest = inside.map((e) => ({ path: e.path.slice(dir.length), type: e.type, content: e.content, created_at: e.created_at, updated_at: e.updated_at }));
      if (existing) ctx.db.prepare('DELETE FROM fs_entries WHERE id = ?').run(existing.id);
      ctx.db.prepare("INSERT INTO fs_entries (owner_id, path, type, content, created_at, updated_at) VALUES (?, ?, 'file', ?, ?, ?)").run(me(ctx), target, JSON.stringify(manifest), ctx.now, ctx.now);
      if (optBool(a, 'delete_directory')) ctx.db.prepare('DELETE FROM fs_entries WHERE owner_id = ? AND substr(path, 1, ?) = ?').run(me(ctx), dir.length, dir);
      return ok('Directory compressed.', { compressed_file_path: target });
    },
  ),
  def(
    'decompress_file',
    {
      description: 'Decompress a zip file into a directory.',
      params: [
        req.str('compressed_file_path'),
        opt.str('decompressed_directory_path', { desc: 'Where to extract; defaults to the file path without its extension.' }),
        opt.bool('retain_dates', { default: true }),
        opt.bool('delete_compressed_file', { default: false }),
      ],
      response: { message: 'string', decompressed_directory_path: 'string' },
    },
    (ctx, a) => {
      const file = requireFile(ctx, str(a, 'compressed_file_path'));
      let manifest: { path: string; type: 'file' | 'directory'; content: string | null; created_at: string; updated_at: string }[];
      try {
        manifest = JSON.parse(file.content ?? '') as typeof manifest;
        if (!Array.isArray(manifest)) throw new Error('not a list');
      } catch {
        throw new ApiError(422, `The file "${str(a, 'compressed_file_path')}" is not a compressed file.`);
      }
      const dir = resolve(ctx, optStr(a, 'decompressed_directory_path') ?? file.path.replace(/\.[^./]+$/, '') + '/', 'directory');
      if (entry(ctx, dir)) throw new ApiError(422, `The directory "${dir}" already exists.`);
      requireDir(ctx, parentOf(dir.slice(0, -1)), parentOf(dir.slice(0, -1)));
      const keep = optBool(a, 'retain_dates') !== false;
      const insert = ctx.db.prepare('INSERT INTO fs_entries (owner_id, path, type, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
      insert.run(me(ctx), dir, 'directory', null, ctx.now, ctx.now);
      for (const m of manifest) {
        const path = resolve(ctx, dir + String(m.path), m.type === 'directory' ? 'directory' : 'file');
        insert.run(me(ctx), path, m.type === 'directory' ? 'directory' : 'file', m.type === 'directory' ? null : String(m.content ?? ''), keep ? m.created_at : ctx.now, keep ? m.updated_at : ctx.now);
      }
      if (optBool(a, 'delete_compressed_file')) ctx.db.prepare('DELETE FROM fs_entries WHERE id = ?').run(file.id);
      return ok('File decompressed.', { decompressed_directory_path: dir });
    },
  ),
];

/** AppWorld's routes of the file_system app (its API docs' method and path). */
const F = '/file_system';
export const fileSystemApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('file_system', { verification: true, notifications: false }),
  show_directory: `GET ${F}/directory`,
  create_directory: `POST ${F}/directory`,
  delete_directory: `DELETE ${F}/directory`,
  directory_exists: `GET ${F}/directory/exists`,
  show_file: `GET ${F}/file`,
  create_file: `POST ${F}/file`,
  delete_file: `DELETE ${F}/file`,
  update_file: `PATCH ${F}/file`,
  file_exists: `GET ${F}/file/exists`,
  copy_file: `POST ${F}/file/copy`,
  move_file: `POST ${F}/file/move`,
  copy_directory: `POST ${F}/directory/copy`,
  move_directory: `POST ${F}/directory/move`,
  compress_directory: `POST ${F}/directory/compress`,
  decompress_file: `POST ${F}/file/decompress`,
});

/** Copies or moves a whole directory tree; returns the destination directory path. */
function transferDirectory(ctx: ApiContext, a: Args, move: boolean): string {
  const src = resolve(ctx, str(a, 'source_directory_path'), 'directory');
  requireDir(ctx, src, str(a, 'source_directory_path'));
  if (src === homeOf(ctx, me(ctx))) throw new ApiError(422, 'You cannot move or copy your home directory.');
  const dest = resolve(ctx, str(a, 'destination_directory_path'), 'directory');
  if (dest.startsWith(src)) throw new ApiError(422, 'The destination cannot be inside the source directory.');
  requireDir(ctx, parentOf(dest.slice(0, -1)), parentOf(dest.slice(0, -1)));
  const existing = entry(ctx, dest);
  if (existing && !optBool(a, 'overwrite')) throw new ApiError(422, `The directory "${dest}" already exists.`);
  if (existing) ctx.db.prepare('DELETE FROM fs_entries WHERE owner_id = ? AND substr(path, 1, ?) = ?').run(me(ctx), dest.length, dest);
  const keep = optBool(a, 'retain_dates') === true;
  const tree = entries.all(ctx, 'WHERE owner_id = ? AND substr(path, 1, ?) = ? ORDER BY path', me(ctx), src.length, src);
  for (const e of tree) {
    const path = dest + e.path.slice(src.length);
    if (move) ctx.db.prepare('UPDATE fs_entries SET path = ?, updated_at = ? WHERE id = ?').run(path, keep ? e.updated_at : ctx.now, e.id);
    else
      ctx.db
        .prepare('INSERT INTO fs_entries (owner_id, path, type, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(e.owner_id, path, e.type, e.content, keep ? e.created_at : ctx.now, keep ? e.updated_at : ctx.now);
  }
  return dest;
}

/** AppWorld: a file path must name a file, so it must have an extension. */
function requireExtension(path: string, param: string): void {
  if (!/\.[^./]+$/.test(path)) throw new ApiError(422, `The path ${param} (${path}) is supposed to be a file and so must have an extension.`);
}

/**
 * Writes a file into the caller's file system for another app (receipt downloads): the
 * file_system token must be the same person's. `rawPath` null means ~/downloads/<defaultName>.
 */
export function downloadToFileSystem(ctx: ApiContext, fsToken: string, rawPath: string | null, defaultName: string, content: string, overwrite: boolean): string {
  const owner = ctx.userOfToken('file_system', fsToken);
  if (owner === null || owner !== me(ctx)) throw new ApiError(401, 'You are either not authorized to access this file_system API endpoint or your access token is missing, invalid or expired.');
  const path = resolve(ctx, rawPath ?? `~/downloads/${defaultName}`, 'file', 'download_to_file_path');
  requireDir(ctx, parentOf(path), parentOf(path));
  const existing = entry(ctx, path);
  if (existing && (existing.type === 'directory' || !overwrite)) throw new ApiError(422, `The file "${path}" already exists.`);
  if (existing) ctx.db.prepare('UPDATE fs_entries SET content = ?, updated_at = ? WHERE id = ?').run(content, ctx.now, existing.id);
  else ctx.db.prepare("INSERT INTO fs_entries (owner_id, path, type, content, created_at, updated_at) VALUES (?, ?, 'file', ?, ?, ?)").run(me(ctx), path, content, ctx.now, ctx.now);
  return path;
}

/**
 * Reads a file of the caller's file system for an upload into another app (receipts,
 * attachments), checked against a file_system token of this episode: `{name, content}`.
 */
export function readFromFileSystem(ctx: ApiContext, fsToken: string | null, rawPath: string): { name: string; content: string } {
  const owner = fsToken === null ? null : ctx.userOfToken('file_system', fsToken);
  if (owner === null || owner !== me(ctx)) throw new ApiError(401, 'You are either not authorized to access this file_system API endpoint or your access token is missing, invalid or expired.');
  const e = requireFile(ctx, rawPath);
  return { name: e.path.slice(e.path.lastIndexOf('/') + 1), content: e.content ?? '' };
}

/** The parameters of a receipt download, in AppWorld's order after the id. */
/** A receipt download's parameters; the file_system token is optional in AppWorld's docs (without one the download is refused). */
export const DOWNLOAD_PARAMS = [opt.str('file_system_access_token'), opt.str('download_to_file_path'), opt.bool('overwrite', { default: false })];
