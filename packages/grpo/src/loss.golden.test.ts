// The GRPO loss against PyTorch (tools/golden/grpo_golden.py, float64 reference): loss, every
// parameter gradient and the metrics, for grpo / dapo / dr_grpo with and without KL, with clipping
// active on both sides and one KL token beyond the clamp. float64 graphs must agree to 1e-9,
// float32 graphs to 1e-4; two micro-batches with the global normaliser must add up to the whole.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type HostTensor, type TransformerConfig, hostTensor, transformerParams } from '@diffworld/mdlm-core';
import { describe, expect, it } from 'vitest';
import { type GrpoLossConfig, type LossAggregation, grpoBatchSpec, grpoInputs, grpoLoss, lossNormalizer } from './loss.js';
import { PolicyScorer } from './score.js';
import { GraphUpdater } from './updater.js';

const GOLDEN = resolve(import.meta.dirname, '../../../test-data/golden/grpo/grpo.json');

interface Dumped {
  shape: number[];
  data: number[];
}
interface Golden {
  config: {
    batch: number;
    seq: number;
    d_model: number;
    heads: number;
    kv_heads: number;
    head_dim: number;
    ffn: number;
    vocab: number;
    layers: number;
    rms_eps: number;
    rope_theta: number;
    temperature: number;
    epsilon_low: number;
    epsilon_high: number;
    kl_clamp: number;
    max_completion_length: number;
  };
  params: Record<string, Dumped>;
  batch: { input_ids: number[]; loss_mask: number[]; old_logp: number[]; ref_logp: number[]; advantages: number[] };
  policy_logp: Dumped;
  cases: { aggregation: LossAggregation; beta: number; loss: number; outputs: Record<string, number>; grads: Record<string, Dumped> }[];
}

function load(): Golden {
  try {
    return JSON.parse(readFileSync(GOLDEN, 'utf8'));
  } catch (e) {
    throw new Error(`golden file ${GOLDEN} is missing or unreadable (generate it with tools/golden/grpo_golden.py): ${(e as Error).message}`);
  }
}

function maxRelError(actual: ArrayLike<number>, expected: readonly number[]): number {
  expect(actual.length).toBe(expected.length);
  const scale = Math.max(1, ...expected.map(Math.abs));
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(Number(actual[i]) - expected[i]!));
  return worst / scale;
}

const g = load();
const c = g.config;
const model: TransformerConfig = {
  vocabSize: c.vocab,
  dModel: c.d_model,
  nLayers: c.layers,
  nHeads: c.heads,
  nKvHeads: c.kv_heads,
  headDim: c.head_dim,
  ffnDim: c.ffn,
  ropeTheta: c.rope_theta,
  rmsEps: c.rms_eps,
};
const lossConfig = (aggregation: LossAggregation, beta: number): GrpoLossConfig => ({
  epsilon: c.epsilon_low,
  epsilonHigh: c.epsilon_high,
  beta,
  aggregation,
  temperature: c.temperature,
  klClamp: c.kl_clamp,
});
const initParams = (dtype: 'float32' | 'float64') => Object.fromEntries(Object.entries(g.params).map(([k, v]) => [k, dtype === 'float64' ? Float64Array.from(v.data) : Float32Array.from(v.data)]));

/** Golden batch rows [from, to) as loss-graph feeds, with the normaliser of the whole batch. */
function feeds(dtype: 'float32' | 'float64', aggregation: LossAggregation, beta: number, from = 0, to = c.batch): Record<string, HostTensor> {
  const t = c.seq;
  const rows = to - from;
  const F = dtype === 'float64' ? Float64Array : Float32Array;
  const part = (xs: number[], width: number) => F.from(xs.slice(from * width, to * width));
  const maskTokens = g.batch.loss_mask.reduce((a, b) => a + b, 0);
  const f: Record<string, HostTensor> = {
    [grpoInputs.ids]: hostTensor('int64', BigInt64Array.from(g.batch.input_ids.slice(from * t, to * t).map(BigInt)), [rows, t]),
    [grpoInputs.mask]: hostTensor(dtype, part(g.batch.loss_mask, t), [rows, t]),
    [grpoInputs.oldLogp]: hostTensor(dtype, part(g.batch.old_logp, t), [rows, t]),
    [grpoInputs.advantages]: hostTensor(dtype, part(g.batch.advantages, 1), [rows]),
    [grpoInputs.norm]: hostTensor(dtype, F.of(lossNormalizer(aggregation, c.batch, maskTokens, c.max_completion_length)), []),
    [grpoInputs.temperature]: hostTensor(dtype, F.of(c.temperature), []),
  };
  if (beta > 0) f[grpoInputs.refLogp] = hostTensor(dtype, part(g.batch.ref_logp, t), [rows, t]);
  return f;
}

