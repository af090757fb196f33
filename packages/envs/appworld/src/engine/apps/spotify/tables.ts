// spotify's tables: the row types (declared once), typed reads over them, and the lookups every
// spotify API shares (a song, an album, a playlist the caller may see, by id, or 422).
import { me, notFound } from '../../define.js';
import { count, ids, select, table } from '../../tables.js';
import { ApiError, type ApiContext } from '../../types.js';
import type { PaidSubscriptionRow } from '../shared/rows.js';

/** A song with its album's title and its artist's name (`songs` joined with `albums` and `artists`). */
export interface SongRow {
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
/** An album with its artist's name. */
export interface AlbumRow {
  id: number;
  title: string;
  artist_id: number;
  genre: string;
  release_date: string;
  rating: number;
  like_count: number;
  artist_name: string;
}
export interface PlaylistRow {
  id: number;
  owner_id: number;
  title: string;
  is_public: number;
  rating: number;
  like_count: number;
  created_at: string;
}
export interface ArtistRow {
  id: number;
  name: string;
  genre: string;
  follower_count: number;
  created_at: string;
}
export type ReviewKind = 'song' | 'album' | 'playlist';
/** A row of `<kind>_reviews` with its author's name and email; the target column is `<kind>_id`. */
export interface ReviewRow {
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
export interface PlayerRow {
  id: number;
  user_id: number;
  current_position: number;
  is_playing: number;
  is_looping: number;
  played_seconds: number;
  volume: number;
}
export type PremiumSubscriptionRow = PaidSubscriptionRow;

export const SONG_SQL = 'SELECT s.*, al.title AS album_title, ar.name AS artist_name FROM songs s JOIN albums al ON al.id = s.album_id JOIN artists ar ON ar.id = s.artist_id';
export const ALBUM_SQL = 'SELECT al.*, ar.name AS artist_name FROM albums al JOIN artists ar ON ar.id = al.artist_id';

export const songs = select<SongRow>(SONG_SQL);
export const albums = select<AlbumRow>(ALBUM_SQL);
export const playlists = table<PlaylistRow>('playlists');
export const artists = table<ArtistRow>('artists');
export const players = table<PlayerRow>('spotify_player');
export const premiumSubscriptions = table<PremiumSubscriptionRow>('spotify_premium_subscriptions');
/** The reviews of one kind, each with its author. */
export const reviews = (kind: ReviewKind) => select<ReviewRow & Record<string, unknown>>(`SELECT r.*, u.first_name, u.last_name, u.email FROM ${kind}_reviews r JOIN users u ON u.id = r.user_id`);

export const reviewCount = (ctx: ApiContext, kind: ReviewKind, id: number) => count(ctx, `SELECT count(*) AS n FROM ${kind}_reviews WHERE ${kind}_id = ?`, id);

export function song(ctx: ApiContext, id: number): SongRow {
  const s = songs.one(ctx, 'WHERE s.id = ?', id);
  return s ?? notFound('song');
}
export function album(ctx: ApiContext, id: number): AlbumRow {
  const al = albums.one(ctx, 'WHERE al.id = ?', id);
  return al ?? notFound('album');
}
/** A playlist the caller may see (public, or their own), or must own. */
export function playlist(ctx: ApiContext, id: number, mustOwn: boolean): PlaylistRow {
  const p = playlists.byId(ctx, id);
  if (!p) notFound('playlist');
  if ((mustOwn || p.is_public === 0) && p.owner_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this playlist.');
  return p;
}
export function playlistSongs(ctx: ApiContext, id: number): SongRow[] {
  return songs.all(ctx, 'JOIN playlist_songs ps ON ps.song_id = s.id WHERE ps.playlist_id = ? ORDER BY ps.id', id);
}
export function albumSongs(ctx: ApiContext, albumId: number): number[] {
  return ids(ctx, 'SELECT id FROM songs WHERE album_id = ? ORDER BY id', albumId);
}
