// The paper's AppWorld client flow (its SFT script): POST {task_id, tool_name, tool_args} to the env
// server, use the response text as-is inside one <tool_response>, DELETE {task_id} at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@diffworld/env-core';
import { startAppworldServer } from './server.js';
import { tasksOf } from './world/tasks/catalog.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startAppworldServer({ maxBodyBytes: 64 * 1024 });
});
afterAll(async () => server.close());

async function call(task_id: string, tool_name: string, tool_args: object = {}): Promise<{ status: number; text: string }> {
  const r = await fetch(server.url + '/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task_id, tool_name, tool_args }) });
  return { status: r.status, text: await r.text() };
}
const observation = (text: string) => `<tool_response>\n${text}\n</tool_response>`;

describe("the paper's env-server client", () => {
  it('plays passwords → login → calls → complete_task with bare JSON bodies', async () => {
    const task = tasksOf('train')[0]!;
    const pw = await call(task.id, 'supervisor__show_account_passwords');
    expect(pw.status).toBe(200);
    const creds = JSON.parse(pw.text) as { app: string; username: string; password: string }[];
    expect(creds.map((c) => c.app)).toEqual(['spotify', 'venmo', 'file_system', 'simple_note']);
    for (const c of creds) expect(Object.keys(c)).toEqual(['app', 'username', 'password']);
    expect(creds[0]!.username).toBe(task.supervisor.email);
    const spotify = creds.find((c) => c.app === 'spotify')!;
    const login = await call(task.id, 'spotify__login', { username: spotify.username, password: spotify.password });
    expect(JSON.parse(login.text)).toMatchObject({ token_type: 'Bearer' });
    // The server keeps the token (the client never sends one), as the recorded calls show.
    const lib = await call(task.id, 'spotify__show_playlist_library', { page_index: 0, page_limit: 20 });
    expect(lib.text.startsWith('[')).toBe(true);
    expect(lib.text).not.toContain('<tool_response>');
    expect(observation(lib.text).match(/<tool_response>/g)).toHaveLength(1);
    expect(JSON.parse(lib.text)).toBeInstanceOf(Array);
    const done = await call(task.id, 'supervisor__complete_task', { answer: 1 });
    expect(done.text).toBe('{"message": "Marked the active task complete."}');
    expect(await (await fetch(server.url + '/', { method: 'DELETE', body: JSON.stringify({ task_id: task.id }) })).text()).toBe('{"deleted": true}');
  });

  it('errors come back as {"error": "Response status code is <n>:\\n<FastAPI body>"}', async () => {
    const task = tasksOf('dev')[0]!;
    const bad = await call(task.id, 'phone__login', { username: task.supervisor.email, password: 'nope' });
    expect(bad.status).toBe(200);
    expect(bad.text).toBe('{"error": "Response status code is 401:\\n{\\"message\\":\\"Invalid credentials\\"}"}');
    const unauth = JSON.parse((await call(task.id, 'venmo__show_account')).text) as { error: string };
    expect(unauth.error).toMatch(/^Response status code is 401:\n\{"message":"You are either not authorized/);
    const invalid = JSON.parse((await call(task.id, 'spotify__show_song', {})).text) as { error: string };
    expect(invalid.error).toMatch(/^Response status code is (401|422):\n\{"message":/);
    await fetch(server.url + '/', { method: 'DELETE', body: JSON.stringify({ task_id: task.id }) });
  });

  it('task ids follow <7 hex>_<1|2|3>: catalogue ids, real AppWorld ids, and nothing else', async () => {
    const real = await call('692c77d_1', 'supervisor__show_account_passwords');
    expect(JSON.parse(real.text)).toHaveLength(4);
    expect((await call('692c77d_1', 'supervisor__show_active_task')).text).toContain('692c77d_1');
    for (const bad of ['nope', '692c77d_4', '692C77D_1', '../etc_1']) {
      const r = await call(bad, 'supervisor__show_profile');
      expect(r.status, bad).toBe(404);
      expect(JSON.parse(r.text)).toHaveProperty('error');
    }
  });

  it("a token of one task's episode does not open another's", async () => {
    const [a, b] = tasksOf('test_normal') as [ReturnType<typeof tasksOf>[number], ReturnType<typeof tasksOf>[number]];
    const creds = JSON.parse((await call(a.id, 'supervisor__show_account_passwords')).text) as { app: string; username: string; password: string }[];
    const c = creds.find((x) => x.app === 'venmo')!;
    const token = (JSON.parse((await call(a.id, 'venmo__login', { username: c.username, password: c.password })).text) as { access_token: string }).access_token;
    const stolen = JSON.parse((await call(b.id, 'venmo__show_account', { access_token: token })).text) as { error?: string };
    expect(stolen.error).toMatch(/^Response status code is 401/);
  });

  it('a huge body is refused with 413 and the server keeps serving', async () => {
    const r = await fetch(server.url + '/', { method: 'POST', body: JSON.stringify({ task_id: '692c77d_2', tool_name: 'supervisor__show_profile', tool_args: { x: 'y'.repeat(200_000) } }) });
    expect(r.status).toBe(413);
    expect((await call('692c77d_2', 'supervisor__show_profile')).status).toBe(200);
  });
});
