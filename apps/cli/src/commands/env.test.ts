import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEpisodeRecord } from '@diffworld/env-core';
import { ENV_NAMES, envSuite, type EnvName } from '@diffworld/envs';
import { runCli, runCliWithInput } from '../testing.js';

describe('diffworld env', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-env-'));

  it('expert writes one valid, winning episode record per task', async () => {
    const file = join(dir, 'demos.jsonl');
    const c = await runCli('env', 'expert', 'alfworld', '--split', 'eval_out_of_distribution', '--limit', '6', '--out', file);
    expect(c.code).toBe(0);
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => parseEpisodeRecord(JSON.parse(l)));
    expect(records).toHaveLength(6);
    for (const r of records) {
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.value).toMatchObject({ env: 'alfworld', split: 'eval_out_of_distribution', won: true });
    }
    expect(c.out).toContain('expert won 6 (100.0%)');
  });

  it('corpus writes world-model rows in the proxy format', async () => {
    const file = join(dir, 'corpus.jsonl');
    expect((await runCli('env', 'corpus', 'alfworld', '--split', 'train', '--episodes', '3', '--layout', 'transition', '--out', file)).code).toBe(0);
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect(row.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(row.messages[1].content).toMatch(/^State: \[.*\]\n\nAction: .+$/s);
    }
  });

  it('corpus writes one episode-layout row per episode by default; a bad --layout is a usage error', async () => {
    const file = join(dir, 'episodes.jsonl');
    const c = await runCli('env', 'corpus', 'alfworld', '--split', 'train', '--episodes', '3', '--out', file);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toContain('3 episodes → 3 rows (episode layout)');
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const row of rows) {
      expect(row.messages.length).toBeGreaterThan(3);
      expect(row.messages[1].content).toMatch(/^-= Welcome to TextWorld, ALFRED! =-.*\n\nAction: .+$/s);
      expect(row.messages[1].content).not.toContain('Admissible commands');
      expect(row.messages[3].content).toMatch(/^Action: /);
    }
    expect(await runCli('env', 'corpus', 'alfworld', '--split', 'train', '--episodes', '1', '--layout', 'rows', '--out', file)).toMatchObject({
      code: 2,
      err: expect.stringContaining('--layout must be one of transition, episode'),
    });
    expect(await runCli('env', 'corpus', 'sciworld', '--split', 'train', '--episodes', '1', '--fresh-games', '--out', file)).toMatchObject({
      code: 2,
      err: expect.stringContaining("--fresh-games: sciworld's engine does not generate games beyond its splits' tasks (only alfworld does)"),
    });
    // --per-step: one row per step, each the episode row cut after that step's observation.
    const steps = join(dir, 'steps.jsonl');
    const p = await runCli('env', 'corpus', 'alfworld', '--split', 'train', '--episodes', '3', '--per-step', '--out', steps);
    expect(p.code, p.err).toBe(0);
    const stepRows = readFileSync(steps, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const observations = rows.reduce((a, r) => a + (r.messages.length - 1) / 2, 0);
    expect(stepRows).toHaveLength(observations);
    expect(p.out).toContain(`3 episodes → ${observations} rows (episode layout, one per step)`);
    expect(stepRows[0].messages).toEqual(rows[0].messages.slice(0, 3));
    // Each step row keeps its own entry of the episode's per-observation state-change counts.
    expect(stepRows.map((r) => r.meta.state_changes)).toEqual(rows.flatMap((r) => r.meta.state_changes));
    expect(stepRows.every((r) => Number.isInteger(r.meta.state_changes))).toBe(true);
    expect(await runCli('env', 'corpus', 'alfworld', '--split', 'train', '--episodes', '1', '--layout', 'transition', '--per-step', '--out', steps)).toMatchObject({
      code: 2,
      err: expect.stringContaining('--per-step'),
    });
  });

  it('rejects an unknown environment or split with exit 2 and the valid names', async () => {
    const c = await runCli('env', 'expert', 'nethack', '--split', 'train', '--out', join(dir, 'x.jsonl'));
    expect(c.code).toBe(2);
    expect(c.err).toContain('unknown environment "nethack"');
    const d = await runCli('env', 'expert', 'alfworld', '--split', 'dev', '--out', join(dir, 'x.jsonl'));
    expect(d.code).toBe(2);
    expect(d.err).toContain('unknown split "dev" for alfworld: one of train, eval_in_distribution, eval_out_of_distribution');
  });
});

