// The registry against AppWorld's API docs (api-docs.facts.txt: every API's method, path and success
// response shape, read from AppWorld's published docs): all 457 APIs carry the real route, and every
// declared response shape equals the real one (keys, key order, nesting, leaf types) except the
// deviations listed below, each with its reason and, where the recordings allow, its evidence.
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { sharedDataFiles } from '@diffworld/env-core';
import { describe, expect, it } from 'vitest';
import { ApiDocFactsError, parseApiDocFacts, parseShape, shapeDifferences } from './api-doc-facts.js';
import { API_REGISTRY } from './registry.js';
import type { Json } from './types.js';
import { sharedTemplate } from './world.js';

const FACTS = parseApiDocFacts(readFileSync(resolve(__dirname, 'api-docs.facts.txt'), 'utf8'));
const RECORDED = resolve(__dirname, '../../../../../../shared/data/paper/appworld/recorded_tool_calls.json');
const recordedPresent = sharedDataFiles(`${dirname(RECORDED)}/`, [basename(RECORDED)], "the paper's recorded AppWorld tool calls") !== undefined;

/** Songs as the paper's recorded server answers them: AppWorld's later docs add `album_title`. */
const SONG_LISTINGS = ['search_songs', 'show_song', 'show_liked_songs', 'show_song_library', 'show_downloaded_songs', 'show_recommendations'];

/**
 * Where this engine knowingly differs from the docs, as `<app>.<api>` → the exact differences.
 * - spotify's song listings follow the paper's AppWorld server (its recorded answers have no
 *   album_title; the docs, from a later AppWorld, list one); the recordings check is below.
 * - api_docs' own docs show `response_schemas.success/failure` as `[{}]`, while the same docs hold
 *   object-valued schemas for most APIs (checked below), so ours serve the schemas as they are.
 */
const DEVIATIONS: Record<string, string[]> = {
  ...Object.fromEntries(SONG_LISTINGS.map((api) => [`spotify.${api}`, [`$${api === 'show_song' ? '' : '[]'}: missing album_title`]])),
  'api_docs.show_api_doc': ['$.response_schemas.success: null here, list in AppWorld', '$.response_schemas.failure: object here, list in AppWorld'],
  'api_docs.search_api_docs': ['$[].response_schemas.success: null here, list in AppWorld', '$[].response_schemas.failure: object here, list in AppWorld'],
};

describe('api doc facts: the notation', () => {
  it('parses objects, lists, free objects and the leaves into example values', () => {
    expect(parseShape('{a:s,b:n,c:b,d:z,e:[{id:n}],f:{},g:[],h:[s]}')).toEqual({ a: 'string', b: 1, c: true, d: null, e: [{ id: 1 }], f: {}, g: [], h: ['string'] });
    expect(parseShape('[s]')).toEqual(['string']);
  });

  it('refuses malformed shapes and lines, naming the line', () => {
    expect(() => parseShape('{a:s')).toThrow(/'?,'? or '\}' expected/);
    expect(() => parseShape('{a:s,a:n}')).toThrow(/duplicate key a/);
    expect(() => parseShape('{a:x}')).toThrow(/a shape expected/);
    expect(() => parseShape('[s,n]')).toThrow(/'\]' expected/);
    expect(() => parseShape('s s')).toThrow(/trailing text/);
    expect(() => parseApiDocFacts('# c\n\nx.y GET /x/y {a:s} extra')).toThrow(ApiDocFactsError);
    expect(() => parseApiDocFacts('x.y FETCH /x/y s')).toThrow('api doc facts, line 1: bad method FETCH');
    expect(() => parseApiDocFacts('x.y GET /z/y s')).toThrow('path /z/y is not under /x/');
    expect(() => parseApiDocFacts('x.y GET /x/y s\nx.y GET /x/y s')).toThrow('line 2: duplicate API x.y');
    expect(() => parseApiDocFacts('x.y GET /x/y {a:}')).toThrow(/line 1: a shape expected/);
  });

  it('finds missing and extra keys, key order, list versus object and leaf types at every level', () => {
    const real = parseShape('{a:n,b:[{c:s,d:b}],e:{f:s}}');
    expect(shapeDifferences(real, { a: 2, b: [{ c: 'x', d: false }], e: { f: 'y' } })).toEqual([]);
    expect(shapeDifferences(real, { b: [{ c: 'x', d: false }], a: 2, e: { f: 'y' } })).toEqual(['$: key order b,a,e vs AppWorld a,b,e']);
    expect(shapeDifferences(real, { a: '2', b: [{ c: 'x' }], e: { f: 'y', g: 1 } })).toEqual(['$.a: string here, number in AppWorld', '$.b[]: missing d', '$.e: not in AppWorld g']);
    expect(shapeDifferences(real, [real])).toEqual(['$: list here, object in AppWorld']);
    expect(shapeDifferences(parseShape('[s]'), [])).toEqual(['$: list of anything here, list of string in AppWorld']);
    expect(shapeDifferences(parseShape('{data:{}}'), { data: { any: 1 } })).toEqual([]);
  });
});

