// phone: contacts, text messages, alarms and the clock; login by phone number.
import { declarer, jsonList, me, notFound, ok, optBool, optNum, optStr, str } from '../define.js';
import { pageOf } from '../listing.js';
import { rankByQuery, rankedPage } from '../ranked.js';
import { EMAIL, opt, PAGING, req, sortBy } from '../params.js';
import { row, rows, table } from '../tables.js';
import { ApiError, type ApiContext, type ApiDef, type Json } from '../types.js';
import { accountApis, userById } from './shared/accounts.js';
import { routed, sharedRoutes } from '../routes.js';

const def = declarer('phone');

interface ContactRow {
  id: number;
  owner_id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  relationships: string;
  birthday: string;
  home_address: string;
  work_address: string;
  created_at: string;
}
interface MessageRow {
  id: number;
  sender_id: number;
  receiver_id: number;
  message: string;
  sent_at: string;
}
interface AlarmRow {
  id: number;
  user_id: number;
  time: string;
  repeat_days: string;
  label: string | null;
  enabled: number;
  snooze_minutes: number;
  vibration: number;
  created_at: string;
}
const contacts = table<ContactRow>('contacts');
const alarms = table<AlarmRow>('alarms');

const contactView = (c: ContactRow) => ({
  contact_id: c.id,
  first_name: c.first_name,
  last_name: c.last_name,
  email: c.email,
  phone_number: c.phone_number,
  relationships: jsonList(c.relationships),
  birthday: c.birthday,
  home_address: c.home_address,
  work_address: c.work_address,
  created_at: c.created_at,
});

function personView(ctx: ApiContext, id: number): Json {
  const u = userById(ctx, id);
  return u ? { name: `${u.first_name} ${u.last_name}`, phone_number: u.phone_number } : null;
}
/** A message's sender or receiver as AppWorld shows it: with the caller's contact id for them (null if not a contact). */
function partyView(ctx: ApiContext, id: number): Json {
  const u = userById(ctx, id);
  if (!u) return null;
  const c = row<{ id: number }>(ctx, 'SELECT id FROM contacts WHERE owner_id = ? AND phone_number = ? ORDER BY id', me(ctx), u.phone_number);
  return { contact_id: c?.id ?? null, name: `${u.first_name} ${u.last_name}`, phone_number: u.phone_number };
}
const PARTY = { contact_id: 1, name: 'string', phone_number: 'string' };
const CONTACT = {
  contact_id: 1,
  first_name: 'string',
  last_name: 'string',
  email: 'user@example.com',
  phone_number: 'string',
  relationships: ['string'],
  birthday: 'string',
  home_address: 'string',
  work_address: 'string',
  created_at: '2019-01-01T00:00:00',
};
const ALARM = {
  alarm_id: 1,
  time: 'string',
  repeat_days: ['monday'],
  label: 'string',
  enabled: true,
  snooze_minutes: 0.0,
  vibration: true,
  created_at: '2019-01-01T00:00:00',
  user: { name: 'string', phone_number: 'string' },
};
const alarmView = (ctx: ApiContext, a: AlarmRow) => ({
  alarm_id: a.id,
  time: a.time,
  repeat_days: jsonList(a.repeat_days),
  label: a.label,
  enabled: a.enabled === 1,
  snooze_minutes: a.snooze_minutes,
  vibration: a.vibration === 1,
  created_at: a.created_at,
  user: personView(ctx, a.user_id),
});

