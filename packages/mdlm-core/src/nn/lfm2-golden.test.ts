// Agreement with transformers' Lfm2ForCausalLM (tools/golden/lfm2_golden.py, outputs in
// test-data/golden/lfm2): checkpoints saved by transformers (float32, one also bfloat16) load through
// parseHfConfig + loadCheckpoint with every parameter name as transformers has it, and reproduce its
// logits, masked cross-entropy loss and every parameter gradient; our cached decoder (KV for
// attention layers, the conv state on the host) reproduces transformers' own cached decoding; greedy
// decoding through the sampler gives generate()'s tokens; a checkpoint written by DiffWorld loads in
// transformers as the same LFM2 model and gives our logits. Without the golden files this suite
// skips with the reason printed, except under CI=true, where it fails.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { InferenceSession, Tensor as OrtTensor } from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint as loadCheckpointDir } from '../checkpoint/directory.js';
import { type TypedData, reshape, typedFrom } from '../graph/index.js';
import { compile } from '../testing/index.js';
import { sampleAutoregressive } from '../sampling/autoregressive.js';
import { OnnxCausalModel } from '../sampling/onnx-models.js';
import { type LossFn, type StepGraphSpec, buildGradStep, stepNames } from '../train/step.js';
import { type ModelConfig, parseHfConfig } from './config.js';
import { crossEntropy } from './functional.js';
import { exportOnnxModel } from './export.js';
import { DIFFWORLD_LFM2_GOLDEN_CONFIG, writeGoldenCheckpoint } from './golden-checkpoint.js';
import { causalMask } from './masks.js';
import { ropeTablesRange } from './rope.js';
import { attentionLayerCount, convLayerCount, decoderForward, headDimOf, transformerParams } from './transformer.js';

const GOLDEN = resolve(import.meta.dirname, '../../../../test-data/golden/lfm2');
const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
const present = existsSync(join(GOLDEN, 'index.json')) && existsSync(join(GOLDEN, 'tensors.bin'));
if (!present) {
  const reason = `the LFM2 golden files are not at ${GOLDEN} (make them with python3 tools/golden/lfm2_golden.py)`;
  if (CI) throw new Error(`${reason}; CI must have them`);
  console.log(`skipping: ${reason}`);
}
const describeGolden = present ? describe : describe.skip;

interface Entry {
  offset: number;
  shape: number[];
}
interface Reference {
  checkpoint: string;
  files: string[];
  logits: Entry;
  loss: number;
  grads: Record<string, Entry>;
  param_names: string[];
  cached_logits: Entry;
  uncached_logits: Entry;
  greedy: number[][];
}
interface Index {
  transformers_version: string;
  batch: { input_ids: number[]; targets: number[]; weights: number[]; shape: [number, number]; prefill: number; steps: number };
  models: Record<string, { ffn_dim: number; variants: Partial<Record<'float32' | 'bfloat16', Reference>> }>;
  diffworld_written: { logits: Entry; param_names: string[]; config_class: string; layer_types: string[]; ffn_dim: number; tied: boolean };
  errors: string[];
}

let index: Index;
let blob: Float32Array;
const tensor = (e: Entry): Float32Array => blob.subarray(e.offset, e.offset + e.shape.reduce((a, b) => a * b, 1));

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

async function loadCheckpoint(dir: string): Promise<{ cfg: ModelConfig; weights: Map<string, Float32Array> }> {
  const loaded = await loadCheckpointDir(dir);
  return { cfg: parseHfConfig(loaded.config, join(dir, 'config.json')), weights: new Map([...loaded.weights].map(([name, w]) => [name, w.data])) };
}

