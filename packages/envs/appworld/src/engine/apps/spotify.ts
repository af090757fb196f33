// spotify: catalogue search, libraries, likes, playlists, following and downloads.
import { declarer, me, notFound, ok, optBool, optNum, optStr, str } from '../define.js';
import { matchesQuery, pageOf } from '../listing.js';
import { opt, PAGING, req, sortBy } from '../params.js';
import { ApiError, type ApiContext, type ApiDef, type Args, type Json } from '../types.js';
import { accountApis } from './common.js';
import { GENRES } from '../../world/vocab.js';

const def = declarer('spotify');

interface SongRow { id: number; title: string; album_id: number; artist_id: number; genre: string; duration: number; release_date: string; play_count: number; rating: number; like_count: number; album_title: string; artist_name: string }
interface AlbumRow { id: number; title: string; artist_id: number; genre: string; release_date: string; rating: number; like_count: number; artist_name: string }
interface PlaylistRow { id: number; owner_id: number; title: string; is_public: number; rating: number; like_count: number; created_at: string }

const SONG_SQL = 'SELECT s.*, al.title AS album_title, ar.name AS artist_name FROM songs s JOIN albums al ON al.id = s.album_id JOIN artists ar ON ar.id = s.artist_id';
const ALBUM_SQL = 'SELECT al.*, ar.name AS artist_name FROM albums al JOIN artists ar ON ar.id = al.artist_id';

const songView = (s: SongRow) => ({ song_id: s.id, title: s.title, album_id: s.album_id, album_title: s.album_title, duration: s.duration, artists: [{ id: s.artist_id, name: s.artist_name }], release_date: s.release_date, genre: s.genre, play_count: s.play_count, rating: s.rating, like_count: s.like_count });
const albumView = (al: AlbumRow, songIds: number[]) => ({ album_id: al.id, title: al.title, genre: al.genre, artists: [{ id: al.artist_id, name: al.artist_name }], rating: al.rating, like_count: al.like_count, release_date: al.release_date, song_ids: songIds });

