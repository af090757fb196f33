// spotify: catalogue search, libraries, likes, playlists, following and downloads.
import { declarer, me, notFound, ok, optBool, optNum, optStr, str } from '../define.js';
import { pageOf } from '../listing.js';
import { rankByQuery, rankedPage } from '../ranked.js';
import { opt, PAGING, req, sortBy } from '../params.js';
import { ApiError, type ApiContext, type ApiDef, type Args, type Json } from '../types.js';
import { accountApis } from './common.js';
import { routed, sharedRoutes } from '../routes.js';
import { paymentCardApis } from './payment_cards.js';
import { DOWNLOAD_PARAMS, downloadToFileSystem } from './file_system.js';
import { GENRES } from '../../world/vocab.js';

const def = declarer('spotify');

interface SongRow {
  id: number;
  title: string;
  album_id: number;
  artist_id: number;
  genre: string;
  duration: number;
  release_date: string;
  play_count: number;
  rating: number;
  like_count: number;
  album_title: string;
  artist_name: string;
}
interface AlbumRow {
  id: number;
  title: string;
  artist_id: number;
  genre: string;
  release_date: string;
  rating: number;
  like_count: number;
  artist_name: string;
}
interface PlaylistRow {
  id: number;
  owner_id: number;
  title: string;
  is_public: number;
  rating: number;
  like_count: number;
  created_at: string;
}

const SONG_SQL = 'SELECT s.*, al.title AS album_title, ar.name AS artist_name FROM songs s JOIN albums al ON al.id = s.album_id JOIN artists ar ON ar.id = s.artist_id';
const ALBUM_SQL = 'SELECT al.*, ar.name AS artist_name FROM albums al JOIN artists ar ON ar.id = al.artist_id';

const SHARE_BASE = 'https://spotify.com';
/** Premium prices in dollars (this world's, not AppWorld's data). */
const PREMIUM_PRICES = { monthly: 10, yearly: 100 } as const;
const reviewCount = (ctx: ApiContext, kind: ReviewKind, id: number) => (ctx.db.prepare(`SELECT count(*) AS n FROM ${kind}_reviews WHERE ${kind}_id = ?`).get(id) as { n: number }).n;
/** AppWorld's SongResponse (search_songs, show_song). */
// Songs as the paper's recorded AppWorld server answers them (no album_title; AppWorld's later API docs add one).
const songView = (ctx: ApiContext, s: SongRow) => ({
  song_id: s.id,
  title: s.title,
  album_id: s.album_id,
  duration: s.duration,
  artists: [{ id: s.artist_id, name: s.artist_name }],
  release_date: s.release_date,
  genre: s.genre,
  play_count: s.play_count,
  rating: s.rating,
  like_count: s.like_count,
  review_count: reviewCount(ctx, 'song', s.id),
  shareable_link: `${SHARE_BASE}/song/${s.id}`,
});
/** The shortened song of user collections and recommendations. */
const songShort = (s: SongRow) => ({ song_id: s.id, title: s.title, album_id: s.album_id, duration: s.duration, artists: [{ id: s.artist_id, name: s.artist_name }] });
/** AppWorld's AlbumShortenedResponse (search, library, likes). */
const albumView = (ctx: ApiContext, al: AlbumRow, songIds: number[]) => ({
  album_id: al.id,
  title: al.title,
  genre: al.genre,
  artists: [{ id: al.artist_id, name: al.artist_name }],
  rating: al.rating,
  like_count: al.like_count,
  review_count: reviewCount(ctx, 'album', al.id),
  release_date: al.release_date,
  song_ids: songIds,
});

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
function playlistSongs(ctx: ApiContext, id: number): SongRow[] {
  return ctx.db.prepare(`${SONG_SQL} JOIN playlist_songs ps ON ps.song_id = s.id WHERE ps.playlist_id = ? ORDER BY ps.id`).all(id) as SongRow[];
}
function playlistHead(ctx: ApiContext, p: PlaylistRow) {
  const owner = ctx.db.prepare('SELECT first_name, last_name, email FROM users WHERE id = ?').get(p.owner_id) as { first_name: string; last_name: string; email: string };
  return {
    playlist_id: p.id,
    title: p.title,
    is_public: p.is_public === 1,
    rating: p.rating,
    like_count: p.like_count,
    review_count: reviewCount(ctx, 'playlist', p.id),
    owner: { name: `${owner.first_name} ${owner.last_name}`, email: owner.email },
    created_at: p.created_at,
  };
}
/** AppWorld's PlaylistShortenedResponse (library, search, likes). */
function playlistShort(ctx: ApiContext, p: PlaylistRow): { [k: string]: Json } {
  return { ...playlistHead(ctx, p), song_ids: playlistSongs(ctx, p.id).map((s) => s.id) };
}
/** show_playlist: the songs in full, and a shareable link for public playlists only. */
function playlistView(ctx: ApiContext, p: PlaylistRow): Json {
  return {
    ...playlistHead(ctx, p),
    shareable_link: p.is_public === 1 ? `${SHARE_BASE}/playlist/${p.id}` : null,
    songs: playlistSongs(ctx, p.id).map((s) => ({ id: s.id, title: s.title, artist_ids: [s.artist_id] })),
  };
}

const SONG_SORT = ['title', 'duration', 'release_date', 'play_count', 'rating', 'like_count', 'added_at', 'liked_at', 'downloaded_at'];
const BIG = Number.MAX_SAFE_INTEGER;
const nonNeg = [{ kind: 'min', value: 0 }] as const;
const stars = [
  { kind: 'min', value: 0 },
  { kind: 'max', value: 5 },
] as const;
/** A review's rating bounds, 1 to 5. */
const STARS = [
  { kind: 'min', value: 1 },
  { kind: 'max', value: 5 },
] as const;
const QUERY = opt.str('query', { default: '' });
const range = (name: string, int: boolean, lo: number, hi: number, constraints: readonly { kind: 'min' | 'max'; value: number }[] = nonNeg) => [
  (int ? opt.int : opt.num)(`min_${name}`, { default: lo, constraints }),
  (int ? opt.int : opt.num)(`max_${name}`, { default: hi, constraints }),
];
const dates = (name: string) => [opt.str(`min_${name}`, { default: '1500-01-01' }), opt.str(`max_${name}`, { default: '3000-01-01' })];
const within = (a: Args, name: string, v: number) => (optNum(a, `min_${name}`) ?? -Infinity) <= v && v <= (optNum(a, `max_${name}`) ?? Infinity);
const withinDates = (a: Args, name: string, at: string) =>
  at.slice(0, 10) >= (optStr(a, `min_${name}`) ?? '1500-01-01').slice(0, 10) && at.slice(0, 10) <= (optStr(a, `max_${name}`) ?? '3000-01-01').slice(0, 10);
