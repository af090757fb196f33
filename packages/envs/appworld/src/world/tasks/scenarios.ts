// The scenario templates: each picks three supervisors and parameters from the seeded world,
// states the instruction, the ground truth, the tests, and an expert program that solves it.
import type Database from 'better-sqlite3';
import type { Json } from '../../engine/types.js';
import { DbDiff } from './diff.js';
import { addedExactly, fullName, noChanges, nothingElse, people, round2, test, three } from './checks.js';
import type { Scenario, Supervisor, TestResult, Variant } from './types.js';
import { SPLITWISE_TODOIST_SCENARIOS } from './scenarios-splitwise-todoist.js';
import { AMAZON_GMAIL_SCENARIOS } from './scenarios-amazon-gmail.js';

/** Balance deltas in venmo_balances must equal `deltas` (user id → amount) and touch no one else. */
function balanceDeltas(diff: DbDiff, deltas: Map<number, number>): TestResult {
  const got = new Map<number, number>();
  for (const u of diff.of('venmo_balances').updated) got.set(Number(u.after.user_id), round2(Number(u.after.balance) - Number(u.before.balance)));
  const ok = got.size === deltas.size && [...deltas].every(([id, d]) => Math.abs((got.get(id) ?? 0) - d) < 0.005);
  return test('venmo balances moved by exactly the amounts paid', ok, `expected ${JSON.stringify([...deltas])}, got ${JSON.stringify([...got])}`);
}