function song(ctx: ApiContext, id: number): SongRow {
  const s = ctx.db.prepare(`${SONG_SQL} WHERE s.id = ?`).get(id) as SongRow | undefined;
  return s ?? notFound('song');
}
function album(ctx: ApiContext, id: number): AlbumRow {
  const al = ctx.db.prepare(`${ALBUM_SQL} WHERE al.id = ?`).get(id) as AlbumRow | undefined;
  return al ?? notFound('album');
}
function playlist(ctx: ApiContext, id: number, mustOwn: boolean): PlaylistRow {
  const p = ctx.db.prepare('SELECT * FROM playlists WHERE id = ?').get(id) as PlaylistRow | undefined;
  if (!p) notFound('playlist');
  if ((mustOwn || p.is_public === 0) && p.owner_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this playlist.');
  return p;
}
function playlistView(ctx: ApiContext, p: PlaylistRow): Json {
  const songs = ctx.db.prepare(`${SONG_SQL} JOIN playlist_songs ps ON ps.song_id = s.id WHERE ps.playlist_id = ? ORDER BY ps.id`).all(p.id) as SongRow[];
  const owner = ctx.db.prepare('SELECT first_name, last_name, email FROM users WHERE id = ?').get(p.owner_id) as { first_name: string; last_name: string; email: string };
  return { playlist_id: p.id, title: p.title, owner: { name: `${owner.first_name} ${owner.last_name}`, email: owner.email }, is_public: p.is_public === 1, rating: p.rating, like_count: p.like_count, created_at: p.created_at, songs: songs.map((s) => ({ id: s.id, title: s.title, artist_ids: [s.artist_id] })) };
}

const SONG_SORT = ['title', 'duration', 'release_date', 'play_count', 'rating', 'like_count', 'added_at', 'liked_at', 'downloaded_at'];
const songFilters = [opt.str('query', { default: '' }), opt.str('genre'), opt.int('artist_id'), opt.int('album_id'), opt.int('min_play_count'), opt.int('max_play_count')];
function songFilter(a: Args) {
  return (s: SongRow) =>
    matchesQuery(a.query ?? '', s.title, s.album_title, s.artist_name) &&
    (optStr(a, 'genre') === null || s.genre === optStr(a, 'genre')!.toLowerCase()) &&
    (optNum(a, 'artist_id') === null || s.artist_id === optNum(a, 'artist_id')) &&
    (optNum(a, 'album_id') === null || s.album_id === optNum(a, 'album_id')) &&
    (optNum(a, 'min_play_count') === null || s.play_count >= optNum(a, 'min_play_count')!) &&
    (optNum(a, 'max_play_count') === null || s.play_count <= optNum(a, 'max_play_count')!);
}

/** A user song collection (library, likes, downloads): list, add and remove, all alike. */
function songCollection(table: 'song_library' | 'liked_songs' | 'downloaded_songs', at: 'added_at' | 'created_at', atKey: string) {
  return {
    list: (ctx: ApiContext, a: Args) => {
      const rows = ctx.db.prepare(`${SONG_SQL} JOIN ${table} c ON c.song_id = s.id WHERE c.user_id = ? ORDER BY c.id`).all(me(ctx)) as (SongRow & Record<string, string>)[];
      return pageOf(rows.filter(songFilter(a)).map((s) => ({ ...songView(s), [atKey]: s[at]! })), a, SONG_SORT);
    },
    add: (ctx: ApiContext, a: Args, already: string, done: string) => {
      const s = song(ctx, Number(a.song_id));
      if (ctx.db.prepare(`SELECT 1 FROM ${table} WHERE user_id = ? AND song_id = ?`).get(me(ctx), s.id)) throw new ApiError(422, already);
      ctx.db.prepare(`INSERT INTO ${table} (user_id, song_id, ${at}) VALUES (?, ?, ?)`).run(me(ctx), s.id, ctx.now);
      return ok(done);
    },
    remove: (ctx: ApiContext, a: Args, missing: string, done: string) => {
      const s = song(ctx, Number(a.song_id));
      if (ctx.db.prepare(`DELETE FROM ${table} WHERE user_id = ? AND song_id = ?`).run(me(ctx), s.id).changes === 0) throw new ApiError(422, missing);
      return ok(done);
    },
  };
}
const library = songCollection('song_library', 'added_at', 'added_at');
const liked = songCollection('liked_songs', 'created_at', 'liked_at');
const downloads = songCollection('downloaded_songs', 'created_at', 'downloaded_at');
const songId = [req.int('song_id')];

export const spotifyApis: ApiDef[] = [
  ...accountApis('spotify', { verification: true }),
  def('show_genres', { auth: false, description: 'Show the list of all music genres.' }, () => [...GENRES]),
  def('search_songs', { auth: false, description: 'Search for songs with a query.', params: [...songFilters, ...PAGING, sortBy(null)] }, (ctx, a) =>
    pageOf((ctx.db.prepare(`${SONG_SQL} ORDER BY s.id`).all() as SongRow[]).filter(songFilter(a)).map(songView), a, SONG_SORT),
  ),
  def('show_song', { auth: false, description: 'Get details of a specific song.', params: songId }, (ctx, a) => songView(song(ctx, Number(a.song_id)))),
  def('show_song_library', { description: 'Get a list of songs in the user\'s song library.', params: [...songFilters, ...PAGING, sortBy(null)] }, library.list),
  def('add_song_to_library', { description: 'Add a song to the user\'s song library.', params: songId }, (ctx, a) => library.add(ctx, a, 'The song is already in your library.', 'Song added to the library.')),
  def('remove_song_from_library', { method: 'DELETE', description: 'Remove a song from the user\'s song library.', params: songId }, (ctx, a) => library.remove(ctx, a, 'The song is not in your library.', 'Song removed from the library.')),
  def('show_liked_songs', { description: 'Get a list of songs you have liked.', params: [...songFilters, ...PAGING, sortBy('-liked_at')] }, liked.list),
  def('like_song', { description: 'Like a song.', params: songId }, (ctx, a) => {
    const r = liked.add(ctx, a, 'The song is already liked.', 'Song liked.');
    ctx.db.prepare('UPDATE songs SET like_count = like_count + 1 WHERE id = ?').run(a.song_id);
    return r;
  }),
  def('unlike_song', { method: 'DELETE', description: 'Unlike a song.', params: songId }, (ctx, a) => {
    const r = liked.remove(ctx, a, 'The song is not liked.', 'Song unliked.');
    ctx.db.prepare('UPDATE songs SET like_count = like_count - 1 WHERE id = ?').run(a.song_id);
    return r;
  }),
  def('show_downloaded_songs', { description: 'Get a list of downloaded songs.', params: [...songFilters, ...PAGING, sortBy('-downloaded_at')] }, downloads.list),
  def('download_song', { description: 'Download a song.', params: songId }, (ctx, a) => downloads.add(ctx, a, 'The song is already downloaded.', 'Song downloaded.')),
  def('remove_downloaded_song', { method: 'DELETE', description: 'Remove a song from downloads.', params: songId }, (ctx, a) => downloads.remove(ctx, a, 'The song is not downloaded.', 'Song removed from downloads.')),

  def('search_albums', { auth: false, description: 'Search for albums with a query.', params: [opt.str('query', { default: '' }), opt.str('genre'), opt.int('artist_id'), ...PAGING, sortBy(null)] }, (ctx, a) => {
    const rows = (ctx.db.prepare(`${ALBUM_SQL} ORDER BY al.id`).all() as AlbumRow[]).filter((al) => matchesQuery(a.query ?? '', al.title, al.artist_name) && (optStr(a, 'genre') === null || al.genre === optStr(a, 'genre')) && (optNum(a, 'artist_id') === null || al.artist_id === optNum(a, 'artist_id')));
    return pageOf(rows.map((al) => albumView(al, albumSongs(ctx, al.id))), a, ['title', 'release_date', 'rating', 'like_count']);
  }),
  def('show_album', { auth: false, description: 'Get details of a specific album.', params: [req.int('album_id')] }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    return albumView(al, albumSongs(ctx, al.id));
  }),
  def('show_album_library', { description: 'Get a list of albums in the user\'s album library.', params: [...PAGING, sortBy(null)] }, (ctx, a) => {
    const rows = ctx.db.prepare(`${ALBUM_SQL} JOIN album_library l ON l.album_id = al.id WHERE l.user_id = ? ORDER BY l.id`).all(me(ctx)) as (AlbumRow & { added_at: string })[];
    return pageOf(rows.map((al) => ({ ...albumView(al, albumSongs(ctx, al.id)), added_at: al.added_at })), a, ['title', 'release_date', 'rating', 'added_at']);
  }),
  def('add_album_to_library', { description: 'Add an album to the user\'s album library.', params: [req.int('album_id')] }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    if (ctx.db.prepare('SELECT 1 FROM album_library WHERE user_id = ? AND album_id = ?').get(me(ctx), al.id)) throw new ApiError(422, 'The album is already in your library.');
    ctx.db.prepare('INSERT INTO album_library (user_id, album_id, added_at) VALUES (?, ?, ?)').run(me(ctx), al.id, ctx.now);
    return ok('Album added to the library.');
  }),
  def('remove_album_from_library', { method: 'DELETE', description: 'Remove an album from the user\'s album library.', params: [req.int('album_id')] }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    if (ctx.db.prepare('DELETE FROM album_library WHERE user_id = ? AND album_id = ?').run(me(ctx), al.id).changes === 0) throw new ApiError(422, 'The album is not in your library.');
    return ok('Album removed from the library.');
  }),
  def('like_album', { description: 'Like an album.', params: [req.int('album_id')] }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    if (ctx.db.prepare('SELECT 1 FROM liked_albums WHERE user_id = ? AND album_id = ?').get(me(ctx), al.id)) throw new ApiError(422, 'The album is already liked.');
    ctx.db.prepare('INSERT INTO liked_albums (user_id, album_id, created_at) VALUES (?, ?, ?)').run(me(ctx), al.id, ctx.now);
    ctx.db.prepare('UPDATE albums SET like_count = like_count + 1 WHERE id = ?').run(al.id);
    return ok('Album liked.');
  }),
  def('unlike_album', { method: 'DELETE', description: 'Unlike an album.', params: [req.int('album_id')] }, (ctx, a) => {
    const al = album(ctx, Number(a.album_id));
    if (ctx.db.prepare('DELETE FROM liked_albums WHERE user_id = ? AND album_id = ?').run(me(ctx), al.id).changes === 0) throw new ApiError(422, 'The album is not liked.');
    ctx.db.prepare('UPDATE albums SET like_count = like_count - 1 WHERE id = ?').run(al.id);
    return ok('Album unliked.');
  }),
  def('show_liked_albums', { description: 'Get a list of albums you have liked.', params: [...PAGING, sortBy('-liked_at')] }, (ctx, a) => {
    const rows = ctx.db.prepare(`${ALBUM_SQL} JOIN liked_albums l ON l.album_id = al.id WHERE l.user_id = ? ORDER BY l.id`).all(me(ctx)) as (AlbumRow & { created_at: string })[];
    return pageOf(rows.map((al) => ({ ...albumView(al, albumSongs(ctx, al.id)), liked_at: al.created_at })), a, ['title', 'release_date', 'rating', 'liked_at']);
  }),

  def('show_playlist_library', { description: 'Get a list of playlists in the user\'s playlist library.', params: [opt.str('query', { default: '' }), opt.bool('is_public'), ...PAGING, sortBy(null)] }, (ctx, a) => {
    const rows = (ctx.db.prepare('SELECT * FROM playlists WHERE owner_id = ? ORDER BY id').all(me(ctx)) as PlaylistRow[])
      .filter((p) => matchesQuery(a.query ?? '', p.title) && (optBool(a, 'is_public') === null || (p.is_public === 1) === optBool(a, 'is_public')));
    return pageOf(rows.map((p) => playlistView(ctx, p) as { [k: string]: Json }), a, ['title', 'created_at', 'rating', 'like_count']);
  }),
  def('search_playlists', { auth: false, description: 'Search for public playlists with a query.', params: [opt.str('query', { default: '' }), ...PAGING, sortBy(null)] }, (ctx, a) => {
    const rows = (ctx.db.prepare('SELECT * FROM playlists WHERE is_public = 1 ORDER BY id').all() as PlaylistRow[]).filter((p) => matchesQuery(a.query ?? '', p.title));
    return pageOf(rows.map((p) => playlistView(ctx, p) as { [k: string]: Json }), a, ['title', 'created_at', 'rating', 'like_count']);
  }),
  def('create_playlist', { description: 'Create a new playlist.', params: [req.str('title', { constraints: [{ kind: 'minLength', value: 1 }] }), opt.bool('is_public', { default: true })] }, (ctx, a) => {
    const r = ctx.db.prepare('INSERT INTO playlists (owner_id, title, is_public, rating, like_count, created_at) VALUES (?, ?, ?, 0, 0, ?)').run(me(ctx), str(a, 'title'), optBool(a, 'is_public') === false ? 0 : 1, ctx.now);
    return ok('Playlist created.', { playlist_id: Number(r.lastInsertRowid) });
  }),
  def('show_playlist', { description: 'Get detailed information about a specific playlist.', params: [req.int('playlist_id')] }, (ctx, a) => playlistView(ctx, playlist(ctx, Number(a.playlist_id), false))),
  def('delete_playlist', { method: 'DELETE', description: 'Delete a playlist.', params: [req.int('playlist_id')] }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), true);
    ctx.db.prepare('DELETE FROM playlist_songs WHERE playlist_id = ?').run(p.id);
    ctx.db.prepare('DELETE FROM playlists WHERE id = ?').run(p.id);
    return ok('Playlist deleted.');
  }),
  def('update_playlist', { method: 'PATCH', description: 'Update playlist title or privacy.', params: [req.int('playlist_id'), opt.str('title', { constraints: [{ kind: 'minLength', value: 1 }] }), opt.bool('is_public')] }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), true);
    const pub = optBool(a, 'is_public');
    ctx.db.prepare('UPDATE playlists SET title = ?, is_public = ? WHERE id = ?').run(optStr(a, 'title') ?? p.title, pub === null ? p.is_public : pub ? 1 : 0, p.id);
    return ok('Playlist updated.');
  }),
  def('add_song_to_playlist', { description: 'Add a song to a playlist.', params: [req.int('playlist_id'), req.int('song_id')] }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), true);
    const s = song(ctx, Number(a.song_id));
    if (ctx.db.prepare('SELECT 1 FROM playlist_songs WHERE playlist_id = ? AND song_id = ?').get(p.id, s.id)) throw new ApiError(422, 'The song is already in the playlist.');
    ctx.db.prepare('INSERT INTO playlist_songs (playlist_id, song_id, added_at) VALUES (?, ?, ?)').run(p.id, s.id, ctx.now);
    return ok('Song added to the playlist.');
  }),
  def('remove_song_from_playlist', { method: 'DELETE', description: 'Remove a song from a playlist.', params: [req.int('playlist_id'), req.int('song_id')] }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), true);
    const s = song(ctx, Number(a.song_id));
    if (ctx.db.prepare('DELETE FROM playlist_songs WHERE playlist_id = ? AND song_id = ?').run(p.id, s.id).changes === 0) throw new ApiError(422, 'The song is not in the playlist.');
    return ok('Song removed from the playlist.');
  }),
  def('like_playlist', { description: 'Like a playlist.', params: [req.int('playlist_id')] }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), false);
    if (ctx.db.prepare('SELECT 1 FROM liked_playlists WHERE user_id = ? AND playlist_id = ?').get(me(ctx), p.id)) throw new ApiError(422, 'The playlist is already liked.');
    ctx.db.prepare('INSERT INTO liked_playlists (user_id, playlist_id, created_at) VALUES (?, ?, ?)').run(me(ctx), p.id, ctx.now);
    ctx.db.prepare('UPDATE playlists SET like_count = like_count + 1 WHERE id = ?').run(p.id);
    return ok('Playlist liked.');
  }),
  def('unlike_playlist', { method: 'DELETE', description: 'Unlike a playlist.', params: [req.int('playlist_id')] }, (ctx, a) => {
    const p = playlist(ctx, Number(a.playlist_id), false);
    if (ctx.db.prepare('DELETE FROM liked_playlists WHERE user_id = ? AND playlist_id = ?').run(me(ctx), p.id).changes === 0) throw new ApiError(422, 'The playlist is not liked.');
    ctx.db.prepare('UPDATE playlists SET like_count = like_count - 1 WHERE id = ?').run(p.id);
    return ok('Playlist unliked.');
  }),
  def('show_liked_playlists', { description: 'Get a list of playlists you have liked.', params: [...PAGING, sortBy('-liked_at')] }, (ctx, a) => {
    const rows = ctx.db.prepare('SELECT p.*, l.created_at AS liked_at FROM playlists p JOIN liked_playlists l ON l.playlist_id = p.id WHERE l.user_id = ? ORDER BY l.id').all(me(ctx)) as (PlaylistRow & { liked_at: string })[];
    return pageOf(rows.map((p) => ({ ...(playlistView(ctx, p) as { [k: string]: Json }), liked_at: p.liked_at })), a, ['title', 'liked_at', 'rating']);
  }),

  def('search_artists', { auth: false, description: 'Search for artists with a query.', params: [opt.str('query', { default: '' }), opt.str('genre'), ...PAGING, sortBy(null)] }, (ctx, a) => {
    const rows = (ctx.db.prepare('SELECT * FROM artists ORDER BY id').all() as { id: number; name: string; genre: string; follower_count: number; created_at: string }[])
      .filter((r) => matchesQuery(a.query ?? '', r.name) && (optStr(a, 'genre') === null || r.genre === optStr(a, 'genre')));
    return pageOf(rows.map(artistView), a, ['name', 'follower_count', 'created_at']);
  }),
  def('show_artist', { auth: false, description: 'Get details of a specific artist.', params: [req.int('artist_id')] }, (ctx, a) => {
    const r = ctx.db.prepare('SELECT * FROM artists WHERE id = ?').get(a.artist_id) as { id: number; name: string; genre: string; follower_count: number; created_at: string } | undefined;
    return artistView(r ?? notFound('artist'));
  }),
  def('show_following_artists', { description: 'Get a list of artists the user is following.', params: [...PAGING, sortBy(null)] }, (ctx, a) => {
    const rows = ctx.db.prepare('SELECT ar.*, f.created_at AS followed_at FROM artists ar JOIN following_artists f ON f.artist_id = ar.id WHERE f.user_id = ? ORDER BY f.id').all(me(ctx)) as { id: number; name: string; genre: string; follower_count: number; created_at: string; followed_at: string }[];
    return pageOf(rows.map((r) => ({ ...artistView(r), followed_at: r.followed_at })), a, ['name', 'follower_count', 'followed_at']);
  }),
  def('follow_artist', { description: 'Follow an artist.', params: [req.int('artist_id')] }, (ctx, a) => {
    if (!ctx.db.prepare('SELECT 1 FROM artists WHERE id = ?').get(a.artist_id)) notFound('artist');
    if (ctx.db.prepare('SELECT 1 FROM following_artists WHERE user_id = ? AND artist_id = ?').get(me(ctx), a.artist_id)) throw new ApiError(422, 'You are already following this artist.');
    ctx.db.prepare('INSERT INTO following_artists (user_id, artist_id, created_at) VALUES (?, ?, ?)').run(me(ctx), a.artist_id, ctx.now);
    ctx.db.prepare('UPDATE artists SET follower_count = follower_count + 1 WHERE id = ?').run(a.artist_id);
    return ok('Artist followed.');
  }),
  def('unfollow_artist', { method: 'DELETE', description: 'Unfollow an artist.', params: [req.int('artist_id')] }, (ctx, a) => {
    if (!ctx.db.prepare('SELECT 1 FROM artists WHERE id = ?').get(a.artist_id)) notFound('artist');
    if (ctx.db.prepare('DELETE FROM following_artists WHERE user_id = ? AND artist_id = ?').run(me(ctx), a.artist_id).changes === 0) throw new ApiError(422, 'You are not following this artist.');
    ctx.db.prepare('UPDATE artists SET follower_count = follower_count - 1 WHERE id = ?').run(a.artist_id);
    return ok('Artist unfollowed.');
  }),
];

function albumSongs(ctx: ApiContext, albumId: number): number[] {
  return (ctx.db.prepare('SELECT id FROM songs WHERE album_id = ? ORDER BY id').all(albumId) as { id: number }[]).map((r) => r.id);
}
const artistView = (r: { id: number; name: string; genre: string; follower_count: number; created_at: string }) => ({ artist_id: r.id, name: r.name, genre: r.genre, follower_count: r.follower_count, created_at: r.created_at });
