import { describe, expect, it } from 'vitest';
import type { WorldModel } from '@diffworld/env-core';
import { Rng } from '@diffworld/env-core';
import { appworldSuite, createAppworldSuite } from '../suite.js';
import { AppworldEnv } from '../env.js';
import { sharedTemplate } from '../engine/world.js';
import { API_REGISTRY, APPS } from '../engine/registry.js';
import { agentParams } from '../engine/validate.js';
import { corpusRows, taskCorpusRows } from '../corpus.js';
import { startAppworldServer } from '../server.js';
import { tasksOf, taskRef, allTasks } from '../world/tasks/catalog.js';
import { parseToolCall } from './parser.js';
import { agentSystemPrompt, DISCOVERY_TOOLS, HARNESS_TOOLS, taskTools } from './prompt.js';
import { pyJsonDumps } from './py-json.js';
import { parseRecords, renderRecords, taskRecords } from './records.js';
import { actionWmPrompt, groundingPrompt, localResponder } from './wm.js';
import { heuristicReward } from './reward.js';

const task = tasksOf('train')[0]!;

describe('prompt and parser', () => {
  it('lists ~70 tools without access_token', () => {
    const p = agentSystemPrompt();
    expect(HARNESS_TOOLS.length).toBeGreaterThanOrEqual(70);
    expect(p).toContain('\n\nAvailable tools:\n- supervisor__show_account_passwords(no parameters)');
    expect(p).toContain('- venmo__create_transaction(receiver_email, amount, description, payment_card_id, private)');
    expect(p).not.toContain('access_token,');
  });

  it("names api_docs's discovery tools and every app, so the apps beyond the list are found as AppWorld's agents find them", () => {
    const p = agentSystemPrompt();
    for (const t of DISCOVERY_TOOLS) expect(HARNESS_TOOLS).toContain(t);
    expect(p).toContain('- api_docs__show_api_doc(app_name, api_name)');
    expect(p).toContain('- api_docs__show_api_descriptions(app_name)');
    expect(p).toContain('(api_docs, supervisor, amazon, phone, file_system, spotify, venmo, gmail, splitwise, simple_note, todoist)');
  });

  it("the world model's tool schemas add every API of the task's own apps, account upkeep aside", () => {
    const shop = allTasks().find((t) => t.scenario.apps.includes('amazon') && t.scenario.apps.includes('gmail'))!;
    const tools = taskTools(shop);
    expect(tools.slice(0, HARNESS_TOOLS.length)).toEqual([...HARNESS_TOOLS]);
    for (const t of ['amazon__place_order', 'amazon__show_cart', 'gmail__send_email', 'gmail__show_inbox_threads']) expect(tools).toContain(t);
    expect(tools).not.toContain('amazon__signup');
    expect(new Set(tools).size).toBe(tools.length);
    expect(groundingPrompt(shop)).toContain('\n- amazon__place_order(');
    const music = allTasks().find((t) => t.scenario.apps.every((a) => a === 'spotify' || a === 'supervisor'))!;
    expect(groundingPrompt(music)).not.toContain('amazon__');
    for (const t of allTasks())
      for (const app of t.scenario.apps)
        expect(
          taskTools(t).some((x) => x.startsWith(`${app}__`)),
          `${t.id} ${app}`,
        ).toBe(true);
  });

  it('accepts the reference formats', () => {
    const want = { name: 'spotify__login', parameters: { username: 'a@b.com', password: 'x' } };
    expect(parseToolCall('[{"name": "spotify__login", "parameters": {"username": "a@b.com", "password": "x"}}]')).toMatchObject({ ...want, format: 'array' });
    expect(parseToolCall('<think>hmm</think>```json\n[{"name": "spotify__login", "arguments": "{\\"username\\": \\"a@b.com\\", \\"password\\": \\"x\\"}"}]\n```')).toMatchObject(want);
    expect(parseToolCall('<tool_call>{"name": "spotify__login", "arguments": {"username": "a@b.com", "password": "x"}}</tool_call>')).toMatchObject({ ...want, format: 'tool_call_tag' });
    expect(parseToolCall('<|tool_call_start|>[spotify__login(username="a@b.com", password="x")]<|tool_call_end|>')).toMatchObject({ ...want, format: 'lfm' });
    expect(parseToolCall("Sure: {'name': 'spotify__login', 'parameters': {'username': 'a@b.com', 'password': 'x'}")).toMatchObject({ ...want, format: 'object' });
    expect(parseToolCall('I will now log in.')).toBeUndefined();
    expect(appworldSuite.parseAction('[{"name":"supervisor__show_profile","parameters":{}}]')).toBe('[{"name": "supervisor__show_profile", "parameters": {}}]');
  });

  it('pyJsonDumps matches Python json.dumps', () => {
    expect(pyJsonDumps({ a: [1, 'é', null, true], b: { c: '"\n' } })).toBe('{"a": [1, "\\u00e9", null, true], "b": {"c": "\\"\\n"}}');
    expect(pyJsonDumps({ b: 1, a: 2 }, { sortKeys: true })).toBe('{"a": 2, "b": 1}');
    expect(pyJsonDumps('😀')).toBe('"\\ud83d\\ude00"');
  });
});

