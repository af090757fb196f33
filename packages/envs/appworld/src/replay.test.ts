// The 216 tool calls the paper's repository recorded against the real AppWorld server, replayed
// through the paper's client flow (POST {task_id, tool_name, tool_args}; passwords, then logins with
// the credentials the server gave) against this server. The recordings are read from
// ../shared/data and never copied here.
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, sharedDataFiles } from '@diffworld/env-core';
import { API_REGISTRY } from './engine/registry.js';
import { startAppworldServer } from './server.js';

const FILE = resolve(__dirname, '../../../../../shared/data/paper/appworld/recorded_tool_calls.json');
const present = sharedDataFiles(`${dirname(FILE)}/`, [basename(FILE)], "the paper's recorded AppWorld tool calls") !== undefined;

type Recorded = [taskId: string, tool: string, args: Record<string, unknown>, response: string];
type Shape = string | { [k: string]: Shape } | Shape[];

/** A JSON value's shape: object keys with their shapes, a list's first item, scalar type names (null apart). */
function shapeOf(v: unknown): Shape {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length ? [shapeOf(v[0])] : [];
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, shapeOf(x)]));
  return typeof v;
}

/** Where two shapes differ (null matches any type: optional fields), or null when they agree. */
function shapeDiff(real: Shape, ours: Shape, at = '$'): string | null {
  if (real === 'null' || ours === 'null') return null;
  if (Array.isArray(real) || Array.isArray(ours)) {
    if (!Array.isArray(real) || !Array.isArray(ours)) return `${at}: list vs ${Array.isArray(ours) ? 'list' : JSON.stringify(ours)}`;
    return real.length && ours.length ? shapeDiff(real[0]!, ours[0]!, `${at}[0]`) : null;
  }
  if (typeof real === 'object' || typeof ours === 'object') {
    if (typeof real !== 'object' || typeof ours !== 'object') return `${at}: ${JSON.stringify(real)} vs ${JSON.stringify(ours)}`;
    const rk = Object.keys(real).sort().join(',');
    const ok = Object.keys(ours).sort().join(',');
    if (rk !== ok) return `${at}: keys {${rk}} vs {${ok}}`;
    for (const k of Object.keys(real)) {
      const d = shapeDiff(real[k]!, ours[k]!, `${at}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return real === ours ? null : `${at}: ${real} vs ${ours}`;
}

/** Replayed calls answered with the real keys and types, as reached; raise when more match. */
const MATCHED_FLOOR = 164;
/** Calls the real server answered with a non-empty list that come back empty here (searches and pages past this world's data), as reached; lower when fewer. */
const EMPTY_HERE_CEILING = 2;

const PAGING = new Set(['page_index', 'page_limit', 'sort_by', 'query']);
/** Whether a call names something of the real database (ids, emails, paths), which this world does not have. */
const namesRealData = (args: Record<string, unknown>) => Object.entries(args).some(([k, v]) => !PAGING.has(k) && (/(_id|email|path|username)$/.test(k) || (typeof v === 'string' && v.includes('@'))));

let server: RunningServer;
beforeAll(async () => {
  server = await startAppworldServer();
});
afterAll(async () => server?.close());

describe.skipIf(!present)('replay of the 216 recorded real calls', () => {
  it('every call to an API we have answers with the real response shape, or names real-database data', async () => {
    const calls = JSON.parse(readFileSync(FILE, 'utf8')) as Recorded[];
    expect(calls).toHaveLength(216);
    const post = async (task_id: string, tool_name: string, tool_args: object) =>
      (await fetch(server.url + '/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task_id, tool_name, tool_args }) })).text();
    // Each API's real shape from its first non-empty recorded answer, to check our answers where the recorded one is an empty list.
    const reference = new Map<string, Shape>();
    for (const [, tool, , response] of calls) {
      const v = JSON.parse(response) as unknown;
      if (!reference.has(tool) && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && v !== null && 'error' in v)) reference.set(tool, shapeOf(v));
    }
    const counts = { missingApi: 0, realError: 0, realErrorOursError: 0, matched: 0, realDataRefused: 0, unverifiable: 0 };
    const mismatches: string[] = [];
    const emptyHere: string[] = [];
    let emptyOnlyHere = 0;
    const emptyOnlyHereCalls: string[] = [];
    let creds = new Map<string, { username: string; password: string }>();
    for (let i = 0; i < calls.length; i++) {
      const [taskId, tool, args, response] = calls[i]!;
      if (i === 0 || calls[i - 1]![0] !== taskId) {
        await fetch(server.url + '/', { method: 'DELETE', body: JSON.stringify({ task_id: taskId }) }); // one run per block of a task
        creds = new Map();
      }
      if (!API_REGISTRY.has(tool)) {
        counts.missingApi++;
        continue;
      }
      const app = tool.split('__')[0]!;
      // The client's flow: log in with what the passwords call returned in this world.
      const sent = tool.endsWith('__login') && creds.has(app) ? creds.get(app)! : args;
      const text = await post(taskId, tool, sent);
      const ours = JSON.parse(text) as unknown;
      if (tool === 'supervisor__show_account_passwords' && Array.isArray(ours)) creds = new Map((ours as { app: string; username: string; password: string }[]).map((c) => [c.app, c]));
      const real = JSON.parse(response) as unknown;
      const realFailed = typeof real === 'object' && real !== null && !Array.isArray(real) && 'error' in real;
      const oursFailed = typeof ours === 'object' && ours !== null && !Array.isArray(ours) && 'error' in ours;
      if (realFailed) {
        counts.realError++;
        if (oursFailed) counts.realErrorOursError++;
        continue;
      }
      if (oursFailed) {
        const status = /^Response status code is (\d+):/.exec((ours as { error: string }).error)?.[1];
        if ((status === '401' || status === '422') && namesRealData(args)) counts.realDataRefused++;
        else mismatches.push(`${tool}(${JSON.stringify(sent)}): the real call succeeded, ours answered ${(ours as { error: string }).error}`);
        continue;
      }
      const realShape = Array.isArray(real) && real.length === 0 ? (reference.get(tool) ?? shapeOf(real)) : shapeOf(real);
      const diff = shapeDiff(realShape, shapeOf(ours));
      if (diff) mismatches.push(`${tool}: ${diff}`);
      else if (Array.isArray(realShape) && Array.isArray(ours) && (!realShape.length || !ours.length)) {
        counts.unverifiable++;
        if (Array.isArray(real) && real.length > 0) {
          emptyOnlyHere++;
          emptyOnlyHereCalls.push(`${taskId} ${tool}(${JSON.stringify(args)}): ${real.length} real rows`);
        }
        emptyHere.push(`${tool}${realShape.length ? '' : ' (no non-empty recording)'}`);
      } else counts.matched++;
    }
    const have = calls.length - counts.missingApi;
    console.log(
      `appworld replay: ${have}/${calls.length} calls name an API we have; of the ${have - counts.realError} the real server answered with success, ` +
        `${counts.matched} match its keys and types, ${counts.unverifiable} are empty lists (${counts.unverifiable - emptyOnlyHere} empty in the recording too, ${emptyOnlyHere} only here), ${counts.realDataRefused} name real-database data and answer 401/422, ${mismatches.length} differ; ` +
        `${counts.realError} recorded errors (${counts.realErrorOursError} error here too)`,
    );
    for (const m of mismatches) console.log(`  ${m}`);
    if (emptyHere.length) console.log(`  empty lists, shape unverified: ${[...new Set(emptyHere)].join(', ')}`);
    for (const c of emptyOnlyHereCalls) console.log(`  empty only here: ${c}`);
    expect(mismatches).toEqual([]);
    expect(counts.missingApi).toBe(0);
    expect(counts.matched).toBeGreaterThanOrEqual(MATCHED_FLOOR);
    expect(emptyOnlyHere).toBeLessThanOrEqual(EMPTY_HERE_CEILING);
  });
});
