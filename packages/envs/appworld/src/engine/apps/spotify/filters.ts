// spotify's search parameters and filters: query, numeric ranges, date ranges, sortable attributes.
import { optNum, optStr } from '../../define.js';
import { opt } from '../../params.js';
import type { Args } from '../../types.js';
import type { SongRow } from './tables.js';

export const SONG_SORT = ['title', 'duration', 'release_date', 'play_count', 'rating', 'like_count', 'added_at', 'liked_at', 'downloaded_at'];
export const BIG = Number.MAX_SAFE_INTEGER;
export const nonNeg = [{ kind: 'min', value: 0 }] as const;
export const stars = [
  { kind: 'min', value: 0 },
  { kind: 'max', value: 5 },
] as const;
/** A review's rating bounds, 1 to 5. */
export const STARS = [
  { kind: 'min', value: 1 },
  { kind: 'max', value: 5 },
] as const;
export const QUERY = opt.str('query', { default: '' });
export const range = (name: string, int: boolean, lo: number, hi: number, constraints: readonly { kind: 'min' | 'max'; value: number }[] = nonNeg) => [
  (int ? opt.int : opt.num)(`min_${name}`, { default: lo, constraints }),
  (int ? opt.int : opt.num)(`max_${name}`, { default: hi, constraints }),
];
export const dates = (name: string) => [opt.str(`min_${name}`, { default: '1500-01-01' }), opt.str(`max_${name}`, { default: '3000-01-01' })];
export const within = (a: Args, name: string, v: number) => (optNum(a, `min_${name}`) ?? -Infinity) <= v && v <= (optNum(a, `max_${name}`) ?? Infinity);
export const withinDates = (a: Args, name: string, at: string) =>
  at.slice(0, 10) >= (optStr(a, `min_${name}`) ?? '1500-01-01').slice(0, 10) && at.slice(0, 10) <= (optStr(a, `max_${name}`) ?? '3000-01-01').slice(0, 10);
/** The text a song search ranks by: title, album and artist. */
export const songText = (s: SongRow) => [s.title, s.album_title, s.artist_name];
export function songFilter(a: Args) {
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
