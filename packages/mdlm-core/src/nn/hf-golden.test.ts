// Agreement with Hugging Face transformers (tools/golden/hf_models.py, transformers 5.17 / torch
// 2.11, outputs in test-data/golden/hf): checkpoints saved by transformers (float32, bfloat16, one
// sharded) load through parseHfConfig + loadCheckpoint and reproduce transformers' logits,
// masked cross-entropy loss and every parameter gradient; RoPE inverse frequencies and cos/sin match
// to float32 rounding (almost all bit for bit) for default, linear, dynamic, llama3 and yarn at
// positions past 4,096; llama3- and
// yarn-scaled models match at positions 5000..5007; a checkpoint written by DiffWorld gives the
// logits transformers computes from it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint as loadCheckpointDir } from '../checkpoint/directory.js';
import { Graph, type Tensor, type TypedData, reshape, typedFrom } from '../graph/index.js';
import { compile } from '../testing/index.js';
import { type LossFn, type StepGraphSpec, buildGradStep, stepNames } from '../train/step.js';
import { type ModelConfig, parseHfConfig } from './config.js';
import { crossEntropy } from './functional.js';
import { writeGoldenCheckpoint } from './golden-checkpoint.js';
import { causalMask } from './masks.js';
import { ropeFrequencies, ropeTablesAt, ropeTablesRange } from './rope.js';
import { decoderForward, headDimOf, transformerParams } from './transformer.js';

const GOLDEN = resolve(import.meta.dirname, '../../../../test-data/golden/hf');

interface Entry {
  offset: number;
  shape: number[];
}
interface Reference {
  logits: Entry;
  loss: number;
  grads: Record<string, Entry>;
  param_names: string[];
  checkpoint: string;
  files: string[];
}
interface Index {
  transformers_version: string;
  batch: { input_ids: number[]; targets: number[]; weights: number[]; shape: [number, number] };
  models: Record<string, { variants?: Record<'float32' | 'bfloat16', Reference>; checkpoint?: string; position_start?: number; logits?: Entry }>;
  rope: Record<string, { config: string; positions: number[]; inv_freq_init: Entry; inv_freq: Entry; attention_scaling: number; cos: Entry; sin: Entry }>;
  diffworld_written: { logits: Entry; param_names: string[]; tied: boolean; config_class: string };
  errors: string[];
}

let index: Index;
let blob: Float32Array;
const tensor = (e: Entry): Float32Array => blob.subarray(e.offset, e.offset + e.shape.reduce((a, b) => a * b, 1));

beforeAll(() => {
  index = JSON.parse(readFileSync(join(GOLDEN, 'index.json'), 'utf8')) as Index;
  const bytes = readFileSync(join(GOLDEN, 'tensors.bin'));
  blob = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  expect(index.errors).toEqual([]);
});

/** config.json through parseHfConfig, weights through the checkpoint loader (shards + index included). */
async function loadCheckpoint(dir: string): Promise<{ cfg: ModelConfig; weights: Map<string, Float32Array> }> {
  const loaded = await loadCheckpointDir(dir);
  const cfg = parseHfConfig(loaded.config, join(dir, 'config.json'));
  return { cfg, weights: new Map([...loaded.weights].map(([name, w]) => [name, w.data])) };
}

/** max |a − b| and the same relative to max(1, max |b|). */
function diff(actual: ArrayLike<number>, expected: ArrayLike<number>): { abs: number; rel: number } {
  expect(actual.length).toBe(expected.length);
  let abs = 0;
  let scale = 1;
  for (let i = 0; i < expected.length; i++) {
    abs = Math.max(abs, Math.abs(Number(actual[i]) - expected[i]!));
    scale = Math.max(scale, Math.abs(expected[i]!));
  }
  return { abs, rel: abs / scale };
}

function lossSpec(cfg: ModelConfig, b: number, t: number, positionStart = 0): StepGraphSpec {
  const hd = headDimOf(cfg);
  const { cos, sin } = ropeTablesRange(cfg, positionStart, t);
  const mask = causalMask(t);
  const loss: LossFn = (p, batch) => {
    const dtype = p['model.embed_tokens.weight']!.dtype;
    const k = (data: Float64Array, shape: number[]): Tensor => batch.input_ids!.graph.constant(typedFrom(dtype, data), dtype, shape);
    const { logits } = decoderForward(cfg, p, { inputIds: batch.input_ids!, mask: k(mask, [t, t]), cos: k(cos, [t, hd]), sin: k(sin, [t, hd]) });
    return { loss: crossEntropy(reshape(logits, [b * t, cfg.vocabSize]), reshape(batch.targets!, [-1]), reshape(batch.weights!, [-1])).loss, outputs: { logits } };
  };
  return {
    params: transformerParams(cfg),
    batch: [
      { name: 'input_ids', dtype: 'int64', shape: [b, t] },
      { name: 'targets', dtype: 'int64', shape: [b, t] },
      { name: 'weights', dtype: 'float32', shape: [b, t] },
    ],
    loss,
  };
}