describe('world-model prompts and the local responder', () => {
  it('records round-trip through the prompt text', () => {
    const records = taskRecords(task);
    const back = parseRecords(renderRecords(records, 1000));
    expect(back.playlists).toEqual(records.playlists);
    expect(back.contacts!.length).toBe(records.contacts!.length);
  });

  it('the action prompt has the sections in order and COMPUTED QUERY STATE for list calls', () => {
    const p = actionWmPrompt(task, { name: 'spotify__show_playlist_library', parameters: { page_limit: 2, access_token: 'x' } });
    const order = ['## ENVIRONMENT STATE', '## TASK CONTEXT', '## TOOL SCHEMAS', '## DOMAIN RULES', '## COMPUTED QUERY STATE', '## STEERING DIRECTIVES', 'PREDICTION TARGET:'].map((h) => p.indexOf(h));
    expect(order.every((x, i) => x >= 0 && (i === 0 || x > order[i - 1]!))).toBe(true);
    expect(p).toContain('records_on_this_page: 2');
    expect(p).not.toContain('"access_token"');
    const invalid = actionWmPrompt(task, { name: 'spotify__show_playlist_library', parameters: { page_limit: 'x' } });
    expect(invalid).toContain('- validation_status: invalid');
    expect(invalid).not.toContain('## COMPUTED QUERY STATE');
  });

  it('answers auth, login, lists and mutations deterministically, and defers otherwise', () => {
    const ref = taskRef(task);
    const call = (name: string, parameters: object) => `[${JSON.stringify({ name, parameters })}]`;
    const ctx = (name: string, parameters: object, history: { role: 'assistant' | 'user'; content: string }[] = []) => ({
      system: actionWmPrompt(task, { name, parameters }),
      history,
      action: call(name, parameters),
      task: ref,
    });
    expect(localResponder(ctx('spotify__show_playlist_library', {}))).toBe('{"error": "401 Unauthorized. Please login first."}');
    expect(localResponder(ctx('nope__x', {}))).toBe('{"error": "Unknown tool: nope__x"}');
    const pw = sharedTemplate().query<{ password: string }>("SELECT password FROM accounts WHERE app = 'spotify' AND user_id = ?", task.supervisor.id)[0]!.password;
    const login = call('spotify__login', { username: task.supervisor.email, password: pw });
    expect(localResponder(ctx('spotify__login', { username: task.supervisor.email, password: pw }))).toBe('{"access_token": "tok_valid", "token_type": "Bearer"}');
    expect(localResponder(ctx('spotify__login', { username: task.supervisor.email, password: 'bad' }))).toBe('{"error": "Invalid username or password"}');
    const history = [
      { role: 'assistant' as const, content: login },
      { role: 'user' as const, content: '<tool_response>\n{"access_token": "tok_valid"}\n</tool_response>' },
    ];
    const list = JSON.parse(localResponder(ctx('spotify__show_playlist_library', { page_limit: 2 }, history))!);
    expect(list.total).toBe(task.variant.answer);
    expect(list.playlists).toHaveLength(2);
    expect(JSON.parse(localResponder(ctx('spotify__like_song', { song_id: 1 }, history))!)).toEqual({ status: 'success', message: 'Action completed' });
    expect(localResponder(ctx('spotify__search_albums', { query: 'x' }, history))).toBeUndefined();
    // api_docs needs no login and answers as the engine's api_docs does, for apps beyond the paper's six too.
    expect(JSON.parse(localResponder(ctx('api_docs__show_app_descriptions', {}))!).map((x: { name: string }) => x.name)).toEqual([...APPS]);
    const doc = JSON.parse(localResponder(ctx('api_docs__show_api_doc', { app_name: 'todoist', api_name: 'show_task' }))!);
    expect(doc).toMatchObject({ app_name: 'todoist', api_name: 'show_task', method: 'GET' });
    expect(JSON.parse(localResponder(ctx('api_docs__show_api_descriptions', { app_name: 'nope' }))!).error).toContain('No APIs found for the app name nope');
  });
});

