// Whole-model agreement with PyTorch (tools/golden/engine_golden.py, float64 reference):
// forward outputs, loss, every parameter gradient, and 3 AdamW steps with clipping — checked with
// the engine in float64 (tight) and float32 (float32 tolerance).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Tensor, type TypedData, reshape, typedFrom } from '../graph/index.js';
import { compile } from '../testing/index.js';
import { crossEntropy, geluTanh, linear } from '../nn/functional.js';
import { blockCausalMask } from '../nn/masks.js';
import { ropeTables } from '../nn/functional.js';
import { type TransformerConfig, transformerForward, transformerParams } from '../nn/transformer.js';
import { probeProvider } from '../runtime/index.js';
import { type LossFn, type ParamSpec, type StepGraphSpec, buildFusedStep, buildGradStep, stepNames } from './step.js';

const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
const GOLDEN = resolve(import.meta.dirname, '../../../../test-data/golden/engine');

interface Dumped {
  shape: number[];
  data: number[];
}
interface Golden {
  config: Record<string, unknown> & { optimizer: { lr: number; betas: [number, number]; eps: number; weight_decay: number }; clip: number };
  params: Record<string, Dumped>;
  batch: Record<string, number[] | Dumped>;
  loss: number;
  outputs: Record<string, Dumped>;
  grads: Record<string, Dumped>;
  steps: { loss: number; grad_norm: number; params: Record<string, Dumped> }[];
}

function load(name: string): Golden {
  const path = resolve(GOLDEN, `${name}.json`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`golden file ${path} is missing or unreadable (generate it with tools/golden/engine_golden.py): ${(e as Error).message}`);
  }
}

function expectClose(actual: TypedData, expected: number[], tol: number, what: string): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  const scale = Math.max(1, ...expected.map(Math.abs));
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(Number(actual[i]) - expected[i]!));
  expect(worst / scale, `${what}: max abs error ${worst}`).toBeLessThanOrEqual(tol);
}

async function checkModel(golden: Golden, spec: StepGraphSpec, feedsBatch: Record<string, TypedData>, dtype: 'float32' | 'float64', tol: number, provider: 'cpu' | 'webgpu' = 'cpu') {
  const float = (xs: number[]) => typedFrom(dtype, xs);
  const { lr, betas, eps, weight_decay } = golden.config.optimizer;
  const full: StepGraphSpec = { ...spec, dtype, optimizer: { beta1: betas[0], beta2: betas[1], eps, weightDecay: weight_decay }, clipNorm: golden.config.clip };

  // First pass: outputs, loss and gradients.
  const gradRun = await compile(buildGradStep(full), provider);
  const params: Record<string, TypedData> = Object.fromEntries(Object.entries(golden.params).map(([k, v]) => [k, float(v.data)]));
  const first = await gradRun({ ...params, ...feedsBatch });
  expectClose(first.loss!.data, [golden.loss], tol, 'loss');
  for (const [k, v] of Object.entries(golden.outputs)) expectClose(first[k]!.data, v.data, tol, k);
  for (const [k, v] of Object.entries(golden.grads)) expectClose(first[stepNames.grad(k)]!.data, v.data, tol, `grad ${k}`);

  // Three fused AdamW steps on the same batch.
  const stepRun = await compile(buildFusedStep(full), provider);
  let state: Record<string, TypedData> = { ...params };
  for (const s of full.params) {
    state[stepNames.m(s.name)] = float(new Array(params[s.name]!.length).fill(0));
    state[stepNames.v(s.name)] = float(new Array(params[s.name]!.length).fill(0));
  }
  for (const [i, expected] of golden.steps.entries()) {
    const out = await stepRun({ ...state, ...feedsBatch, lr: float([lr]), step: float([i + 1]) });
    expectClose(out.loss!.data, [expected.loss], tol, `step ${i + 1} loss`);
    expectClose(out.grad_norm!.data, [expected.grad_norm], tol, `step ${i + 1} grad norm`);
    const next: Record<string, TypedData> = {};
    for (const s of full.params) {
      next[s.name] = out[stepNames.updated(s.name)]!.data;
      next[stepNames.m(s.name)] = out[stepNames.updated(stepNames.m(s.name))]!.data;
      next[stepNames.v(s.name)] = out[stepNames.updated(stepNames.v(s.name))]!.data;
      expectClose(next[s.name]!, expected.params[s.name]!.data, tol, `step ${i + 1} ${s.name}`);
    }
    state = next;
  }
}