describe("the registry against AppWorld's API docs", () => {
  it('the facts cover exactly the 457 APIs of the registry', () => {
    expect(FACTS).toHaveLength(457);
    expect(FACTS.map((f) => `${f.app}__${f.api}`).sort()).toEqual([...API_REGISTRY.keys()].sort());
  });

  it("every API carries AppWorld's method and path, and api_docs shows them", () => {
    const wrong = FACTS.filter((f) => {
      const api = API_REGISTRY.get(`${f.app}__${f.api}`)!;
      return api.method !== f.method || api.path !== f.path;
    }).map((f) => `${f.app}.${f.api}: ${API_REGISTRY.get(`${f.app}__${f.api}`)!.method} ${API_REGISTRY.get(`${f.app}__${f.api}`)!.path} vs ${f.method} ${f.path}`);
    console.log(`appworld routes: ${FACTS.length - wrong.length}/${FACTS.length} match AppWorld's API docs`);
    expect(wrong).toEqual([]);
    const s = sharedTemplate().open({ supervisorId: 1 });
    for (const [app, api, route] of [
      ['supervisor', 'complete_task', 'POST /supervisor/message'],
      ['amazon', 'show_product_question_answers', 'GET /amazon/products/{question_id}/question_answers'],
      ['phone', 'send_text_message', 'POST /phone/messages/text/{phone_number}'],
      ['file_system', 'compress_directory', 'POST /file_system/directory/compress'],
      ['venmo', 'withdraw_from_venmo_balance', 'DELETE /venmo/balance'],
    ]) {
      const doc = s.callTool('api_docs__show_api_doc', { app_name: app, api_name: api }).body as { method: string; path: string };
      expect(`${doc.method} ${doc.path}`, `${app}.${api}`).toBe(route);
    }
    s.close();
  });

  it("every declared response shape equals AppWorld's, but for the listed deviations", () => {
    const found: Record<string, string[]> = {};
    for (const f of FACTS) {
      const d = shapeDifferences(f.success, API_REGISTRY.get(`${f.app}__${f.api}`)!.response ?? {});
      if (d.length) found[`${f.app}.${f.api}`] = d;
    }
    const exact = FACTS.length - Object.keys(found).length;
    console.log(`appworld response shapes: ${exact}/${FACTS.length} equal AppWorld's API docs exactly; ${Object.keys(found).length} listed deviations`);
    expect(found).toEqual(DEVIATIONS);
  });

  it("api_docs' deviation: AppWorld's own docs hold object-valued schemas, so `[{}]` is not the served shape", () => {
    const objects = FACTS.filter((f) => typeof f.success === 'object' && f.success !== null && !Array.isArray(f.success)).length;
    expect(objects).toBeGreaterThan(300);
    const s = sharedTemplate().open({ supervisorId: 1 });
    const doc = s.callTool('api_docs__show_api_doc', { app_name: 'venmo', api_name: 'show_venmo_balance' }).body as { response_schemas: { success: Json; failure: Json } };
    expect(doc.response_schemas).toEqual({ success: { venmo_balance: 0 }, failure: { message: 'string' } });
    s.close();
  });

  it.skipIf(!recordedPresent)("spotify's deviation: the paper's recorded song listings have no album_title", () => {
    const calls = JSON.parse(readFileSync(RECORDED, 'utf8')) as [string, string, Record<string, unknown>, string][];
    let songs = 0;
    for (const [, tool, , response] of calls) {
      const [app, api] = tool.split('__') as [string, string];
      if (app !== 'spotify' || !SONG_LISTINGS.includes(api)) continue;
      const v = JSON.parse(response) as unknown;
      for (const song of Array.isArray(v) ? v : [v]) {
        if (typeof song !== 'object' || song === null || !('song_id' in song)) continue;
        songs++;
        expect(Object.keys(song), tool).not.toContain('album_title');
        expect(Object.keys(song), tool).toEqual(expect.arrayContaining(['song_id', 'title', 'album_id', 'duration', 'artists']));
      }
    }
    expect(songs).toBeGreaterThan(20);
  });
});