describe('rewards', () => {
  it('heuristic: expert trajectories score high, empty ones zero; exact replays the database tests', () => {
    for (const t of [tasksOf('train')[0]!, tasksOf('train')[3]!]) {
      const env = createAppworldSuite().createEnv();
      const msgs: { role: 'user' | 'assistant' | 'system'; content: string }[] = [];
      const actions = appworldSuite.expert(taskRef(t));
      return Promise.resolve(env.reset(taskRef(t))).then(async () => {
        for (const a of actions) msgs.push({ role: 'assistant', content: a }, { role: 'user', content: (await env.step(a)).observation.text });
        expect(heuristicReward(msgs, t.variant.instruction, t.variant.answer === null ? null : String(t.variant.answer))).toBeGreaterThan(0.7);
        expect(heuristicReward([], t.variant.instruction, null)).toBe(0);
        expect(createAppworldSuite({ reward: 'exact' }).reward(msgs, taskRef(t))).toBe(1);
        expect(createAppworldSuite({ reward: 'exact' }).reward(msgs.slice(0, -2), taskRef(t))).toBe(0);
      });
    }
  });
});

describe('robustness', () => {
  it('no malformed call crashes the engine or touches another episode', async () => {
    const a = allTasks()[0]!;
    const b = allTasks()[3]!;
    const envA = new AppworldEnv();
    const envB = new AppworldEnv();
    await envA.reset(taskRef(a));
    await envB.reset(taskRef(b));
    const rng = new Rng(1);
    const names = [...API_REGISTRY.keys(), 'x__y', '', '__', 'spotify__', "venmo__show_transactions'; DROP TABLE users;--"];
    const values: unknown[] = [null, -1, 1e308, 'x'.repeat(100_000), "'; DROP TABLE venmo_balances; --", [], {}, { $gt: 1 }, true, 3.5, '~/../../etc/passwd', '\u0000'];
    for (let i = 0; i < 600; i++) {
      const params: Record<string, unknown> = {};
      for (let k = rng.int(0, 4); k > 0; k--)
        params[rng.pick(['page_limit', 'query', 'song_id', 'amount', 'file_path', 'receiver_email', 'answer', 'title', rng.pick(['x', 'sort_by'])])] = rng.pick(values);
      const form = rng.int(0, 3);
      const action =
        form === 0
          ? JSON.stringify([{ name: rng.pick(names), parameters: params }])
          : form === 1
            ? JSON.stringify({ name: rng.pick(names), parameters: rng.pick(values) })
            : form === 2
              ? rng.pick(values.map(String))
              : `[{"name": "${rng.pick(names)}", "parameters": {`;
      if (action.includes('complete_task')) continue;
      const r = await envA.step(action);
      expect(typeof r.observation.text).toBe('string');
    }
    const before = sharedTemplate().query<{ n: number }>('SELECT count(*) AS n FROM users')[0]!.n;
    // Episode B is intact and still solvable by the expert.
    let last;
    for (const act of appworldSuite.expert(taskRef(b))) last = await envB.step(act);
    expect(last!.info.won).toBe(true);
    expect(before).toBe(40);
  });
});

