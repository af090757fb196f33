// Older history that makes AppWorld's deep pages real: its supervisors like 20–45 songs and have sent
// over a hundred Venmo payments, so agents page past the first 20 rows (the paper's recorded calls read
// liked songs page 1 and sent payments pages 2–6). Drawn from its own random stream after every other
// table, and dated before the rest of the year, so earlier rows, their ids and the most recent items
// the tasks read stay unchanged.
import type Database from 'better-sqlite3';
import type { Rng } from '@diffworld/env-core';
import * as V from './vocab.js';

/** Liked songs per person after the top-up (AppWorld's supervisors: 16–45 on the recorded pages). */
export const LIKED_SONGS_RANGE = [21, 40] as const;
/** People with at most this many liked songs get no more (the review-every-liked-song task draws from them). */
export const FEW_LIKES = 12;
/** Sent Venmo payments per person after the top-up (the recorded supervisor's reached page 6 of 20). */
export const SENT_PAYMENTS_RANGE = [121, 140] as const;
/** Resolved (approved or denied) Venmo payment requests each person sent (AppWorld's supervisors: a full page of approved ones). */
export const SENT_REQUESTS_RANGE = [24, 36] as const;
/** The history's days: 2022-01-01 up to this day offset, older than most of the world's activity. */
export const HISTORY_LAST_DAY = 240;

type Insert = (table: string, row: Record<string, unknown>) => number;

export function seedHistory(db: Database.Database, ins: Insert, rng: Rng, date: (from?: number, to?: number) => string): void {
  const users = (db.prepare('SELECT id FROM users ORDER BY id').all() as { id: number }[]).map((u) => u.id);
  const songs = (db.prepare('SELECT id FROM songs ORDER BY id').all() as { id: number }[]).map((s) => s.id);
  const likedOf = db.prepare('SELECT song_id FROM liked_songs WHERE user_id = ?').pluck();
  const sentCount = db.prepare('SELECT count(*) FROM venmo_transactions WHERE sender_id = ?').pluck();
  // Each person's first repeat payer (lowest id who paid them twice), read before any history: a
  // question task asks for the total from that payer, so history never adds to it or puts a new
  // repeat payer before it.
  const firstRepeatPayer = new Map(
    (
      db
        .prepare('SELECT receiver_id AS r, min(sender_id) AS s FROM (SELECT receiver_id, sender_id FROM venmo_transactions GROUP BY receiver_id, sender_id HAVING count(*) >= 2) GROUP BY receiver_id')
        .all() as { r: number; s: number }[]
    ).map((x) => [x.r, x.s]),
  );
  const paidBefore = new Set(
    (db.prepare('SELECT DISTINCT sender_id, receiver_id FROM venmo_transactions').all() as { sender_id: number; receiver_id: number }[]).map((x) => `${x.sender_id}>${x.receiver_id}`),
  );
  /** Whom `user` may pay any number of times (their first repeat payer has a lower id), and once (never paid before). */
  const payees = (user: number) => {
    const others = users.filter((r) => r !== user);
    const open = others.filter((r) => (firstRepeatPayer.get(r) ?? Number.POSITIVE_INFINITY) < user);
    const once = others.filter((r) => !open.includes(r) && !paidBefore.has(`${user}>${r}`));
    return { open, once: rng.shuffle(once) };
  };
  for (const user of users) {
    const liked = new Set(likedOf.all(user) as number[]);
    // People with few likes keep them: tasks that review every liked song need a short list.
    const target = rng.int(...LIKED_SONGS_RANGE);
    for (const song of rng.sample(
      songs.filter((s) => !liked.has(s)),
      liked.size > FEW_LIKES ? Math.max(0, target - liked.size) : 0,
    ))
      ins('liked_songs', { user_id: user, song_id: song, created_at: date(0, HISTORY_LAST_DAY) });
    const sent = rng.int(...SENT_PAYMENTS_RANGE) - (sentCount.get(user) as number);
    const { open, once } = payees(user);
    for (let t = 0; t < sent && (open.length || once.length); t++) {
      const receiver = open.length ? rng.pick(open) : once.pop()!;
      ins('venmo_transactions', {
        sender_id: user,
        receiver_id: receiver,
        amount: rng.int(5, 120) + rng.pick([0, 0.5, 0.25]),
        description: rng.pick(V.TX_DESCRIPTIONS),
        private: rng.bool(0.3) ? 1 : 0,
        payment_card_id: null,
        like_count: rng.int(0, 3),
        created_at: date(0, HISTORY_LAST_DAY),
      });
    }
  }
  // Payment requests settled long ago, drawn after everything above so those rows stay as they were.
  // Never pending: the approve-pending task reads the pending ones, which stay the world's own.
  const friendsOf = db.prepare('SELECT friend_id FROM venmo_friends WHERE user_id = ? ORDER BY friend_id').pluck();
  for (const user of users) {
    const friends = friendsOf.all(user) as number[];
    if (!friends.length) continue;
    for (let r = rng.int(...SENT_REQUESTS_RANGE); r > 0; r--) {
      const created = date(0, HISTORY_LAST_DAY - 10);
      // Settled an hour to five days after it was made (still inside the history's days).
      const resolved = new Date(Date.parse(`${created}Z`) + rng.int(3_600, 5 * 86_400) * 1000).toISOString().slice(0, 19);
      const approved = rng.bool(0.8);
      ins('venmo_payment_requests', {
        sender_id: user,
        receiver_id: rng.pick(friends),
        amount: rng.int(5, 150),
        description: rng.pick(V.TX_DESCRIPTIONS),
        private: 0,
        created_at: created,
        approved_at: approved ? resolved : null,
        denied_at: approved ? null : resolved,
      });
    }
  }
}
