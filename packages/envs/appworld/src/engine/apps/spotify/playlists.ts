// spotify's playlists: the user's library, search, create/show/update/delete, songs in a playlist, likes.
import { declarer, me, ok, optBool, optStr, str } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage } from '../../ranked.js';
import { select } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { BIG, QUERY, range, stars, within } from './filters.js';
import { playlist, playlists, song, type PlaylistRow } from './tables.js';
import { PLAYLIST_HEAD, PLAYLIST_RESPONSE, playlistShort, playlistView, SONG_REFS } from './views.js';

const def = declarer('spotify');
const likedPlaylists = select<PlaylistRow & { liked_at: string }>('SELECT p.*, l.created_at AS liked_at FROM playlists p JOIN liked_playlists l ON l.playlist_id = p.id');

export const playlistApis: ApiDef[] = [
  def(
    'show_playlist_library',
    {
      response: [PLAYLIST_RESPONSE],
      description: "Get a list of playlists in the user's playlist library.",
      params: [...PAGING, opt.bool('is_public')],
    },
    (ctx, a) => {
      const rows = playlists.all(ctx, 'WHERE owner_id = ? ORDER BY id', me(ctx)).filter((p) => optBool(a, 'is_public') === null || (p.is_public === 1) === optBool(a, 'is_public'));
      return pageOf(
        rows.map((p) => playlistShort(ctx, p)),
        a,
        ['title', 'created_at', 'rating', 'like_count'],
      );
    },
  ),
  def(
    'search_playlists',
    {
      response: [PLAYLIST_RESPONSE],
      description: 'Search for playlists with a query. It will search over all public playlists and your own private playlists.',
      params: [QUERY, ...range('like_count', true, 0, BIG), ...range('rating', false, 0, 5, stars), ...PAGING, sortBy(null)],
    },
    (ctx, a) => {
      const found = playlists.all(ctx, 'WHERE is_public = 1 OR owner_id = ? ORDER BY id', me(ctx)).filter((p) => within(a, 'like_count', p.like_count) && within(a, 'rating', p.rating));
      return rankedPage(
        rankByQuery(found, a.query, (p) => [p.title]).map((p) => playlistShort(ctx, p)),
        a,
        ['title', 'created_at', 'rating', 'like_count'],
      );
    },
  ),
  def(
    'create_playlist',
    {
      description: 'Create a new playlist.',
      params: [req.str('title', { constraints: [{ kind: 'minLength', value: 1 }] }), opt.bool('is_public', { default: false })],
      response: { message: 'string', playlist_id: 1 },
    },
    (ctx, a) => {
      const r = ctx.db
        .prepare('INSERT INTO playlists (owner_id, title, is_public, rating, like_count, created_at) VALUES (?, ?, ?, 0, 0, ?)')
        .run(me(ctx), str(a, 'title'), optBool(a, 'is_public') === true ? 1 : 0, ctx.now);
      return ok('Playlist created.', { playlist_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'show_playlist',
    {
      response: { ...PLAYLIST_HEAD, shareable_link: 'string', songs: SONG_REFS },
      description: 'Get detailed information about a specific playlist.',
      params: [req.int('playlist_id')],
    },
    (ctx, a) => playlistView(ctx, playlist(ctx, Number(a.playlist_id), false)),
  ),
  def(
    'show_playlist_privates',
    { response: { liked: true, reviewed: true, in_playlist_library: true }, description: 'Show information about the playlist that is private to the user.', params: [req.int('playlist_id')] },
    (ctx, a) => {
      const p = playlist(ctx, Number(a.playlist_id), false);
      const has = (table: string) => !!ctx.db.prepare(`SELECT 1 FROM ${table} WHERE user_id = ? AND playlist_id = ?`).get(me(ctx), p.id);
      return { liked: has('liked_playlists'), reviewed: has('playlist_reviews'), in_playlist_library: p.owner_id === me(ctx) };
    },
  ),
  def('delete_playlist', { method: 'DELETE', description: 'Delete a playlist.', params: [req.int('playlist_id')], response: { message: 'string' } }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), true);
    ctx.db.prepare('DELETE FROM playlist_songs WHERE playlist_id = ?').run(p.id);
    ctx.db.prepare('DELETE FROM playlists WHERE id = ?').run(p.id);
    return ok('Playlist deleted.');
  }),
  def(
    'update_playlist',
    {
      method: 'PATCH',
      description: 'Update playlist title or privacy.',
      params: [req.int('playlist_id'), opt.str('title', { constraints: [{ kind: 'minLength', value: 1 }] }), opt.bool('is_public')],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const p = playlist(ctx, Number(a.playlist_id), true);
      const pub = optBool(a, 'is_public');
      ctx.db.prepare('UPDATE playlists SET title = ?, is_public = ? WHERE id = ?').run(optStr(a, 'title') ?? p.title, pub === null ? p.is_public : pub ? 1 : 0, p.id);
      return ok('Playlist updated.');
    },
  ),
  def('add_song_to_playlist', { description: 'Add a song to a playlist.', params: [req.int('playlist_id'), req.int('song_id')], response: { message: 'string' } }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), true);
    const s = song(ctx, Number(a.song_id));
    if (ctx.db.prepare('SELECT 1 FROM playlist_songs WHERE playlist_id = ? AND song_id = ?').get(p.id, s.id)) throw new ApiError(422, 'The song is already in the playlist.');
    ctx.db.prepare('INSERT INTO playlist_songs (playlist_id, song_id, added_at) VALUES (?, ?, ?)').run(p.id, s.id, ctx.now);
    return ok('Song added to the playlist.');
  }),
  def(
    'remove_song_from_playlist',
    { method: 'DELETE', description: 'Remove a song from a playlist.', params: [req.int('playlist_id'), req.int('song_id')], response: { message: 'string' } },
    (ctx, a) => {
      const p = playlist(ctx, Number(a.playlist_id), true);
      const s = song(ctx, Number(a.song_id));
      if (ctx.db.prepare('DELETE FROM playlist_songs WHERE playlist_id = ? AND song_id = ?').run(p.id, s.id).changes === 0) throw new ApiError(422, 'The song is not in the playlist.');
      return ok('Song removed from the playlist.');
    },
  ),
  def('like_playlist', { description: 'Like a playlist.', params: [req.int('playlist_id')], response: { message: 'string' } }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), false);
    if (ctx.db.prepare('SELECT 1 FROM liked_playlists WHERE user_id = ? AND playlist_id = ?').get(me(ctx), p.id)) throw new ApiError(422, 'The playlist is already liked.');
    ctx.db.prepare('INSERT INTO liked_playlists (user_id, playlist_id, created_at) VALUES (?, ?, ?)').run(me(ctx), p.id, ctx.now);
    ctx.db.prepare('UPDATE playlists SET like_count = like_count + 1 WHERE id = ?').run(p.id);
    return ok('Playlist liked.');
  }),
  def('unlike_playlist', { method: 'DELETE', description: 'Unlike a playlist.', params: [req.int('playlist_id')], response: { message: 'string' } }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), false);
    if (ctx.db.prepare('DELETE FROM liked_playlists WHERE user_id = ? AND playlist_id = ?').run(me(ctx), p.id).changes === 0) throw new ApiError(422, 'The playlist is not liked.');
    ctx.db.prepare('UPDATE playlists SET like_count = like_count - 1 WHERE id = ?').run(p.id);
    return ok('Playlist unliked.');
  }),
  def(
    'show_liked_playlists',
    {
      response: [{ ...PLAYLIST_RESPONSE, liked_at: '2019-01-01T00:00:00' }],
      description: 'Get a list of playlists you have liked.',
      params: [...PAGING, sortBy('-liked_at')],
    },
    (ctx, a) => {
      const rows = likedPlaylists.all(ctx, 'WHERE l.user_id = ? ORDER BY l.id', me(ctx));
      return pageOf(
        rows.map((p) => ({ ...playlistShort(ctx, p), liked_at: p.liked_at })),
        a,
        ['title', 'liked_at', 'rating'],
      );
    },
  ),
];