/** The text a song search ranks by: title, album and artist. */
const songText = (s: SongRow) => [s.title, s.album_title, s.artist_name];
function songFilter(a: Args) {
  return (s: SongRow) =>
    (optStr(a, 'genre') === null || s.genre === optStr(a, 'genre')!.toLowerCase()) &&
    (optNum(a, 'artist_id') === null || s.artist_id === optNum(a, 'artist_id')) &&
    (optNum(a, 'album_id') === null || s.album_id === optNum(a, 'album_id')) &&
    withinDates(a, 'release_date', s.release_date) &&
    within(a, 'duration', s.duration) &&
    within(a, 'rating', s.rating) &&
    within(a, 'like_count', s.like_count) &&
    within(a, 'play_count', s.play_count);
}

/** A user song collection (library, likes, downloads): list, add and remove, all alike. */
function songCollection(table: 'song_library' | 'liked_songs' | 'downloaded_songs', at: 'added_at' | 'created_at', atKey: string, fallbackSort: string | null = null) {
  return {
    list: (ctx: ApiContext, a: Args) => {
      const sql = SONG_SQL.replace('SELECT s.*', `SELECT s.*, c.${at} AS collected_at`);
      const rows = ctx.db.prepare(`${sql} JOIN ${table} c ON c.song_id = s.id WHERE c.user_id = ? ORDER BY c.id`).all(me(ctx)) as (SongRow & { collected_at: string })[];
      // Sorting may use the song's own attributes (play_count, …), which the shortened view leaves out.
      const kept = rankByQuery(
        rows.filter((s) => withinDates(a, atKey, s.collected_at)),
        a.query,
        songText,
      );
      const sorted = rankedPage(
        kept.map((s) => ({ ...s, [atKey]: s.collected_at }) as unknown as { [k: string]: Json }),
        a,
        SONG_SORT,
        fallbackSort,
      );
      return sorted.map((s) => ({ ...songShort(s as unknown as SongRow), [atKey]: s[atKey]! }));
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
// sort_by defaults to null (AppWorld's docs); without a query or a sort, newest downloads first.
const downloads = songCollection('downloaded_songs', 'created_at', 'downloaded_at', '-downloaded_at');
const songId = [req.int('song_id')];

const SONG_RESPONSE = {
  song_id: 1,
  title: 'string',
  album_id: 1,
  duration: 1,
  artists: [{ id: 1, name: 'string' }],
  release_date: '2019-01-01T00:00:00',
  genre: 'string',
  play_count: 1,
  rating: 0.0,
  like_count: 1,
  review_count: 1,
  shareable_link: 'string',
};
const PLAYLIST_RESPONSE = {
  playlist_id: 1,
  title: 'string',
  is_public: true,
  rating: 0.0,
  like_count: 1,
  review_count: 1,
  owner: { name: 'string', email: 'user@example.com' },
  created_at: '2019-01-01T00:00:00',
  song_ids: [1],
};
const ALBUM_RESPONSE = {
  album_id: 1,
  title: 'string',
  genre: 'string',
  artists: [{ id: 1, name: 'string' }],
  rating: 0.0,
  like_count: 1,
  review_count: 1,
  release_date: '2019-01-01T00:00:00',
  song_ids: [1],
};
// show_album / show_playlist: the listing's keys, then a link and the songs in place of song_ids.
const { song_ids: _albumSongIds, ...ALBUM_HEAD } = ALBUM_RESPONSE;
const { song_ids: _playlistSongIds, ...PLAYLIST_HEAD } = PLAYLIST_RESPONSE;
const SONG_REFS = [{ id: 1, title: 'string', artist_ids: [1] }];
const ARTIST_RESPONSE = { artist_id: 1, name: 'string', genre: 'string', follower_count: 1, created_at: '2019-01-01T00:00:00' };

const apis: ApiDef[] = [
  ...accountApis('spotify', {
    verification: true,
    extras: {
      response: { is_premium: true },
      view: (ctx, id) => ({
        is_premium:
          (ctx.db
            .prepare('SELECT 1 FROM spotify_premium_subscriptions WHERE user_id = ? AND substr(start_date, 1, 10) <= ? AND substr(end_date, 1, 10) >= ?')
            .get(id, ctx.now.slice(0, 10), ctx.now.slice(0, 10)) as unknown) !== undefined,
      }),
    },
  }),
  def('show_genres', { response: ['string'], auth: false, description: 'Show the list of all music genres.' }, () => [...GENRES]),
  def(
    'search_songs',
    {
      response: [SONG_RESPONSE],
      auth: false,
      description: 'Search for songs with a query.',
      params: [
        QUERY,
        ...PAGING,
        opt.int('artist_id'),
        opt.int('album_id'),
        opt.str('genre'),
        ...dates('release_date'),
        ...range('duration', true, 0, BIG),
        ...range('rating', false, 0, 5, stars),
        ...range('like_count', true, 0, BIG),
        ...range('play_count', true, 0, BIG),
        sortBy(null),
      ],
    },
    (ctx, a) =>
      rankedPage(
        rankByQuery((ctx.db.prepare(`${SONG_SQL} ORDER BY s.id`).all() as SongRow[]).filter(songFilter(a)), a.query, songText).map((s) => songView(ctx, s)),
        a,
        SONG_SORT,
      ),
  ),
  def(
    'show_song',
    {
      response: SONG_RESPONSE,
      auth: false,
      description: 'Get details of a specific song.',
      params: songId,
    },
    (ctx, a) => songView(ctx, song(ctx, Number(a.song_id))),
  ),
  def(
    'show_song_privates',
    { response: { liked: true, reviewed: true, in_song_library: true, downloaded: true }, description: 'Show information about the song that is private to the user.', params: songId },
    (ctx, a) => {
      const s = song(ctx, Number(a.song_id));
      const has = (table: string) => !!ctx.db.prepare(`SELECT 1 FROM ${table} WHERE user_id = ? AND song_id = ?`).get(me(ctx), s.id);
      return { liked: has('liked_songs'), reviewed: has('song_reviews'), in_song_library: has('song_library'), downloaded: has('downloaded_songs') };
    },
  ),
  def(
    'show_song_library',
    {
      response: [{ song_id: 1, title: 'string', album_id: 1, duration: 1, artists: [{ id: 1, name: 'string' }], added_at: '2019-01-01T00:00:00' }],
      description: "Get a list of songs in the user's song library.",
      params: [...PAGING],
    },
    library.list,
  ),
  def('add_song_to_library', { response: { message: 'string' }, description: "Add a song to the user's song library.", params: songId }, (ctx, a) =>
    library.add(ctx, a, 'The song is already in your library.', 'Song added to the library.'),
  ),
  def('remove_song_from_library', { response: { message: 'string' }, method: 'DELETE', description: "Remove a song from the user's song library.", params: songId }, (ctx, a) =>
    library.remove(ctx, a, 'The song is not in your library.', 'Song removed from the library.'),
  ),
  def(
    'show_liked_songs',
    {
      response: [{ song_id: 1, title: 'string', album_id: 1, duration: 1, artists: [{ id: 1, name: 'string' }], liked_at: '2019-01-01T00:00:00' }],
      description: 'Get a list of songs you have liked.',
      params: [...PAGING, sortBy('-liked_at')],
    },
    liked.list,
  ),
  def('like_song', { response: { message: 'string' }, description: 'Like a song.', params: songId }, (ctx, a) => {
    const r = liked.add(ctx, a, 'The song is already liked.', 'Song liked.');
    ctx.db.prepare('UPDATE songs SET like_count = like_count + 1 WHERE id = ?').run(a.song_id);
    return r;
  }),
  def('unlike_song', { response: { message: 'string' }, method: 'DELETE', description: 'Unlike a song.', params: songId }, (ctx, a) => {
    const r = liked.remove(ctx, a, 'The song is not liked.', 'Song unliked.');
    ctx.db.prepare('UPDATE songs SET like_count = like_count - 1 WHERE id = ?').run(a.song_id);
    return r;
  }),
  def(
    'show_downloaded_songs',
    {
      response: [{ song_id: 1, title: 'string', album_id: 1, duration: 1, artists: [{ id: 1, name: 'string' }], downloaded_at: '2019-01-01T00:00:00' }],
      description: 'Get a list of downloaded songs.',
      params: [QUERY, ...dates('downloaded_at'), ...PAGING, sortBy(null)],
    },
    downloads.list,
  ),
  def('download_song', { response: { message: 'string' }, description: 'Download a song.', params: songId }, (ctx, a) => downloads.add(ctx, a, 'The song is already downloaded.', 'Song downloaded.')),
  def('remove_downloaded_song', { response: { message: 'string' }, method: 'DELETE', description: 'Remove a song from downloads.', params: songId }, (ctx, a) =>
    downloads.remove(ctx, a, 'The song is not downloaded.', 'Song removed from downloads.'),
  ),

  def(
    'search_albums',
    {
      response: [ALBUM_RESPONSE],
      auth: false,
      description: 'Search for albums with a query.',
      params: [QUERY, ...PAGING, ...range('rating', false, 0, 5, stars), ...dates('release_date'), ...range('like_count', true, 0, BIG), opt.str('genre'), sortBy(null)],
    },
    (ctx, a) => {
      const found = (ctx.db.prepare(`${ALBUM_SQL} ORDER BY al.id`).all() as AlbumRow[]).filter(
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
      const songs = ctx.db.prepare('SELECT id, title, artist_id FROM songs WHERE album_id = ? ORDER BY id').all(al.id) as { id: number; title: string; artist_id: number }[];
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
      const rows = ctx.db
        .prepare(`${ALBUM_SQL.replace('SELECT al.*', 'SELECT al.*, l.added_at')} JOIN album_library l ON l.album_id = al.id WHERE l.user_id = ? ORDER BY l.id`)
        .all(me(ctx)) as (AlbumRow & { added_at: string })[];
      return pageOf(
        rows.map((al) => ({ ...albumView(ctx, al, albumSongs(ctx, al.id)), added_at: al.added_at })),
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
      const rows = ctx.db
        .prepare(`${ALBUM_SQL.replace('SELECT al.*', 'SELECT al.*, l.created_at')} JOIN liked_albums l ON l.album_id = al.id WHERE l.user_id = ? ORDER BY l.id`)
        .all(me(ctx)) as (AlbumRow & { created_at: string })[];
      return pageOf(
        rows.map((al) => ({ ...albumView(ctx, al, albumSongs(ctx, al.id)), liked_at: al.created_at })),
        a,
        ['title', 'release_date', 'rating', 'liked_at'],
      );
    },
  ),

  def(
    'show_playlist_library',
    {
      response: [PLAYLIST_RESPONSE],
      description: "Get a list of playlists in the user's playlist library.",
      params: [...PAGING, opt.bool('is_public')],
    },
    (ctx, a) => {
      const rows = (ctx.db.prepare('SELECT * FROM playlists WHERE owner_id = ? ORDER BY id').all(me(ctx)) as PlaylistRow[]).filter(
        (p) => optBool(a, 'is_public') === null || (p.is_public === 1) === optBool(a, 'is_public'),
      );
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
      const found = (ctx.db.prepare('SELECT * FROM playlists WHERE is_public = 1 OR owner_id = ? ORDER BY id').all(me(ctx)) as PlaylistRow[]).filter(
        (p) => within(a, 'like_count', p.like_count) && within(a, 'rating', p.rating),
      );
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
      const rows = ctx.db
        .prepare('SELECT p.*, l.created_at AS liked_at FROM playlists p JOIN liked_playlists l ON l.playlist_id = p.id WHERE l.user_id = ? ORDER BY l.id')
        .all(me(ctx)) as (PlaylistRow & { liked_at: string })[];
      return pageOf(
        rows.map((p) => ({ ...playlistShort(ctx, p), liked_at: p.liked_at })),
        a,
        ['title', 'liked_at', 'rating'],
      );
    },
  ),

  def(
    'search_artists',
    {
      response: [ARTIST_RESPONSE],
      auth: false,
      description: 'Search for artists with a query.',
      params: [QUERY, ...PAGING, opt.str('genre'), ...range('follower_count', true, 0, BIG), sortBy(null)],
    },
    (ctx, a) => {
      const rows = (ctx.db.prepare('SELECT * FROM artists ORDER BY id').all() as { id: number; name: string; genre: string; follower_count: number; created_at: string }[]).filter(
        (r) => (optStr(a, 'genre') === null || r.genre === optStr(a, 'genre')!.toLowerCase()) && within(a, 'follower_count', r.follower_count),
      );
      return rankedPage(rankByQuery(rows, a.query, (r) => [r.name]).map(artistView), a, ['name', 'follower_count', 'created_at']);
    },
  ),
  def(
    'show_artist',
    {
      response: ARTIST_RESPONSE,
      auth: false,
      description: 'Get details of a specific artist.',
      params: [req.int('artist_id')],
    },
    (ctx, a) => {
      const r = ctx.db.prepare('SELECT * FROM artists WHERE id = ?').get(a.artist_id) as { id: number; name: string; genre: string; follower_count: number; created_at: string } | undefined;
      return artistView(r ?? notFound('artist'));
    },
  ),
  def('show_artist_following', { response: { following: true }, description: 'Show whether you are following the artist.', params: [req.int('artist_id')] }, (ctx, a) => {
    if (!ctx.db.prepare('SELECT 1 FROM artists WHERE id = ?').get(a.artist_id)) notFound('artist');
    return { following: !!ctx.db.prepare('SELECT 1 FROM following_artists WHERE user_id = ? AND artist_id = ?').get(me(ctx), a.artist_id) };
  }),
  def(
    'show_following_artists',
    {
      response: [{ artist_id: 1, name: 'string', genre: 'string', follower_count: 1, created_at: '2019-01-01T00:00:00', followed_at: '2019-01-01T00:00:00' }],
      description: 'Get a list of artists the user is following.',
      params: [...PAGING],
    },
    (ctx, a) => {
      const rows = ctx.db.prepare('SELECT ar.*, f.created_at AS followed_at FROM artists ar JOIN following_artists f ON f.artist_id = ar.id WHERE f.user_id = ? ORDER BY f.id').all(me(ctx)) as {
        id: number;
        name: string;
        genre: string;
        follower_count: number;
        created_at: string;
        followed_at: string;
      }[];
      return pageOf(
        rows.map((r) => ({ ...artistView(r), followed_at: r.followed_at })),
        a,
        ['name', 'follower_count', 'followed_at'],
      );
    },
  ),
  def('follow_artist', { description: 'Follow an artist.', params: [req.int('artist_id')], response: { message: 'string' } }, (ctx, a) => {
    if (!ctx.db.prepare('SELECT 1 FROM artists WHERE id = ?').get(a.artist_id)) notFound('artist');
    if (ctx.db.prepare('SELECT 1 FROM following_artists WHERE user_id = ? AND artist_id = ?').get(me(ctx), a.artist_id)) throw new ApiError(422, 'You are already following this artist.');
    ctx.db.prepare('INSERT INTO following_artists (user_id, artist_id, created_at) VALUES (?, ?, ?)').run(me(ctx), a.artist_id, ctx.now);
    ctx.db.prepare('UPDATE artists SET follower_count = follower_count + 1 WHERE id = ?').run(a.artist_id);
    return ok('Artist followed.');
  }),
  def('unfollow_artist', { method: 'DELETE', description: 'Unfollow an artist.', params: [req.int('artist_id')], response: { message: 'string' } }, (ctx, a) => {
    if (!ctx.db.prepare('SELECT 1 FROM artists WHERE id = ?').get(a.artist_id)) notFound('artist');
    if (ctx.db.prepare('DELETE FROM following_artists WHERE user_id = ? AND artist_id = ?').run(me(ctx), a.artist_id).changes === 0) throw new ApiError(422, 'You are not following this artist.');
    ctx.db.prepare('UPDATE artists SET follower_count = follower_count - 1 WHERE id = ?').run(a.artist_id);
    return ok('Artist unfollowed.');
  }),
  def(
    'show_recommendations',
    {
      response: [{ song_id: 1, title: 'string', album_id: 1, duration: 1, artists: [{ id: 1, name: 'string' }] }],
      description: 'Get personalized song recommendations for the user.',
      params: [...PAGING],
    },
    (ctx, a) => {
      // Songs outside the library in the library's genres, most played first: stable for a user.
      const rows = ctx.db
        .prepare(
          `${SONG_SQL} WHERE s.genre IN (SELECT DISTINCT so.genre FROM song_library l JOIN songs so ON so.id = l.song_id WHERE l.user_id = ?) AND s.id NOT IN (SELECT song_id FROM song_library WHERE user_id = ?) ORDER BY s.play_count DESC, s.id`,
        )
        .all(me(ctx), me(ctx)) as SongRow[];
      return pageOf(rows.map(songShort), a, []);
    },
  ),
  ...playerApis(),
  ...paymentCardApis('spotify', 'spotify_payment_cards', { showCvv: true }),
  def('show_premium_plans', { response: { monthly: 1, yearly: 1 }, auth: false, description: 'Show information about premium plans available.' }, () => ({ ...PREMIUM_PRICES })),
  def(
    'subscribe_premium',
    {
      description: 'Subscribe to premium membership.',
      params: [req.int('payment_card_id'), req.str('duration', { constraints: [{ kind: 'enum', values: ['monthly', 'yearly'] }] })],
      response: { message: 'string', premium_subscription_id: 1 },
    },
    (ctx, a) => {
      const card = ctx.db.prepare('SELECT id, user_id, card_number, expiry_year, expiry_month FROM spotify_payment_cards WHERE id = ?').get(a.payment_card_id) as
        | { id: number; user_id: number; card_number: string; expiry_year: number; expiry_month: number }
        | undefined;
      if (!card) notFound('payment card');
      if (card.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to use this payment card.');
      if (card.expiry_year * 12 + card.expiry_month < Number(ctx.now.slice(0, 4)) * 12 + Number(ctx.now.slice(5, 7))) throw new ApiError(422, 'The payment card has expired.');
      // A new subscription starts when the current one ends, so renewing early never loses days.
      const last = ctx.db.prepare('SELECT max(end_date) AS end FROM spotify_premium_subscriptions WHERE user_id = ?').get(me(ctx)) as { end: string | null };
      const start = last.end && last.end > ctx.now ? last.end : ctx.now;
      const d = new Date(start + 'Z');
      if (a.duration === 'yearly') d.setUTCFullYear(d.getUTCFullYear() + 1);
      else d.setUTCMonth(d.getUTCMonth() + 1);
      const end = d.toISOString().slice(0, 19);
      const paid = PREMIUM_PRICES[a.duration as 'monthly' | 'yearly'];
      const r = ctx.db
        .prepare('INSERT INTO spotify_premium_subscriptions (user_id, payment_card_id, payment_card_digits, start_date, end_date, paid_amount) VALUES (?, ?, ?, ?, ?, ?)')
        .run(me(ctx), card.id, card.card_number.slice(-4), start, end, paid);
      return ok('Subscribed to premium.', { premium_subscription_id: Number(r.lastInsertRowid) });
    },
  ),
  def(
    'download_premium_subscription_receipt',
    {
      description: 'Download the receipt for a premium subscription into your file system.',
      params: [req.int('premium_subscription_id'), ...DOWNLOAD_PARAMS],
      response: { message: 'string', file_path: 'string' },
    },
    (ctx, a) => {
      const p = ctx.db.prepare('SELECT * FROM spotify_premium_subscriptions WHERE id = ?').get(a.premium_subscription_id) as
        | { id: number; user_id: number; start_date: string; end_date: string; payment_card_digits: string; paid_amount: number }
        | undefined;
      if (!p) notFound('premium subscription');
      if (p.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this premium subscription.');
      const text = `Spotify premium receipt\nSubscription ID: ${p.id}\nFrom: ${p.start_date}\nTo: ${p.end_date}\nPaid: $${p.paid_amount}\nCard ending: ${p.payment_card_digits}\n`;
      return ok('Receipt downloaded.', {
        file_path: downloadToFileSystem(ctx, str(a, 'file_system_access_token'), optStr(a, 'download_to_file_path'), `spotify_premium_${p.id}.txt`, text, optBool(a, 'overwrite') === true),
      });
    },
  ),
  def(
    'show_premium_subscriptions',
    {
      response: [{ premium_subscription_id: 1, start_date: '2019-01-01T00:00:00', end_date: '2019-01-01T00:00:00', payment_card_digits: 'string', paid_amount: 0.0 }],
      description: 'Show your premium subscription history.',
      params: [...PAGING],
    },
    (ctx, a) => {
      const rows = ctx.db
        .prepare('SELECT id AS premium_subscription_id, start_date, end_date, payment_card_digits, paid_amount FROM spotify_premium_subscriptions WHERE user_id = ? ORDER BY id')
        .all(me(ctx)) as { [k: string]: Json }[];
      return pageOf(rows, a, []);
    },
  ),
  ...reviewApis('song', 'Song', (ctx, id) => song(ctx, id).id),
  ...reviewApis('album', 'Album', (ctx, id) => album(ctx, id).id),
  ...reviewApis('playlist', 'Playlist', (ctx, id) => playlist(ctx, id, false).id),
];

type ReviewKind = 'song' | 'album' | 'playlist';
interface ReviewRow {
  id: number;
  user_id: number;
  rating: number;
  title: string;
  text: string;
  created_at: string;
  updated_at: string;
  first_name: string;
  last_name: string;
  email: string;
}

/** The five review APIs of songs, albums and playlists: list, create (one per user), show, update, delete. */
function reviewApis(kind: ReviewKind, model: string, target: (ctx: ApiContext, id: number) => number): ApiDef[] {
  const table = `${kind}_reviews`;
  const idKey = `${kind}_id`;
  const view = (r: ReviewRow & Record<string, unknown>) => ({
    [`${kind}_review_id`]: r.id,
    [idKey]: r[idKey] as number,
    user: { name: `${r.first_name} ${r.last_name}`, email: r.email },
    rating: r.rating,
    title: r.title,
    text: r.text,
    created_at: r.created_at,
  });
  const SQL = `SELECT r.*, u.first_name, u.last_name, u.email FROM ${table} r JOIN users u ON u.id = r.user_id`;
  const own = (ctx: ApiContext, id: number) => {
    const r = ctx.db.prepare(`${SQL} WHERE r.id = ?`).get(id) as ReviewRow | undefined;
    if (!r) notFound(`${kind} review`);
    if (r.user_id !== me(ctx)) throw new ApiError(401, `You are not authorized to modify this ${kind} review.`);
    return r;
  };
  const rating = (required: boolean) =>
    (required ? req.int : opt.int)('rating', {
      constraints: [
        { kind: 'min', value: 1 },
        { kind: 'max', value: 5 },
      ],
    });
  const reviewId = req.int('review_id');
  return [
    def(
      `show_${kind}_reviews`,
      {
        response: [{ [`${kind}_review_id`]: 1, [idKey]: 1, rating: 1.0, title: 'string', text: 'string', created_at: '2019-01-01T00:00:00', user: { name: 'string', email: 'user@example.com' } }],
        auth: kind === 'playlist',
        description: `Get a list of reviews for a ${kind}.`,
        params: [
          req.int(idKey),
          QUERY,
          opt.str('user_email', { constraints: [{ kind: 'email' }] }),
          opt.int('min_rating', { default: 1, constraints: STARS }),
          opt.int('max_rating', { default: 5, constraints: STARS }),
          ...PAGING,
          sortBy(null),
        ],
      },
      (ctx, a) => {
        const id = kind === 'playlist' ? target(ctx, Number(a[idKey])) : Number(a[idKey]);
        if (kind !== 'playlist') target(ctx, id);
        const rows = (ctx.db.prepare(`${SQL} WHERE r.${idKey} = ? ORDER BY r.id`).all(id) as (ReviewRow & Record<string, unknown>)[]).filter(
          (r) => (optStr(a, 'user_email') === null || r.email === optStr(a, 'user_email')) && within(a, 'rating', r.rating),
        );
        return rankedPage(rankByQuery(rows, a.query, (r) => [r.title, r.text]).map(view), a, ['rating', 'created_at', 'updated_at']);
      },
    ),
    def(
      `review_${kind}`,
      {
        response: { message: 'string', [`${kind}_review_id`]: 1 },
        description: `Rate or review a ${kind}.`,
        params: [req.int(idKey), rating(true), opt.str('title', { default: '' }), opt.str('text', { default: '' })],
      },
      (ctx, a) => {
        const id = target(ctx, Number(a[idKey]));
        if (ctx.db.prepare(`SELECT 1 FROM ${table} WHERE user_id = ? AND ${idKey} = ?`).get(me(ctx), id)) throw new ApiError(409, `${model}Review with this ${idKey} and user_id already exists.`);
        const r = ctx.db
          .prepare(`INSERT INTO ${table} (user_id, ${idKey}, rating, title, text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
          .run(me(ctx), id, a.rating, str(a, 'title'), str(a, 'text'), ctx.now, ctx.now);
        return ok(`Added a new ${kind} review.`, { [`${kind}_review_id`]: Number(r.lastInsertRowid) });
      },
    ),
    def(
      `show_${kind}_review`,
      {
        response: { [`${kind}_review_id`]: 1, [idKey]: 1, rating: 1.0, title: 'string', text: 'string', created_at: '2019-01-01T00:00:00', user: { name: 'string', email: 'user@example.com' } },
        auth: kind === 'playlist',
        description: `Show a ${kind} review.`,
        params: [reviewId],
      },
      (ctx, a) => {
        const r = ctx.db.prepare(`${SQL} WHERE r.id = ?`).get(a.review_id) as (ReviewRow & Record<string, unknown>) | undefined;
        return view(r ?? notFound(`${kind} review`));
      },
    ),
    def(
      `update_${kind}_review`,
      { method: 'PATCH', description: `Update a ${kind} review.`, params: [reviewId, rating(false), opt.str('title'), opt.str('text')], response: { message: 'string' } },
      (ctx, a) => {
        const r = own(ctx, Number(a.review_id));
        ctx.db
          .prepare(`UPDATE ${table} SET rating = ?, title = ?, text = ?, updated_at = ? WHERE id = ?`)
          .run(optNum(a, 'rating') ?? r.rating, optStr(a, 'title') ?? r.title, optStr(a, 'text') ?? r.text, ctx.now, r.id);
        return ok(`Updated the ${kind} review.`);
      },
    ),
    def(`delete_${kind}_review`, { method: 'DELETE', description: `Delete a ${kind} review.`, params: [reviewId], response: { message: 'string' } }, (ctx, a) => {
      ctx.db.prepare(`DELETE FROM ${table} WHERE id = ?`).run(own(ctx, Number(a.review_id)).id);
      return ok(`Deleted the ${kind} review.`);
    }),
  ];
}

function albumSongs(ctx: ApiContext, albumId: number): number[] {
  return (ctx.db.prepare('SELECT id FROM songs WHERE album_id = ? ORDER BY id').all(albumId) as { id: number }[]).map((r) => r.id);
}
const artistView = (r: { id: number; name: string; genre: string; follower_count: number; created_at: string }) => ({
  artist_id: r.id,
  name: r.name,
  genre: r.genre,
  follower_count: r.follower_count,
  created_at: r.created_at,
});

interface PlayerRow {
  id: number;
  user_id: number;
  current_position: number;
  is_playing: number;
  is_looping: number;
  played_seconds: number;
  volume: number;
}

/**
 * The music player: a per-user queue (0-based positions, played in order as a cycle), the current
 * position, play/pause, loop, seek and volume.
 */
function playerApis(): ApiDef[] {
  const player = (ctx: ApiContext): PlayerRow => {
    const uid = me(ctx);
    let p = ctx.db.prepare('SELECT * FROM spotify_player WHERE user_id = ?').get(uid) as PlayerRow | undefined;
    if (!p) {
      ctx.db.prepare('INSERT INTO spotify_player (user_id, current_position, is_playing, is_looping, played_seconds, volume) VALUES (?, 0, 0, 0, 0, 5)').run(uid);
      p = ctx.db.prepare('SELECT * FROM spotify_player WHERE user_id = ?').get(uid) as PlayerRow;
    }
    return p;
  };
  const queue = (ctx: ApiContext) =>
    ctx.db
      .prepare('SELECT song_id FROM spotify_queue WHERE user_id = ? ORDER BY position')
      .all(me(ctx))
      .map((r) => (r as { song_id: number }).song_id);
  const setQueue = (ctx: ApiContext, ids: number[]) => {
    ctx.db.prepare('DELETE FROM spotify_queue WHERE user_id = ?').run(me(ctx));
    const ins = ctx.db.prepare('INSERT INTO spotify_queue (user_id, position, song_id) VALUES (?, ?, ?)');
    ids.forEach((id, i) => ins.run(me(ctx), i, id));
  };
  const setPlayer = (ctx: ApiContext, p: PlayerRow, patch: Partial<Omit<PlayerRow, 'id' | 'user_id'>>) => {
    const n = { ...p, ...patch };
    ctx.db
      .prepare('UPDATE spotify_player SET current_position = ?, is_playing = ?, is_looping = ?, played_seconds = ?, volume = ? WHERE id = ?')
      .run(n.current_position, n.is_playing, n.is_looping, n.played_seconds, n.volume, p.id);
  };
  const full = (ctx: ApiContext, id: number) => {
    const s = song(ctx, id);
    return { ...songShort(s), album_title: s.album_title };
  };
  /** The songs of whichever one of song_id, album_id or playlist_id is given (null when none is). */
  const source = (ctx: ApiContext, a: Args): number[] | null => {
    const given = ['song_id', 'album_id', 'playlist_id'].filter((k) => a[k] !== null && a[k] !== undefined);
    if (given.length > 1) throw new ApiError(422, 'Pass at most one of song_id, album_id or playlist_id.');
    if (optNum(a, 'song_id') !== null) return [song(ctx, optNum(a, 'song_id')!).id];
    if (optNum(a, 'album_id') !== null) return albumSongs(ctx, album(ctx, optNum(a, 'album_id')!).id);
    if (optNum(a, 'playlist_id') !== null) return playlistSongs(ctx, playlist(ctx, optNum(a, 'playlist_id')!, false).id).map((x) => x.id);
    return null;
  };
  const SOURCE = [opt.int('song_id'), opt.int('album_id'), opt.int('playlist_id')];
  const step = (ctx: ApiContext, delta: 1 | -1) => {
    const p = player(ctx);
    const q = queue(ctx);
    if (!q.length) throw new ApiError(422, 'The song queue is empty.');
    const pos = (((p.current_position + delta) % q.length) + q.length) % q.length; // the queue is a cycle
    setPlayer(ctx, p, { current_position: pos, played_seconds: 0, is_playing: 1 });
    return ok(delta === 1 ? 'Playing the next song.' : 'Playing the previous song.', { song_id: q[pos]! });
  };
  return [
    def(
      'show_current_song',
      {
        response: { song_id: 1, title: 'string', album_id: 1, album_title: 'string', duration: 1, artists: [{ id: 1, name: 'string' }], played_seconds: 1, is_playing: true, is_looping: true },
        description: 'Show details of the current song on the queue.',
      },
      (ctx) => {
        const p = player(ctx);
        const q = queue(ctx);
        if (!q.length) throw new ApiError(422, 'The song queue is empty.');
        return { ...full(ctx, q[p.current_position]!), played_seconds: p.played_seconds, is_playing: p.is_playing === 1, is_looping: p.is_looping === 1 };
      },
    ),
    def(
      'play_music',
      {
        description: 'Play a song, album or playlist (added to the queue), the song at a queue position, or the current song.',
        params: [...SOURCE, opt.int('queue_position', { constraints: [{ kind: 'min', value: 0 }] })],
        response: { message: 'string', song_id: 1 },
      },
      (ctx, a) => {
        const p = player(ctx);
        const add = source(ctx, a);
        if (add && optNum(a, 'queue_position') !== null) throw new ApiError(422, 'Pass at most one of queue_position, song_id, album_id or playlist_id.');
        let q = queue(ctx);
        let pos = p.current_position;
        if (add) {
          if (!add.length) throw new ApiError(422, 'There are no songs to play.');
          pos = q.length;
          setQueue(ctx, (q = [...q, ...add]));
        } else if (optNum(a, 'queue_position') !== null) pos = optNum(a, 'queue_position')!;
        if (!q.length) throw new ApiError(422, 'The song queue is empty.');
        if (pos >= q.length) throw new ApiError(422, `The queue has no position ${pos}; it has ${q.length} songs.`);
        setPlayer(ctx, p, { current_position: pos, is_playing: 1, played_seconds: pos === p.current_position && !add ? p.played_seconds : 0 });
        return ok('Playing the song.', { song_id: q[pos]! });
      },
    ),
    def('pause_music', { description: 'Pause the currently playing song.', response: { message: 'string' } }, (ctx) => {
      const p = player(ctx);
      if (p.is_playing === 0) throw new ApiError(422, 'No song is playing.');
      setPlayer(ctx, p, { is_playing: 0 });
      return ok('Paused the song.');
    }),
    def('previous_song', { response: { message: 'string', song_id: 1 }, description: 'Go to the previous song in the song queue.' }, (ctx) => step(ctx, -1)),
    def('next_song', { response: { message: 'string', song_id: 1 }, description: 'Go to the next song in the song queue.' }, (ctx) => step(ctx, 1)),
    def(
      'move_song_in_queue',
      {
        description: 'Move a song in the queue to a new position.',
        params: [req.int('current_position', { constraints: nonNeg }), req.int('new_position', { constraints: nonNeg })],
        response: { message: 'string' },
      },
      (ctx, a) => {
        const p = player(ctx);
        const q = queue(ctx);
        const [from, to] = [Number(a.current_position), Number(a.new_position)];
        if (from >= q.length || to >= q.length) throw new ApiError(422, `Positions must be below the queue length ${q.length}.`);
        const playing = q[p.current_position];
        const [moved] = q.splice(from, 1);
        q.splice(to, 0, moved!);
        setQueue(ctx, q);
        // The current song stays current wherever it moved.
        const at = p.current_position === from ? to : q.indexOf(playing!);
        setPlayer(ctx, p, { current_position: at < 0 ? 0 : at });
        return ok('Moved the song in the queue.');
      },
    ),
    def(
      'seek_song',
      { description: 'Seek the current song to the given number of seconds.', params: [req.int('seek_seconds', { constraints: nonNeg })], response: { message: 'string' } },
      (ctx, a) => {
        const p = player(ctx);
        const q = queue(ctx);
        if (!q.length) throw new ApiError(422, 'The song queue is empty.');
        const duration = song(ctx, q[p.current_position]!).duration;
        if (Number(a.seek_seconds) > duration) throw new ApiError(422, `The current song is only ${duration} seconds long.`);
        setPlayer(ctx, p, { played_seconds: Number(a.seek_seconds) });
        return ok('Seeked the song.');
      },
    ),
    def('loop_song', { response: { message: 'string' }, description: 'Set whether to loop the current song.', params: [req.bool('loop')] }, (ctx, a) => {
      setPlayer(ctx, player(ctx), { is_looping: a.loop === true ? 1 : 0 });
      return ok(a.loop === true ? 'Looping the current song.' : 'Stopped looping the current song.');
    }),
    def('shuffle_song_queue', { description: 'Shuffle songs in the music player queue.', response: { message: 'string' } }, (ctx) => {
      const p = player(ctx);
      const q = queue(ctx);
      const current = q[p.current_position];
      // A deterministic shuffle (seeded by the user and the queue), so replays of an episode agree.
      let h = q.reduce((acc, id) => Math.imul(acc ^ id, 16777619) >>> 0, 2166136261 ^ me(ctx));
      for (let i = q.length - 1; i > 0; i--) {
        h = (Math.imul(h, 1664525) + 1013904223) >>> 0;
        const j = h % (i + 1);
        [q[i], q[j]] = [q[j]!, q[i]!];
      }
      setQueue(ctx, q);
      if (current !== undefined) setPlayer(ctx, p, { current_position: q.indexOf(current) });
      return ok('Shuffled the song queue.');
    }),
    def(
      'show_song_queue',
      {
        response: [{ song_id: 1, title: 'string', album_id: 1, album_title: 'string', duration: 1, artists: [{ id: 1, name: 'string' }], position: 1, is_playing: true, is_current: true }],
        description: 'Get the music player song queue. Songs are played in the order of the queue in a cycle.',
      },
      (ctx) => {
        const p = player(ctx);
        return queue(ctx).map((id, position) => ({ ...full(ctx, id), position, is_playing: position === p.current_position && p.is_playing === 1, is_current: position === p.current_position }));
      },
    ),
    def('add_to_queue', { description: 'Add a song, album or playlist to the music player song queue.', params: SOURCE, response: { message: 'string' } }, (ctx, a) => {
      const add = source(ctx, a);
      if (!add) throw new ApiError(422, 'Pass one of song_id, album_id or playlist_id.');
      setQueue(ctx, [...queue(ctx), ...add]);
      return ok('Added to the song queue.');
    }),
    def(
      'remove_song_from_queue',
      {
        method: 'DELETE',
        description: 'Remove a song at the given position from the music player song queue.',
        params: [req.int('position')],
        response: { message: 'string' },
      },
      (ctx, a) => {
        const p = player(ctx);
        const q = queue(ctx);
        const pos = Number(a.position);
        if (pos >= q.length) throw new ApiError(422, `The queue has no position ${pos}; it has ${q.length} songs.`);
        q.splice(pos, 1);
        setQueue(ctx, q);
        const current = pos < p.current_position ? p.current_position - 1 : pos === p.current_position ? Math.min(pos, Math.max(q.length - 1, 0)) : p.current_position;
        setPlayer(ctx, p, { current_position: current, ...(pos === p.current_position ? { played_seconds: 0 } : {}), ...(q.length === 0 ? { is_playing: 0 } : {}) });
        return ok('Removed the song from the queue.');
      },
    ),
    def('clear_song_queue', { method: 'DELETE', description: 'Clear the music player song queue.', response: { message: 'string' } }, (ctx) => {
      setQueue(ctx, []);
      setPlayer(ctx, player(ctx), { current_position: 0, is_playing: 0, played_seconds: 0 });
      return ok('Cleared the song queue.');
    }),
    def('show_volume', { response: { volume: 1 }, description: 'Show the music player volume.' }, (ctx) => ({ volume: player(ctx).volume })),
    def(
      'set_volume',
      {
        description: 'Set the volume level of the music player.',
        params: [
          req.int('volume', {
            constraints: [
              { kind: 'min', value: 0 },
              { kind: 'max', value: 10 },
            ],
          }),
        ],
        response: { message: 'string' },
      },
      (ctx, a) => {
        setPlayer(ctx, player(ctx), { volume: Number(a.volume) });
        return ok('Volume set.');
      },
    ),
  ];
}

/** AppWorld's routes of the spotify app. */
const S = '/spotify';
export const spotifyApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('spotify', { verification: true, notifications: false }),
  show_genres: `GET ${S}/genres`,
  search_songs: `GET ${S}/songs`,
  show_song: `GET ${S}/songs/{song_id}`,
  show_song_privates: `GET ${S}/songs/{song_id}/privates`,
  like_song: `POST ${S}/songs/{song_id}/like`,
  unlike_song: `DELETE ${S}/songs/{song_id}/like`,
  show_liked_songs: `GET ${S}/liked_songs`,
  search_albums: `GET ${S}/albums`,
  show_album: `GET ${S}/albums/{album_id}`,
  show_album_privates: `GET ${S}/albums/{album_id}/privates`,
  like_album: `POST ${S}/albums/{album_id}/like`,
  unlike_album: `DELETE ${S}/albums/{album_id}/like`,
  show_liked_albums: `GET ${S}/liked_albums`,
  show_playlist_library: `GET ${S}/library/playlists`,
  search_playlists: `GET ${S}/playlists`,
  show_playlist: `GET ${S}/playlists/{playlist_id}`,
  show_playlist_privates: `GET ${S}/playlists/{playlist_id}/privates`,
  create_playlist: `POST ${S}/playlists`,
  update_playlist: `PATCH ${S}/playlists/{playlist_id}`,
  delete_playlist: `DELETE ${S}/playlists/{playlist_id}`,
  like_playlist: `POST ${S}/playlists/{playlist_id}/like`,
  unlike_playlist: `DELETE ${S}/playlists/{playlist_id}/like`,
  show_liked_playlists: `GET ${S}/liked_playlists`,
  search_artists: `GET ${S}/artists`,
  show_artist: `GET ${S}/artists/{artist_id}`,
  show_artist_following: `GET ${S}/artists/{artist_id}/following`,
  show_song_library: `GET ${S}/library/songs`,
  add_song_to_library: `POST ${S}/library/songs/{song_id}`,
  remove_song_from_library: `DELETE ${S}/library/songs/{song_id}`,
  show_album_library: `GET ${S}/library/albums`,
  add_album_to_library: `POST ${S}/library/albums/{album_id}`,
  remove_album_from_library: `DELETE ${S}/library/albums/{album_id}`,
  add_song_to_playlist: `POST ${S}/playlists/{playlist_id}/songs/{song_id}`,
  remove_song_from_playlist: `DELETE ${S}/playlists/{playlist_id}/songs/{song_id}`,
  show_downloaded_songs: `GET ${S}/downloaded_songs`,
  download_song: `POST ${S}/downloaded_songs/{song_id}`,
  remove_downloaded_song: `DELETE ${S}/downloaded_songs/{song_id}`,
  show_following_artists: `GET ${S}/following_artists`,
  follow_artist: `POST ${S}/following_artists/{artist_id}`,
  unfollow_artist: `DELETE ${S}/following_artists/{artist_id}`,
  show_song_reviews: `GET ${S}/songs/{song_id}/reviews`,
  review_song: `POST ${S}/songs/{song_id}/reviews`,
  update_song_review: `PATCH ${S}/song_reviews/{review_id}`,
  delete_song_review: `DELETE ${S}/song_reviews/{review_id}`,
  show_song_review: `GET ${S}/song_reviews/{review_id}`,
  show_album_reviews: `GET ${S}/albums/{album_id}/reviews`,
  review_album: `POST ${S}/albums/{album_id}/reviews`,
  update_album_review: `PATCH ${S}/album_reviews/{review_id}`,
  delete_album_review: `DELETE ${S}/album_reviews/{review_id}`,
  show_album_review: `GET ${S}/album_reviews/{review_id}`,
  show_playlist_reviews: `GET ${S}/playlists/{playlist_id}/reviews`,
  review_playlist: `POST ${S}/playlists/{playlist_id}/reviews`,
  update_playlist_review: `PATCH ${S}/playlist_reviews/{review_id}`,
  delete_playlist_review: `DELETE ${S}/playlist_reviews/{review_id}`,
  show_playlist_review: `GET ${S}/playlist_reviews/{review_id}`,
  show_payment_cards: `GET ${S}/payment_cards`,
  show_payment_card: `GET ${S}/payment_cards/{payment_card_id}`,
  add_payment_card: `POST ${S}/payment_cards`,
  update_payment_card: `PATCH ${S}/payment_cards/{payment_card_id}`,
  delete_payment_card: `DELETE ${S}/payment_cards/{payment_card_id}`,
  show_current_song: `GET ${S}/music_player/current_song`,
  play_music: `POST ${S}/music_player/play`,
  pause_music: `POST ${S}/music_player/pause`,
  previous_song: `POST ${S}/music_player/previous_song`,
  next_song: `POST ${S}/music_player/next_song`,
  move_song_in_queue: `POST ${S}/music_player/move_song`,
  seek_song: `POST ${S}/music_player/seek`,
  loop_song: `POST ${S}/music_player/loop`,
  shuffle_song_queue: `POST ${S}/music_player/shuffle`,
  show_song_queue: `GET ${S}/music_player/song_queue`,
  add_to_queue: `POST ${S}/music_player/song_queue`,
  remove_song_from_queue: `DELETE ${S}/music_player/song_queue/{position}`,
  clear_song_queue: `DELETE ${S}/music_player/song_queue`,
  show_volume: `GET ${S}/music_player/volume`,
  set_volume: `POST ${S}/music_player/volume`,
  show_recommendations: `GET ${S}/recommendations`,
  show_premium_plans: `GET ${S}/premium/plans`,
  subscribe_premium: `POST ${S}/premium/subscriptions`,
  show_premium_subscriptions: `GET ${S}/premium/subscriptions`,
  download_premium_subscription_receipt: `GET ${S}/premium/subscriptions/{premium_subscription_id}/receipt`,
});