/** Logits, masked CE and gradients of the golden batch (causal mask, positions 0..T−1), in `dtype`. */
async function lossAndGrads(cfg: ModelConfig, weights: Map<string, Float32Array>, dtype: 'float32' | 'float64') {
  const [b, t] = index.batch.shape;
  const hd = headDimOf(cfg);
  const { cos, sin } = ropeTablesRange(cfg, 0, t);
  const loss: LossFn = (p, batch) => {
    const k = (data: Float64Array, shape: number[]) => batch.input_ids!.graph.constant(typedFrom(dtype, data), dtype, shape);
    const { logits } = decoderForward(cfg, p, { inputIds: batch.input_ids!, mask: k(causalMask(t), [t, t]), cos: k(cos, [t, hd]), sin: k(sin, [t, hd]) });
    return { loss: crossEntropy(reshape(logits, [b * t, cfg.vocabSize]), reshape(batch.targets!, [-1]), reshape(batch.weights!, [-1])).loss, outputs: { logits } };
  };
  const spec: StepGraphSpec = {
    params: transformerParams(cfg),
    dtype,
    batch: [
      { name: 'input_ids', dtype: 'int64', shape: [b, t] },
      { name: 'targets', dtype: 'int64', shape: [b, t] },
      { name: 'weights', dtype, shape: [b, t] },
    ],
    loss,
  };
  const run = await compile(buildGradStep(spec), 'cpu');
  const feeds: Record<string, TypedData> = {
    input_ids: typedFrom('int64', index.batch.input_ids),
    targets: typedFrom('int64', index.batch.targets),
    weights: typedFrom(dtype, index.batch.weights),
  };
  for (const p of spec.params) feeds[p.name] = dtype === 'float64' ? Float64Array.from(weights.get(p.name)!) : weights.get(p.name)!;
  return run(feeds);
}

/** Rows of one sequence of the golden batch. */
const rowIds = (b: number, n: number) => index.batch.input_ids.slice(b * index.batch.shape[1], b * index.batch.shape[1] + n);

// float32 rounding over a few layers of random weights: ≤ 1e-5 of max(1, max |reference|) measured.
const TOL = 3e-5;
const MODELS = ['lfm2_tied', 'lfm2_untied_bias'] as const;

