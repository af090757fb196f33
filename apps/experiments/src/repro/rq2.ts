// RQ2: does GRPO inside a world model give agents that do better in the real engine? For each
// seed, the agent pipeline of `grpo train` once per world model (SFT, GRPO in that world model,
// GRPO in the real engine at the same budget, held-out evaluation in the real engine), all on the
// repro's stage runner: SFT, the real-engine GRPO run and their evaluations do not read the world
// model, so the second world model finds them done (same inputs, same stage) instead of training
// them again. Success is summarised per policy over seeds (mean, t-interval) and pooled over every
// held-out episode (Wilson interval).
import { wilsonInterval } from '@diffworld/env-core';
import type { AgentEvaluation } from '@diffworld/eval';
import type { ExperimentConfig } from '../config/schema.js';
import { GRPO_ARMS, agentPipeline } from '../grpo-train.js';
import type { InitialPolicy } from '../policy-init.js';
import { ExperimentContext } from '../stages/context.js';
import type { StageOutcome, StageRunner } from '../stages/runner.js';
import type { TokenizerArtefact } from '../stages/tokenizer.js';
import { type TrainResult, worldModelArtefact } from '../stages/world-model.js';

export interface PolicyOutcome {
  policy: string;
  /** Success rate per seed, in seed order. */
  perSeed: number[];
  mean: number;
  /** 95% t-interval of the mean over seeds (clamped to [0, 1]); [mean, mean] for one seed. */
  ci95Seeds: [number, number];
  wins: number;
  episodes: number;
  /** Wilson 95% interval over every episode of every seed. */
  ci95Pooled: [number, number];
}

export interface Rq2Result {
  seeds: number[];
  split: string;
  policies: PolicyOutcome[];
}

/** Two-sided 95% Student t quantiles, df 1…30; 1.96 beyond. */
const T95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045,
  2.042,
];

export function meanInterval(xs: readonly number[]): { mean: number; ci95: [number, number] } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / (n || 1);
  if (n < 2) return { mean, ci95: [mean, mean] };
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const h = (T95[n - 2] ?? 1.96) * (sd / Math.sqrt(n));
  return { mean, ci95: [Math.max(0, mean - h), Math.min(1, mean + h)] };
}

export async function runRq2(
  runner: StageRunner,
  c: ExperimentConfig,
  tok: TokenizerArtefact,
  worldModels: Record<'bd3' | 'ar', StageOutcome<TrainResult>>,
  log: (l: string) => void,
  init?: InitialPolicy,
): Promise<Rq2Result> {
  const perSeed: Record<string, { wins: number; episodes: number }[]> = {};
  const add = (policy: string, ev: AgentEvaluation) => (perSeed[policy] ??= []).push({ wins: ev.summary.overall.wins, episodes: ev.summary.overall.episodes });
  let split = '';
  for (const seed of c.seeds) {
    // Each seed also draws its own initial policy.
    const ctx = new ExperimentContext({ ...c, seed, policy: { ...c.policy, seed } }, runner, (l) => log(`[rq2 seed ${seed}] ${l}`));
    try {
      for (const obj of ['bd3', 'ar'] as const) {
        log(`[rq2] seed ${seed}, GRPO in the ${obj} world model`);
        // RQ2 compares every policy: every arm runs and the base is evaluated, whatever grpo.arms says.
        const r = await agentPipeline(ctx, tok, worldModelArtefact(ctx, tok, worldModels[obj]), init, { arms: GRPO_ARMS, evaluateBase: true });
        const ev = Object.fromEntries(r.evaluations.map((e) => [e.label, e.evaluation()]));
        if (obj === 'bd3') {
          add('base', ev['base']!);
          add('sft', ev['sft']!);
          add('sft+rl(real)', ev['grpo-real']!);
          split = ev['sft']!.summary.split;
        }
        add(`sft+rl(${obj} wm)`, ev['grpo-world-model']!);
      }
    } finally {
      await ctx.close();
    }
  }
  const order = ['base', 'sft', 'sft+rl(bd3 wm)', 'sft+rl(ar wm)', 'sft+rl(real)'];
  const policies = order.map((policy): PolicyOutcome => {
    const runs = perSeed[policy]!;
    const rates = runs.map((r) => (r.episodes ? r.wins / r.episodes : 0));
    const { mean, ci95 } = meanInterval(rates);
    const wins = runs.reduce((a, r) => a + r.wins, 0);
    const episodes = runs.reduce((a, r) => a + r.episodes, 0);
    return { policy, perSeed: rates, mean, ci95Seeds: ci95, wins, episodes, ci95Pooled: wilsonInterval(wins, episodes) };
  });
  return { seeds: c.seeds, split, policies };
}
