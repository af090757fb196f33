// spotify's albums: search, show, the user's album library and liked albums.
import { declarer, me, ok, optStr } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage } from '../../ranked.js';
import { rows, select } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { BIG, dates, QUERY, range, stars, within, withinDates } from './filters.js';
import { album, ALBUM_SQL, albums, albumSongs, type AlbumRow } from './tables.js';
import { ALBUM_HEAD, ALBUM_RESPONSE, albumView, SHARE_BASE, SONG_REFS } from './views.js';

const def = declarer('spotify');

export const albumApis: ApiDef[] = [
  def(
    'search_albums',
    {
      response: [ALBUM_RESPONSE],
      auth: false,
      description: 'Search for albums with a query.',
      params: [QUERY, ...PAGING, ...range('rating', false, 0, 5, stars), ...dates('release_date'), ...range('like_count', true, 0, BIG), opt.str('genre'), sortBy(null)],
    },
    (ctx, a) => {
      const found = albums
        .all(ctx, 'ORDER BY al.id')
        .filter(
          (al) =>
            (optStr(a, 'genre') === null || al.genre === optStr(a, 'genre')!.toLowerCase()) &&
            within(a, 'rating', al.rating) &&
            within(a, 'like_count', al.like_count) &&
            withinDates(a, 'release_date', al.release_date),
        );
      const rows = rankByQuery(found, a.query, (al) => [al.title, al.artist_name]);
      return rankedPage(
        rows.map((al) => albumView(ctx, al, albumSongs(ctx, al.id))),
        a,
        ['title', 'release_date', 'rating', 'like_count'],
      );
    },
  ),
  def(
    'show_album',
    {
      response: { ...ALBUM_HEAD, shareable_link: 'string', songs: SONG_REFS },
      auth: false,
      description: 'Get details of a specific album.',
      params: [req.int('album_id')],
    },
    (ctx, a) => {
      const al = album(ctx, Number(a.album_id));
      const { song_ids: _ids, ...head } = albumView(ctx, al, []);
      const songs = rows<{ id: number; title: string; artist_id: number }>(ctx, 'SELECT id, title, artist_id FROM songs WHERE album_id = ? ORDER BY id', al.id);
      return { ...head, shareable_link: `${SHARE_BASE}/album/${al.id}`, songs: songs.map((s) => ({ id: s.id, title: s.title, artist_ids: [s.artist_id] })) };
    },
  ),
  def(
    'show_album_privates',
    { response: { liked: true, reviewed: true, in_album_library: true }, description: 'Show information about the album that is private to the user.', params: [req.int('album_id')] },
    (ctx, a) => {
      const al = album(ctx, Number(a.album_id));
      const has = (table: string) => !!ctx.db.prepare(`SELECT 1 FROM ${table} WHERE user_id = ? AND album_id = ?`).get(me(ctx), al.id);
      return { liked: has('liked_albums'), reviewed: has('album_reviews'), in_album_library: has('album_library') };
    },
  ),
  def(
    'show_album_library',
    {
      response: [{ ...ALBUM_RESPONSE, added_at: '2019-01-01T00:00:00' }],
      description: "Get a list of albums in the user's album library.",
      params: [...PAGING],
    },
    (ctx, a) => {
      const inLibrary = select<AlbumRow & { added_at: string }>(ALBUM_SQL.replace('SELECT al.*', 'SELECT al.*, l.added_at')).all(
        ctx,
        'JOIN album_library l ON l.album_id = al.id WHERE l.user_id = ? ORDER BY l.id',
        me(ctx),
      );
      return pageOf(
        inLibrary.map((al) => ({ ...albumView(ctx, al, albumSongs(ctx, al.id)), added_at: al.added_at })),
        a,
        ['title', 'release_date', 'rating', 'added_at'],
      );
    },
  ),
  def('add_album_to_library', { description: "Add an album to the user's album library.", params: [req.int('album_id')], response: { message: 'string' } }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    if (ctx.db.prepare('SELECT 1 FROM album_library WHERE user_id = ? AND album_id = ?').get(me(ctx), al.id)) throw new ApiError(422, 'The album is already in your library.');
    ctx.db.prepare('INSERT INTO album_library (user_id, album_id, added_at) VALUES (?, ?, ?)').run(me(ctx), al.id, ctx.now);
    return ok('Album added to the library.');
  }),
  def('remove_album_from_library', { method: 'DELETE', description: "Remove an album from the user's album library.", params: [req.int('album_id')], response: { message: 'string' } }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    if (ctx.db.prepare('DELETE FROM album_library WHERE user_id = ? AND album_id = ?').run(me(ctx), al.id).changes === 0) throw new ApiError(422, 'The album is not in your library.');
    return ok('Album removed from the library.');
  }),
  def('like_album', { description: 'Like an album.', params: [req.int('album_id')], response: { message: 'string' } }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    if (ctx.db.prepare('SELECT 1 FROM liked_albums WHERE user_id = ? AND album_id = ?').get(me(ctx), al.id)) throw new ApiError(422, 'The album is already liked.');
    ctx.db.prepare('INSERT INTO liked_albums (user_id, album_id, created_at) VALUES (?, ?, ?)').run(me(ctx), al.id, ctx.now);
    ctx.db.prepare('UPDATE albums SET like_count = like_count + 1 WHERE id = ?').run(al.id);
    return ok('Album liked.');
  }),
  def('unlike_album', { method: 'DELETE', description: 'Unlike an album.', params: [req.int('album_id')], response: { message: 'string' } }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    if (ctx.db.prepare('DELETE FROM liked_albums WHERE user_id = ? AND album_id = ?').run(me(ctx), al.id).changes === 0) throw new ApiError(422, 'The album is not liked.');
    ctx.db.prepare('UPDATE albums SET like_count = like_count - 1 WHERE id = ?').run(al.id);
    return ok('Album unliked.');
  }),
  def(
    'show_liked_albums',
    {
      response: [{ ...ALBUM_RESPONSE, liked_at: '2019-01-01T00:00:00' }],
      description: 'Get a list of albums you have liked.',
      params: [...PAGING, sortBy('-liked_at')],
    },
    (ctx, a) => {
      const likedAlbums = select<AlbumRow & { created_at: string }>(ALBUM_SQL.replace('SELECT al.*', 'SELECT al.*, l.created_at')).all(
        ctx,
        'JOIN liked_albums l ON l.album_id = al.id WHERE l.user_id = ? ORDER BY l.id',
        me(ctx),
      );
      return pageOf(
        likedAlbums.map((al) => ({ ...albumView(ctx, al, albumSongs(ctx, al.id)), liked_at: al.created_at })),
        a,
        ['title', 'release_date', 'rating', 'liked_at'],
      );
    },
  ),
];
