// Response shapes: the checker itself; api_docs serving each ApiDef's declared shape; declared shapes
// agreeing with the response model AppWorld's signatures name (`ret` in ../shared/data/appworld-apis.json:
// MessageResponse → {message}, Message<X>Response → {message, x…}, LoginResponse, list[…] → a list);
// and every success body of every expert demo on every task following its API's declared shape.
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { sharedDataFiles } from '@diffworld/env-core';
import { describe, expect, it } from 'vitest';
import { allTasks, startEpisode } from '../world/tasks/catalog.js';
import { ExpertContext } from '../world/tasks/expert.js';
import { API_REGISTRY } from './registry.js';
import { responseMismatches, schemaMismatches } from './response-schema.js';
import type { ApiDef, Json } from './types.js';
import { agentParams } from './validate.js';
import { sharedTemplate } from './world.js';

const FILE = resolve(__dirname, '../../../../../../shared/data/appworld-apis.json');
const present = sharedDataFiles(`${dirname(FILE)}/`, [basename(FILE)], "AppWorld's published API signatures") !== undefined;
const RECORDED = resolve(__dirname, '../../../../../../shared/data/paper/appworld/recorded_tool_calls.json');
const recordedPresent = sharedDataFiles(`${dirname(RECORDED)}/`, [basename(RECORDED)], "the paper's recorded AppWorld tool calls") !== undefined;
/** APIs with a non-empty real answer in the recordings, all checked against their declared shape. */
const RECORDED_APIS_FLOOR = 26;

/** APIs whose success shape is declared, as reached; raise when more are declared. */
const DECLARED_FLOOR = 457;

const pascal = (key: string) =>
  key
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/** Why a declared shape disagrees with AppWorld's response model name, or null. */
export function retMismatch(response: Json, ret: string): string | null {
  const model = ret
    .replace(/^list\[/, '')
    .replace(/\]$/, '')
    .split('.')
    .pop()!;
  const isList = ret.startsWith('list[');
  if (isList !== Array.isArray(response)) return `${isList ? 'a list' : 'an object'} expected (${ret})`;
  if (isList || typeof response !== 'object' || response === null || Array.isArray(response)) return null;
  const keys = Object.keys(response);
  if (model === 'LoginResponse') return keys.join() === 'access_token,token_type' ? null : `keys ${keys.join()} vs LoginResponse`;
  const m = /^Message(\w*)Response$/.exec(model);
  if (!m) return null;
  if (keys[0] !== 'message') return `first key ${keys[0]} vs message (${model})`;
  return keys.slice(1).map(pascal).join('') === m[1] ? null : `keys ${keys.join()} vs ${model}`;
}

