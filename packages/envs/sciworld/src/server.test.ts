import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@diffworld/env-core';
import { parseTaskId, startSciworldServer } from './server.js';
import { expertActions } from './engine/expert/expert.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startSciworldServer({ port: 0, errors: 'http' }); // statuses make the error cases visible
});
afterAll(async () => {
  await server.close();
});

const post = async (body: unknown) => {
  const res = await fetch(server.url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

describe('sciworld env server', () => {
  it('binds to 127.0.0.1 and answers health', async () => {
    expect(server.url.startsWith('http://127.0.0.1:')).toBe(true);
    expect(await (await fetch(`${server.url}/health`)).text()).toBe('ok');
  });
  it('plays the expert episode over HTTP to a score of 100', async () => {
    const id = 'test-conductivity_v3_gen0a1b2c';
    const init = await post({ task_id: id });
    expect(init.json.observation).toMatch(/^This (room|outside location) is called/);
    let last = init.json;
    for (const action of expertActions('test-conductivity', 3).actions) last = (await post({ task_id: id, action })).json;
    expect(last).toMatchObject({ score: 100, done: true });
    expect(Array.isArray(last.valid_actions)).toBe(true);
    const closed = await fetch(server.url, { method: 'DELETE', body: JSON.stringify({ task_id: id }) });
    expect(await closed.json()).toEqual({ status: 'closed' });
  });
  it('answers bad requests with a message naming the problem', async () => {
    expect(await post({ action: 'look' })).toEqual({ status: 400, json: { error: 'field "task_id" must be a non-empty string' } });
    expect((await post({ task_id: 'boil' })).json.error).toMatch(/must look like "<task-name>_v<variation>"/);
    expect((await post({ task_id: 'boil_v99' })).json.error).toMatch(/variations 0..29/);
    expect(parseTaskId('grow-plant_v12_gen9')).toEqual({ task: 'grow-plant', variation: 12 });
  });
});

describe('sciworld env server, reference error convention', () => {
  it('answers errors with HTTP 200 and {"error"} by default, as the reference server does', async () => {
    const ref = await startSciworldServer({ port: 0 });
    try {
      const res = await fetch(ref.url, { method: 'POST', body: JSON.stringify({ action: 'look' }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ error: 'field "task_id" must be a non-empty string' });
    } finally {
      await ref.close();
    }
  });
});
