import { afterEach, describe, expect, it } from 'vitest';
import { EpisodeStore, HttpError, requireString, startJsonServer, type RunningServer } from './http.js';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function post(path: string, body: string) {
  const res = await fetch(running!.url + path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: await res.json() };
}

describe('startJsonServer', () => {
  it('routes parsed JSON to the handler and answers JSON', async () => {
    running = await startJsonServer(({ method, path, body }) => ({ body: { method, path, echo: requireString(body, 'x') } }));
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await post('/step?debug=1', '{"x":"hi"}')).toEqual({ status: 200, body: { method: 'POST', path: '/step', echo: 'hi' } });
  });

  it('answers 400 on bad JSON or a missing field, 413 on a huge body, 500 on a crash', async () => {
    running = await startJsonServer(({ body, path }) => {
      if (path === '/crash') throw new Error('boom');
      return { body: requireString(body, 'task_id') };
    }, { maxBodyBytes: 100 });
    expect(await post('/', '{nope')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/not valid JSON/) } });
    expect(await post('/', '{"task_id": 3}')).toEqual({ status: 400, body: { error: 'field "task_id" must be a non-empty string' } });
    expect(await post('/', JSON.stringify({ task_id: 'x'.repeat(200) }))).toMatchObject({ status: 413 });
    expect(await post('/crash', '{}')).toEqual({ status: 500, body: { error: 'internal error: boom' } });
  });

  it("answers errors with 200 and {error} under errors: 'ok-with-error' (the reference servers' convention)", async () => {
    running = await startJsonServer(({ body }) => ({ body: requireString(body, 'task_id') }), { errors: 'ok-with-error' });
    expect(await post('/', '{"task_id": 3}')).toEqual({ status: 200, body: { error: 'field "task_id" must be a non-empty string' } });
    expect(await post('/', '{nope')).toMatchObject({ status: 200, body: { error: expect.stringMatching(/not valid JSON/) } });
  });
});

describe('EpisodeStore', () => {
  it('isolates episodes by id and reports unknown ones as 404', () => {
    const store = new EpisodeStore<number>();
    store.set('a', 1);
    store.set('b', 2);
    expect(store.get('a')).toBe(1);
    expect(() => store.get('c')).toThrow(HttpError);
    expect(store.delete('a')).toBe(true);
    expect(() => store.get('a')).toThrow(/no live episode "a"/);
  });

  it('evicts the longest-idle episode when full, or refuses with 429', () => {
    let t = 0;
    const evicted: number[] = [];
    const store = new EpisodeStore<number>({ maxEpisodes: 2, idleMs: 100, now: () => t, onEvict: (v) => evicted.push(v) });
    store.set('a', 1);
    t = 10;
    store.set('b', 2);
    t = 50;
    expect(() => store.set('c', 3)).toThrow(/too many live episodes/);
    t = 200;
    store.get('a'); // a is fresh now, b is the idle one
    store.set('c', 3);
    expect(evicted).toEqual([2]);
    expect(store.size).toBe(2);
  });
});