describe('diffworld env appworld', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-env-aw-'));
  it('expert wins every dev task and corpus rows use the proxy format', async () => {
    const file = join(dir, 'demos.jsonl');
    expect((await runCli('env', 'expert', 'appworld', '--split', 'dev', '--out', file)).code).toBe(0);
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.won === true && r.env === 'appworld')).toBe(true);
    const corpus = join(dir, 'corpus.jsonl');
    expect((await runCli('env', 'corpus', 'appworld', '--split', 'train', '--episodes', '2', '--layout', 'transition', '--out', corpus)).code).toBe(0);
    const rows = readFileSync(corpus, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows[0].messages[1].content).toMatch(/^State: \[.*\]\n\nAction: /s);
  });
});

describe('diffworld env sciworld', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-env-sw-'));
  it('expert reaches score 100 on dev variations; corpus rows use the proxy format', async () => {
    const file = join(dir, 'demos.jsonl');
    expect((await runCli('env', 'expert', 'sciworld', '--split', 'dev', '--limit', '5', '--out', file)).code).toBe(0);
    const records = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(5);
    expect(records.every((r) => r.won === true && r.score === 100 && r.env === 'sciworld')).toBe(true);
    const corpus = join(dir, 'corpus.jsonl');
    expect((await runCli('env', 'corpus', 'sciworld', '--split', 'train', '--episodes', '2', '--layout', 'transition', '--out', corpus)).code).toBe(0);
    const rows = readFileSync(corpus, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows[0].messages[1].content).toMatch(/^State: \[.*\]\n\nAction: /s);
  });
});

describe('diffworld env play', () => {
  it('plays typed commands in the real engine until the episode ends', async () => {
    const { alfworldSuite } = await import('@diffworld/alfworld');
    const task = alfworldSuite.tasks('eval_in_distribution')[2]!;
    const moves = alfworldSuite.expert(task);
    const r = await runCliWithInput(['', ...moves, 'look'], 'env', 'play', 'alfworld', '--split', 'eval_in_distribution', '--game', '2');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`# ${task.id}`);
    expect(r.out).toContain('Admissible commands:\n- ');
    expect(r.out).toContain(`> ${moves[0]}`);
    expect(r.out).toContain(`# episode over after ${moves.length} steps: score 1, won`);
    expect(r.out).not.toContain('> look'); // input after the end is not played
  });

  it('stops on "quit" and rejects a game index outside the split', async () => {
    const q = await runCliWithInput(['look', 'quit', 'inventory'], 'env', 'play', 'alfworld', '--game', '0');
    expect(q.code).toBe(0);
    expect(q.out).toContain('> look');
    expect(q.out).not.toContain('> inventory');
    const bad = await runCliWithInput([], 'env', 'play', 'alfworld', '--game', '999');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--game 999 is out of range: split eval_in_distribution has 140 tasks');
  });
});