function ownContact(ctx: ApiContext, id: number): ContactRow {
  const c = contacts.byId(ctx, id);
  if (!c) notFound('contact');
  if (c.owner_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this contact.');
  return c;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const apis: ApiDef[] = [
  ...accountApis('phone', { verification: false }),
  def('get_current_date_and_time', { response: { date: 'string', time: 'string' }, auth: false, description: 'Show current date and time.' }, (ctx) => {
    const d = new Date(ctx.now + 'Z');
    const date = d.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    // AppWorld's clock reads like "Thursday, May 18, 2023" and "09:08 PM" (two-digit hour).
    const time = d.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
    return { date, time };
  }),
  def('show_contact_relationships', { response: ['string'], description: 'Get a list of all relationships available in your contact book.' }, (ctx) => {
    const found = rows<{ relationships: string }>(ctx, 'SELECT relationships FROM contacts WHERE owner_id = ?', me(ctx));
    return [...new Set(found.flatMap((r) => jsonList(r.relationships)))].sort();
  }),
  def(
    'search_contacts',
    { response: [CONTACT], description: "Search your contact book for relatives' information.", params: [opt.str('query', { default: '' }), opt.str('relationship'), ...PAGING] },
    (ctx, a) => {
      const rel = optStr(a, 'relationship');
      const rows = contacts.all(ctx, 'WHERE owner_id = ? ORDER BY id', me(ctx)).filter((c) => !rel || jsonList(c.relationships).includes(rel.toLowerCase()));
      return rankedPage(rankByQuery(rows, a.query, (c) => [c.first_name, c.last_name, c.email, c.phone_number]).map(contactView), a, ['first_name', 'last_name', 'created_at', 'birthday']);
    },
  ),
  def(
    'add_contact',
    {
      description: 'Add a new contact.',
      params: [
        req.str('first_name'),
        req.str('last_name'),
        req.str('phone_number'),
        opt.str('email', { constraints: EMAIL }),
        opt.list('relationships'),
        opt.str('birthday'),
        opt.str('home_address'),
        opt.str('work_address'),
      ],
      response: { message: 'string', contact_id: 1 },
    },
    (ctx, a) => {
      const owner = me(ctx);
      if (ctx.db.prepare('SELECT 1 FROM contacts WHERE owner_id = ? AND phone_number = ?').get(owner, str(a, 'phone_number')))
        throw new ApiError(422, 'A contact with this phone number already exists.');
      const rels = ((a.relationships as string[] | null) ?? []).map((r) => r.toLowerCase());
      const r = ctx.db
        .prepare('INSERT INTO contacts (owner_id, first_name, last_name, email, phone_number, relationships, birthday, home_address, work_address, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(
          owner,
          str(a, 'first_name'),
          str(a, 'last_name'),
          optStr(a, 'email') ?? '',
          str(a, 'phone_number'),
          JSON.stringify(rels),
          optStr(a, 'birthday') ?? '',
          optStr(a, 'home_address') ?? '',
          optStr(a, 'work_address') ?? '',
          ctx.now,
        );
      return ok('Contact created.', { contact_id: Number(r.lastInsertRowid) });
    },
  ),
  def('delete_contact', { method: 'DELETE', description: 'Delete contact information.', params: [req.int('contact_id')], response: { message: 'string' } }, (ctx, a) => {
    const c = ownContact(ctx, Number(a.contact_id));
    ctx.db.prepare('DELETE FROM contacts WHERE id = ?').run(c.id);
    return ok('Contact deleted.');
  }),
  def(
    'update_contact',
    {
      method: 'PATCH',
      description: 'Update contact information.',
      params: [
        req.int('contact_id'),
        opt.str('first_name'),
        opt.str('last_name'),
        opt.str('phone_number'),
        opt.str('email', { constraints: EMAIL }),
        opt.list('relationships'),
        opt.str('birthday'),
        opt.str('home_address'),
        opt.str('work_address'),
      ],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const c = ownContact(ctx, Number(a.contact_id));
      const rels = Array.isArray(a.relationships) ? JSON.stringify((a.relationships as string[]).map((r) => r.toLowerCase())) : c.relationships;
      ctx.db
        .prepare('UPDATE contacts SET first_name = ?, last_name = ?, email = ?, phone_number = ?, relationships = ?, birthday = ?, home_address = ?, work_address = ? WHERE id = ?')
        .run(
          optStr(a, 'first_name') ?? c.first_name,
          optStr(a, 'last_name') ?? c.last_name,
          optStr(a, 'email') ?? c.email,
          optStr(a, 'phone_number') ?? c.phone_number,
          rels,
          optStr(a, 'birthday') ?? c.birthday,
          optStr(a, 'home_address') ?? c.home_address,
          optStr(a, 'work_address') ?? c.work_address,
          c.id,
        );
      return ok('Contact updated.');
    },
  ),
  ...messageApis('text'),
  ...messageApis('voice'),
  def('show_alarms', { response: [ALARM], description: 'Get a list of alarms.', params: [...PAGING] }, (ctx, a) =>
    pageOf(
      alarms.all(ctx, 'WHERE user_id = ? ORDER BY time, id', me(ctx)).map((x) => alarmView(ctx, x)),
      a,
      [],
    ),
  ),
  def(
    'create_alarm',
    {
      description: 'Create an alarm.',
      params: [
        req.str('time', { desc: 'Time of the alarm in HH:MM format.' }),
        opt.list('repeat_days', { constraints: [{ kind: 'enum', values: WEEKDAYS }] }),
        opt.str('label'),
        opt.bool('enabled', { default: true }),
        opt.int('snooze_minutes', { default: 15, constraints: [{ kind: 'min', value: 0 }] }),
        opt.bool('vibration', { default: true }),
      ],
      response: { message: 'string', alarm_id: 1 },
    },
    (ctx, a) => {
      if (!TIME.test(str(a, 'time'))) throw new ApiError(422, 'Validation error. Reason: \ntime: the time must be in HH:MM format.');
      const days = ((a.repeat_days as string[] | null) ?? []).map((d) => d.toLowerCase());
      const bad = days.find((d) => !WEEKDAYS.includes(d));
      if (bad !== undefined) throw new ApiError(422, `Validation error. Reason: \nrepeat_days: '${bad}' is not a day of the week.`);
      const r = ctx.db
        .prepare('INSERT INTO alarms (user_id, time, repeat_days, label, enabled, snooze_minutes, vibration, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(
          me(ctx),
          str(a, 'time'),
          JSON.stringify(days),
          optStr(a, 'label'),
          optBool(a, 'enabled') === false ? 0 : 1,
          optNum(a, 'snooze_minutes') ?? 15,
          optBool(a, 'vibration') === false ? 0 : 1,
          ctx.now,
        );
      return ok('Alarm created.', { alarm_id: Number(r.lastInsertRowid) });
    },
  ),
  def('show_alarm', { response: ALARM, description: 'Show alarm details.', params: [req.int('alarm_id')] }, (ctx, a) => alarmView(ctx, ownAlarm(ctx, Number(a.alarm_id)))),
  def('delete_alarm', { method: 'DELETE', description: 'Delete an alarm.', params: [req.int('alarm_id')], response: { message: 'string' } }, (ctx, a) => {
    ctx.db.prepare('DELETE FROM alarms WHERE id = ?').run(ownAlarm(ctx, Number(a.alarm_id)).id);
    return ok('Alarm deleted.');
  }),
  def(
    'update_alarm',
    {
      method: 'PATCH',
      description: "Update an alarm's settings.",
      params: [
        req.int('alarm_id'),
        opt.str('time'),
        opt.list('repeat_days', { constraints: [{ kind: 'enum', values: WEEKDAYS }] }),
        opt.str('label'),
        opt.bool('enabled'),
        opt.int('snooze_minutes', { constraints: [{ kind: 'min', value: 0 }] }),
        opt.bool('vibration'),
      ],
      response: { message: 'string' },
    },
    (ctx, a) => {
      const al = ownAlarm(ctx, Number(a.alarm_id));
      const time = optStr(a, 'time') ?? al.time;
      if (!TIME.test(time)) throw new ApiError(422, 'Validation error. Reason: \ntime: the time must be in HH:MM format.');
      const b = (k: string, cur: number) => (optBool(a, k) === null ? cur : optBool(a, k) ? 1 : 0);
      const days = Array.isArray(a.repeat_days) ? JSON.stringify((a.repeat_days as string[]).map((d) => d.toLowerCase())) : al.repeat_days;
      ctx.db
        .prepare('UPDATE alarms SET time = ?, repeat_days = ?, label = ?, enabled = ?, snooze_minutes = ?, vibration = ? WHERE id = ?')
        .run(time, days, optStr(a, 'label') ?? al.label, b('enabled', al.enabled), optNum(a, 'snooze_minutes') ?? al.snooze_minutes, b('vibration', al.vibration), al.id);
      return ok('Alarm updated.');
    },
  ),
];

/** AppWorld's routes of the phone app (its API docs' method and path). */
const P = '/phone';
export const phoneApis: ApiDef[] = routed(apis, {
  ...sharedRoutes('phone', { verification: false, notifications: false }),
  show_contact_relationships: `GET ${P}/contact_relationships`,
  search_contacts: `GET ${P}/contacts`,
  add_contact: `POST ${P}/contacts`,
  delete_contact: `DELETE ${P}/contacts/{contact_id}`,
  update_contact: `PATCH ${P}/contacts/{contact_id}`,
  show_text_message_window: `GET ${P}/messages/text/window`,
  search_text_messages: `GET ${P}/messages/text`,
  show_text_message: `GET ${P}/messages/text/{text_message_id}`,
  delete_text_message: `DELETE ${P}/messages/text/{text_message_id}`,
  send_text_message: `POST ${P}/messages/text/{phone_number}`,
  show_alarms: `GET ${P}/alarms`,
  create_alarm: `POST ${P}/alarms`,
  show_alarm: `GET ${P}/alarms/{alarm_id}`,
  delete_alarm: `DELETE ${P}/alarms/{alarm_id}`,
  update_alarm: `PATCH ${P}/alarms/{alarm_id}`,
  show_voice_message_window: `GET ${P}/messages/voice/window`,
  search_voice_messages: `GET ${P}/messages/voice`,
  show_voice_message: `GET ${P}/messages/voice/{voice_message_id}`,
  delete_voice_message: `DELETE ${P}/messages/voice/{voice_message_id}`,
  send_voice_message: `POST ${P}/messages/voice/{phone_number}`,
  get_current_date_and_time: `GET ${P}/date_time`,
});

function ownAlarm(ctx: ApiContext, id: number): AlarmRow {
  const al = alarms.byId(ctx, id);
  if (!al) notFound('alarm');
  if (al.user_id !== me(ctx)) throw new ApiError(401, 'You are not authorized to access this alarm.');
  return al;
}

/**
 * Text and voice messages behave alike (AppWorld's two message kinds): search, show, delete, send
 * and a time window of one conversation, each over its own table.
 */
function messageApis(kind: 'text' | 'voice'): ApiDef[] {
  const messages = table<MessageRow>(`${kind}_messages`);
  const messageTable = messages.name;
  const idKey = `${kind}_message_id`;
  const label = `${kind} message`;
  const view = (ctx: ApiContext, m: MessageRow) => ({ [idKey]: m.id, sender: partyView(ctx, m.sender_id), receiver: partyView(ctx, m.receiver_id), message: m.message, sent_at: m.sent_at });
  const MESSAGE_VIEW = { [idKey]: 1, sender: PARTY, receiver: PARTY, message: 'string', sent_at: '2019-01-01T00:00:00' };
  const party = (ctx: ApiContext, phone: string) => row<{ id: number }>(ctx, 'SELECT id FROM users WHERE phone_number = ?', phone)?.id ?? -1;
  const mine = (ctx: ApiContext, id: number): MessageRow => {
    const m = messages.byId(ctx, id);
    const self = me(ctx);
    if (!m) notFound(label);
    if (m.sender_id !== self && m.receiver_id !== self) throw new ApiError(401, `You are not authorized to access this ${label}.`);
    return m;
  };
  const conversation = (ctx: ApiContext) => messages.all(ctx, 'WHERE sender_id = ? OR receiver_id = ? ORDER BY id', me(ctx), me(ctx));
  const Kind = kind[0]!.toUpperCase() + kind.slice(1);
  return [
    def(
      `search_${kind}_messages`,
      {
        response: [MESSAGE_VIEW],
        description: `Show or search your ${kind} messages.`,
        params: [
          opt.str('query', { default: '' }),
          opt.str('phone_number', { desc: 'Only messages exchanged with this phone number.' }),
          opt.bool('only_latest_per_contact', { default: false }),
          ...PAGING,
          sortBy(null),
        ],
      },
      (ctx, a) => {
        const self = me(ctx);
        const phone = optStr(a, 'phone_number');
        const other = phone ? party(ctx, phone) : null;
        const rows = conversation(ctx).filter((m) => other === null || m.sender_id === other || m.receiver_id === other);
        // only_latest_per_contact: one message per other party, its latest.
        const latest = new Map<number, MessageRow>();
        for (const m of rows) {
          const p = m.sender_id === self ? m.receiver_id : m.sender_id;
          const cur = latest.get(p);
          if (!cur || m.sent_at >= cur.sent_at) latest.set(p, m);
        }
        const kept = optBool(a, 'only_latest_per_contact') ? rows.filter((m) => latest.get(m.sender_id === self ? m.receiver_id : m.sender_id) === m) : rows;
        return rankedPage(
          rankByQuery(kept, a.query, (m) => [m.message]).map((m) => view(ctx, m)),
          a,
          ['sent_at'],
          '-sent_at',
        );
      },
    ),
    def(
      `show_${kind}_message_window`,
      {
        response: [MESSAGE_VIEW],
        description: `Show the ${kind} messages exchanged with a phone number within a time window.`,
        params: [
          req.str('phone_number'),
          opt.str('min_datetime', { default: '1500-01-01|00:00:00' }),
          opt.str('max_datetime', { default: '3000-01-01|00:00:00' }),
          opt.str('pagination_order', { default: 'descending', constraints: [{ kind: 'enum', values: ['ascending', 'descending'] }] }),
          ...PAGING,
        ],
      },
      (ctx, a) => {
        const other = party(ctx, str(a, 'phone_number'));
        // AppWorld writes the bounds YYYY-MM-DD|HH:MM:SS; stored times use a T.
        const [from, to] = [str(a, 'min_datetime'), str(a, 'max_datetime')].map((d) => d.replace('|', 'T'));
        const rows = conversation(ctx)
          .filter((m) => (m.sender_id === other || m.receiver_id === other) && m.sent_at >= from! && m.sent_at <= to!)
          .sort((x, y) => (x.sent_at < y.sent_at ? -1 : x.sent_at > y.sent_at ? 1 : x.id - y.id) * (a.pagination_order === 'ascending' ? 1 : -1));
        return pageOf(
          rows.map((m) => view(ctx, m)),
          a,
          [],
        );
      },
    ),
    def(`show_${kind}_message`, { response: MESSAGE_VIEW, description: `Show a ${label}.`, params: [req.int(idKey)] }, (ctx, a) => view(ctx, mine(ctx, Number(a[idKey])))),
    def(`delete_${kind}_message`, { method: 'DELETE', description: `Delete a ${label}.`, params: [req.int(idKey)], response: { message: 'string' } }, (ctx, a) => {
      ctx.db.prepare(`DELETE FROM ${messageTable} WHERE id = ?`).run(mine(ctx, Number(a[idKey])).id);
      return ok(`${Kind} message deleted.`);
    }),
    def(
      `send_${kind}_message`,
      {
        response: { message: 'string', [idKey]: 1 },
        description: `Send a ${label} on the given phone number.`,
        params: [req.str('phone_number'), req.str('message', { constraints: [{ kind: 'minLength', value: 1 }] })],
      },
      (ctx, a) => {
        const to = row<{ id: number }>(ctx, 'SELECT id FROM users WHERE phone_number = ?', str(a, 'phone_number'));
        if (!to) throw new ApiError(422, 'The phone number is not registered with any user.');
        const r = ctx.db.prepare(`INSERT INTO ${messageTable} (sender_id, receiver_id, message, sent_at) VALUES (?, ?, ?, ?)`).run(me(ctx), to.id, str(a, 'message'), ctx.now);
        return ok(`${Kind} message sent.`, { [idKey]: Number(r.lastInsertRowid) });
      },
    ),
  ];
}