async function runModel(dir: string, dtype: 'float32' | 'float64', positionStart = 0) {
  const { cfg, weights } = await loadCheckpoint(dir);
  const [b, t] = index.batch.shape;
  const spec = lossSpec(cfg, b, t, positionStart);
  const withDtype: StepGraphSpec = { ...spec, dtype, batch: spec.batch.map((x) => (x.dtype === 'float32' ? { ...x, dtype } : x)) };
  const run = await compile(buildGradStep(withDtype), 'cpu');
  const feeds: Record<string, TypedData> = {
    input_ids: typedFrom('int64', index.batch.input_ids),
    targets: typedFrom('int64', index.batch.targets),
    weights: typedFrom(dtype, index.batch.weights),
  };
  for (const p of spec.params) {
    const w = weights.get(p.name);
    if (!w) throw new Error(`${dir}: no tensor ${p.name}`);
    feeds[p.name] = dtype === 'float64' ? Float64Array.from(w) : w;
  }
  return { cfg, names: spec.params.map((p) => p.name), weightNames: [...weights.keys()], out: await run(feeds) };
}

const MODELS = ['llama_tied', 'llama_untied_bias', 'qwen2', 'qwen3'] as const;
// float32 rounding over two layers of random weights: ≤ 9e-6 of max(1, max |reference|) measured.
const TOL = 3e-5;

describe.each(MODELS)('transformers golden: %s', (model) => {
  describe.each(['float32', 'bfloat16'] as const)('checkpoint saved in %s', (variant) => {
    it.each(['float32', 'float64'] as const)('our %s engine reproduces logits, loss and every gradient', async (dtype) => {
      const ref = index.models[model]!.variants![variant];
      const { names, weightNames, out } = await runModel(join(GOLDEN, ref.checkpoint), dtype);
      // Same parameters as transformers (tied models have no lm_head.weight in either).
      expect([...names].sort()).toEqual([...ref.param_names].sort());
      expect([...weightNames].sort()).toEqual([...ref.param_names].sort());
      const worst: Record<string, number> = {};
      const logits = diff(out['logits']!.data as ArrayLike<number>, tensor(ref.logits));
      worst['logits'] = logits.abs;
      expect(logits.rel, 'logits').toBeLessThan(TOL);
      const loss = diff(out[stepNames.loss]!.data as ArrayLike<number>, [ref.loss]);
      worst['loss'] = loss.abs;
      expect(loss.rel, 'loss').toBeLessThan(TOL);
      let g = 0;
      for (const [name, e] of Object.entries(ref.grads)) {
        const d = diff(out[stepNames.grad(name)]!.data as ArrayLike<number>, tensor(e));
        g = Math.max(g, d.abs);
        expect(d.rel, `grad ${name}`).toBeLessThan(TOL);
      }
      worst['grads'] = g;
      console.log(
        `[hf golden] ${model} ${variant} checkpoint, ${dtype} engine: max abs diff logits ${worst['logits']!.toExponential(2)}, loss ${worst['loss']!.toExponential(2)}, grads ${worst['grads']!.toExponential(2)}`,
      );
    });
  });
});

describe('transformers golden: sharded checkpoint', () => {
  it('the float32 llama_untied_bias save is sharded (model.safetensors.index.json over 3 files)', () => {
    const ref = index.models['llama_untied_bias']!.variants!.float32;
    expect(ref.files).toContain('model.safetensors.index.json');
    expect(ref.files.filter((f) => /^model-\d+-of-\d+\.safetensors$/.test(f)).length).toBeGreaterThan(1);
  });
});