describe('diffworld env import / serve --games', () => {
  it('imports paper rows into games, reports the replay, and serves them by game_file path', async () => {
    const { samplePaperRow, readImportedGames } = await import('@diffworld/alfworld');
    const dir = mkdtempSync(join(tmpdir(), 'dw-env-import-'));
    const rows = join(dir, 'rows.jsonl');
    const row = samplePaperRow();
    writeFileSync(rows, JSON.stringify(row) + '\n');
    const out = join(dir, 'games.jsonl');
    const c = await runCli('env', 'import', 'alfworld', rows, '--out', out);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toContain('1 games → ');
    expect(c.out).toContain('replay: 7/7 recorded observations identical (100.00%), 2 receptacles without a recorded text');
    const [game] = await readImportedGames(out);
    expect(game!.gameFile).toBe(row.game_file);
    expect(game!.inferred.length).toBeGreaterThan(0);
    // What `env serve alfworld --games FILE` starts: the game answers to its paper path.
    const { envSuite } = await import('@diffworld/envs');
    const server = await envSuite('alfworld').server.start({ host: '127.0.0.1', port: 0, gamesFile: out });
    try {
      const reset = (await (await fetch(`${server.url}/reset`, { method: 'POST', body: JSON.stringify({ task_id: 'par-1', game_file: row.game_file }) })).json()) as { obs: string; gamefile: string };
      expect(`Observation:\n${reset.obs}`).toBe(row.messages[1]!.content.split('\n\nAdmissible commands:')[0]);
      expect(reset.gamefile).toBe(row.game_file);
    } finally {
      await server.close();
    }
    await expect(envSuite('sciworld').server.start({ host: '127.0.0.1', port: 0, gamesFile: out })).rejects.toThrow('sciworld has no imported games');
    // eval agent plays the imported games of the split.
    const evalOut = join(dir, 'eval');
    const e = await runCli('eval', 'agent', '--env', 'alfworld', '--policy', 'expert', '--split', 'train', '--games', out, '--out', evalOut);
    expect(e.code, e.err).toBe(0);
    expect(e.out).toContain('alfworld/train expert: success 100.0% ');
    expect(readFileSync(join(evalOut, 'episodes.jsonl'), 'utf8')).toContain(JSON.stringify(game!.task.id));
    expect(await runCli('env', 'import', 'sciworld', rows, '--out', out)).toMatchObject({ code: 2, err: expect.stringContaining('only alfworld imports') });
    writeFileSync(rows, '{"game_file": 3}\n');
    expect(await runCli('env', 'import', 'alfworld', rows, '--out', out)).toMatchObject({ code: 2, err: expect.stringContaining(`${rows}:1: game_file: expected a string`) });
  });

  it('prompts extract derives a prompt file from rows; corpus and eval agent use it with --prompts', async () => {
    const { samplePaperRow } = await import('@diffworld/alfworld');
    const dir = mkdtempSync(join(tmpdir(), 'dw-env-prompts-'));
    const rows = join(dir, 'rows.jsonl');
    // Rows of the paper's shape with a system prompt written here (synthetic, not the paper's).
    const system = 'Synthetic agent prompt for the CLI test.';
    const row = samplePaperRow();
    writeFileSync(rows, JSON.stringify({ ...row, messages: [{ role: 'system', content: system }, row.messages[1]] }) + '\n');
    const prompts = join(dir, 'prompts.json');
    const c = await runCli('env', 'prompts', 'extract', 'alfworld', rows, '--out', prompts);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toContain('identical with our harness: agent system prompt 1/1 (100.0%), world-model prompt 1/1 (100.0%)');
    expect(JSON.parse(readFileSync(prompts, 'utf8'))).toMatchObject({ format: 'diffworld.prompts/1', env: 'alfworld', agentSystem: { parts: [{ text: system }] } });
    const corpus = join(dir, 'corpus.jsonl');
    expect((await runCli('env', 'corpus', 'alfworld', '--split', 'train', '--episodes', '1', '--prompts', prompts, '--out', corpus)).code).toBe(0);
    const first = JSON.parse(readFileSync(corpus, 'utf8').split('\n')[0]!);
    expect(first.messages[0].content).toMatch(/^Task: .*\nTask type: /);
    expect(first.messages[1].content).toContain(system);
    const evalOut = join(dir, 'eval');
    const e = await runCli('eval', 'agent', '--env', 'alfworld', '--policy', 'expert', '--split', 'train', '--limit', '1', '--prompts', prompts, '--out', evalOut);
    expect(e.code, e.err).toBe(0);
    expect(JSON.parse(readFileSync(join(evalOut, 'episodes.jsonl'), 'utf8').split('\n')[0]!).messages[0].content).toBe(system);
    // A set for another env and a missing rows file are refused with exit 2.
    expect(await runCli('env', 'corpus', 'sciworld', '--split', 'train', '--episodes', '1', '--prompts', prompts, '--out', corpus)).toMatchObject({
      code: 2,
      err: expect.stringContaining('this prompt set is for "alfworld", not sciworld'),
    });
    expect(await runCli('env', 'serve', 'sciworld', '--port', '0', '--prompts', prompts)).toMatchObject({ code: 2 });
    expect(await runCli('env', 'prompts', 'extract', 'alfworld', '--out', prompts)).toMatchObject({ code: 2 });
    writeFileSync(prompts, '{"format": "diffworld.prompts/1", "env": "appworld"}');
    expect(await runCli('eval', 'agent', '--env', 'alfworld', '--policy', 'expert', '--split', 'train', '--prompts', prompts, '--out', evalOut)).toMatchObject({
      code: 2,
      err: expect.stringContaining('this prompt set is for "appworld", not alfworld'),
    });
  });
});

