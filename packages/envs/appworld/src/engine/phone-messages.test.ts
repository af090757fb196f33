// phone's two message kinds (text, voice): send, search, the time window of one conversation, delete.
import { describe, expect, it } from 'vitest';
import type { CallResult } from './types.js';
import { sharedTemplate } from './world.js';

const world = sharedTemplate();
type Person = { id: number; phone_number: string };
const [me, friend] = world.query<Person>('SELECT id, phone_number FROM users WHERE id IN (8, 9) ORDER BY id') as [Person, Person];

describe('phone messages', () => {
  for (const kind of ['text', 'voice'] as const) {
    it(`${kind}: send, window in both orders and bounds, only_latest_per_contact, delete`, () => {
      const s = world.open({ supervisorId: me.id });
      const pw = world.query<{ password: string }>("SELECT password FROM accounts WHERE user_id = ? AND app = 'phone'", me.id)[0]!.password;
      const t = (s.callTool('phone__login', { username: me.phone_number, password: pw }).body as { access_token: string }).access_token;
      const call = (api: string, args: object = {}): CallResult => s.callTool(`phone__${api}`, { ...args, access_token: t });
      const idKey = `${kind}_message_id`;
      const sent = call(`send_${kind}_message`, { phone_number: friend.phone_number, message: 'see you at noon' });
      expect(sent.body).toMatchObject({ message: `${kind === 'text' ? 'Text' : 'Voice'} message sent.` });
      const id = (sent.body as Record<string, number>)[idKey]!;
      const desc = call(`show_${kind}_message_window`, { phone_number: friend.phone_number, page_limit: 20 }).body as { sent_at: string }[];
      const asc = call(`show_${kind}_message_window`, { phone_number: friend.phone_number, pagination_order: 'ascending', page_limit: 20 }).body as { sent_at: string }[];
      expect(desc[0]).toMatchObject({ [idKey]: id, message: 'see you at noon', sent_at: s.now });
      expect(desc.map((m) => m.sent_at)).toEqual([...desc.map((m) => m.sent_at)].sort().reverse());
      expect(asc.map((m) => m.sent_at)).toEqual([...asc.map((m) => m.sent_at)].sort());
      expect(call(`show_${kind}_message_window`, { phone_number: friend.phone_number, max_datetime: '1999-01-01T00:00:00' }).body).toEqual([]);
      expect(call(`show_${kind}_message_window`, { phone_number: friend.phone_number, pagination_order: 'sideways' }).status).toBe(422);
      // One message per conversation: the (sender, receiver) pair, unordered, never repeats.
      const latest = call(`search_${kind}_messages`, { only_latest_per_contact: true, page_limit: 20 }).body as { sender: unknown; receiver: unknown }[];
      const all = call(`search_${kind}_messages`, { page_limit: 20 }).body as unknown[];
      const pairs = latest.map((m) => [JSON.stringify(m.sender), JSON.stringify(m.receiver)].sort().join('|'));
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(latest.length).toBeGreaterThan(0);
      expect(latest.length).toBeLessThanOrEqual(all.length);
      expect(call(`delete_${kind}_message`, { [idKey]: id }).status).toBe(200);
      expect(call(`show_${kind}_message`, { [idKey]: id }).status).toBe(422);
      s.close();
    });
  }
});