function mlpSpec(g: Golden): { spec: StepGraphSpec; batch: (dtype: 'float32' | 'float64') => Record<string, TypedData> } {
  const c = g.config as unknown as { n: number; d_in: number; d_hidden: number; n_classes: number };
  const params: ParamSpec[] = Object.entries(g.params).map(([name, v]) => ({ name, shape: v.shape }));
  const loss: LossFn = (p, b) => {
    const h = geluTanh(linear(b.x!, p['fc1.weight']!, p['fc1.bias']!));
    const logits = linear(h, p['fc2.weight']!, p['fc2.bias']!);
    return { loss: crossEntropy(logits, b.targets!, b.weights!).loss, outputs: { logits } };
  };
  return {
    spec: {
      params,
      batch: [
        { name: 'x', dtype: 'float32', shape: [c.n, c.d_in] },
        { name: 'targets', dtype: 'int64', shape: [c.n] },
        { name: 'weights', dtype: 'float32', shape: [c.n] },
      ],
      loss,
    },
    batch: (dtype) => ({ x: typedFrom(dtype, (g.batch.x as Dumped).data), targets: typedFrom('int64', g.batch.targets as number[]), weights: typedFrom(dtype, g.batch.weights as number[]) }),
  };
}

function blockLmSpec(g: Golden): { spec: StepGraphSpec; batch: (dtype: 'float32' | 'float64') => Record<string, TypedData> } {
  const c = g.config as unknown as {
    batch: number;
    seq: number;
    d_model: number;
    heads: number;
    kv_heads: number;
    head_dim: number;
    ffn: number;
    vocab: number;
    block: number;
    rms_eps: number;
    rope_theta: number;
    mask_value: number;
  };
  const cfg: TransformerConfig = {
    vocabSize: c.vocab,
    dModel: c.d_model,
    nLayers: 1,
    nHeads: c.heads,
    nKvHeads: c.kv_heads,
    headDim: c.head_dim,
    ffnDim: c.ffn,
    ropeTheta: c.rope_theta,
    rmsEps: c.rms_eps,
  };
  const params = transformerParams(cfg);
  expect(params.map((p) => p.name).sort()).toEqual(Object.keys(g.params).sort());
  const { cos, sin } = ropeTables(c.seq, c.head_dim, c.rope_theta);
  const maskData = blockCausalMask(c.seq, c.block, c.mask_value);
  const loss: LossFn = (p, b) => {
    const dtype = p['lm_head.weight']!.dtype;
    const k = (data: Float64Array, shape: number[]): Tensor => b.input_ids!.graph.constant(typedFrom(dtype, data), dtype, shape);
    const logits = transformerForward(cfg, p, { inputIds: b.input_ids!, mask: k(maskData, [c.seq, c.seq]), cos: k(cos, [c.seq, c.head_dim]), sin: k(sin, [c.seq, c.head_dim]) });
    const flatLogits = reshape(logits, [c.batch * c.seq, c.vocab]);
    return { loss: crossEntropy(flatLogits, reshape(b.targets!, [-1]), reshape(b.weights!, [-1])).loss, outputs: { logits } };
  };
  return {
    spec: {
      params: params.map((p) => ({ ...p, decay: true })), // the reference decays every parameter
      batch: [
        { name: 'input_ids', dtype: 'int64', shape: [c.batch, c.seq] },
        { name: 'targets', dtype: 'int64', shape: [c.batch, c.seq] },
        { name: 'weights', dtype: 'float32', shape: [c.batch, c.seq] },
      ],
      loss,
    },
    batch: (dtype) => ({
      input_ids: typedFrom('int64', g.batch.input_ids as number[]),
      targets: typedFrom('int64', g.batch.targets as number[]),
      weights: typedFrom(dtype, g.batch.weights as number[]),
    }),
  };
}

function withDtype(spec: StepGraphSpec, dtype: 'float32' | 'float64'): StepGraphSpec {
  return { ...spec, batch: spec.batch.map((b) => (b.dtype === 'float32' ? { ...b, dtype } : b)) };
}

describe.each([
  ['mlp', mlpSpec],
  ['block_lm', blockLmSpec],
] as const)('PyTorch golden: %s', (name, make) => {
  it('float64 engine matches to 1e-9', async () => {
    const g = load(name);
    const { spec, batch } = make(g);
    await checkModel(g, withDtype(spec, 'float64'), batch('float64'), 'float64', 1e-9);
  });
  it('float32 engine matches within float32 tolerance', async () => {
    const g = load(name);
    const { spec, batch } = make(g);
    await checkModel(g, spec, batch('float32'), 'float32', 2e-4);
  });
  it('float32 engine on the WebGPU provider matches within float32 tolerance', async (ctx) => {
    const probe = await probeProvider('webgpu');
    if (!probe.ok) {
      // In CI the Vulkan driver is installed by .ci/run, so an unavailable WebGPU is a failure there.
      if (CI) throw new Error(`WebGPU did not initialise in CI: ${probe.reason}`);
      ctx.skip(`WebGPU unavailable here: ${probe.reason}`);
    }
    const g = load(name);
    const { spec, batch } = make(g);
    await checkModel(g, spec, batch('float32'), 'float32', 2e-4, 'webgpu');
  }, 180_000); // lavapipe compiles every shader on the CPU
});
