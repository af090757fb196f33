import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@diffworld/env-core';
import { alfworldSuite } from './suite.js';
import { splitTasks } from './engine/splits.js';
import { startAlfworldServer } from './server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startAlfworldServer({ port: 0, errors: 'http' }); // statuses make the error cases visible
});
afterAll(async () => {
  await server.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(server.url + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('ALFWorld HTTP env server', () => {
  it('binds to 127.0.0.1 and plays an expert episode over HTTP to a win', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const task = splitTasks('eval_out_of_distribution')[5]!;
    const reset = await call('POST', '/reset', { task_id: 'par-0001', game_file: task.id, split: 'eval_out_of_distribution' });
    expect(reset.status).toBe(200);
    expect(reset.json.gamefile).toBe(task.id);
    expect(String(reset.json.obs)).toContain('Your task is to: ');
    expect(reset.json.goal).toBeTypeOf('string');
    const plan = alfworldSuite.expert(task);
    let last: Record<string, unknown> = {};
    for (const action of plan) {
      expect(reset.json.admissible).toBeInstanceOf(Array);
      last = (await call('POST', '/step', { task_id: 'par-0001', action })).json;
    }
    expect(last).toMatchObject({ won: true, done: true, score: 1 });
    expect((await call('POST', '/step', { task_id: 'par-0001', action: 'look' })).status).toBe(409);
    expect(await call('DELETE', '/close', { task_id: 'par-0001' })).toEqual({ status: 200, json: { status: 'closed' } });
  });

  it('keeps episodes isolated by id', async () => {
    await call('POST', '/reset', { task_id: 'a', game_file: '0' });
    await call('POST', '/reset', { task_id: 'b', game_file: '0' });
    const plan = alfworldSuite.expert(splitTasks('train')[0]!);
    const stepA = await call('POST', '/step', { task_id: 'a', action: plan[0] });
    expect(stepA.json.obs).not.toBe('Nothing happens.');
    const inv = await call('POST', '/step', { task_id: 'b', action: 'look' });
    expect(String(inv.json.obs)).toMatch(/^You are in the middle of a room/);
  });

  it('validates every request', async () => {
    expect((await call('POST', '/reset', {})).json.error).toMatch(/task_id/);
    expect((await call('POST', '/reset', { task_id: 'x', split: 'valid_seen' })).status).toBe(400);
    expect((await call('POST', '/reset', { task_id: 'x', game_file: '99999' })).json.error).toMatch(/out of range/);
    expect((await call('POST', '/reset', { task_id: 'x', game_file: 'nope' })).status).toBe(400);
    expect((await call('POST', '/step', { task_id: 'ghost', action: 'look' })).status).toBe(404);
    expect((await call('POST', '/step', { task_id: 'a', action: 7 })).json.error).toMatch(/action/);
    expect((await call('POST', '/step', '{not json')).status).toBe(400);
    expect((await call('POST', '/teleport', { task_id: 'a' })).status).toBe(404);
    expect((await call('PUT', '/reset', { task_id: 'a' })).status).toBe(405);
    expect(await (await fetch(server.url + '/health')).text()).toBe('ok');
  });
});

describe('ALFWorld HTTP env server, reference error convention', () => {
  it('answers errors with HTTP 200 and {"error"} by default, as the reference server does', async () => {
    const ref = await startAlfworldServer({ port: 0 });
    try {
      const res = await fetch(ref.url + '/step', { method: 'POST', body: JSON.stringify({ task_id: 'ghost', action: 'look' }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ error: expect.stringContaining('ghost') });
    } finally {
      await ref.close();
    }
  });
});
