// spotify's music player: a per-user song queue and the player's state.
import { declarer, me, ok, optNum } from '../../define.js';
import { opt, req } from '../../params.js';
import { ApiError, type ApiContext, type ApiDef, type Args } from '../../types.js';
import { rows } from '../../tables.js';
import { nonNeg } from './filters.js';
import { album, albumSongs, players, playlist, playlistSongs, song, type PlayerRow } from './tables.js';
import { songShort } from './views.js';

const def = declarer('spotify');

/**
 * The music player: a per-user queue (0-based positions, played in order as a cycle), the current
 * position, play/pause, loop, seek and volume.
 */
export function playerApis(): ApiDef[] {
  const player = (ctx: ApiContext): PlayerRow => {
    const uid = me(ctx);
    let p = players.one(ctx, 'WHERE user_id = ?', uid);
    if (!p) {
      ctx.db.prepare('INSERT INTO spotify_player (user_id, current_position, is_playing, is_looping, played_seconds, volume) VALUES (?, 0, 0, 0, 0, 5)').run(uid);
      p = players.one(ctx, 'WHERE user_id = ?', uid)!;
    }
    return p;
  };
  const queue = (ctx: ApiContext) => rows<{ song_id: number }>(ctx, 'SELECT song_id FROM spotify_queue WHERE user_id = ? ORDER BY position', me(ctx)).map((r) => r.song_id);
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
