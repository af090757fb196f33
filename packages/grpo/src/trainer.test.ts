import { Rng } from '@diffworld/dataset';
import { type TransformerConfig, transformerParams } from '@diffworld/mdlm-core';
import { describe, expect, it } from 'vitest';
import { packGrpo } from './batch.js';
import { GrpoError } from './errors.js';
import { lossNormalizer } from './loss.js';
import { SftTrainer } from './sft.js';
import { LINE_WALK_VOCAB, LineWalkCodec, LineWalkEnv, lineWalkTasks } from './toy/line-walk.js';
import { type GrpoConfig, GrpoTrainer } from './trainer.js';

const MODEL: TransformerConfig = { vocabSize: LINE_WALK_VOCAB.length, dModel: 16, nLayers: 1, nHeads: 2, nKvHeads: 1, ffnDim: 32, ropeTheta: 10000, rmsEps: 1e-6 };
const codec = new LineWalkCodec();

function init(seed: number): Record<string, Float32Array> {
  const rng = new Rng(seed);
  return Object.fromEntries(
    transformerParams(MODEL).map((p) => [p.name, Float32Array.from({ length: p.shape.reduce((a, b) => a * b, 1) }, () => (p.shape.length === 1 ? 1 : 0.3 * (rng.float() * 2 - 1)))]),
  );
}

const config: GrpoConfig = {
  model: MODEL,
  loss: { epsilon: 0.2, epsilonHigh: 0.28, beta: 0.04, aggregation: 'dapo', temperature: 1 },
  groupSize: 4,
  microBatch: 8,
  innerEpochs: 3,
  scaleRewards: 'group',
  limits: { maxTurns: 4, maxTokensPerTurn: 2, maxSeqLen: 32 },
  sampling: { temperature: 1 },
  schedule: () => 0.05,
  provider: 'cpu',
};

