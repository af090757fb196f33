// Issue 13, "Done when" bullet 2: on a toy env with a known optimal policy, GRPO from a weak SFT
// policy improves success by a clear, seeded margin — in the real toy env and in a perfect
// simulated copy of it behind the same TextEnv interface.
import { Rng } from '@diffworld/dataset';
import type { TaskRef, TextEnv } from '@diffworld/env-core';
import { type TransformerConfig, transformerParams } from '@diffworld/mdlm-core';
import { describe, expect, it } from 'vitest';
import { type Episode, type RolloutLimits, demonstration, rollout, scorerPolicy } from '../rollout.js';
import { type ParamValues, PolicyScorer } from '../score.js';
import { SftTrainer } from '../sft.js';
import { type GrpoConfig, type GrpoStepMetrics, GrpoTrainer } from '../trainer.js';
import { LINE_WALK_VOCAB, LineWalkCodec, LineWalkEnv, LineWalkOracle, SimulatedLineWalk, lineWalkExpert, lineWalkTasks } from './line-walk.js';

const MODEL: TransformerConfig = { vocabSize: LINE_WALK_VOCAB.length, dModel: 32, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 64, ropeTheta: 10000, rmsEps: 1e-6 };
const LIMITS: RolloutLimits = { maxTurns: 5, maxTokensPerTurn: 2, maxSeqLen: 40 };
const SAMPLING = { temperature: 1 };
const codec = new LineWalkCodec();
const SEED = 7;
const GRPO_STEPS = 40;

function initParams(cfg: TransformerConfig, seed: number): Record<string, Float32Array> {
  const rng = new Rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.float())) * Math.cos(2 * Math.PI * rng.float());
  return Object.fromEntries(
    transformerParams(cfg).map((p) => {
      const n = p.shape.reduce((a, b) => a * b, 1);
      const isNorm = p.shape.length === 1;
      return [p.name, Float32Array.from({ length: n }, () => (isNorm ? 1 : 0.1 * normal()))];
    }),
  );
}

/** Demonstrations from a noisy expert: each move is wrong with probability `noise`. */
async function noisyDemos(tasks: readonly TaskRef[], noise: number, rng: Rng): Promise<Episode[]> {
  const out: Episode[] = [];
  for (const task of tasks) {
    const env = new LineWalkEnv();
    let obs = (await env.reset(task)).text;
    const actions: string[] = [];
    for (let k = 0; k < LIMITS.maxTurns; k++) {
      const best = lineWalkExpert(obs);
      const a = rng.bool(noise) ? (best === 'L' ? 'R' : 'L') : best;
      actions.push(a);
      const r = await env.step(a);
      obs = r.observation.text;
      if (r.done) break;
    }
    out.push(await demonstration(new LineWalkEnv(), task, actions, codec, LIMITS));
  }
  return out;
}

async function successRate(scorer: PolicyScorer, params: ParamValues, tasks: readonly TaskRef[], makeEnv: () => TextEnv, seed: number): Promise<number> {
  const rng = new Rng(seed);
  const eps = await rollout(
    scorerPolicy(scorer, params),
    tasks.map((task, i) => ({ task, groupId: task.id, env: makeEnv(), rng: rng.fork(i) })),
    codec,
    LIMITS,
    SAMPLING,
  );
  return eps.filter((e) => e.won).length / eps.length;
}

async function weakSftPolicy(): Promise<ParamValues> {
  const demos = await noisyDemos(lineWalkTasks('demo', 256, 11), 0.4, new Rng(12));
  const sft = await SftTrainer.create({ model: MODEL, batch: 32, seqLen: LIMITS.maxSeqLen, optimizer: { weightDecay: 0 }, schedule: () => 3e-3, provider: 'cpu' }, initParams(MODEL, SEED));
  const rng = new Rng(13);
  for (let s = 0; s < 60; s++) await sft.step(rng.sample(demos, 32));
  return Object.fromEntries(Object.entries(sft.params()).map(([k, v]) => [k, v.slice()]));
}

const grpoConfig: GrpoConfig = {
  model: MODEL,
  loss: { epsilon: 0.2, beta: 0.04, aggregation: 'grpo', temperature: 1 },
  groupSize: 8,
  microBatch: 32,
  innerEpochs: 1,
  scaleRewards: 'group',
  limits: LIMITS,
  sampling: SAMPLING,
  optimizer: { weightDecay: 0 },
  schedule: () => 2e-3,
  clipNorm: 1,
  provider: 'cpu',
};

