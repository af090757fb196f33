// Real-engine steps in the piscina env pool: lockstep rollouts over ALFWorld games give exactly the
// episodes of the in-process engine for the same seed (observations, rewards, wins, token ids),
// a failing env step in a worker surfaces as an error instead of a hang, and imported real games
// (eval.games) play in the workers as in the main thread.
import { fileURLToPath } from 'node:url';
import { Rng } from '@diffworld/dataset';
import type { Observation, TaskRef } from '@diffworld/env-core';
import { ENV_SUITES } from '@diffworld/envs';
import { describe, expect, it } from 'vitest';
import { type Episode, type NextTokenPolicy, type RolloutJob, type RolloutSource, type TurnCodec, realEngineSource, rollout } from '@diffworld/grpo';
import { EnvPool } from './env-pool.js';

const suite = ENV_SUITES.alfworld;
/** Four games imported from the repo's sample paper row (two train, two eval_in_distribution). */
const GAMES_FILE = fileURLToPath(new URL('../../../test-data/experiments/imported-games.jsonl', import.meta.url));
const tasks = suite.tasks('train').slice(0, 6);
// One token per turn: token k is the k-th of these completions (the experts' actions, a look, an
// unparseable one), so random draws give long, varied episodes that step the engine for real.
const completions = [...new Set([...tasks.flatMap((t) => suite.expert(t).map((a) => suite.agent.formatAction(a))), suite.agent.formatAction('look'), 'hmm'])];
const EOT = completions.length;
const textIds = (s: string) => [...s].map((c) => 1000 + (c.codePointAt(0)! % 5000));
const codec: TurnCodec = {
  encodePrompt: (obs: Observation) => textIds(obs.text),
  encodeObservation: (obs: Observation) => textIds(obs.text),
  endOfTurn: EOT,
  decodeTurn: (ids) => ids.map((k) => completions[k] ?? '').join(''),
};
// Uniform over the completions (never the end-of-turn id): every draw comes from the episode's rng.
const uniform: NextTokenPolicy = { batch: 64, nextLogits: async (rows) => rows.map(() => Float64Array.from({ length: EOT + 1 }, (_, k) => (k === EOT ? -1e9 : 0))) };

async function play(source: RolloutSource, seed: number): Promise<Episode[]> {
  const rng = new Rng(seed);
  const jobs: RolloutJob[] = tasks.flatMap((task: TaskRef, ti) => [0, 1, 2].map((g) => ({ task, groupId: `${ti}`, env: source.makeEnv(), rng: rng.fork(`${ti}:${g}`), seed: task.seed })));
  const eps = await rollout(uniform, jobs, codec, { maxTurns: 12, maxTokensPerTurn: 1, maxSeqLen: 1 << 20 }, { temperature: 1 });
  await Promise.all(jobs.map((j) => j.env.close?.()));
  return eps;
}

describe('EnvPool', () => {
  it('pooled rollouts equal in-process rollouts for the same seed, with both workers stepping', async () => {
    const pool = EnvPool.open('alfworld', 2);
    try {
      const local = await play(realEngineSource(suite), 7);
      const pooled = await play(realEngineSource(suite, pool), 7);
      expect(pooled).toEqual(local);
      // The episodes did play the engine: several turns each, varied endings; another seed differs.
      expect(local.reduce((a, e) => a + e.turns, 0)).toBeGreaterThan(local.length * 3);
      expect(new Set(local.map((e) => e.messages[e.messages.length - 1]!.content)).size).toBeGreaterThan(3);
      expect(await play(realEngineSource(suite, pool), 8)).not.toEqual(local);
    } finally {
      const served = await pool.close();
      expect(served).toHaveLength(2);
      for (const n of served) expect(n).toBeGreaterThan(50); // requests answered by each worker
    }
  }, 120_000);

  it('reports a failing env step from a worker as an error', async () => {
    const pool = EnvPool.open('alfworld', 1);
    try {
      const env = pool.makeEnv();
      await expect(env.step('look')).rejects.toThrow(/env pool shard 0: /);
    } finally {
      await pool.close();
    }
    expect(() => pool.makeEnv()).toThrow('after close');
  }, 60_000);

  it('plays imported real games in its workers when given their file (each thread registers them)', async () => {
    const imported = (await suite.loadGames!(GAMES_FILE)).filter((t) => t.split === 'train'); // the main thread's registry, as the evaluate stage does
    expect(imported).toHaveLength(2);
    const local = await Promise.all(imported.map((t) => realEngineSource(suite).makeEnv().reset(t, t.seed)));
    expect(local[0]!.text).toContain('Welcome to TextWorld');
    const pool = EnvPool.open('alfworld', 2, GAMES_FILE);
    try {
      const pooled = await Promise.all(imported.map((t) => realEngineSource(suite, pool).makeEnv().reset(t, t.seed)));
      expect(pooled).toEqual(local);
    } finally {
      await pool.close();
    }
    // Without the file the workers do not know these games.
    const bare = EnvPool.open('alfworld', 1);
    try {
      const t = imported[0]!;
      const got = await bare
        .makeEnv()
        .reset(t, t.seed)
        .then(
          (o) => o.text,
          (e: Error) => e.message,
        );
      expect(got).not.toEqual(local[0]!.text);
    } finally {
      await bare.close();
    }
  }, 120_000);
});
