// The decoder's options and its KV cache: cached decoding (prefill, then steps of 1 and 2 tokens
// through one graph with a dynamic past length) gives the logits of one uncached pass; tied
// embeddings share one parameter whose gradient sums both uses; a float64 inference graph with
// SiLU loads on the CPU provider (ONNX Runtime's QuickGelu fusion is switched off).
import { describe, expect, it } from 'vitest';
import { Graph, type Tensor, emitOnnx, grad, reduceSum, sumDims, typedFrom } from '../graph/index.js';
import { randn, rng } from '../testing/index.js';
import { createSession, hostTensor, type HostTensor } from '../runtime/index.js';
import { additiveMask, causalMask } from './masks.js';
import { ropeTablesAt, ropeTablesRange } from './rope.js';
import { type TransformerConfig, decoderForward, transformerParams } from './transformer.js';
import { silu } from './functional.js';

const cfg: TransformerConfig = {
  vocabSize: 13,
  dModel: 16,
  nLayers: 2,
  nHeads: 4,
  nKvHeads: 2,
  headDim: 6,
  ffnDim: 24,
  ropeTheta: 10000,
  rmsEps: 1e-6,
  tieEmbeddings: true,
  attentionBias: true,
  attentionOutBias: true,
  mlpBias: true,
  qkNorm: true,
};
const HD = 6;
const B = 2;
const TOTAL = 7;

function randomParams(c: TransformerConfig, seed: number): Record<string, Float64Array> {
  const next = rng(seed);
  return Object.fromEntries(
    transformerParams(c).map((p) => {
      const n = p.shape.reduce((a, b) => a * b, 1);
      const isNorm = p.name.endsWith('norm.weight');
      return [p.name, randn(next, n).map((v) => (isNorm ? 1 + 0.1 * v : 0.4 * v))];
    }),
  );
}

const ids = BigInt64Array.from({ length: B * TOTAL }, (_, i) => BigInt((i * 5 + 3) % cfg.vocabSize));
const slice = (start: number, len: number) => BigInt64Array.from({ length: B * len }, (_, i) => ids[Math.floor(i / len) * TOTAL + start + (i % len)]!);

/**
 * A float64 graph over `t` new tokens after `past` cached ones; `t`, `past` and the batch may be
 * names (dims fixed only at run time), as in the sampler's graphs.
 */
function buildGraph(t: number | string, past: number | string | null, batch: number | string = B): Graph {
  const g = new Graph();
  const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.input(s.name, 'float64', s.shape)]));
  const inputIds = g.input('input_ids', 'int64', [batch, t]);
  const kvLen = past === null ? t : sumDims([past, t]);
  const mask = g.input('mask', 'float64', [1, 1, t, kvLen]);
  const cos = g.input('cos', 'float64', [t, HD]);
  const sin = g.input('sin', 'float64', [t, HD]);
  const pastKv =
    past === null
      ? undefined
      : Array.from({ length: cfg.nLayers }, (_, i) => ({
          key: g.input(`past.${i}.key`, 'float64', [batch, cfg.nKvHeads, past, HD]),
          value: g.input(`past.${i}.value`, 'float64', [batch, cfg.nKvHeads, past, HD]),
        }));
  const out = decoderForward(cfg, p, { inputIds, mask, cos, sin, ...(pastKv ? { past: pastKv } : {}) });
  g.output('logits', out.logits);
  out.present.forEach((kv, i) => {
    g.output(`present.${i}.key`, kv.key);
    g.output(`present.${i}.value`, kv.value);
  });
  return g;
}

async function run(g: Graph, feeds: Record<string, HostTensor>): Promise<Record<string, HostTensor>> {
  const s = await createSession(emitOnnx(g).bytes, { provider: 'cpu' });
  return (await s.run(feeds)) as Record<string, HostTensor>;
}

const f64 = (data: Float64Array, dims: number[]) => hostTensor('float64', data, dims);

/** Mask rows for new positions start..start+t−1 against keys 0..start+t−1 (causal). */
function stepMask(start: number, t: number): Float64Array {
  return additiveMask(start + t, (i, j) => j <= i).slice(start * (start + t));
}

