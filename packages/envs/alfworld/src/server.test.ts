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
  const res = await fetch(server.url + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
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
    // After the end a step answers the last state again, as the real server.
    expect((await call('POST', '/step', { task_id: 'par-0001', action: 'look' })).json).toEqual(last);
    expect(await call('DELETE', '/close', { task_id: 'par-0001' })).toEqual({ status: 200, json: { status: 'closed' } });
    // Close answers the same whether or not the episode is live.
    expect(await call('DELETE', '/close', { task_id: 'par-0001' })).toEqual({ status: 200, json: { status: 'closed' } });
  });

  it("speaks the real server's JSON: goal with its period, score as a float, a missing action is the empty command", async () => {
    const task = splitTasks('eval_in_distribution')[3]!;
    const res = await fetch(server.url + '/reset', { method: 'POST', body: JSON.stringify({ task_id: 'fmt', game_file: task.id, split: 'eval_in_distribution' }) });
    const text = await res.text();
    expect(res.headers.get('content-type')).toBe('application/json');
    const reset = JSON.parse(text) as { obs: string; goal: string };
    expect(text.startsWith('{"obs": "-= Welcome to TextWorld, ALFRED! =-\\n\\n')).toBe(true); // json.dumps spacing
    expect(reset.goal).toBe(/Your task is to: (.+)$/.exec(reset.obs)![1]);
    expect(reset.goal.endsWith('.')).toBe(true);
    const step = await (await fetch(server.url + '/step', { method: 'POST', body: JSON.stringify({ task_id: 'fmt' }) })).text();
    expect(step).toMatch(/^\{"obs": "Nothing happens\.", "admissible": \[.*\], "won": false, "done": false, "score": 0\.0\}$/);
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
    expect((await call('POST', '/reset', { task_id: 'x', game_file: '/data/json_2.1.1/valid_seen/pick_and_place_simple-Mug-None-Desk-301/trial_T1/game.tw-pddl' })).json.error).toMatch(
      /paper game paths need imported games/,
    );
    expect((await call('POST', '/step', { task_id: 'a', action: 7 })).json.error).toMatch(/action/);
    expect((await call('POST', '/step', '{not json')).status).toBe(400);
    expect((await call('POST', '/teleport', { task_id: 'a' })).status).toBe(404);
    expect((await call('PUT', '/reset', { task_id: 'a' })).status).toBe(405);
    expect(await (await fetch(server.url + '/health')).text()).toBe('ok');
  });
});

describe('ALFWorld HTTP env server, a reset without game_file', () => {
  it('plays the game of the split that task_id hashes to, names it in gamefile, and logs the first such reset only', async () => {
    const lines: string[] = [];
    const logged = await startAlfworldServer({ port: 0, log: (l) => lines.push(l) });
    try {
      const reset = async (body: Record<string, string>) => (await (await fetch(`${logged.url}/reset`, { method: 'POST', body: JSON.stringify(body) })).json()) as { gamefile: string; obs: string };
      await reset({ task_id: 'chosen', game_file: '3' });
      expect(lines).toEqual([]); // a reset that names its game says nothing
      const first = await reset({ task_id: 'ep-1' });
      expect(splitTasks('train').map((t) => t.id)).toContain(first.gamefile);
      expect(await reset({ task_id: 'ep-1' })).toEqual(first); // the same id, the same game
      expect(lines).toEqual([
        `POST /reset without game_file: episode "ep-1" plays train game ${first.gamefile}, chosen by hashing task_id (send game_file to pick the game; later resets without one are not logged)`,
      ]);
      const held = await reset({ task_id: 'ep-2', split: 'eval_in_distribution' });
      expect(splitTasks('eval_in_distribution').map((t) => t.id)).toContain(held.gamefile);
      expect(lines).toHaveLength(1);
    } finally {
      await logged.close();
    }
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
