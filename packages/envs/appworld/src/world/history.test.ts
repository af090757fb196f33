import { describe, expect, it } from 'vitest';
import { Rng } from '@diffworld/env-core';
import { generateWorld, isoAt } from './generate.js';
import { FEW_LIKES, HISTORY_LAST_DAY, LIKED_SONGS_RANGE, SENT_PAYMENTS_RANGE, SENT_REQUESTS_RANGE, seedHistory } from './history.js';

const db = generateWorld(1);
const users = db.prepare('SELECT id FROM users ORDER BY id').pluck().all() as number[];
const count = (sql: string, id: number) => db.prepare(sql).pluck().get(id) as number;
/** Receiver → "payer:total" of their first repeat payer, what the Venmo total-received task reads. */
const firstRepeatPayers = () =>
  db
    .prepare('SELECT receiver_id AS r, sender_id AS s, round(sum(amount), 2) AS total FROM venmo_transactions GROUP BY receiver_id, sender_id HAVING count(*) >= 2 ORDER BY receiver_id, sender_id')
    .all()
    .reduce<Record<number, string>>((m, x) => {
      const { r, s, total } = x as { r: number; s: number; total: number };
      m[r] ??= `${s}:${total}`;
      return m;
    }, {});

describe('deep history (pages past 20 rows)', () => {
  it('gives every person but the first over six pages of sent payments and 21-40 liked songs unless they have few likes', () => {
    for (const u of users) {
      // The first person can pay each other person only once (a second payment would make them
      // someone's first repeat payer), so they stop after a few pages.
      const sent = count('SELECT count(*) FROM venmo_transactions WHERE sender_id = ?', u);
      expect(sent).toBeGreaterThanOrEqual(u === users[0] ? 41 : SENT_PAYMENTS_RANGE[0]);
      expect(sent).toBeLessThanOrEqual(SENT_PAYMENTS_RANGE[1]);
      const liked = count('SELECT count(*) FROM liked_songs WHERE user_id = ?', u);
      if (liked > FEW_LIKES) expect(liked).toBeGreaterThanOrEqual(LIKED_SONGS_RANGE[0]);
      expect(liked).toBeLessThanOrEqual(LIKED_SONGS_RANGE[1]);
    }
    // Some people keep a short list: the review-every-liked-song task draws from them.
    expect(users.filter((u) => count('SELECT count(*) FROM liked_songs WHERE user_id = ?', u) <= FEW_LIKES).length).toBeGreaterThanOrEqual(3);
  });

  it('gives every person a page of settled payment requests to friends, never a pending one', () => {
    // The world's own requests start on day 300; the history's are older.
    const old = db.prepare('SELECT sender_id, receiver_id, created_at, approved_at, denied_at FROM venmo_payment_requests WHERE created_at < ?').all(isoAt(HISTORY_LAST_DAY + 1)) as {
      sender_id: number;
      receiver_id: number;
      created_at: string;
      approved_at: string | null;
      denied_at: string | null;
    }[];
    const friends = new Set((db.prepare('SELECT user_id, friend_id FROM venmo_friends').all() as { user_id: number; friend_id: number }[]).map((f) => `${f.user_id}>${f.friend_id}`));
    for (const u of users) {
      const sent = old.filter((r) => r.sender_id === u);
      expect(sent.length).toBeGreaterThanOrEqual(SENT_REQUESTS_RANGE[0]);
      expect(sent.length).toBeLessThanOrEqual(SENT_REQUESTS_RANGE[1]);
      expect(sent.filter((r) => r.approved_at !== null).length).toBeGreaterThanOrEqual(12);
    }
    for (const r of old) {
      expect(friends.has(`${r.sender_id}>${r.receiver_id}`)).toBe(true);
      const settled = r.approved_at ?? r.denied_at;
      expect((r.approved_at === null) !== (r.denied_at === null)).toBe(true);
      expect(settled! > r.created_at && settled! < isoAt(HISTORY_LAST_DAY + 1)).toBe(true);
    }
  });

  it('never changes anyone’s first repeat payer or its total, and dates its rows early', () => {
    // Drop the newest 2,000 payments (the history's), then seed again from another stream.
    db.prepare('DELETE FROM venmo_transactions WHERE id > (SELECT max(id) FROM venmo_transactions) - 2000').run();
    const before = firstRepeatPayers();
    const maxId = db.prepare('SELECT max(id) FROM venmo_transactions').pluck().get() as number;
    const rng = new Rng(99);
    seedHistory(
      db,
      (table, row) =>
        Number(
          db
            .prepare(
              `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
                .map(() => '?')
                .join(', ')})`,
            )
            .run(...Object.values(row)).lastInsertRowid,
        ),
      rng,
      (from = 0, to = 0) => isoAt(rng.int(from, to)),
    );
    const added = db.prepare('SELECT count(*) AS n, max(created_at) AS last FROM venmo_transactions WHERE id > ?').get(maxId) as { n: number; last: string };
    expect(added.n).toBeGreaterThan(1000);
    expect(added.last <= isoAt(HISTORY_LAST_DAY, 86_399)).toBe(true);
    expect(firstRepeatPayers()).toEqual(before);
  });
});