describeGolden('transformers Lfm2ForCausalLM golden', () => {
  beforeAll(() => {
    index = JSON.parse(readFileSync(join(GOLDEN, 'index.json'), 'utf8')) as Index;
    const bytes = readFileSync(join(GOLDEN, 'tensors.bin'));
    blob = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    expect(index.errors).toEqual([]);
  });

  describe.each(MODELS)('%s', (model) => {
    const variants = () => Object.entries(index.models[model]!.variants) as [string, Reference][];

    it('config.json parses to transformers’ feed-forward width and layout, with its parameter names', async () => {
      for (const [, ref] of variants()) {
        const { cfg, weights } = await loadCheckpoint(join(GOLDEN, ref.checkpoint));
        expect(cfg.ffnDim).toBe(index.models[model]!.ffn_dim);
        expect(
          transformerParams(cfg)
            .map((p) => p.name)
            .sort(),
        ).toEqual([...ref.param_names].sort());
        expect([...weights.keys()].sort()).toEqual([...ref.param_names].sort());
      }
    });

    it.each(['float32', 'float64'] as const)('our %s engine reproduces logits, loss and every gradient of each saved checkpoint', async (dtype) => {
      for (const [variant, ref] of variants()) {
        const { cfg, weights } = await loadCheckpoint(join(GOLDEN, ref.checkpoint));
        const out = await lossAndGrads(cfg, weights, dtype);
        const logits = diff(out['logits']!.data as ArrayLike<number>, tensor(ref.logits));
        expect(logits.rel, 'logits').toBeLessThan(TOL);
        const loss = diff(out[stepNames.loss]!.data as ArrayLike<number>, [ref.loss]);
        expect(loss.rel, 'loss').toBeLessThan(TOL);
        let g = 0;
        for (const [name, e] of Object.entries(ref.grads)) {
          const d = diff(out[stepNames.grad(name)]!.data as ArrayLike<number>, tensor(e));
          g = Math.max(g, d.abs);
          expect(d.rel, `grad ${name}`).toBeLessThan(TOL);
        }
        console.log(
          `[lfm2 golden] ${model} ${variant} checkpoint, ${dtype} engine: max abs diff logits ${logits.abs.toExponential(2)}, loss ${loss.abs.toExponential(2)}, grads ${g.toExponential(2)}`,
        );
      }
    });

    it('the cached decoder (prefill, then one token at a time) gives transformers’ cached and uncached logits', async () => {
      const ref = index.models[model]!.variants.float32!;
      const { cfg, weights } = await loadCheckpoint(join(GOLDEN, ref.checkpoint));
      const m = await OnnxCausalModel.create(cfg, Object.fromEntries(weights), { dtype: 'float64', provider: 'cpu' });
      const { prefill, steps } = index.batch;
      const n = prefill + steps;
      const V = cfg.vocabSize;
      const B = index.batch.shape[0];
      // OnnxCausalModel returns each call's last-token logits: compare those of every call.
      const dec = await m.open(B);
      const ours: number[][] = Array.from({ length: B }, () => []);
      const rows = Array.from({ length: B }, (_, b) => rowIds(b, n));
      let outs = await dec.forward(rows.map((r, b) => ({ row: b, tokens: r.slice(0, prefill) })));
      outs.forEach((o, b) => ours[b]!.push(...o));
      for (let s = prefill; s < n; s++) {
        outs = await dec.forward(rows.map((r, b) => ({ row: b, tokens: [r[s]!] })));
        outs.forEach((o, b) => ours[b]!.push(...o));
      }
      const pick = (e: Entry) => {
        const all = tensor(e);
        const out: number[] = [];
        for (let b = 0; b < B; b++) for (let t = prefill - 1; t < n; t++) out.push(...all.subarray((b * n + t) * V, (b * n + t + 1) * V));
        return out;
      };
      const cached = diff(ours.flat(), pick(ref.cached_logits));
      const uncached = diff(ours.flat(), pick(ref.uncached_logits));
      console.log(`[lfm2 golden] ${model}: our cached decoder vs transformers cached ${cached.abs.toExponential(2)}, vs uncached ${uncached.abs.toExponential(2)}`);
      expect(cached.rel).toBeLessThan(TOL);
      expect(uncached.rel).toBeLessThan(TOL);
    });

    it('the exported ONNX file with a cache (KV and conv state) continues a prefill with transformers’ logits', async () => {
      const ref = index.models[model]!.variants.float32!;
      const { cfg, weights } = await loadCheckpoint(join(GOLDEN, ref.checkpoint));
      const session = await InferenceSession.create(exportOnnxModel(cfg, weights, { kvCache: true }));
      const [B, T] = index.batch.shape;
      const V = cfg.vocabSize;
      const hd = headDimOf(cfg);
      const W = cfg.lfm2!.convKernel - 1;
      const i64 = (from: number, to: number, f: (b: number, t: number) => number) =>
        new OrtTensor(
          'int64',
          BigInt64Array.from({ length: B * (to - from) }, (_, i) => BigInt(f(Math.floor(i / (to - from)), from + (i % (to - from))))),
          [B, to - from],
        );
      const feeds = (from: number, to: number, cache: Record<string, OrtTensor>) => {
        const rows = Float32Array.from(causalMask(to).slice(from * to));
        const bias = new Float32Array(B * rows.length);
        for (let b = 0; b < B; b++) bias.set(rows, b * rows.length);
        return {
          input_ids: i64(from, to, (b, t) => index.batch.input_ids[b * T + t]!),
          position_ids: i64(from, to, (_, t) => t),
          attention_bias: new OrtTensor('float32', bias, [B, 1, to - from, to]),
          ...cache,
        };
      };
      const empty: Record<string, OrtTensor> = {};
      for (let i = 0; i < attentionLayerCount(cfg); i++) for (const kind of ['key', 'value']) empty[`past.${i}.${kind}`] = new OrtTensor('float32', new Float32Array(0), [B, cfg.nKvHeads, 0, hd]);
      for (let i = 0; i < convLayerCount(cfg); i++) empty[`past.${i}.conv`] = new OrtTensor('float32', new Float32Array(B * W * cfg.dModel), [B, W, cfg.dModel]);
      const half = 3;
      const first = await session.run(feeds(0, half, empty));
      const cache = Object.fromEntries(Object.keys(empty).map((k) => [k, first[k.replace('past.', 'present.')]!]));
      const second = await session.run(feeds(half, T, cache as Record<string, OrtTensor>));
      const want = tensor(ref.logits);
      const rows = (data: Float32Array, from: number, to: number) => Array.from({ length: B }, (_, b) => [...data.subarray(b * (to - from) * V, (b + 1) * (to - from) * V)]).flat();
      const wantRows = (from: number, to: number) => Array.from({ length: B }, (_, b) => [...want.subarray((b * T + from) * V, (b * T + to) * V)]).flat();
      const d1 = diff(rows(first['logits']!.data as Float32Array, 0, half), wantRows(0, half));
      const d2 = diff(rows(second['logits']!.data as Float32Array, half, T), wantRows(half, T));
      console.log(`[lfm2 golden] ${model}: exported file, prefill ${d1.abs.toExponential(2)}, continued through its present.* outputs ${d2.abs.toExponential(2)}`);
      expect(Math.max(d1.rel, d2.rel)).toBeLessThan(TOL);
    });

    it('greedy decoding through the sampler gives transformers’ generate() tokens', async () => {
      const ref = index.models[model]!.variants.float32!;
      const { cfg, weights } = await loadCheckpoint(join(GOLDEN, ref.checkpoint));
      const m = await OnnxCausalModel.create(cfg, Object.fromEntries(weights), { provider: 'cpu' });
      const reqs = ref.greedy.map((_, b) => ({ prompt: rowIds(b, index.batch.prefill), seed: b }));
      const res = await sampleAutoregressive(m, reqs, { temperature: 0, maxNewTokens: ref.greedy[0]!.length, stopIds: [] });
      expect(res.map((r) => r.tokens)).toEqual(ref.greedy);
    });
  });

  describe('a checkpoint written by DiffWorld', () => {
    it('the committed directory is what src/nn/golden-checkpoint.ts writes (saveCheckpoint + toHfConfig)', async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'dw-lfm2-golden-'));
      try {
        const saved = await writeGoldenCheckpoint(join(tmp, 'ckpt'), DIFFWORLD_LFM2_GOLDEN_CONFIG);
        for (const f of saved.files) expect(readFileSync(join(tmp, 'ckpt', f)).equals(readFileSync(join(GOLDEN, 'diffworld_written', f))), f).toBe(true);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });

    it('loads in transformers as the same LFM2 (layout, width, tied) and gives our logits', async () => {
      const ref = index.diffworld_written;
      const c = DIFFWORLD_LFM2_GOLDEN_CONFIG;
      expect(ref.config_class).toBe('Lfm2Config');
      expect(ref.layer_types).toEqual(c.lfm2!.layerTypes);
      expect(ref.ffn_dim).toBe(c.ffnDim);
      expect(ref.tied).toBe(true);
      const { cfg, weights } = await loadCheckpoint(join(GOLDEN, 'diffworld_written'));
      expect([...weights.keys()].sort()).toEqual([...ref.param_names].sort());
      const out = await lossAndGrads(cfg, weights, 'float32');
      const d = diff(out['logits']!.data as ArrayLike<number>, tensor(ref.logits));
      console.log(`[lfm2 golden] DiffWorld-written checkpoint in transformers: max abs diff logits ${d.abs.toExponential(2)}`);
      expect(d.rel).toBeLessThan(TOL);
    });
  });
});
