// spotify's answers: AppWorld's song, album, playlist and artist views, and their response shapes
// (what api_docs shows and the handlers' bodies follow).
import type { ApiContext, Json } from '../../types.js';
import { playlistSongs, reviewCount, type AlbumRow, type ArtistRow, type PlaylistRow, type SongRow } from './tables.js';
import { row } from '../../tables.js';

export const SHARE_BASE = 'https://spotify.com';
/** AppWorld's SongResponse (search_songs, show_song). */
// Songs as the paper's recorded AppWorld server answers them (no album_title; AppWorld's later API docs add one).
export const songView = (ctx: ApiContext, s: SongRow) => ({
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
export const songShort = (s: SongRow) => ({ song_id: s.id, title: s.title, album_id: s.album_id, duration: s.duration, artists: [{ id: s.artist_id, name: s.artist_name }] });
/** AppWorld's AlbumShortenedResponse (search, library, likes). */
export const albumView = (ctx: ApiContext, al: AlbumRow, songIds: number[]) => ({
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
export function playlistHead(ctx: ApiContext, p: PlaylistRow) {
  const owner = row<{ first_name: string; last_name: string; email: string }>(ctx, 'SELECT first_name, last_name, email FROM users WHERE id = ?', p.owner_id)!;
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
export function playlistShort(ctx: ApiContext, p: PlaylistRow): { [k: string]: Json } {
  return { ...playlistHead(ctx, p), song_ids: playlistSongs(ctx, p.id).map((s) => s.id) };
}
/** show_playlist: the songs in full, and a shareable link for public playlists only. */
export function playlistView(ctx: ApiContext, p: PlaylistRow): Json {
  return {
    ...playlistHead(ctx, p),
    shareable_link: p.is_public === 1 ? `${SHARE_BASE}/playlist/${p.id}` : null,
    songs: playlistSongs(ctx, p.id).map((s) => ({ id: s.id, title: s.title, artist_ids: [s.artist_id] })),
  };
}
export const artistView = (r: ArtistRow) => ({
  artist_id: r.id,
  name: r.name,
  genre: r.genre,
  follower_count: r.follower_count,
  created_at: r.created_at,
});

export const SONG_RESPONSE = {
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
export const PLAYLIST_RESPONSE = {
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
export const ALBUM_RESPONSE = {
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
export { ALBUM_HEAD, PLAYLIST_HEAD };
export const SONG_REFS = [{ id: 1, title: 'string', artist_ids: [1] }];
export const ARTIST_RESPONSE = { artist_id: 1, name: 'string', genre: 'string', follower_count: 1, created_at: '2019-01-01T00:00:00' };
