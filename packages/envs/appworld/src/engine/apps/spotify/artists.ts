// spotify's artists: search, show, and the artists the user follows.
import { declarer, me, notFound, ok, optStr } from '../../define.js';
import { pageOf } from '../../listing.js';
import { opt, PAGING, req, sortBy } from '../../params.js';
import { rankByQuery, rankedPage } from '../../ranked.js';
import { select } from '../../tables.js';
import { ApiError, type ApiDef } from '../../types.js';
import { BIG, QUERY, range, within } from './filters.js';
import { artists, type ArtistRow } from './tables.js';
import { ARTIST_RESPONSE, artistView } from './views.js';

const def = declarer('spotify');
const followedArtists = select<ArtistRow & { followed_at: string }>('SELECT ar.*, f.created_at AS followed_at FROM artists ar JOIN following_artists f ON f.artist_id = ar.id');

export const artistApis: ApiDef[] = [
  def(
    'search_artists',
    {
      response: [ARTIST_RESPONSE],
      auth: false,
      description: 'Search for artists with a query.',
      params: [QUERY, ...PAGING, opt.str('genre'), ...range('follower_count', true, 0, BIG), sortBy(null)],
    },
    (ctx, a) => {
      const rows = artists.all(ctx, 'ORDER BY id').filter((r) => (optStr(a, 'genre') === null || r.genre === optStr(a, 'genre')!.toLowerCase()) && within(a, 'follower_count', r.follower_count));
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
      const r = artists.byId(ctx, a.artist_id);
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
      const rows = followedArtists.all(ctx, 'WHERE f.user_id = ? ORDER BY f.id', me(ctx));
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
];