async function train(init: ParamValues, makeEnv: () => TextEnv): Promise<{ trainer: GrpoTrainer; log: GrpoStepMetrics[] }> {
  const trainer = await GrpoTrainer.create(grpoConfig, init);
  const tasks = lineWalkTasks('train', 1000, 21);
  const rng = new Rng(22);
  const log: GrpoStepMetrics[] = [];
  for (let s = 0; s < GRPO_STEPS; s++) {
    const batch = rng.sample(tasks, 4);
    log.push(await trainer.step(trainer.jobsFor(batch, makeEnv, rng), codec));
  }
  return { trainer, log };
}

describe('GRPO on line-walk (known optimal policy: success 1)', () => {
  it('improves a weak SFT policy by a clear margin in the real env and in its simulated copy', async () => {
    const t0 = performance.now();
    const sft = await weakSftPolicy();
    const scorer = await PolicyScorer.create(MODEL, { batch: 64, seqLen: LIMITS.maxSeqLen, temperature: 1, provider: 'cpu' });
    const heldOut = lineWalkTasks('test', 128, 31);
    const real = () => new LineWalkEnv();
    const sim = () => new SimulatedLineWalk(new LineWalkOracle());
    const before = await successRate(scorer, sft, heldOut, real, 41);
    const t1 = performance.now();
    const inReal = await train(sft, real);
    const afterReal = await successRate(scorer, inReal.trainer.params(), heldOut, real, 41);
    const t2 = performance.now();
    const inSim = await train(sft, sim);
    const afterSimOnReal = await successRate(scorer, inSim.trainer.params(), heldOut, real, 41);
    const t3 = performance.now();
    const last = (log: GrpoStepMetrics[]) => log.slice(-10).reduce((a, m) => a + m.success, 0) / 10;
    console.log(
      `line-walk: SFT success ${before.toFixed(3)} → GRPO(real) ${afterReal.toFixed(3)}, GRPO(sim) evaluated on real ${afterSimOnReal.toFixed(3)}; ` +
        `train success first/last 10 steps real ${inReal.log.slice(0, 10).reduce((a, m) => a + m.success, 0) / 10}/${last(inReal.log)}, sim ${last(inSim.log)}; ` +
        `SFT ${((t1 - t0) / 1000).toFixed(1)} s, GRPO real ${((t2 - t1) / 1000).toFixed(1)} s, sim ${((t3 - t2) / 1000).toFixed(1)} s for ${GRPO_STEPS} steps each`,
    );
    // The SFT policy is weak (noisy demos), GRPO brings both runs close to the optimum of 1.
    expect(before).toBeLessThan(0.75);
    expect(afterReal - before).toBeGreaterThanOrEqual(0.2);
    expect(afterSimOnReal - before).toBeGreaterThanOrEqual(0.2);
    for (const m of [...inReal.log, ...inSim.log]) {
      expect(m.zeroStdShare).toBeGreaterThanOrEqual(0);
      expect(m.zeroStdShare).toBeLessThanOrEqual(1);
      // A step whose groups all had equal rewards changed nothing (no optimizer step, no metrics of one).
      expect(m.skipped).toBe(m.zeroStdShare === 1);
      if (m.skipped) {
        expect(m.optimizerSteps).toBe(0);
        continue;
      }
      // μ = 1: the stored old log-probs come from the same weights, so ρ = 1 and nothing is clipped.
      expect(Math.abs(m.ratioMean - 1)).toBeLessThan(1e-4);
      expect(m.clipRatio).toBe(0);
      for (const k of ['loss', 'gradNorm', 'kl', 'entropy', 'rewardMean', 'rewardStd', 'tokensPerSec'] as const) expect(Number.isFinite(m[k]), k).toBe(true);
    }
    // A perfect simulated copy with the same seeds replays the real run reward for reward.
    expect(inSim.log.map((m) => m.rewardMean)).toEqual(inReal.log.map((m) => m.rewardMean));
    // The policy moved away from the reference (KL grows from 0) and became more certain.
    const updated = inReal.log.filter((m) => !m.skipped);
    expect(updated[0]!.kl).toBeLessThan(1e-4);
    expect(updated.at(-1)!.kl).toBeGreaterThan(updated[0]!.kl);
    expect(updated.at(-1)!.entropy).toBeLessThan(updated[0]!.entropy);
  }, 300_000);
});