describe('GrpoTrainer', () => {
  it('μ inner epochs: one optimizer step each against the stored old log-probs, so later epochs move ρ off 1 and clip', async () => {
    const trainer = await GrpoTrainer.create(config, init(1));
    const tasks = lineWalkTasks('t', 4, 3); // 4 tasks × G 4 = 16 episodes = 2 micro-batches
    const episodes = await trainer.collect(
      trainer.jobsFor(tasks, () => new LineWalkEnv(), new Rng(2)),
      codec,
    );
    const advantages = episodes.map((_, i) => (i % 2 === 0 ? 1 : -1));
    const one = await (await GrpoTrainer.create({ ...config, innerEpochs: 1 }, init(1))).update(episodes, advantages);
    expect(Math.abs(one.ratioMean - 1)).toBeLessThan(1e-5); // on-policy: ρ ≡ 1
    expect(one.clipRatio).toBe(0);
    const m = await trainer.update(episodes, advantages);
    expect(m.optimizerSteps).toBe(3);
    expect(trainer.updater.nextStep).toBe(4);
    expect(Math.abs(m.ratioMean - 1)).toBeGreaterThan(1e-3);
    expect(m.clipRatio).toBeGreaterThan(0);
    expect(m.clipRatio).toBeCloseTo(m.clipLow + m.clipHigh, 12);
    expect(m.kl).toBeGreaterThan(0);
  });

  it('a step reports rollout and update metrics, rewarded by the reward option', async () => {
    // A reward that differs within every group (the episode's length), so the step updates.
    const trainer = await GrpoTrainer.create({ ...config, innerEpochs: 1, reward: (e) => e.policyTokens }, init(1));
    const m = await trainer.step(
      trainer.jobsFor(lineWalkTasks('t', 2, 3), () => new LineWalkEnv(), new Rng(2)),
      codec,
    );
    expect(m).toMatchObject({ step: 1, episodes: 8, optimizerSteps: 1 });
    for (const k of ['rewardMean', 'rewardStd', 'zeroStdShare', 'success', 'policyTokens', 'turns', 'truncated', 'tokensPerSec', 'rolloutMs', 'updateMs', 'loss', 'gradNorm', 'entropy', 'kl'] as const)
      expect(Number.isFinite(m[k]), k).toBe(true);
    expect(m.policyTokens).toBeGreaterThan(0);
    expect(m.rewardMean).toBe(m.policyTokens);
    expect(m).toMatchObject({ skipped: false, refillRounds: 0 });
    expect(m.usableGroups).toBeGreaterThan(0);
  });

  it('a step whose groups all have equal rewards changes no weight, bit for bit, and says so', async () => {
    // β > 0 and AdamW: an update with every advantage 0 would still move the weights (the KL term,
    // weight decay), so the trainer skips it.
    const trainer = await GrpoTrainer.create({ ...config, innerEpochs: 2, optimizer: { weightDecay: 0.01 }, reward: () => 0.5 }, init(1));
    const before = Object.fromEntries(Object.entries(trainer.params()).map(([k, v]) => [k, Float32Array.from(v)]));
    const m = await trainer.step(
      trainer.jobsFor(lineWalkTasks('t', 2, 3), () => new LineWalkEnv(), new Rng(2)),
      codec,
    );
    expect(m).toMatchObject({ step: 1, skipped: true, usableGroups: 0, optimizerSteps: 0, zeroStdShare: 1 });
    for (const [k, v] of Object.entries(trainer.params())) expect(Buffer.from(v.buffer, v.byteOffset, v.byteLength).equals(Buffer.from(before[k]!.buffer)), k).toBe(true);
    expect(trainer.updater.nextStep).toBe(1);
  });

  it('dynamic sampling drops groups without reward variance and refills them from fresh tasks', async () => {
    // Task 0's group has equal rewards, every later task's group varies: the step rolls out one
    // refill round and updates on the two usable groups.
    const tasks = lineWalkTasks('t', 4, 3);
    let n = 0;
    const reward = (e: { task: { id: string } }) => (e.task.id === tasks[0]!.id ? 1 : n++ % 2);
    const trainer = await GrpoTrainer.create({ ...config, innerEpochs: 1, reward }, init(1));
    let asked = 0;
    const dynamic = {
      maxRounds: 3,
      more: (round: number) => {
        asked++;
        return trainer.jobsFor([tasks[1 + round]!], () => new LineWalkEnv(), new Rng(10 + round));
      },
    };
    const m = await trainer.step(
      trainer.jobsFor([tasks[0]!, tasks[1]!], () => new LineWalkEnv(), new Rng(2)),
      codec,
      dynamic,
    );
    expect(asked).toBe(1);
    expect(m).toMatchObject({ refillRounds: 1, usableGroups: 2, skipped: false, optimizerSteps: 1, episodes: 12 });
    expect(m.zeroStdShare).toBeCloseTo(1 / 3, 12);
  });

  it('resumes from a saved state to the same weights as an uninterrupted run', async () => {
    const tasks = lineWalkTasks('t', 6, 3);
    const cfg = { ...config, innerEpochs: 2, reward: (e: { policyTokens: number }) => e.policyTokens };
    const run = async (t: GrpoTrainer, steps: number) => {
      for (let s = 0; s < steps; s++)
        await t.step(
          t.jobsFor([tasks[t.state().step % 6]!, tasks[(t.state().step + 1) % 6]!], () => new LineWalkEnv(), new Rng(5)),
          codec,
        );
    };
    const straight = await GrpoTrainer.create(cfg, init(4));
    await run(straight, 3);
    const first = await GrpoTrainer.create(cfg, init(4));
    await run(first, 2);
    const saved = first.state();
    const resumed = await GrpoTrainer.create(cfg, init(99)); // different weights: all of it must come from the state
    resumed.restore(saved);
    await run(resumed, 1);
    const w = init(4)['lm_head.weight']!;
    expect(straight.params()['lm_head.weight']!.some((x, i) => Math.abs(x - w[i]!) > 1e-4)).toBe(true); // training moved the weights
    expect(resumed.state().step).toBe(3);
    expect(resumed.updater.nextStep).toBe(straight.updater.nextStep);
    for (const [k, v] of Object.entries(straight.state().optimizer)) expect(Array.from(resumed.state().optimizer[k]!), k).toEqual(Array.from(v));
    expect(() => resumed.restore({ ...saved, optimizer: {} })).toThrow(/saved state has no/);
  });

  it('stops with a clear error when the weights are not finite', async () => {
    const bad = init(1);
    bad['lm_head.weight']![0] = Number.NaN;
    const trainer = await GrpoTrainer.create({ ...config, innerEpochs: 1 }, bad);
    const run = trainer.step(
      trainer.jobsFor(lineWalkTasks('t', 1, 3), () => new LineWalkEnv(), new Rng(2)),
      codec,
    );
    await expect(run).rejects.toThrow(GrpoError);
    await expect(run).rejects.toThrow(/next-token logits are NaN for task t-0 at token 5/);
    const sft = await SftTrainer.create({ model: MODEL, batch: 2, seqLen: 8, provider: 'cpu' }, bad);
    await expect(sft.step([{ ids: [1, 3, 9, 2], lossMask: [0, 0, 1, 1] }])).rejects.toThrow(/SFT step 1, micro-batch 1\/1: loss is NaN/);
  });

  it('rejects non-finite advantages and log-probs before they reach the graph', () => {
    const row = { ids: [1, 2, 3], lossMask: [0, 1, 1], advantage: 1, oldLogp: [0, -1, Number.NaN] };
    expect(() => packGrpo([row], 2, 4, { dtype: 'float32', norm: 1, temperature: 1, withRef: false })).toThrow(/row 0 token 2 has old log-prob NaN/);
    expect(() => packGrpo([{ ...row, oldLogp: [0, -1, -1], advantage: Number.POSITIVE_INFINITY }], 2, 4, { dtype: 'float32', norm: 1, temperature: 1, withRef: false })).toThrow(/advantage Infinity/);
    expect(() => packGrpo([{ ...row, oldLogp: [0, -1, -1], lossMask: [1, 1, 1] }], 2, 4, { dtype: 'float32', norm: 1, temperature: 1, withRef: false })).toThrow(/mask 1 on its first token/);
  });

  it('validates the configuration', async () => {
    await expect(GrpoTrainer.create({ ...config, groupSize: 1 }, init(1))).rejects.toThrow(/groupSize must be an integer ≥ 2/);
    await expect(GrpoTrainer.create({ ...config, sampling: { temperature: 0.9 } }, init(1))).rejects.toThrow(/sampling temperature 0.9 differs from the loss temperature 1/);
    await expect(GrpoTrainer.create({ ...config, loss: { ...config.loss, epsilon: 1.5 } }, init(1))).rejects.toThrow(/epsilon must be in \[0, 1\)/);
  });

  it('normalisers: sequences (grpo), mask tokens (dapo), sequences × max completion length (dr_grpo)', () => {
    expect(lossNormalizer('grpo', 8, 50, 128)).toBe(8);
    expect(lossNormalizer('dapo', 8, 50, 128)).toBe(50);
    expect(lossNormalizer('dapo', 8, 0, 128)).toBe(1);
    expect(lossNormalizer('dr_grpo', 8, 50, 128)).toBe(1024);
  });
});

describe('SftTrainer', () => {
  it('lowers the next-token loss on policy tokens and refuses batches without any', async () => {
    const sft = await SftTrainer.create({ model: MODEL, batch: 4, seqLen: 16, schedule: () => 0.01, provider: 'cpu' }, init(3));
    const row = { ids: [1, 3, 9, 4, 12, 7, 2], lossMask: [0, 0, 0, 0, 0, 1, 1] };
    const first = await sft.step([row, row]);
    let last = first;
    for (let i = 0; i < 30; i++) last = await sft.step([row, row]);
    expect(last.loss).toBeLessThan(first.loss * 0.5);
    expect(() => sft.step([{ ids: [1, 2], lossMask: [0, 0] }])).toThrow(/no row has a policy token/);
  });
});