/** One documented route: `METHOD PATH {request fields} → {response fields}` (the path may be "(any path)"). */
interface DocRoute {
  method: string;
  path: string;
  request: string[];
  response: string[] | undefined;
}

/** The routes of a protocol text: field names without `?`, defaults and values; a response that is not `{…}` has no fields. */
function documentedRoutes(protocol: string): DocRoute[] {
  const fields = (braces: string | undefined) => (braces === undefined ? [] : braces.split(',').map((f) => f.trim().replace(/[?=:].*$/, '')));
  return [...protocol.matchAll(/^(POST|GET|DELETE) (\(any path\)|\/\S*)(?: \{([^}]*)\})? → (?:\{([^}]*)\}.*|\S.*)$/gm)].map((m) => ({
    method: m[1]!,
    path: m[2]!,
    request: fields(m[3]),
    response: m[4] === undefined ? undefined : fields(m[4]),
  }));
}

describe('diffworld env serve --help', () => {
  it("prints every env's protocol", async () => {
    const r = await runCli('env', 'serve', '--help');
    expect(r.code).toBe(0);
    for (const env of ENV_NAMES) {
      for (const line of envSuite(env).server.protocol.split('\n')) expect(r.out).toContain(line);
      expect(documentedRoutes(envSuite(env).server.protocol).length).toBeGreaterThanOrEqual(3);
    }
    expect(r.out).toContain('Without game_file the server plays a game of the split');
  });

  // A client session per env, following the help text: each answer has exactly the documented fields.
  const sessions: Record<EnvName, (s: { reset: Record<string, unknown> }) => [string, string, Record<string, unknown> | undefined][]> = {
    alfworld: () => [
      ['POST', '/reset', { task_id: 'doc', game_file: '0', split: 'eval_in_distribution' }],
      ['POST', '/step', { task_id: 'doc', action: 'look' }],
      ['POST', '/prompts', { task_id: 'doc' }],
      ['DELETE', '/close', { task_id: 'doc' }],
      ['GET', '/health', undefined],
    ],
    sciworld: () => [
      ['POST', '/anything', { task_id: 'boil_v0', action: 'look around' }],
      ['DELETE', '/anything', { task_id: 'boil_v0' }],
      ['GET', '/health', undefined],
    ],
    appworld: ({ reset }) => [
      ['POST', '/reset', { task_id: envSuite('appworld').tasks('train')[0]!.id }],
      ['POST', '/step', { episode_id: reset['episode_id'], action: '[{"name": "supervisor__show_profile", "parameters": {}}]' }],
      ['POST', '/close', { episode_id: reset['episode_id'] }],
      ['POST', '/', { task_id: envSuite('appworld').tasks('train')[0]!.id, tool_name: 'supervisor__show_profile' }],
      ['DELETE', '/', { task_id: envSuite('appworld').tasks('train')[0]!.id }],
      ['GET', '/health', undefined],
    ],
  };

  for (const env of ENV_NAMES) {
    it(`${env}: the server answers each documented route with the documented response fields`, async () => {
      const routes = documentedRoutes(envSuite(env).server.protocol);
      const server = await envSuite(env).server.start({ host: '127.0.0.1', port: 0 });
      try {
        const state = { reset: {} as Record<string, unknown> };
        const requests = sessions[env](state);
        // Every documented route is exercised.
        expect(new Set(requests.map(([m, p]) => `${m} ${routes.find((r) => r.method === m && (r.path === p || r.path === '(any path)'))?.path}`)).size).toBe(routes.length);
        for (let i = 0; i < requests.length; i++) {
          const [method, path, body] = sessions[env](state)[i]!;
          const route = routes.find((r) => r.method === method && (r.path === path || r.path === '(any path)'));
          expect(route, `${method} ${path} is documented`).toBeDefined();
          for (const field of Object.keys(body ?? {})) expect(route!.request, `${method} ${path} documents "${field}"`).toContain(field);
          const res = await fetch(server.url + path, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
          const text = await res.text();
          expect(res.status, text).toBe(200);
          if (route!.response === undefined) continue;
          const json = JSON.parse(text) as Record<string, unknown>;
          expect(json['error'], `${method} ${path}`).toBeUndefined();
          expect(Object.keys(json).sort(), `${method} ${path}`).toEqual([...route!.response].sort());
          if (path === '/reset') state.reset = json;
        }
      } finally {
        await server.close();
      }
    });
  }
});
