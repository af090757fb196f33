// Scenario templates over amazon and gmail (and, for the challenge, phone and file_system too):
// ground truth from the seeded database (SQL, not the APIs under test), tests over the episode's
// diff, experts over the same tool runner the agent uses.
import type { AppWorldTemplate } from '../../engine/world.js';
import { addedExactly, fullName, noChanges, nothingElse, people, round2, test, three } from './checks.js';
import type { DbDiff, Row } from './diff.js';
import type { Scenario, Supervisor, TestResult, Variant } from './types.js';

type Thread = { email_thread_id: number };
type ThreadEmails = { emails: { email_id: number; sender: { email: string }; created_at: string }[] };

/** Exactly these rows of `table` were deleted, and none added. */
function deletedExactly(diff: DbDiff, table: Parameters<DbDiff['of']>[0], ids: readonly number[], name: string): TestResult {
  const got = diff
    .of(table)
    .deleted.map((r) => Number(r.id))
    .sort((a, b) => a - b);
  const want = [...ids].sort((a, b) => a - b);
  return test(
    name,
    JSON.stringify(got) === JSON.stringify(want) && diff.of(table).added.length === 0,
    `expected rows ${want.join(', ')} deleted; got ${got.join(', ') || 'none'} deleted and ${diff.of(table).added.length} added`,
  );
}

/** gmail: the people who sent `userId` an email, with their threads (per thread: archived, spam, read). */
function sendersTo(w: AppWorldTemplate, userId: number) {
  return w.query<{ sender_id: number; thread_id: number; email_id: number; message: number; created_at: string; archived: number; spam: number; read: number; conversation: number }>(
    'SELECT e.sender_id, e.thread_id, e.id AS email_id, e.message, e.created_at, t.archived, t.spam, t.read, t.conversation FROM gmail_emails e JOIN gmail_threads t ON t.id = e.thread_id WHERE t.user_id = ? AND e.sender_id != ? ORDER BY e.created_at, e.id',
    userId,
    userId,
  );
}
const personById = (w: AppWorldTemplate, id: number) => w.query<Supervisor>('SELECT id, first_name, last_name, email, phone_number FROM users WHERE id = ?', id)[0]!;

const REPLIES = ['Thanks, sounds good!', 'Got it, thank you.', 'See you then!', 'Thanks for letting me know.'] as const;