describe('response shapes', () => {
  it('checks keys at every level, leaf types, lists, null for optional fields and {} for free objects', () => {
    const schema = { id: 1, name: 'string', ok: true, owner: { email: 'user@example.com' }, tags: ['string'], data: {} };
    expect(schemaMismatches(schema, { id: 3, name: 'x', ok: false, owner: { email: 'a@b.c' }, tags: ['a'], data: { any: 1 } })).toEqual([]);
    expect(schemaMismatches(schema, { id: null, name: null, ok: null, owner: null, tags: [], data: {} })).toEqual([]);
    expect(schemaMismatches(schema, { id: '3', name: 'x', ok: false, owner: { email: 'a@b.c', phone: '1' }, tags: [2], data: [] }).sort()).toEqual([
      '$.data: expected an object, got a list',
      '$.id: expected number, got string',
      "$.owner: keys not in AppWorld's schema phone",
      '$.tags[0]: expected string, got number',
    ]);
    expect(schemaMismatches([schema], { id: 1 })).toEqual(['$: expected a list, got object']);
    expect(schemaMismatches({ message: 'string', playlist_id: 1 }, { message: 'ok' })).toEqual(['$: missing keys playlist_id']);
  });

  it("api_docs serves every API's declared shape as response_schemas.success ({} where undeclared)", () => {
    const s = sharedTemplate().open({ supervisorId: 1 });
    for (const api of API_REGISTRY.values()) {
      const doc = s.callTool('api_docs__show_api_doc', { app_name: api.app, api_name: api.name }).body as { response_schemas: { success: Json; failure: Json } };
      expect(doc.response_schemas, `${api.app}__${api.name}`).toEqual({ success: api.response ?? {}, failure: { message: 'string' } });
    }
    const doc = s.callTool('api_docs__show_api_doc', { app_name: 'splitwise', api_name: 'show_expense' }).body as { response_schemas: { success: { shares: unknown } } };
    expect(doc.response_schemas.success.shares).toEqual([{ debtor: { name: 'string', email: 'user@example.com' }, debt_amount: 0 }]);
    const found = s.callTool('api_docs__search_api_docs', { query: 'expense', page_limit: 20 }).body as { api_name: string; response_schemas: { success: Json } }[];
    expect(found.find((d) => d.api_name === 'record_expense')!.response_schemas.success).toEqual({ message: 'string', expense_id: 1 });
    s.close();
  });

  it('the model-name check catches a wrong shape', () => {
    expect(retMismatch({ message: 'string', expense_id: 1 }, 'apps.splitwise.responses.MessageExpenseIdResponse')).toBeNull();
    expect(retMismatch({ message: 'string', sent_email_thread_id: 1, sent_email_id: 1 }, 'apps.gmail.responses.MessageSentEmailThreadIdSentEmailIdResponse')).toBeNull();
    expect(retMismatch({ message: 'string' }, 'apps.splitwise.responses.MessageExpenseIdResponse')).toMatch(/MessageExpenseIdResponse/);
    expect(retMismatch({ message: 'string' }, 'list[apps.spotify.responses.SongResponse]')).toMatch(/a list expected/);
    expect(retMismatch({ access_token: 'string' }, 'apps.venmo.responses.LoginResponse')).toMatch(/LoginResponse/);
  });

  it.skipIf(!present)("declared shapes agree with the response models AppWorld's signatures name", () => {
    const real = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, Record<string, { ret: string }>>;
    const declared: ApiDef[] = [...API_REGISTRY.values()].filter((a) => a.response !== undefined);
    const bad = declared.flatMap((a) => {
      const why = retMismatch(a.response!, real[a.app]![a.name]!.ret);
      return why ? [`${a.app}__${a.name}: ${why}`] : [];
    });
    const byApp = new Map<string, [number, number]>();
    for (const a of API_REGISTRY.values()) {
      const v = byApp.get(a.app) ?? [0, 0];
      v[0] += a.response === undefined ? 0 : 1;
      v[1]++;
      byApp.set(a.app, v);
    }
    console.log(`appworld response shapes declared: ${declared.length}/${API_REGISTRY.size} (${[...byApp].map(([app, [d, n]]) => `${app} ${d}/${n}`).join(', ')})`);
    expect(bad).toEqual([]);
    expect(declared.length).toBeGreaterThanOrEqual(DECLARED_FLOOR);
  });

  it.skipIf(!recordedPresent)('every declared shape takes the real answers the paper recorded for its API (keys and types at every level)', () => {
    const calls = JSON.parse(readFileSync(RECORDED, 'utf8')) as [string, string, Record<string, unknown>, string][];
    const problems: string[] = [];
    const apis = new Set<string>();
    let bodies = 0;
    for (const [, tool, , response] of calls) {
      const real = JSON.parse(response) as Json;
      const failed = typeof real === 'object' && real !== null && !Array.isArray(real) && 'error' in real;
      // The passwords call answers the paper server's own shape (its protocol), not AppWorld's.
      if (failed || tool === 'supervisor__show_account_passwords' || (Array.isArray(real) && real.length === 0)) continue;
      const api = API_REGISTRY.get(tool);
      if (!api?.response) {
        problems.push(`${tool}: no declared shape`);
        continue;
      }
      apis.add(tool);
      bodies++;
      for (const m of schemaMismatches(api.response, real)) problems.push(`${tool} ${m}`);
    }
    console.log(`appworld declared shapes vs recorded real answers: ${bodies} non-empty answers of ${apis.size} APIs, ${problems.length} mismatches`);
    expect(problems).toEqual([]);
    expect(apis.size).toBeGreaterThanOrEqual(RECORDED_APIS_FLOOR);
  });

  it('show_account and show_profile of every account app answer with their declared keys', () => {
    const world = sharedTemplate();
    const sup = world.query<{ id: number; email: string; phone_number: string }>('SELECT id, email, phone_number FROM users ORDER BY id LIMIT 1')[0]!;
    const s = world.open({ supervisorId: sup.id });
    for (const { app, password } of world.query<{ app: string; password: string }>('SELECT app, password FROM accounts WHERE user_id = ? ORDER BY app', sup.id)) {
      const username = app === 'phone' ? sup.phone_number : sup.email;
      const token = (s.callTool(`${app}__login`, { username, password }).body as { access_token: string }).access_token;
      for (const name of ['show_account', 'show_profile']) {
        const r = s.callTool(`${app}__${name}`, { access_token: token, [app === 'phone' ? 'phone_number' : 'email']: username });
        expect(r.status, `${app}__${name}`).toBe(200);
        expect(responseMismatches(API_REGISTRY.get(`${app}__${name}`)!, r.body), `${app}__${name}`).toEqual([]);
      }
    }
    const venmo = s.callTool('venmo__show_account', {
      access_token: (
        s.callTool('venmo__login', { username: sup.email, password: world.query<{ password: string }>("SELECT password FROM accounts WHERE user_id = ? AND app = 'venmo'", sup.id)[0]!.password })
          .body as { access_token: string }
      ).access_token,
    }).body as { friend_count: number; venmo_balance: number };
    expect(venmo.friend_count).toBe(world.query('SELECT 1 FROM venmo_friends WHERE user_id = ?', sup.id).length);
    s.close();
  });

  it('every read API callable without arguments answers with its declared shape (for several people)', () => {
    const world = sharedTemplate();
    let checked = 0;
    for (const who of world.query<{ id: number; email: string; phone_number: string }>('SELECT id, email, phone_number FROM users WHERE id IN (2, 9, 17) ORDER BY id')) {
      const s = world.open({ supervisorId: who.id, setup: (db) => void db.prepare("INSERT INTO supervisor_tasks (user_id, instruction, status) VALUES (?, 'A task.', 'active')").run(who.id) });
      const tokens = new Map(
        world
          .query<{ app: string; password: string }>('SELECT app, password FROM accounts WHERE user_id = ?', who.id)
          .map(({ app, password }) => [app, (s.callTool(`${app}__login`, { username: app === 'phone' ? who.phone_number : who.email, password }).body as { access_token: string }).access_token]),
      );
      // A playing queue, so the player's reads have something to show.
      expect(s.callTool('spotify__play_music', { song_id: 1, access_token: tokens.get('spotify')! }).status).toBe(200);
      for (const api of API_REGISTRY.values()) {
        if (api.response === undefined || !/^(show|search|get)_/.test(api.name)) continue;
        const required = agentParams(api).filter((p) => p.required);
        // Reads that need only ids: the first of ids 1..30 this person may see stands in for "some record".
        if (required.some((p) => p.type !== 'integer' || !p.name.endsWith('_id'))) continue;
        // show_profile's identifier is optional, but an app that does not know the caller needs it to name someone (checked above).
        if (api.name === 'show_profile' && !api.auth) continue;
        const call = (id: number) => s.callTool(`${api.app}__${api.name}`, { access_token: tokens.get(api.app) ?? '', page_limit: 20, ...Object.fromEntries(required.map((p) => [p.name, id])) });
        let r = call(1);
        for (let id = 2; required.length > 0 && !r.ok && id <= 30; id++) r = call(id);
        if (required.length > 0 && !r.ok) continue;
        expect(r.status, `${api.app}__${api.name}: ${JSON.stringify(r.body).slice(0, 200)}`).toBe(200);
        expect(responseMismatches(api, r.body), `${api.app}__${api.name}`).toEqual([]);
        checked++;
      }
      s.close();
    }
    expect(checked).toBeGreaterThan(300);
  });

  it("every success body of every expert demo follows its API's declared shape", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const task of allTasks()) {
      const { session, runner } = startEpisode(task);
      const call = session.call.bind(session);
      session.call = (app, name, args) => {
        const r = call(app, name, args);
        const api = API_REGISTRY.get(`${app}__${name}`);
        if (r.ok && api?.response !== undefined) {
          checked++;
          for (const m of responseMismatches(api, r.body)) problems.push(`${task.id} ${app}__${name} ${m}`);
        }
        return r;
      };
      task.variant.solve(new ExpertContext(runner, task.supervisor));
      session.close();
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
