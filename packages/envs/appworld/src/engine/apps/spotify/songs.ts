// spotify's songs: the catalogue (genres, search, show), the user's song collections (library,
// likes, downloads) and the recommendations.
import { GENRES } from '../../../world/vocab.js';
import { declarer, me, ok } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage } from '../../ranked.js';
import { select } from '../../tables.js';
import { ApiError, type ApiContext, type ApiDef, type Args } from '../../types.js';
import { BIG, dates, QUERY, range, SONG_SORT, songFilter, songText, stars, withinDates } from './filters.js';
import { song, songs, SONG_SQL, type SongRow } from './tables.js';
import { SONG_RESPONSE, songShort, songView } from './views.js';

const def = declarer('spotify');

/** A user song collection (library, likes, downloads): list, add and remove, all alike. */
function songCollection(table: 'song_library' | 'liked_songs' | 'downloaded_songs', at: 'added_at' | 'created_at', atKey: string, fallbackSort: string | null = null) {
  return {
    list: (ctx: ApiContext, a: Args) => {
      const sql = SONG_SQL.replace('SELECT s.*', `SELECT s.*, c.${at} AS collected_at`);
      const rows = select<SongRow & { collected_at: string }>(sql).all(ctx, `JOIN ${table} c ON c.song_id = s.id WHERE c.user_id = ? ORDER BY c.id`, me(ctx));
      // Sorting may use the song's own attributes (play_count, …), which the shortened view leaves out.
      const kept = rankByQuery(
        rows.filter((s) => withinDates(a, atKey, s.collected_at)),
        a.query,
        songText,
      );
      const sorted = rankedPage(
        kept.map((s) => ({ ...s, [atKey]: s.collected_at })),
        a,
        SONG_SORT,
        fallbackSort,
      );
      return sorted.map((s) => ({ ...songShort(s), [atKey]: s.collected_at }));
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

export const songApis: ApiDef[] = [
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
        rankByQuery(songs.all(ctx, 'ORDER BY s.id').filter(songFilter(a)), a.query, songText).map((s) => songView(ctx, s)),
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
];

/** show_recommendations: songs outside the library in its genres. */
export const recommendationApis: ApiDef[] = [
  def(
    'show_recommendations',
    {
      response: [{ song_id: 1, title: 'string', album_id: 1, duration: 1, artists: [{ id: 1, name: 'string' }] }],
      description: 'Get personalized song recommendations for the user.',
      params: [...PAGING],
    },
    (ctx, a) => {
      // Songs outside the library in the library's genres, most played first: stable for a user.
      const rows = songs.all(
        ctx,
        'WHERE s.genre IN (SELECT DISTINCT so.genre FROM song_library l JOIN songs so ON so.id = l.song_id WHERE l.user_id = ?) AND s.id NOT IN (SELECT song_id FROM song_library WHERE user_id = ?) ORDER BY s.play_count DESC, s.id',
        me(ctx),
        me(ctx),
      );
      return pageOf(rows.map(songShort), a, []);
    },
  ),
];