export const AMAZON_GMAIL_SCENARIOS: readonly Scenario[] = [
  {
    name: 'amazon_spent_in_year',
    kind: 'question',
    split: 'train',
    difficulty: 1,
    apps: ['amazon'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const year = rng.pick(['2022', '2023']);
        const answer = round2(w.query<{ s: number | null }>('SELECT sum(paid_amount) AS s FROM amazon_orders WHERE user_id = ? AND substr(created_at, 1, 4) = ?', sup.id, year)[0]!.s ?? 0);
        return {
          supervisorId: sup.id,
          answer,
          allowedTables: [],
          expected: noChanges,
          instruction: `How much money have I spent in total on the Amazon orders I placed in ${year}?`,
          solve: (x) => {
            x.login('amazon');
            const orders = x.all<{ created_at: string; paid_amount: number }>('amazon__show_orders');
            x.complete(round2(orders.filter((o) => o.created_at.startsWith(year)).reduce((s, o) => s + o.paid_amount, 0)));
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'gmail_unread_threads_from',
    kind: 'question',
    split: 'train',
    difficulty: 1,
    apps: ['gmail'],
    variants: (w, rng) =>
      three(
        rng,
        people(w).filter((p) => sendersTo(w, p.id).length > 0),
        'people with mail',
      ).map((sup): Variant => {
        const received = sendersTo(w, sup.id);
        const unreadBy = (id: number) => new Set(received.filter((r) => r.sender_id === id && r.read === 0 && r.archived === 0 && r.spam === 0).map((r) => r.thread_id)).size;
        const senders = [...new Set(received.map((r) => r.sender_id))];
        const withUnread = senders.filter((id) => unreadBy(id) > 0);
        const friend = personById(w, rng.pick(withUnread.length ? withUnread : senders));
        return {
          supervisorId: sup.id,
          answer: unreadBy(friend.id),
          allowedTables: [],
          expected: noChanges,
          instruction: `How many unread email threads from ${fullName(friend)} are in my Gmail inbox?`,
          solve: (x) => {
            x.login('gmail');
            const found = (x.call('gmail__search_users', { query: fullName(friend) }) as { first_name: string; last_name: string; email: string }[]).find((u) => fullName(u) === fullName(friend))!;
            x.complete(x.all('gmail__show_inbox_threads', { from_email: found.email, read: false }).length);
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'gmail_reply_latest_and_star',
    kind: 'action',
    split: 'dev',
    difficulty: 2,
    apps: ['gmail'],
    variants: (w, rng) => {
      // Friends whose every thread with the supervisor is in the inbox (not archived, not spam),
      // so "the most recent email they sent me" is visible there and unambiguous.
      const eligible = (p: Supervisor) => {
        const received = sendersTo(w, p.id);
        return [...new Set(received.map((r) => r.sender_id))].filter((id) => {
          const mine = received.filter((r) => r.sender_id === id);
          return mine.every((r) => r.archived === 0 && r.spam === 0) && mine.filter((r) => r.created_at === mine.at(-1)!.created_at).length === 1;
        });
      };
      return three(
        rng,
        people(w).filter((p) => eligible(p).length > 0),
        'people with a replyable email',
      ).map((sup): Variant => {
        const friend = personById(w, rng.pick(eligible(sup)));
        const latest = sendersTo(w, sup.id)
          .filter((r) => r.sender_id === friend.id)
          .at(-1)!;
        // The friend's own thread of that conversation and their copy of the email.
        const theirs = w.query<{ thread_id: number; email_id: number }>(
          'SELECT t.id AS thread_id, e.id AS email_id FROM gmail_threads t JOIN gmail_emails e ON e.thread_id = t.id WHERE t.user_id = ? AND t.conversation = ? AND e.message = ?',
          friend.id,
          latest.conversation,
          latest.message,
        )[0]!;
        const text = rng.pick(REPLIES);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['gmail_emails', 'gmail_threads'],
          instruction: `Reply "${text}" to the most recent email ${fullName(friend)} sent me on Gmail, and star that email thread.`,
          expected: (diff, db) => {
            const starred = diff
              .of('gmail_threads')
              .updated.filter((u) => Number(u.after.user_id) === sup.id && u.after.starred !== u.before.starred)
              .map((u) => Number(u.after.id));
            return [
              addedExactly(
                diff,
                'gmail_emails',
                [
                  { thread_id: latest.thread_id, sender_id: sup.id, body: text, response_to_email_id: latest.email_id },
                  { thread_id: theirs.thread_id, sender_id: sup.id, body: text, response_to_email_id: theirs.email_id },
                ],
                ['thread_id', 'sender_id', 'body', 'response_to_email_id'],
                'one reply to that email, in both mailboxes',
              ),
              test(
                'that thread, and only it, is starred',
                JSON.stringify(starred) === JSON.stringify([latest.thread_id]) &&
                  (db.prepare('SELECT starred FROM gmail_threads WHERE id = ?').get(latest.thread_id) as { starred: number } | undefined)?.starred === 1,
                `starred changed on ${starred.join(', ') || 'no thread'}`,
              ),
              nothingElse(diff, 'gmail_emails', ['deleted']),
              nothingElse(diff, 'gmail_threads', ['added', 'deleted']),
            ];
          },
          solve: (x) => {
            x.login('gmail');
            const found = (x.call('gmail__search_users', { query: fullName(friend) }) as { first_name: string; last_name: string; email: string }[]).find((u) => fullName(u) === fullName(friend))!;
            let best: { thread: number; email: number; at: string } | null = null;
            for (const t of x.all<Thread>('gmail__show_inbox_threads', { from_email: found.email })) {
              for (const e of (x.call('gmail__show_thread', { email_thread_id: t.email_thread_id }) as ThreadEmails).emails) {
                if (e.sender.email === found.email && (best === null || e.created_at > best.at)) best = { thread: t.email_thread_id, email: e.email_id, at: e.created_at };
              }
            }
            x.call('gmail__reply_to_email', { email_thread_id: best!.thread, email_id: best!.email, body: text });
            x.call('gmail__mark_thread_starred', { email_thread_id: best!.thread });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant];
    },
  },
  {
    name: 'amazon_buy_wish_list',
    kind: 'action',
    split: 'test_normal',
    difficulty: 2,
    apps: ['amazon'],
    // Supervisors with two cards, so which card pays is part of the task.
    variants: (w, rng) =>
      three(
        rng,
        people(w).filter((p) => w.query('SELECT id FROM amazon_payment_cards WHERE user_id = ?', p.id).length >= 2),
        'people with two cards',
      ).map((sup): Variant => {
        const wish = w.query<{ id: number; product_id: number; quantity: number }>('SELECT id, product_id, quantity FROM amazon_wish_list_items WHERE user_id = ? ORDER BY id', sup.id);
        const card = rng.pick(w.query<{ id: number; card_name: string }>('SELECT id, card_name FROM amazon_payment_cards WHERE user_id = ? ORDER BY id', sup.id));
        const home = w.query<{ id: number }>("SELECT id FROM amazon_addresses WHERE user_id = ? AND name = 'Home'", sup.id)[0]!;
        const cart = w.query<{ id: number }>('SELECT id FROM amazon_cart_items WHERE user_id = ?', sup.id).map((r) => r.id);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['amazon_orders', 'amazon_order_items', 'amazon_cart_items', 'amazon_wish_list_items', 'amazon_products', 'amazon_carts'],
          instruction: `Empty my Amazon cart, then buy everything on my wish list in the quantities listed there, paying with my ${card.card_name} card and shipping to my Home address.`,
          // Every wished product is in stock for the order (the catalogue's stock is random).
          setup: (db) => {
            for (const it of wish) db.prepare('UPDATE amazon_products SET inventory_quantity = max(inventory_quantity, ?) WHERE id = ?').run(it.quantity + 2, it.product_id);
          },
          expected: (diff, db) => {
            const order = diff.of('amazon_orders').added[0] as Row | undefined;
            const stock = diff
              .of('amazon_products')
              .updated.map((u) => [Number(u.after.id), Number(u.before.inventory_quantity) - Number(u.after.inventory_quantity)])
              .sort((a, b) => a[0]! - b[0]!);
            const wantStock = wish.map((it) => [it.product_id, it.quantity]).sort((a, b) => a[0]! - b[0]!);
            return [
              addedExactly(
                diff,
                'amazon_orders',
                [{ user_id: sup.id, payment_card_id: card.id, address_id: home.id }],
                ['user_id', 'payment_card_id', 'address_id'],
                `one order, paid with the ${card.card_name} card and shipped home`,
              ),
              addedExactly(
                diff,
                'amazon_order_items',
                wish.map((it) => ({ order_id: order?.id ?? null, product_id: it.product_id, ordered_quantity: it.quantity })),
                ['order_id', 'product_id', 'ordered_quantity'],
                'the order holds exactly the wish list, in its quantities',
              ),
              deletedExactly(
                diff,
                'amazon_wish_list_items',
                wish.map((it) => it.id),
                'the wish list is emptied',
              ),
              test(
                'the cart is empty, its earlier items not bought',
                (db.prepare('SELECT count(*) AS n FROM amazon_cart_items WHERE user_id = ?').get(sup.id) as { n: number }).n === 0 &&
                  diff.of('amazon_cart_items').deleted.filter((r) => cart.includes(Number(r.id))).length === cart.length,
                'cart items remain or earlier items were not removed',
              ),
              test('stock went down by exactly the units bought', JSON.stringify(stock) === JSON.stringify(wantStock), `stock changes ${JSON.stringify(stock)}, expected ${JSON.stringify(wantStock)}`),
            ];
          },
          solve: (x) => {
            x.login('amazon');
            x.call('amazon__clear_cart');
            for (const it of x.call('amazon__show_wish_list') as { product_id: number; quantity: number }[])
              x.call('amazon__move_product_from_wish_list_to_cart', { product_id: it.product_id, quantity: it.quantity });
            const cardId = (x.call('amazon__show_payment_cards') as { payment_card_id: number; card_name: string }[]).find((c) => c.card_name === card.card_name)!.payment_card_id;
            const addressId = (x.call('amazon__show_addresses') as { address_id: number; name: string }[]).find((a) => a.name === 'Home')!.address_id;
            x.call('amazon__place_order', { payment_card_id: cardId, address_id: addressId });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'amazon_email_order_receipt',
    kind: 'action',
    split: 'test_challenge',
    difficulty: 3,
    apps: ['phone', 'amazon', 'file_system', 'gmail'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const contact = rng.pick(
          w.query<{ first_name: string; last_name: string; email: string; relationships: string }>(
            'SELECT first_name, last_name, email, relationships FROM contacts WHERE owner_id = ? ORDER BY id',
            sup.id,
          ),
        );
        const rel = (JSON.parse(contact.relationships) as string[])[0]!;
        const latest = w.query<{ id: number }>('SELECT id FROM amazon_orders WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 1', sup.id)[0]!;
        const subject = 'Amazon order receipt';
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['gmail_threads', 'gmail_emails', 'gmail_attachments', 'fs_entries'],
          instruction: `Email the receipt of my most recent Amazon order to my ${rel} ${fullName(contact)} as an attachment, with the subject "${subject}".`,
          expected: (diff) => {
            const emails = diff.of('gmail_emails').added;
            const attachments = diff.of('gmail_attachments').added;
            return [
              addedExactly(
                diff,
                'gmail_emails',
                [0, 1].map(() => ({ sender_id: sup.id, subject, recipients: JSON.stringify([contact.email]) })),
                ['sender_id', 'subject', 'recipients'],
                `one email to ${contact.email} with the subject, in both mailboxes`,
              ),
              test(
                'each copy carries the receipt of that order as its one attachment',
                attachments.length === emails.length && emails.every((e) => attachments.filter((a) => a.email_id === e.id && String(a.content).includes(`Order ID: ${latest.id}\n`)).length === 1),
                `${attachments.length} attachments for ${emails.length} emails`,
              ),
              nothingElse(diff, 'fs_entries', ['updated', 'deleted']),
            ];
          },
          solve: (x) => {
            x.login('phone');
            const c = (x.call('phone__search_contacts', { query: fullName(contact) }) as { first_name: string; last_name: string; email: string }[]).find((r) => fullName(r) === fullName(contact))!;
            x.login('amazon');
            const order = (x.call('amazon__show_orders', { page_limit: 1 }) as { order_id: number }[])[0]!;
            // The receipt is written to the file system: its login's token goes with the call (the runner adds it).
            x.login('file_system');
            const receipt = x.call('amazon__download_order_receipt', { order_id: order.order_id }) as { file_path: string };
            x.login('gmail');
            x.call('gmail__send_email', {
              email_addresses: [c.email],
              subject,
              body: 'Here is the receipt of my latest Amazon order.',
              attachment_file_paths: [receipt.file_path],
            });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'amazon_wish_list_total',
    kind: 'question',
    split: 'train',
    difficulty: 1,
    apps: ['amazon'],
    variants: (w, rng) =>
      three(rng, people(w), 'people').map((sup): Variant => {
        const answer = round2(
          w.query<{ s: number }>('SELECT sum(p.price * w.quantity) AS s FROM amazon_wish_list_items w JOIN amazon_products p ON p.id = w.product_id WHERE w.user_id = ?', sup.id)[0]!.s,
        );
        return {
          supervisorId: sup.id,
          answer,
          allowedTables: [],
          expected: noChanges,
          instruction: 'What would it cost to buy everything on my Amazon wish list in the quantities listed, before tax and fees?',
          solve: (x) => {
            x.login('amazon');
            x.complete(round2((x.call('amazon__show_wish_list') as { price: number; quantity: number }[]).reduce((t, it) => t + it.price * it.quantity, 0)));
          },
        };
      }) as [Variant, Variant, Variant],
  },
  {
    name: 'gmail_archive_threads_from',
    kind: 'action',
    split: 'dev',
    difficulty: 2,
    apps: ['gmail'],
    variants: (w, rng) => {
      const inboxFrom = (supId: number, senderId: number) =>
        [
          ...new Set(
            sendersTo(w, supId)
              .filter((r) => r.sender_id === senderId && r.archived === 0 && r.spam === 0)
              .map((r) => r.thread_id),
          ),
        ].sort((a, b) => a - b);
      const candidates = people(w).filter((p) => sendersTo(w, p.id).some((r) => r.archived === 0 && r.spam === 0));
      return three(rng, candidates, 'people with inbox mail').map((sup): Variant => {
        const senders = [
          ...new Set(
            sendersTo(w, sup.id)
              .filter((r) => r.archived === 0 && r.spam === 0)
              .map((r) => r.sender_id),
          ),
        ].sort((a, b) => a - b);
        const friend = personById(w, rng.pick(senders));
        const threads = inboxFrom(sup.id, friend.id);
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['gmail_threads'],
          instruction: `Archive every email thread in my Gmail inbox that has an email from ${fullName(friend)}.`,
          expected: (diff) => {
            const updated = diff.of('gmail_threads').updated;
            const archived = updated
              .filter((u) => u.before.archived === 0 && u.after.archived === 1)
              .map((u) => Number(u.after.id))
              .sort((a, b) => a - b);
            const other = updated.filter((u) => Object.keys(u.after).some((k) => k !== 'archived' && u.after[k] !== u.before[k]));
            return [
              test(
                'exactly those threads are archived',
                JSON.stringify(archived) === JSON.stringify(threads) && archived.length === updated.length,
                `archived ${archived.join(', ') || 'none'}, expected ${threads.join(', ')}`,
              ),
              test('nothing else about any thread changed', other.length === 0, `${other.length} threads changed otherwise`),
              nothingElse(diff, 'gmail_threads', ['added', 'deleted']),
            ];
          },
          solve: (x) => {
            x.login('gmail');
            const found = (x.call('gmail__search_users', { query: fullName(friend) }) as { first_name: string; last_name: string; email: string }[]).find((u) => fullName(u) === fullName(friend))!;
            for (const t of x.all<Thread>('gmail__show_inbox_threads', { from_email: found.email })) x.call('gmail__mark_thread_archived', { email_thread_id: t.email_thread_id });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant];
    },
  },
  {
    name: 'amazon_return_from_order',
    kind: 'action',
    split: 'test_normal',
    difficulty: 2,
    apps: ['amazon'],
    variants: (w, rng) => {
      // A delivered, not yet returned item of the only order placed that day, its name unique in the order.
      const returnable = (userId: number) =>
        w.query<{ order_id: number; product_id: number; name: string; day: string }>(
          `SELECT i.order_id, i.product_id, p.name, substr(o.created_at, 1, 10) AS day FROM amazon_order_items i JOIN amazon_orders o ON o.id = i.order_id JOIN amazon_products p ON p.id = i.product_id
         WHERE o.user_id = ? AND i.delivered_at IS NOT NULL AND i.returned_quantity < i.ordered_quantity
           AND (SELECT count(*) FROM amazon_orders o2 WHERE o2.user_id = o.user_id AND substr(o2.created_at, 1, 10) = substr(o.created_at, 1, 10)) = 1
           AND (SELECT count(*) FROM amazon_order_items i2 JOIN amazon_products p2 ON p2.id = i2.product_id WHERE i2.order_id = i.order_id AND p2.name = p.name) = 1
         ORDER BY i.id`,
          userId,
        );
      return three(
        rng,
        people(w).filter((p) => returnable(p.id).length > 0),
        'people with returnable items',
      ).map((sup): Variant => {
        const item = rng.pick(returnable(sup.id));
        const deliverer = rng.pick(w.query<{ id: number; name: string }>('SELECT id, name FROM amazon_deliverers ORDER BY id'));
        const orderItem = w.query<{ id: number }>('SELECT id FROM amazon_order_items WHERE order_id = ? AND product_id = ?', item.order_id, item.product_id)[0]!;
        return {
          supervisorId: sup.id,
          answer: null,
          allowedTables: ['amazon_returns', 'amazon_order_items'],
          instruction: `Return one ${item.name} from the Amazon order I placed on ${item.day}, to be picked up by ${deliverer.name}.`,
          expected: (diff) => [
            addedExactly(
              diff,
              'amazon_returns',
              [{ user_id: sup.id, order_id: item.order_id, product_id: item.product_id, quantity: 1, deliverer_id: deliverer.id }],
              ['user_id', 'order_id', 'product_id', 'quantity', 'deliverer_id'],
              `one return of that item, one unit, with ${deliverer.name}`,
            ),
            test(
              'only that order line counts the returned unit',
              JSON.stringify(diff.of('amazon_order_items').updated.map((u) => [Number(u.after.id), Number(u.after.returned_quantity) - Number(u.before.returned_quantity)])) ===
                JSON.stringify([[orderItem.id, 1]]),
              'other order lines changed, or not by one unit',
            ),
          ],
          solve: (x) => {
            x.login('amazon');
            const order = x.all<{ order_id: number; created_at: string; order_items: { product_id: number }[] }>('amazon__show_orders').find((o) => o.created_at.startsWith(item.day))!;
            const productId = order.order_items.map((i) => i.product_id).find((id) => (x.call('amazon__show_product', { product_id: id }) as { name: string }).name === item.name)!;
            const delivererId = (x.call('amazon__show_return_deliverers') as { deliverer_id: number; name: string }[]).find((d) => d.name === deliverer.name)!.deliverer_id;
            x.call('amazon__initiate_return', { order_id: order.order_id, product_id: productId, deliverer_id: delivererId, quantity: 1 });
            x.complete();
          },
        };
      }) as [Variant, Variant, Variant];
    },
  },
];