const NOTE_TITLES = ['Weekend Plans', 'Packing List', 'Call Back', 'Ideas for Mom', 'Garden Chores', 'Team Lunch'];
const NOTE_BODIES = ['book the table for 7pm', 'charger, passport, sunglasses', 'dentist office before Friday', 'ask about the blue vase', 'water tomatoes, trim hedges', 'vote on Thai or Mexican'];
const TEXTS = ['The meeting moved to 3 PM.', 'Dinner at my place on Saturday!', 'Please send me your new address.', 'Happy Friday, everyone!'];
const NOTES_FOR = ['Dinner', 'Concert', 'Groceries', 'Movie tickets', 'Taxi'];

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'spotify_playlist_count',
    kind: 'question',
    split: 'train',
    difficulty: 1,
    apps: ['spotify'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const answer = w.query<{ n: number }>('SELECT count(*) AS n FROM playlists WHERE owner_id = ?', sup.id)[0]!.n;
        return {
          supervisorId: sup.id,
          instruction: 'How many playlists do I have in Spotify?',
          answer,
          allowedTables: [],
          expected: noChanges,
          solve: (x) => {
            x.login('spotify');
            x.complete(x.all('spotify__show_playlist_library').length);
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'venmo_send_money',
    kind: 'action',
    split: 'train',
    difficulty: 1,
    apps: ['venmo'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const friend = rng.pick(
          w.query<Supervisor>('SELECT u.id, u.first_name, u.last_name, u.email, u.phone_number FROM users u JOIN venmo_friends f ON f.friend_id = u.id WHERE f.user_id = ? ORDER BY u.id', sup.id),
        );
        const amount = rng.int(10, 45);
        const note = rng.pick(NOTES_FOR);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['venmo_transactions', 'venmo_balances', 'venmo_notifications'],
          instruction: `Send $${amount} to my friend ${fullName(friend)} on Venmo with the note "${note}".`,
          expected: (diff) => [
            addedExactly(
              diff,
              'venmo_transactions',
              [{ sender_id: sup.id, receiver_id: friend.id, amount, description: note }],
              ['sender_id', 'receiver_id', 'amount', 'description'],
              'one transaction to the friend with the amount and note',
            ),
            balanceDeltas(
              diff,
              new Map([
                [sup.id, -amount],
                [friend.id, amount],
              ]),
            ),
          ],
          solve: (x) => {
            x.login('venmo');
            const f = (x.call('venmo__search_friends', { query: fullName(friend) }) as { email: string }[])[0]!;
            x.call('venmo__create_transaction', { receiver_email: f.email, amount, description: note });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'phone_contact_number',
    kind: 'question',
    split: 'train',
    difficulty: 1,
    apps: ['phone'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const contacts = w.query<{ first_name: string; last_name: string; phone_number: string; relationships: string }>('SELECT * FROM contacts WHERE owner_id = ? ORDER BY id', sup.id);
        const c = rng.pick(contacts);
        const rel = (JSON.parse(c.relationships) as string[])[0]!;
        return {
          supervisorId: sup.id,
          answer: c.phone_number,
          allowedTables: [],
          expected: noChanges,
          instruction: `What is the phone number of my ${rel} ${fullName(c)}?`,
          solve: (x) => {
            x.login('phone');
            const found = x.all<{ first_name: string; last_name: string; phone_number: string }>('phone__search_contacts', { query: fullName(c) });
            x.complete(found.find((r) => fullName(r) === fullName(c))!.phone_number);
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'simple_note_create',
    kind: 'action',
    split: 'train',
    difficulty: 1,
    apps: ['simple_note'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const i = rng.int(0, NOTE_TITLES.length - 1);
        const [title, content, tag] = [NOTE_TITLES[i]!, NOTE_BODIES[i]!, rng.pick(['personal', 'todo', 'family'])];
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['notes'],
          instruction: `Create a note in SimpleNote titled "${title}" with the content "${content}" and the tag "${tag}".`,
          expected: (diff) => [
            addedExactly(diff, 'notes', [{ user_id: sup.id, title, content, tags: JSON.stringify([tag]) }], ['user_id', 'title', 'content', 'tags'], 'one note with the title, content and tag'),
            nothingElse(diff, 'notes', ['updated', 'deleted']),
          ],
          solve: (x) => {
            x.login('simple_note');
            x.call('simple_note__create_note', { title, content, tags: [tag] });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'spotify_most_played_library_song',
    kind: 'question',
    split: 'dev',
    difficulty: 2,
    apps: ['spotify'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const top = w.query<{ title: string }>('SELECT s.title FROM songs s JOIN song_library l ON l.song_id = s.id WHERE l.user_id = ? ORDER BY s.play_count DESC, s.id LIMIT 1', sup.id)[0]!;
        return {
          supervisorId: sup.id,
          answer: top.title,
          allowedTables: [],
          expected: noChanges,
          instruction: 'What is the title of the most-played song in my Spotify song library?',
          solve: (x) => {
            x.login('spotify');
            // Library entries carry no play counts: walk the catalogue by play count until a library song.
            const mine = new Set(x.all<{ song_id: number }>('spotify__show_song_library').map((s) => s.song_id));
            for (let page = 0; ; page++) {
              const songs = x.call('spotify__search_songs', { sort_by: '-play_count', page_index: page, page_limit: 20 }) as { song_id: number; title: string }[];
              const best = songs.find((s) => mine.has(s.song_id));
              if (best || songs.length === 0) return x.complete(best?.title);
            }
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'venmo_approve_requests_from',
    kind: 'action',
    split: 'dev',
    difficulty: 2,
    apps: ['venmo'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const friends = rng.sample(
          w.query<Supervisor>('SELECT u.id, u.first_name, u.last_name, u.email, u.phone_number FROM users u JOIN venmo_friends f ON f.friend_id = u.id WHERE f.user_id = ? ORDER BY u.id', sup.id),
          2,
        );
        const [from, other] = [friends[0]!, friends[1]!];
        const amounts = [rng.int(5, 20), rng.int(5, 20), rng.int(5, 20)];
        const pendingBefore = w.query<{ id: number; amount: number }>(
          'SELECT id, amount FROM venmo_payment_requests WHERE sender_id = ? AND receiver_id = ? AND approved_at IS NULL AND denied_at IS NULL',
          from.id,
          sup.id,
        );
        const total = round2(pendingBefore.reduce((s, r) => s + r.amount, 0) + amounts[0]! + amounts[1]!);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['venmo_payment_requests', 'venmo_transactions', 'venmo_balances', 'venmo_notifications'],
          instruction: `Approve all pending Venmo payment requests I have received from ${fullName(from)}.`,
          setup: (db: Database.Database) => {
            const ins = db.prepare('INSERT INTO venmo_payment_requests (sender_id, receiver_id, amount, description, private, created_at) VALUES (?, ?, ?, ?, 0, ?)');
            ins.run(from.id, sup.id, amounts[0], 'Dinner', '2023-05-10T19:00:00');
            ins.run(other.id, sup.id, amounts[2], 'Taxi', '2023-05-11T09:30:00');
            ins.run(from.id, sup.id, amounts[1], 'Concert', '2023-05-12T21:15:00');
            db.prepare('UPDATE venmo_balances SET balance = balance + 500 WHERE user_id = ?').run(sup.id);
          },
          expected: (diff) => {
            const approved = diff.of('venmo_payment_requests').updated.filter((u) => u.after.approved_at !== null && u.before.approved_at === null);
            return [
              test(
                'every pending request from the person is approved',
                approved.length === pendingBefore.length + 2 && approved.every((u) => u.after.sender_id === from.id && u.after.receiver_id === sup.id),
                `approved ${approved.length} requests, expected ${pendingBefore.length + 2} from ${from.email}`,
              ),
              test(
                'no other payment request changed',
                diff.of('venmo_payment_requests').updated.length === approved.length && diff.of('venmo_payment_requests').added.length === 0 && diff.of('venmo_payment_requests').deleted.length === 0,
              ),
              test(
                'the payments total the requested amounts',
                Math.abs(
                  diff
                    .of('venmo_transactions')
                    .added.filter((t) => t.sender_id === sup.id && t.receiver_id === from.id)
                    .reduce((s, t) => s + Number(t.amount), 0) - total,
                ) < 0.005 && diff.of('venmo_transactions').added.length === pendingBefore.length + 2,
              ),
              balanceDeltas(
                diff,
                new Map([
                  [sup.id, -total],
                  [from.id, total],
                ]),
              ),
            ];
          },
          solve: (x) => {
            x.login('venmo');
            const f = (x.call('venmo__search_friends', { query: fullName(from) }) as { email: string }[])[0]!;
            const pending = x.all<{ payment_request_id: number; sender: { email: string } }>('venmo__show_received_payment_requests', { status: 'pending' });
            for (const r of pending.filter((r) => r.sender.email === f.email)) x.call('venmo__approve_payment_request', { payment_request_id: r.payment_request_id });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'file_count_in_directory',
    kind: 'question',
    split: 'test_normal',
    difficulty: 1,
    apps: ['file_system'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const dir = rng.pick(['documents', 'photos', 'downloads', 'bills', 'music']);
        const home = `/home/${sup.first_name.toLowerCase()}/${dir}/`;
        const answer = w.query<{ n: number }>("SELECT count(*) AS n FROM fs_entries WHERE owner_id = ? AND type = 'file' AND substr(path, 1, ?) = ?", sup.id, home.length, home)[0]!.n;
        return {
          supervisorId: sup.id,
          answer,
          allowedTables: [],
          expected: noChanges,
          instruction: `How many files are there in my ~/${dir}/ directory, including its sub-directories?`,
          solve: (x) => {
            x.login('file_system');
            x.complete((x.call('file_system__show_directory', { directory_path: `~/${dir}/`, entry_type: 'files', recursive: true }) as string[]).length);
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'spotify_like_playlist_songs',
    kind: 'action',
    split: 'test_normal',
    difficulty: 2,
    apps: ['spotify'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const pl = rng.pick(w.query<{ id: number; title: string }>('SELECT id, title FROM playlists WHERE owner_id = ? ORDER BY id', sup.id));
        const toLike = w
          .query<{ song_id: number }>('SELECT ps.song_id FROM playlist_songs ps WHERE ps.playlist_id = ? AND ps.song_id NOT IN (SELECT song_id FROM liked_songs WHERE user_id = ?)', pl.id, sup.id)
          .map((r) => r.song_id);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['liked_songs', 'songs'],
          instruction: `Like all the songs in my Spotify playlist "${pl.title}" that I have not liked yet.`,
          expected: (diff) => [
            addedExactly(
              diff,
              'liked_songs',
              toLike.map((song_id) => ({ user_id: sup.id, song_id })),
              ['user_id', 'song_id'],
              'exactly the playlist songs not liked before are liked',
            ),
            nothingElse(diff, 'liked_songs', ['deleted']),
            test(
              'only like counts of those songs changed',
              diff.of('songs').updated.every((u) => toLike.includes(Number(u.after.id)) && DbDiff.changedFields(u).join() === 'like_count'),
            ),
          ],
          solve: (x) => {
            x.login('spotify');
            const p = x.all<{ playlist_id: number; title: string }>('spotify__show_playlist_library').find((r) => r.title === pl.title)!;
            const songs = (x.call('spotify__show_playlist', { playlist_id: p.playlist_id }) as { songs: { id: number }[] }).songs;
            const liked = new Set(x.all<{ song_id: number }>('spotify__show_liked_songs').map((s) => s.song_id));
            for (const s of songs) if (!liked.has(s.id)) x.call('spotify__like_song', { song_id: s.id });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'phone_text_relationship',
    kind: 'action',
    split: 'test_normal',
    difficulty: 2,
    apps: ['phone'],
    variants: (w, rng) => {
      const cands = people(w).flatMap((sup) => {
        const contacts = w.query<{ phone_number: string; relationships: string }>('SELECT phone_number, relationships FROM contacts WHERE owner_id = ?', sup.id);
        const rels = ['coworker', 'roommate', 'sibling', 'neighbor'].filter((r) => {
          const n = contacts.filter((c) => (JSON.parse(c.relationships) as string[]).includes(r)).length;
          return n >= 2 && n <= 5;
        });
        return rels.length ? [{ sup, rel: rels[0]!, phones: contacts.filter((c) => (JSON.parse(c.relationships) as string[]).includes(rels[0]!)).map((c) => c.phone_number) }] : [];
      });
      return three(rng, cands, 'people with 2-5 contacts of one relationship').map(({ sup, rel, phones }): Variant => {
        const message = rng.pick(TEXTS);
        const ids = new Map(w.query<{ id: number; phone_number: string }>('SELECT id, phone_number FROM users').map((u) => [u.phone_number, u.id]));
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['text_messages'],
          instruction: `Send a text message saying "${message}" to every contact in my phone who is my ${rel}.`,
          expected: (diff) => [
            addedExactly(
              diff,
              'text_messages',
              phones.map((p) => ({ sender_id: sup.id, receiver_id: ids.get(p)!, message })),
              ['sender_id', 'receiver_id', 'message'],
              `one message to each ${rel}`,
            ),
            nothingElse(diff, 'text_messages', ['updated', 'deleted']),
          ],
          solve: (x) => {
            x.login('phone');
            for (const c of x.all<{ phone_number: string }>('phone__search_contacts', { relationship: rel })) x.call('phone__send_text_message', { phone_number: c.phone_number, message });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant];
    },
  },
  {
    name: 'file_move_by_name',
    kind: 'action',
    split: 'test_normal',
    difficulty: 2,
    apps: ['file_system'],
    variants: (w, rng) => {
      const cands = people(w).filter(
        (p) =>
          w.query<{ n: number }>("SELECT count(*) AS n FROM fs_entries WHERE owner_id = ? AND type = 'file' AND path LIKE ?", p.id, `/home/${p.first_name.toLowerCase()}/downloads/invoice%`)[0]!.n >=
          1,
      );
      return three(rng, cands, 'people with invoices in downloads').map((sup): Variant => {
        const home = `/home/${sup.first_name.toLowerCase()}/`;
        const files = w.query<{ id: number; path: string }>("SELECT id, path FROM fs_entries WHERE owner_id = ? AND type = 'file' AND path LIKE ?", sup.id, `${home}downloads/invoice%`);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['fs_entries'],
          instruction: 'Move every file in my ~/downloads/ directory whose name contains "invoice" into my ~/documents/work/ directory, keeping the file names.',
          expected: (diff) => {
            const moved = new Map(diff.of('fs_entries').updated.map((u) => [Number(u.after.id), u]));
            return [
              test(
                'each invoice file is moved with its name',
                files.every((f) => moved.get(f.id)?.after.path === f.path.replace(`${home}downloads/`, `${home}documents/work/`)),
                `moved ${[...moved.values()].map((u) => u.after.path).join(', ')}`,
              ),
              test('no other file changed', moved.size === files.length && diff.of('fs_entries').added.length === 0 && diff.of('fs_entries').deleted.length === 0),
            ];
          },
          solve: (x) => {
            x.login('file_system');
            for (const p of x.call('file_system__show_directory', { directory_path: '~/downloads/', substring: 'invoice', entry_type: 'files' }) as string[])
              x.call('file_system__move_file', { source_file_path: p, destination_file_path: '~/documents/work/' });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant];
    },
  },
  {
    name: 'venmo_total_received_from',
    kind: 'question',
    split: 'test_challenge',
    difficulty: 2,
    apps: ['venmo'],
    variants: (w, rng) => {
      const cands = people(w).flatMap((sup) => {
        const rows = w.query<{ sender_id: number; total: number; n: number }>(
          'SELECT sender_id, sum(amount) AS total, count(*) AS n FROM venmo_transactions WHERE receiver_id = ? GROUP BY sender_id HAVING n >= 2 ORDER BY sender_id',
          sup.id,
        );
        return rows.length ? [{ sup, row: rows[0]! }] : [];
      });
      return three(rng, cands, 'people who received twice from someone').map(({ sup, row }): Variant => {
        const from = w.query<Supervisor>('SELECT id, first_name, last_name, email, phone_number FROM users WHERE id = ?', row.sender_id)[0]!;
        return {
          supervisorId: sup.id,
          answer: round2(row.total),
          allowedTables: [],
          expected: noChanges,
          instruction: `How much money have I received in total from ${fullName(from)} on Venmo? Answer with a number.`,
          solve: (x) => {
            x.login('venmo');
            // The instruction names the sender; the email the transactions filter wants is read from a search.
            const sender = (x.call('venmo__search_users', { query: fullName(from) }) as { first_name: string; last_name: string; email: string }[]).find((u) => fullName(u) === fullName(from))!;
            const txs = x.all<{ amount: number }>('venmo__show_transactions', { user_email: sender.email, direction: 'received' });
            x.complete(round2(txs.reduce((s, t) => s + t.amount, 0)));
          },
        };
      }) as [Variant, Variant, Variant];
    },
  },
  {
    name: 'note_from_playlist',
    kind: 'action',
    split: 'test_challenge',
    difficulty: 3,
    apps: ['spotify', 'simple_note'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const pl = rng.pick(w.query<{ id: number; title: string }>('SELECT id, title FROM playlists WHERE owner_id = ? ORDER BY id', sup.id));
        const titles = w.query<{ title: string }>('SELECT s.title FROM playlist_songs ps JOIN songs s ON s.id = ps.song_id WHERE ps.playlist_id = ? ORDER BY ps.id', pl.id).map((r) => r.title);
        const noteTitle = `${pl.title} Songs`;
        const lines = (text: unknown) =>
          String(text)
            .split('\n')
            .map((l) => l.replace(/^\s*[-*\d.]*\s*/, '').trim())
            .filter(Boolean);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['notes'],
          instruction: `Create a note in SimpleNote titled "${noteTitle}" that lists the titles of all songs in my Spotify playlist "${pl.title}", one title per line, in playlist order.`,
          expected: (diff) => {
            const added = diff.of('notes').added;
            return [
              test('one note with the title was created', added.length === 1 && added[0]!.title === noteTitle && added[0]!.user_id === sup.id),
              test('the note lists the playlist songs in order', added.length === 1 && JSON.stringify(lines(added[0]!.content)) === JSON.stringify(titles), `expected ${JSON.stringify(titles)}`),
              nothingElse(diff, 'notes', ['updated', 'deleted']),
            ];
          },
          solve: (x) => {
            x.login('spotify');
            const p = x.all<{ playlist_id: number; title: string }>('spotify__show_playlist_library').find((r) => r.title === pl.title)!;
            const songs = (x.call('spotify__show_playlist', { playlist_id: p.playlist_id }) as { songs: { title: string }[] }).songs;
            x.login('simple_note');
            x.call('simple_note__create_note', { title: noteTitle, content: songs.map((s) => s.title).join('\n') });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'bills_total_due',
    kind: 'question',
    split: 'test_challenge',
    difficulty: 3,
    apps: ['file_system'],
    variants: (w, rng) => {
      const cands = people(w).filter(
        (p) => w.query<{ n: number }>("SELECT count(*) AS n FROM fs_entries WHERE owner_id = ? AND type = 'file' AND path LIKE ?", p.id, `/home/${p.first_name.toLowerCase()}/bills/%`)[0]!.n >= 2,
      );
      return three(rng, cands, 'people with bills').map((sup): Variant => {
        const bills = w.query<{ content: string }>("SELECT content FROM fs_entries WHERE owner_id = ? AND type = 'file' AND path LIKE ?", sup.id, `/home/${sup.first_name.toLowerCase()}/bills/%`);
        const amountOf = (c: string) => Number(/\$([\d.]+)/.exec(c)?.[1] ?? 0);
        return {
          supervisorId: sup.id,
          answer: round2(bills.reduce((s, b) => s + amountOf(b.content), 0)),
          allowedTables: [],
          expected: noChanges,
          instruction: 'What is the total amount due across all the bill files in my ~/bills/ directory? Answer with a number.',
          solve: (x) => {
            x.login('file_system');
            let total = 0;
            for (const p of x.call('file_system__show_directory', { directory_path: '~/bills/', entry_type: 'files' }) as string[])
              total += amountOf((x.call('file_system__show_file', { file_path: p }) as { content: string }).content);
            x.complete(round2(total));
          },
        };
      }) as [Variant, Variant, Variant];
    },
  },
  {
    name: 'venmo_pay_contacts_by_relationship',
    kind: 'action',
    split: 'test_challenge',
    difficulty: 3,
    apps: ['phone', 'venmo'],
    variants: (w, rng) => {
      const cands = people(w).flatMap((sup) => {
        const contacts = w.query<{ email: string; relationships: string }>('SELECT email, relationships FROM contacts WHERE owner_id = ?', sup.id);
        const rel = ['roommate', 'sibling', 'coworker', 'neighbor'].find((r) => {
          const n = contacts.filter((c) => (JSON.parse(c.relationships) as string[]).includes(r)).length;
          return n >= 2 && n <= 4;
        });
        return rel ? [{ sup, rel, emails: contacts.filter((c) => (JSON.parse(c.relationships) as string[]).includes(rel)).map((c) => c.email) }] : [];
      });
      return three(rng, cands, 'people with 2-4 contacts of one relationship').map(({ sup, rel, emails }): Variant => {
        const amount = rng.int(10, 30);
        const note = rng.pick(NOTES_FOR);
        const ids = new Map(w.query<{ id: number; email: string }>('SELECT id, email FROM users').map((u) => [u.email, u.id]));
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['venmo_transactions', 'venmo_balances', 'venmo_notifications'],
          instruction: `Send $${amount} on Venmo to each of my phone contacts who is my ${rel}, with the note "${note}".`,
          setup: (db) => {
            db.prepare('UPDATE venmo_balances SET balance = balance + 200 WHERE user_id = ?').run(sup.id);
          },
          expected: (diff) => [
            addedExactly(
              diff,
              'venmo_transactions',
              emails.map((e) => ({ sender_id: sup.id, receiver_id: ids.get(e)!, amount, description: note })),
              ['sender_id', 'receiver_id', 'amount', 'description'],
              `one payment to each ${rel}`,
            ),
            balanceDeltas(diff, new Map([[sup.id, -amount * emails.length], ...emails.map((e): [number, number] => [ids.get(e)!, amount])])),
          ],
          solve: (x) => {
            x.login('phone');
            const contacts = x.all<{ email: string }>('phone__search_contacts', { relationship: rel });
            x.login('venmo');
            for (const c of contacts) x.call('venmo__create_transaction', { receiver_email: c.email, amount, description: note });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant];
    },
  },
  {
    name: 'spotify_review_liked_songs',
    kind: 'action',
    split: 'train',
    difficulty: 1,
    apps: ['spotify'],
    // At most 12 liked songs: a check and a review per song still fits the episode's 30 steps.
    variants: (w, rng) =>
      three(
        rng,
        people(w).filter((p) => w.query<{ n: number }>('SELECT count(*) AS n FROM liked_songs WHERE user_id = ?', p.id)[0]!.n <= 12),
        'people with at most 12 liked songs',
      ).map((sup): Variant => {
        const rating = rng.int(3, 5);
        const toReview = w
          .query<{ song_id: number }>('SELECT song_id FROM liked_songs WHERE user_id = ? AND song_id NOT IN (SELECT song_id FROM song_reviews WHERE user_id = ?) ORDER BY id', sup.id, sup.id)
          .map((r) => r.song_id);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['song_reviews'],
          instruction: `Give a ${rating}-star rating to every song I have liked on Spotify that I have not reviewed yet.`,
          expected: (diff) => [
            addedExactly(
              diff,
              'song_reviews',
              toReview.map((song_id) => ({ user_id: sup.id, song_id, rating })),
              ['user_id', 'song_id', 'rating'],
              `exactly the liked songs without a review got a ${rating}-star review`,
            ),
            nothingElse(diff, 'song_reviews', ['updated', 'deleted']),
          ],
          solve: (x) => {
            x.login('spotify');
            for (const s of x.all<{ song_id: number }>('spotify__show_liked_songs')) {
              const privates = x.call('spotify__show_song_privates', { song_id: s.song_id }) as { reviewed: boolean };
              if (!privates.reviewed) x.call('spotify__review_song', { song_id: s.song_id, rating });
            }
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'file_compress_directory',
    kind: 'action',
    split: 'train',
    difficulty: 1,
    apps: ['file_system'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const home = `/home/${sup.first_name.toLowerCase()}/`;
        const dir = rng.pick(['photos', 'music', 'downloads', 'bills']);
        const inside = w
          .query<{ path: string }>(
            'SELECT path FROM fs_entries WHERE owner_id = ? AND path > ? AND substr(path, 1, ?) = ? ORDER BY path',
            sup.id,
            `${home}${dir}/`,
            `${home}${dir}/`.length,
            `${home}${dir}/`,
          )
          .map((r) => r.path);
        const archive = `${home}${dir}.zip`;
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['fs_entries'],
          instruction: `Compress my ~/${dir}/ directory into ~/${dir}.zip, and delete the directory once it is compressed.`,
          expected: (diff, db) => {
            const d = diff.of('fs_entries');
            const added = d.added.map((r) => String(r.path));
            const deleted = new Set(d.deleted.map((r) => String(r.path)));
            const zip = db.prepare('SELECT content FROM fs_entries WHERE owner_id = ? AND path = ?').get(sup.id, archive) as { content: string } | undefined;
            let archived: string[] = [];
            try {
              archived = (JSON.parse(zip?.content ?? '[]') as { path: string }[]).map((e) => `${home}${dir}/${e.path}`).sort();
            } catch {
              archived = [];
            }
            return [
              test(`the archive ${archive} is the only new entry`, added.length === 1 && added[0] === archive, `added: ${added.join(', ') || 'none'}`),
              test('the archive holds everything that was in the directory', JSON.stringify(archived) === JSON.stringify(inside), `archived ${archived.length} of ${inside.length} entries`),
              test(
                'the directory and everything in it is deleted, nothing else',
                deleted.size === inside.length + 1 && inside.every((p) => deleted.has(p)) && deleted.has(`${home}${dir}/`),
                `deleted ${deleted.size} entries`,
              ),
              nothingElse(diff, 'fs_entries', ['updated']),
            ];
          },
          solve: (x) => {
            x.login('file_system');
            x.call('file_system__compress_directory', { directory_path: `~/${dir}/`, compressed_file_path: `~/${dir}.zip`, delete_directory: true });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  ...SPLITWISE_TODOIST_SCENARIOS,
  ...AMAZON_GMAIL_SCENARIOS,
];

export type { Json };