async function updater(dtype: 'float32' | 'float64', aggregation: LossAggregation, beta: number, rows = c.batch) {
  const cfg = lossConfig(aggregation, beta);
  return GraphUpdater.create({ params: transformerParams(model), batch: grpoBatchSpec(rows, c.seq, cfg, dtype), loss: grpoLoss(model, cfg), dtype }, initParams(dtype), { provider: 'cpu' });
}

describe('GRPO loss vs PyTorch', () => {
  it('the golden batch exercises both clip regions and the KL clamp', () => {
    const out = g.cases.find((k) => k.beta > 0)!.outputs;
    expect(out['clip_low']).toBeGreaterThan(0);
    expect(out['clip_high']).toBeGreaterThan(0);
    expect(g.cases.map((k) => `${k.aggregation}/${k.beta}`)).toEqual(['grpo/0', 'grpo/0.1', 'dapo/0', 'dapo/0.1', 'dr_grpo/0', 'dr_grpo/0.1']);
  });

  describe.each([
    ['float64', 1e-9],
    ['float32', 1e-4],
  ] as const)('%s graph', (dtype, tol) => {
    it.each(g.cases.map((k) => [k.aggregation, k.beta, k] as const))(`%s, β=%s: loss, gradients and metrics within ${tol}`, async (aggregation, beta, golden) => {
      const u = await updater(dtype, aggregation, beta);
      const r = await u.gradients(feeds(dtype, aggregation, beta));
      const errors: Record<string, number> = { loss: maxRelError([r.loss], [golden.loss]) };
      for (const [k, v] of Object.entries(golden.outputs)) errors[k] = maxRelError([r.outputs[k]!], [v]);
      for (const [k, v] of Object.entries(golden.grads)) errors[`grad ${k}`] = maxRelError(r.grads[k]!, v.data);
      expect(Object.keys(r.outputs).sort()).toEqual(Object.keys(golden.outputs).sort());
      for (const [k, e] of Object.entries(errors)) expect(e, k).toBeLessThanOrEqual(tol);
      console.log(`golden ${dtype} ${aggregation} β=${beta}: worst relative error ${Math.max(...Object.values(errors)).toExponential(2)}`);
    });
  });

  it.each(['grpo', 'dapo', 'dr_grpo'] as const)('%s: two micro-batches with the global normaliser add up to the whole batch (float64)', async (aggregation) => {
    const golden = g.cases.find((k) => k.aggregation === aggregation && k.beta > 0)!;
    const u = await updater('float64', aggregation, golden.beta, 2);
    const a = await u.gradients(feeds('float64', aggregation, golden.beta, 0, 2));
    const b = await u.gradients(feeds('float64', aggregation, golden.beta, 2, 4));
    expect(Math.abs(a.loss + b.loss - golden.loss)).toBeLessThanOrEqual(1e-9);
    for (const [k, v] of Object.entries(golden.grads)) {
      const sum = a.grads[k]!.map((x, i) => x + b.grads[k]![i]!);
      expect(maxRelError(sum, v.data), k).toBeLessThanOrEqual(1e-9);
    }
  });

  it('the scorer reproduces the policy log-probs of the sampled tokens (float64)', async () => {
    const scorer = await PolicyScorer.create(model, { batch: c.batch, seqLen: c.seq, temperature: c.temperature, dtype: 'float64', provider: 'cpu' });
    const rows = Array.from({ length: c.batch }, (_, i) => g.batch.input_ids.slice(i * c.seq, (i + 1) * c.seq));
    const lp = await scorer.logProbs(initParams('float64'), rows);
    expect(
      maxRelError(
        lp.flatMap((r) => Array.from(r)),
        g.policy_logp.data,
      ),
    ).toBeLessThanOrEqual(1e-9);
  });
});
