import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importPaperRow, samplePaperRow, writeImportedGames } from '@diffworld/alfworld';
import { PROMPT_SET_FORMAT, type PromptSet } from '@diffworld/env-core';
import { describe, expect, it } from 'vitest';
import { ENV_NAMES, envSuite } from '@diffworld/envs';
import { expertPolicy, mapBatch, randomPolicy, type Policy } from './policy.js';
import { evaluateAgent, selectTasks } from './runner.js';

describe('evaluateAgent', () => {
  for (const env of ENV_NAMES) {
    it(`the expert solves a sample of every ${env} split`, async () => {
      for (const split of envSuite(env).splits) {
        const { records, summary } = await evaluateAgent({ env, policy: expertPolicy(), split, limit: 3, seed: 5 });
        expect(records).toHaveLength(3);
        expect(
          records.every((r) => r.won && r.split === split && r.env === env),
          `${env}/${split}: ${records
            .filter((r) => !r.won)
            .map((r) => r.task_id)
            .join(', ')}`,
        ).toBe(true);
        expect(summary.overall.successRate).toBe(1);
        expect(summary.overall.successCI95[1]).toBe(1);
        expect(Object.values(summary.byTaskType).reduce((n, s) => n + s.episodes, 0)).toBe(3);
      }
    });
  }

  it('frames the conversation as the harness does and records parsed actions', async () => {
    const { records } = await evaluateAgent({ env: 'alfworld', policy: expertPolicy(), split: 'eval_in_distribution', limit: 1 });
    const r = records[0]!;
    expect(r.messages[0]!.role).toBe('system');
    expect(r.messages[1]!.content).toMatch(/^Observation:\n[\s\S]*Admissible commands:\n- /);
    expect(r.messages[2]!.content).toBe(`Action: ${r.actions[0]}`);
    expect(r.steps).toBe(r.actions.length);
    expect(r.messages).toHaveLength(2 + 2 * r.steps);
  });

  it('a prompt set replaces the agent system prompt, in the main thread and in workers', async () => {
    // A synthetic set (text written here): the agent prompt is constant, the WM template one slot.
    const prompts: PromptSet = {
      format: PROMPT_SET_FORMAT,
      env: 'alfworld',
      agentSystem: { parts: [{ text: 'Synthetic agent prompt.' }] },
      worldModel: { parts: [{ slot: 'task' }] },
      source: { files: [], agentSystem: { examples: 1, agreeing: 1 }, worldModel: { examples: 1, agreeing: 1 } },
    };
    for (const workers of [1, 2]) {
      const { records } = await evaluateAgent({ env: 'alfworld', policy: expertPolicy(), split: 'eval_in_distribution', limit: 2, workers, prompts });
      expect(records.map((r) => [r.messages[0]!.content, r.won])).toEqual([
        ['Synthetic agent prompt.', true],
        ['Synthetic agent prompt.', true],
      ]);
    }
  });

  it('an unparseable completion costs a turn, is not sent to the env, and the step limit ends the episode', async () => {
    const act: Policy['act'] = async () => '   ';
    const silent: Policy = { name: 'silent', act, actBatch: mapBatch(act) };
    const { records } = await evaluateAgent({ env: 'alfworld', policy: silent, split: 'train', limit: 1 });
    const r = records[0]!;
    expect(r.actions).toEqual([]);
    expect(r.won).toBe(false);
    expect(r.messages.filter((m) => m.role === 'assistant')).toHaveLength(envSuite('alfworld').maxSteps);
    expect(r.messages.at(-1)!.content).toMatch(/^Observation:\nNothing happens\./);
  });

  it('the random policy is near 0 on ALFWorld, where the expert is at 100%', async () => {
    const { summary } = await evaluateAgent({ env: 'alfworld', policy: randomPolicy(0), split: 'eval_out_of_distribution', limit: 60, seed: 0 });
    expect(summary.overall.episodes).toBe(60);
    expect(summary.overall.successRate).toBeLessThan(0.2);
    expect(summary.overall.meanSteps).toBeGreaterThan(40);
  });

  it('is deterministic given a seed: identical records with 1 and 2 workers', async () => {
    const opts = { env: 'alfworld', split: 'train', limit: 10, seed: 7 } as const;
    const one = await evaluateAgent({ ...opts, policy: randomPolicy(11), workers: 1 });
    const two = await evaluateAgent({ ...opts, policy: randomPolicy(11), workers: 2 });
    expect(two.summary.workers).toBe(2);
    expect(two.records).toEqual(one.records);
    const other = await evaluateAgent({ ...opts, policy: randomPolicy(12), workers: 1 });
    expect(other.records.map((r) => r.actions)).not.toEqual(one.records.map((r) => r.actions));
  });

  it('the random policy draws tool calls on AppWorld, which lists no admissible commands', async () => {
    const { records } = await evaluateAgent({ env: 'appworld', policy: randomPolicy(1), split: 'dev', limit: 2 });
    for (const r of records) for (const a of r.actions) expect(JSON.parse(a)[0].name).toMatch(/^\w+__\w+$/);
  });

  it('selects a seeded sample of tasks in split order and rejects unknown splits', () => {
    const a = selectTasks('alfworld', 'train', 5, 1);
    expect(selectTasks('alfworld', 'train', 5, 1)).toEqual(a);
    expect(selectTasks('alfworld', 'train', 5, 2)).not.toEqual(a);
    const all = selectTasks('alfworld', 'train', undefined, 1).map((t) => t.id);
    const positions = a.map((t) => all.indexOf(t.id));
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(() => selectTasks('alfworld', 'dev', 2, 0)).toThrow(/unknown split "dev" for alfworld: one of train/);
    expect(() => selectTasks('nethack', 'train', 2, 0)).toThrow(/unknown environment "nethack"/);
  });
});

describe('evaluateAgent on imported real games', () => {
  it('plays the games of a games file that belong to the split, in the main thread and in workers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-games-'));
    const file = join(dir, 'games.jsonl');
    const row = samplePaperRow();
    const second = samplePaperRow({ game_file: row.game_file.replace('trial_T20190001_000000_000001', 'trial_T2') });
    const other = samplePaperRow({ game_file: row.game_file.replace('trial_T20190001_000000_000001', 'trial_T3'), split: 'eval_in_distribution' });
    writeImportedGames(
      file,
      [row, second, other].map((r) => importPaperRow(r)),
    );
    // Two train games, so that workers: 2 really plays them in the pool (which loads the file itself).
    for (const workers of [1, 2]) {
      const { records, summary } = await evaluateAgent({ env: 'alfworld', policy: expertPolicy(), split: 'train', gamesFile: file, workers });
      expect(summary.workers).toBe(workers);
      expect(records.map((r) => [r.task_id, r.won])).toEqual([row, second].map((r) => [importPaperRow(r).task.id, true]));
      // The imported scene itself (a generated game under the same id would show another room).
      for (const r of records) expect(r.messages[1]!.content).toBe(row.messages[1]!.content);
    }
    await expect(evaluateAgent({ env: 'alfworld', policy: expertPolicy(), split: 'eval_out_of_distribution', gamesFile: file })).rejects.toThrow(
      'holds no eval_out_of_distribution games (its splits: train, eval_in_distribution)',
    );
    await expect(evaluateAgent({ env: 'sciworld', policy: expertPolicy(), split: 'dev', gamesFile: file })).rejects.toThrow('sciworld has no imported games');
  });
});