describe('simulated env, corpus, server', () => {
  it('the simulated env answers from the responder and asks the world model otherwise', async () => {
    const asked: string[] = [];
    const wm: WorldModel = {
      predict: async (req) => {
        asked.push(req.action);
        return { text: '<tool_response>\n[{"album_id": 1}]\n</tool_response>' };
      },
    };
    const env = appworldSuite.createSimulatedEnv(wm);
    await env.reset(taskRef(task));
    expect((await env.step('[{"name": "supervisor__show_account_passwords", "parameters": {}}]')).observation.text).toContain(
      `{"app": "spotify", "username": "${task.supervisor.email}", "password": `,
    );
    const pw = sharedTemplate().query<{ password: string }>("SELECT password FROM accounts WHERE app = 'spotify' AND user_id = ?", task.supervisor.id)[0]!.password;
    expect((await env.step(JSON.stringify([{ name: 'spotify__login', parameters: { username: task.supervisor.email, password: pw } }]))).observation.text).toContain('tok_valid');
    expect((await env.step('[{"name": "spotify__search_albums", "parameters": {"query": "x"}}]')).observation.text).toBe('<tool_response>\n[{"album_id": 1}]\n</tool_response>');
    expect(asked[0]).toMatch(
      /^\[\{"role": "assistant", "content": "", "tool_calls": \[\{"id": "call_[0-9a-f]{8}", "type": "function", "function": \{"name": "spotify__search_albums", "arguments": "\{\\"query\\": \\"x\\"\}"\}\}\]\}\]$/,
    );
    const end = await env.step('[{"name": "supervisor__complete_task", "parameters": {"answer": 1}}]');
    expect(end.done).toBe(true);
  });

  it('corpus rows are system/user/assistant with the State/Action user turn', () => {
    const rows = [...taskCorpusRows([task], 2, 0)];
    expect(rows.length).toBeGreaterThan(appworldSuite.expert(taskRef(task)).length);
    const r = rows[1]!;
    expect(r.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(r.messages[0]!.content.startsWith('## ENVIRONMENT STATE')).toBe(true);
    expect(r.messages[1]!.content).toMatch(/^State: \[\{"role": "system", "content": "You are an AI assistant[\s\S]*\n\nAction: \[\{"role": "assistant"/);
    expect(r.messages[2]!.content.startsWith('<tool_response>\n')).toBe(true);
    expect(rows.some((x) => x.messages[2]!.content.includes('"error"'))).toBe(true);
    // The episode layout: one row per episode, its observations the transition rows' targets, the
    // last step's grounding as the system prompt and the scheduler's JSON call as the last action.
    const episodes = [...taskCorpusRows([task], 2, 0, undefined, 'episode')];
    expect(episodes).toHaveLength(2);
    const first = [...taskCorpusRows([task], 1, 0)]; // the expert episode's rows
    const e = episodes[0]!.messages;
    // (access tokens differ between two plays of a task, so the observations are compared by count and the first one)
    const observations = e.filter((m) => m.role === 'assistant').map((m) => m.content);
    expect(observations).toHaveLength(first.length);
    expect(observations[0]).toBe(first[0]!.messages[2]!.content);
    expect(e[0]!.content).toBe(first.at(-1)!.messages[0]!.content);
    expect(e.at(-2)!.content).toMatch(/^Action: \[\{"role": "assistant"/);
  });

  it('corpus rows of a split cycle its tasks, expert first; an unknown split is named', () => {
    const first = tasksOf('dev')[0]!;
    const rows = [...corpusRows({ split: 'dev', episodes: 1, seed: 0 })];
    expect(rows).toHaveLength(appworldSuite.expert(taskRef(first)).length);
    expect(rows[0]!.messages[1]!.content).toContain(first.variant.instruction);
    expect(() => [...corpusRows({ split: 'eval', episodes: 1, seed: 0 })]).toThrow('unknown split "eval" for appworld');
  });

  it('random actions are tool calls the parser accepts, with every required parameter', () => {
    const rng = new Rng(3);
    const history = [{ role: 'user' as const, content: 'Call joe@example.com at 5551234567.' }];
    for (let i = 0; i < 50; i++) {
      const call = parseToolCall(appworldSuite.randomAction!(taskRef(task), history, rng));
      expect(call).toBeDefined();
      const api = API_REGISTRY.get(call!.name)!;
      expect(HARNESS_TOOLS).toContain(call!.name);
      for (const p of agentParams(api)) expect(p.name in (call!.parameters as Record<string, unknown>)).toBe(p.required);
    }
  });

  it('the HTTP server plays an episode on an ephemeral 127.0.0.1 port', async () => {
    const server = await startAppworldServer();
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const post = async (path: string, body: object) => (await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;
      const reset = await post('/reset', { task_id: task.id });
      expect(reset.observation).toContain('Task: How many playlists');
      let last: Record<string, unknown> = {};
      for (const action of appworldSuite.expert(taskRef(task))) last = await post('/step', { episode_id: reset.episode_id, action });
      expect(last).toMatchObject({ done: true, reward: 1, info: { won: true } });
      const raw = await fetch(server.url + '/', { method: 'POST', body: JSON.stringify({ task_id: task.id, tool_name: 'supervisor__show_profile', tool_args: {} }) });
      expect(await raw.text()).toContain(task.supervisor.email);
      expect((await fetch(server.url + '/reset', { method: 'POST', body: JSON.stringify({ task_id: 'nope' }) })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