describe('decoder with a KV cache', () => {
  it('cached decoding (prefill 3, then 1, 1, 2 tokens through one graph with dynamic batch, new and past dims) equals one uncached pass', async () => {
    const params = randomParams(cfg, 11);
    const pfeeds = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, f64(v, transformerParams(cfg).find((s) => s.name === k)!.shape as number[])]));
    const tables = (start: number, t: number) => {
      const { cos, sin } = ropeTablesRange(cfg, start, t);
      return { cos: f64(cos, [t, HD]), sin: f64(sin, [t, HD]) };
    };
    // Uncached reference over all TOTAL tokens.
    const full = await run(buildGraph(TOTAL, null), { ...pfeeds, input_ids: hostTensor('int64', ids, [B, TOTAL]), mask: f64(causalMask(TOTAL), [1, 1, TOTAL, TOTAL]), ...tables(0, TOTAL) });
    const fullLogits = full['logits']!.data as Float64Array;
    const V = cfg.vocabSize;
    const expectRows = (got: Float64Array, start: number, t: number) => {
      let worst = 0;
      for (let b = 0; b < B; b++) for (let r = 0; r < t; r++) for (let v = 0; v < V; v++) worst = Math.max(worst, Math.abs(got[(b * t + r) * V + v]! - fullLogits[(b * TOTAL + start + r) * V + v]!));
      expect(worst, `rows ${start}..${start + t - 1}`).toBeLessThan(1e-12);
    };

    // Prefill: no past; present holds exactly the prefix's keys/values.
    const pre = await run(buildGraph(3, null), { ...pfeeds, input_ids: hostTensor('int64', slice(0, 3), [B, 3]), mask: f64(causalMask(3), [1, 1, 3, 3]), ...tables(0, 3) });
    expectRows(pre['logits']!.data as Float64Array, 0, 3);
    expect(pre['present.0.key']!.dims).toEqual([B, cfg.nKvHeads, 3, HD]);

    let cache = pre;
    let pos = 3;
    const step = emitOnnx(buildGraph('new', 'past', 'batch')).bytes; // one graph for every step
    for (const t of [1, 1, 2]) {
      const feeds: Record<string, HostTensor> = { ...pfeeds, input_ids: hostTensor('int64', slice(pos, t), [B, t]), mask: f64(stepMask(pos, t), [1, 1, t, pos + t]), ...tables(pos, t) };
      for (let i = 0; i < cfg.nLayers; i++) {
        feeds[`past.${i}.key`] = cache[`present.${i}.key`]!;
        feeds[`past.${i}.value`] = cache[`present.${i}.value`]!;
      }
      const out = (await (await createSession(step, { provider: 'cpu' })).run(feeds)) as Record<string, HostTensor>;
      expectRows(out['logits']!.data as Float64Array, pos, t);
      expect(out['present.1.value']!.dims).toEqual([B, cfg.nKvHeads, pos + t, HD]);
      cache = out;
      pos += t;
    }
    expect(pos).toBe(TOTAL);
  });

  it('RoPE rows per sequence ([B, 1, T, hd]): a row at positions 0, 2, 5, 9 gives the logits of that sequence run alone', async () => {
    const params = randomParams(cfg, 3);
    const t = 4;
    const shapes = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, s.shape as number[]]));
    const pfeeds = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, f64(v, shapes[k]!)]));
    const build = (b: number, ropeShape: number[]) => {
      const g = new Graph();
      const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.input(s.name, 'float64', s.shape)]));
      const logits = decoderForward(cfg, p, {
        inputIds: g.input('input_ids', 'int64', [b, t]),
        mask: g.input('mask', 'float64', [t, t]),
        cos: g.input('cos', 'float64', ropeShape),
        sin: g.input('sin', 'float64', ropeShape),
      }).logits;
      g.output('logits', logits);
      return g;
    };
    const a = ropeTablesRange(cfg, 0, t);
    const shifted = ropeTablesAt(cfg, [0, 2, 5, 9]); // gaps: relative offsets differ from 0..3
    const both = (x: Float64Array, y: Float64Array) => Float64Array.from([...x, ...y]);
    const mask = f64(causalMask(t), [t, t]);
    const batched = await run(build(2, [2, 1, t, HD]), {
      ...pfeeds,
      input_ids: hostTensor('int64', slice(0, t), [2, t]),
      mask,
      cos: f64(both(a.cos, shifted.cos), [2, 1, t, HD]),
      sin: f64(both(a.sin, shifted.sin), [2, 1, t, HD]),
    });
    const row1 = BigInt64Array.from(slice(0, t).subarray(t));
    const alone = await run(build(1, [t, HD]), { ...pfeeds, input_ids: hostTensor('int64', row1, [1, t]), mask, cos: f64(shifted.cos, [t, HD]), sin: f64(shifted.sin, [t, HD]) });
    const got = (batched['logits']!.data as Float64Array).subarray(t * cfg.vocabSize);
    const want = alone['logits']!.data as Float64Array;
    let worst = 0;
    want.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - got[i]!))));
    expect(worst).toBeLessThan(1e-12);
    // and it differs from positions 0..3, so the per-row tables really are used
    const unshifted = await run(build(1, [t, HD]), { ...pfeeds, input_ids: hostTensor('int64', row1, [1, t]), mask, cos: f64(a.cos, [t, HD]), sin: f64(a.sin, [t, HD]) });
    expect(Math.max(...Array.from(unshifted['logits']!.data as Float64Array, (v, i) => Math.abs(v - want[i]!)))).toBeGreaterThan(1e-3);
  });

  it('logitsRange gives exactly the logits of those positions (the LM head runs on them only)', async () => {
    const params = randomParams(cfg, 4);
    const t = 6;
    const shapes = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, s.shape as number[]]));
    const pfeeds = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, f64(v, shapes[k]!)]));
    const build = (range?: readonly [number, number]) => {
      const g = new Graph();
      const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.input(s.name, 'float64', s.shape)]));
      const inp = { inputIds: g.input('input_ids', 'int64', [B, t]), mask: g.input('mask', 'float64', [t, t]), cos: g.input('cos', 'float64', [t, HD]), sin: g.input('sin', 'float64', [t, HD]) };
      g.output('logits', decoderForward(cfg, p, { ...inp, ...(range ? { logitsRange: range } : {}) }).logits);
      return g;
    };
    const r = ropeTablesRange(cfg, 0, t);
    const feeds = { ...pfeeds, input_ids: hostTensor('int64', slice(0, t), [B, t]), mask: f64(causalMask(t), [t, t]), cos: f64(r.cos, [t, HD]), sin: f64(r.sin, [t, HD]) };
    const full = (await run(build(), feeds))['logits']!;
    const part = (await run(build([2, 5]), feeds))['logits']!;
    expect(part.dims).toEqual([B, 3, cfg.vocabSize]);
    const V = cfg.vocabSize;
    for (let b = 0; b < B; b++) for (let i = 0; i < 3 * V; i++) expect((part.data as Float64Array)[b * 3 * V + i]).toBe((full.data as Float64Array)[(b * t + 2) * V + i]);
  });

  it('tied embeddings: one parameter, no lm_head, and its gradient is the sum of the embedding and LM-head uses', async () => {
    const names = transformerParams(cfg).map((p) => p.name);
    expect(names).not.toContain('lm_head.weight');
    expect(names.filter((n) => n.startsWith('model.embed_tokens'))).toEqual(['model.embed_tokens.weight']);
    // d(sum logits)/dE equals the untied model's d/dE + d/dW_head at W_head = E.
    const untied: TransformerConfig = { ...cfg, tieEmbeddings: false };
    const params = randomParams(cfg, 5);
    const t = 4;
    const { cos, sin } = ropeTablesRange(cfg, 0, t);
    const gradsOf = async (c: TransformerConfig, extra: Record<string, Float64Array>) => {
      const g = new Graph();
      const p: Record<string, Tensor> = Object.fromEntries(transformerParams(c).map((s) => [s.name, g.input(s.name, 'float64', s.shape)]));
      const k = (d: Float64Array, shape: number[]) => g.constant(typedFrom('float64', d), 'float64', shape);
      const logits = decoderForward(c, p, { inputIds: g.constant(slice(0, t), 'int64', [B, t]), mask: k(causalMask(t), [t, t]), cos: k(cos, [t, HD]), sin: k(sin, [t, HD]) }).logits;
      const wrt = ['model.embed_tokens.weight', ...(c.tieEmbeddings ? [] : ['lm_head.weight'])];
      const grads = grad(
        reduceSum(logits),
        wrt.map((n) => p[n]!),
      );
      wrt.forEach((n, i) => g.output(`grad.${n}`, grads[i]!));
      const shapes = Object.fromEntries(transformerParams(c).map((s) => [s.name, s.shape as number[]]));
      return run(g, Object.fromEntries(Object.entries({ ...params, ...extra }).map(([n, v]) => [n, f64(v, shapes[n]!)])));
    };
    const tied = await gradsOf(cfg, {});
    const sep = await gradsOf(untied, { 'lm_head.weight': params['model.embed_tokens.weight']! });
    const a = tied['grad.model.embed_tokens.weight']!.data as Float64Array;
    const e = sep['grad.model.embed_tokens.weight']!.data as Float64Array;
    const h = sep['grad.lm_head.weight']!.data as Float64Array;
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - (e[i]! + h[i]!)));
    expect(worst).toBeLessThan(1e-12);
    expect(Math.max(...Array.from(h, Math.abs))).toBeGreaterThan(1e-3); // the head use really contributes
  });
});

describe('float64 SiLU inference graph on the CPU provider', () => {
  it('loads and runs (ONNX Runtime would fuse x·sigmoid(x) into QuickGelu, which has no float64 kernel)', async () => {
    const g = new Graph();
    const x = g.input('x', 'float64', ['n']);
    g.output('y', silu(x));
    const xs = Float64Array.from([-3, -0.5, 0, 0.25, 4]);
    const out = await run(g, { x: f64(xs, [5]) });
    const y = out['y']!.data as Float64Array;
    xs.forEach((v, i) => expect(Math.abs(y[i]! - v / (1 + Math.exp(-v)))).toBeLessThan(1e-15));
  });
});