describe('transformers golden: RoPE', () => {
  it.each(['default', 'linear', 'dynamic', 'llama3', 'yarn', 'yarn_mscale'])('%s: inverse frequencies, attention scaling and cos/sin up to position 65,537 match to float32 rounding', (name) => {
    const r = index.rope[name]!;
    const cfg = parseHfConfig(JSON.parse(readFileSync(join(GOLDEN, r.config, 'config.json'), 'utf8')));
    expect(cfg.ropeScaling.type).toBe(name.startsWith('yarn') ? 'yarn' : name);
    const seqLen = Math.max(...r.positions) + 1;
    // torch's float32 pow is not always correctly rounded: allow 2 ulps, and at most one such entry.
    const checkFreqs = (ours: Float64Array, theirs: Float32Array, what: string) => {
      let differing = 0;
      ours.forEach((v, i) => {
        if (v !== theirs[i]) differing++;
        expect(Math.abs(v - theirs[i]!) / theirs[i]!, `${what}[${i}]`).toBeLessThanOrEqual(2.4e-7);
      });
      expect(differing, `${what}: entries not bit-identical`).toBeLessThanOrEqual(1);
      return differing;
    };
    const d0 = checkFreqs(ropeFrequencies(cfg).invFreq, tensor(r.inv_freq_init), 'inv_freq at init');
    const { invFreq, attentionScaling } = ropeFrequencies(cfg, seqLen);
    const d1 = checkFreqs(invFreq, tensor(r.inv_freq), `inv_freq at seq_len ${seqLen}`);
    expect(attentionScaling).toBeCloseTo(r.attention_scaling, 12);
    const { cos, sin } = ropeTablesAt(cfg, r.positions);
    const dc = diff(cos, tensor(r.cos));
    const ds = diff(sin, tensor(r.sin));
    console.log(
      `[hf golden] rope ${name}: inv_freq entries off by an ulp or two: ${d0} at init, ${d1} at seq_len ${seqLen}; max abs diff cos ${dc.abs.toExponential(2)}, sin ${ds.abs.toExponential(2)}`,
    );
    // torch's float32 cos/sin may differ from a correctly rounded one by an ulp (1.2e-7 below 1;
    // yarn's scale lifts values above 1), and an inv_freq an ulp off moves the angle at position
    // 65,537 by up to ~7e-7 rad.
    expect(Math.max(dc.abs, ds.abs)).toBeLessThanOrEqual(1e-6);
  });

  it.each(['llama3', 'yarn'])('a %s-scaled model reproduces transformers logits at positions 5000..5007', async (name) => {
    const ref = index.models[`far_${name}`]!;
    const { cfg, out } = await runModel(join(GOLDEN, ref.checkpoint!), 'float32', ref.position_start);
    expect(cfg.ropeScaling.type).toBe(name);
    const d = diff(out['logits']!.data as ArrayLike<number>, tensor(ref.logits!));
    console.log(`[hf golden] ${name} at positions 5000+: max abs diff logits ${d.abs.toExponential(2)}`);
    expect(d.rel).toBeLessThan(TOL);
  });
});

describe('transformers golden: a checkpoint written by DiffWorld', () => {
  it('the committed directory is what src/nn/golden-checkpoint.ts writes (saveCheckpoint + toHfConfig)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'dw-golden-'));
    try {
      const saved = await writeGoldenCheckpoint(join(tmp, 'ckpt'));
      expect([...saved.files].sort()).toEqual(['config.json', 'model.safetensors']);
      for (const f of saved.files) expect(readFileSync(join(tmp, 'ckpt', f)).equals(readFileSync(join(GOLDEN, 'diffworld_written', f))), f).toBe(true);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('loads in transformers as the same model (Qwen3, tied) and gives our logits', async () => {
    const ref = index.diffworld_written;
    expect(ref.config_class).toBe('Qwen3Config');
    expect(ref.tied).toBe(true);
    const { cfg, weights } = await loadCheckpoint(join(GOLDEN, 'diffworld_written'));
    expect([...weights.keys()].sort()).toEqual([...ref.param_names].sort());
    const [b, t] = index.batch.shape;
    const hd = headDimOf(cfg);
    const g = new Graph();
    const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.constant(weights.get(s.name)!, 'float32', s.shape)]));
    const { cos, sin } = ropeTablesRange(cfg, 0, t);
    const k = (data: Float64Array, shape: number[]) => g.constant(typedFrom('float32', data), 'float32', shape);
    const ids = g.input('input_ids', 'int64', [b, t]);
    g.output('logits', decoderForward(cfg, p, { inputIds: ids, mask: k(causalMask(t), [t, t]), cos: k(cos, [t, hd]), sin: k(sin, [t, hd]) }).logits);
    const out = await (await compile(g))({ input_ids: typedFrom('int64', index.batch.input_ids) });
    const d = diff(out['logits']!.data as ArrayLike<number>, tensor(ref.logits));
    console.log(`[hf golden] DiffWorld-written checkpoint in transformers: max abs diff logits ${d.abs.toExponential(2)}`);
    expect(d.rel).toBeLessThan(TOL);
  });
});
