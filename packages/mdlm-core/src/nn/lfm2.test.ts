// LFM2 on the CPU, without transformers: the gated short convolution against a direct loop and
// its gradients against central finite differences in float64 (packed-sample resets included);
// cached decoding (prefill, then steps of 1, 1 and 2 tokens through one graph with named batch,
// new and past dims, the conv state kept on the host) equals one uncached pass; packed samples
// equal each sample alone; HF names survive a safetensors round trip; the ar objective trains it
// and refuses the diffusion objectives. The transformers goldens are in lfm2-golden.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint, saveCheckpoint } from '../checkpoint/directory.js';
import { Graph, type Tensor, emitOnnx, grad, mul, reduceSum, sumDims } from '../graph/index.js';
import { compile, randn, rng, tinyWmTokenizer as tok, tinyWmTokenizerJson as tokenizerJson, transitionsDir } from '../testing/index.js';
import { createSession, type HostTensor, hostTensor } from '../runtime/index.js';
import { sampleAutoregressive } from '../sampling/autoregressive.js';
import { OnnxBlockDiffusionModel, OnnxCausalModel } from '../sampling/onnx-models.js';
import { StepRunner, autocastFor, opsetFor } from '../train/runner.js';
import { buildFusedStep } from '../train/step.js';
import { resolveTrainConfig } from '../train/config.js';
import { trainWorldModel } from '../train/trainer.js';
import { ChatGenerator } from '../sampling/generator.js';
import { objectiveStepSpec } from '../train/objective.js';
import { type ModelConfig, parseHfConfig, toHfConfig } from './config.js';
import { additiveMask, causalMask } from './masks.js';
import { shortConv } from './lfm2.js';
import { ropeTablesRange } from './rope.js';
import { attentionLayerCount, convLayerCount, decoderForward, hfParamNames, transformerParams } from './transformer.js';

const cfg: ModelConfig = parseHfConfig(
  {
    model_type: 'lfm2',
    vocab_size: 17,
    hidden_size: 12,
    intermediate_size: 30, // auto-adjusted: ⌊2·30/3⌋ = 20 → a multiple of 4
    block_multiple_of: 4,
    num_hidden_layers: 4,
    num_attention_heads: 2,
    num_key_value_heads: 1,
    layer_types: ['conv', 'full_attention', 'conv', 'full_attention'],
    conv_L_cache: 3,
    conv_bias: true,
    tie_word_embeddings: true,
    max_position_embeddings: 64,
  },
  'lfm2.test',
);
const HD = 6;
const D = 12;
const L = 3;

function randomParams(seed: number): Record<string, Float64Array> {
  const next = rng(seed);
  return Object.fromEntries(
    transformerParams(cfg).map((p) => {
      const n = p.shape.reduce((a, b) => a * b, 1);
      return [p.name, randn(next, n).map((v) => (p.name.endsWith('norm.weight') ? 1 + 0.1 * v : 0.4 * v))];
    }),
  );
}

const f64 = (data: Float64Array, dims: readonly number[]) => hostTensor('float64', data, dims);

async function run(bytes: Uint8Array, feeds: Record<string, HostTensor>): Promise<Record<string, HostTensor>> {
  return (await (await createSession(bytes, { provider: 'cpu' })).run(feeds)) as Record<string, HostTensor>;
}

describe('LFM2 config and parameters', () => {
  it('reads the layout and sizes, and names every parameter as transformers does', () => {
    expect(cfg.ffnDim).toBe(20);
    expect(cfg.lfm2).toEqual({ layerTypes: ['conv', 'full_attention', 'conv', 'full_attention'], convKernel: 3, convBias: true });
    expect([attentionLayerCount(cfg), convLayerCount(cfg)]).toEqual([2, 2]);
    const names = hfParamNames(cfg);
    expect(names).toContain('model.layers.0.conv.in_proj.weight');
    expect(names).toContain('model.layers.0.conv.conv.weight');
    expect(names).toContain('model.layers.0.conv.conv.bias');
    expect(names).toContain('model.layers.1.self_attn.out_proj.weight');
    expect(names).toContain('model.layers.1.self_attn.q_layernorm.weight');
    expect(names).toContain('model.layers.3.feed_forward.w3.weight');
    expect(names).toContain('model.embedding_norm.weight');
    expect(names).not.toContain('lm_head.weight');
    expect(names.filter((n) => n.startsWith('model.layers.1.conv'))).toEqual([]);
    expect(transformerParams(cfg).find((p) => p.name === 'model.layers.2.conv.conv.weight')!.shape).toEqual([D, 1, L]);
  });

  it('round-trips through saveCheckpoint / loadCheckpoint with transformers names and an equal config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lfm2-ck-'));
    try {
      const params = randomParams(3);
      const specs = transformerParams(cfg);
      await saveCheckpoint(join(dir, 'ck'), { config: toHfConfig(cfg), weights: new Map(specs.map((p) => [p.name, { shape: p.shape, data: Float32Array.from(params[p.name]!) }])) });
      const ck = await loadCheckpoint(join(dir, 'ck'));
      const back = parseHfConfig(ck.config, 'ck/config.json');
      expect(back).toEqual(cfg);
      expect([...ck.weights.keys()].sort()).toEqual(specs.map((p) => p.name).sort());
      for (const p of specs) expect(ck.weights.get(p.name)!.shape).toEqual(p.shape);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** shortConv as a plain loop: per sample of a packed row, zero history before its start. */
function convByHand(h: Float64Array, w: Record<string, Float64Array>, seg: number[], T: number): Float64Array {
  const lin = (x: Float64Array, W: Float64Array, b: Float64Array | undefined, out: number, inp: number) =>
    Float64Array.from({ length: T * out }, (_, k) => {
      const t = Math.floor(k / out),
        o = k % out;
      let s = b ? b[o]! : 0;
      for (let i = 0; i < inp; i++) s += W[o * inp + i]! * x[t * inp + i]!;
      return s;
    });
  const bcx = lin(h, w['in']!, w['inB'], 3 * D, D);
  const z = Float64Array.from({ length: T * D }, (_, k) => bcx[Math.floor(k / D) * 3 * D + (k % D)]! * bcx[Math.floor(k / D) * 3 * D + 2 * D + (k % D)]!);
  const y = new Float64Array(T * D);
  for (let t = 0; t < T; t++)
    for (let c = 0; c < D; c++) {
      let s = w['convB']![c]!;
      for (let j = 0; j < L; j++) {
        const src = t - (L - 1) + j;
        if (src >= 0 && seg[src] === seg[t]) s += w['conv']![c * L + j]! * z[src * D + c]!;
      }
      y[t * D + c] = s * bcx[t * 3 * D + D + c]!;
    }
  return lin(y, w['out']!, w['outB'], D, D);
}

describe('the gated short convolution', () => {
  const T = 7;
  const seg = [0, 0, 0, 1, 1, 1, 1]; // two packed samples
  const shapes: Record<string, number[]> = { h: [1, T, D], in: [3 * D, D], inB: [3 * D], conv: [D, 1, L], convB: [D], out: [D, D], outB: [D] };
  const build = (g: Graph) => {
    const x = Object.fromEntries(Object.entries(shapes).map(([k, s]) => [k, g.input(k, 'float64', s)]));
    const segmentIds = g.constant(BigInt64Array.from(seg, BigInt), 'int64', [1, T]);
    const { out } = shortConv(x['h']!, { inProj: x['in']!, inBias: x['inB'], conv: x['conv']!, convBias: x['convB'], outProj: x['out']!, outBias: x['outB'] }, { segmentIds, ids: segmentIds });
    return { x, out };
  };
  const feedsOf = (seed: number) => {
    const next = rng(seed);
    return Object.fromEntries(
      Object.entries(shapes).map(([k, s]) => [
        k,
        randn(
          next,
          s.reduce((a, b) => a * b, 1),
        ),
      ]),
    );
  };

  it('computes the causal depthwise convolution of B ⊙ x, gated by C, restarting at each packed sample', async () => {
    const g = new Graph();
    g.output('y', build(g).out);
    const feeds = feedsOf(5);
    const y = (await (await compile(g))(feeds))['y']!.data as Float64Array;
    const ref = convByHand(feeds['h']!, feeds, seg, T);
    ref.forEach((v, i) => expect(Math.abs(y[i]! - v), `element ${i}`).toBeLessThan(1e-12));
  });

  it('has gradients equal to central finite differences (float64, every input and weight)', async () => {
    const g = new Graph();
    const { x, out } = build(g);
    const cot = g.constant(randn(rng(9), T * D), 'float64', [1, T, D]);
    const loss = reduceSum(mul(out, cot));
    g.output('loss', loss);
    const names = Object.keys(shapes);
    grad(
      loss,
      names.map((k) => x[k]!),
    ).forEach((t: Tensor, i) => g.output(`d.${names[i]}`, t));
    const runG = await compile(g);
    const feeds = feedsOf(11);
    const base = await runG(feeds);
    const next = rng(13);
    for (let trial = 0; trial < 3; trial++) {
      const dirs = Object.fromEntries(names.map((k) => [k, randn(next, feeds[k]!.length)]));
      const eps = 1e-6;
      const at = (sign: number) => Object.fromEntries(names.map((k) => [k, feeds[k]!.map((v, e) => v + sign * eps * dirs[k]![e]!)]));
      const numeric = (((await runG(at(1))).loss!.data[0] as number) - ((await runG(at(-1))).loss!.data[0] as number)) / (2 * eps);
      let analytic = 0;
      for (const k of names) (base[`d.${k}`]!.data as Float64Array).forEach((v, e) => (analytic += v * dirs[k]![e]!));
      expect(Math.abs(numeric - analytic) / Math.max(1, Math.abs(numeric)), `trial ${trial}: ${numeric} vs ${analytic}`).toBeLessThan(1e-7);
    }
    // the convolution's own weights get a gradient through every tap
    expect(Math.max(...Array.from(base['d.conv']!.data as Float64Array, Math.abs))).toBeGreaterThan(1e-3);
  });
});

describe('LFM2 decoding with a cache for both kinds of state', () => {
  const B = 2;
  const TOTAL = 7;
  const ids = BigInt64Array.from({ length: B * TOTAL }, (_, i) => BigInt((i * 5 + 3) % cfg.vocabSize));
  const cut = (start: number, len: number) => BigInt64Array.from({ length: B * len }, (_, i) => ids[Math.floor(i / len) * TOTAL + start + (i % len)]!);
  const params = randomParams(11);
  const pfeeds = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, f64(params[s.name]!, s.shape)]));
  const tables = (start: number, t: number) => {
    const { cos, sin } = ropeTablesRange(cfg, start, t);
    return { cos: f64(cos, [t, HD]), sin: f64(sin, [t, HD]) };
  };

  /** One graph for every step: named batch, new and past dims; KV per attention layer, conv state per conv layer. */
  function stepGraph(): Uint8Array {
    const g = new Graph();
    const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.input(s.name, 'float64', s.shape)]));
    const out = decoderForward(cfg, p, {
      inputIds: g.input('input_ids', 'int64', ['batch', 'new']),
      mask: g.input('mask', 'float64', [1, 1, 'new', sumDims(['past', 'new'])]),
      cos: g.input('cos', 'float64', ['new', HD]),
      sin: g.input('sin', 'float64', ['new', HD]),
      past: Array.from({ length: attentionLayerCount(cfg) }, (_, i) => ({
        key: g.input(`past.${i}.key`, 'float64', ['batch', cfg.nKvHeads, 'past', HD]),
        value: g.input(`past.${i}.value`, 'float64', ['batch', cfg.nKvHeads, 'past', HD]),
      })),
      convPast: Array.from({ length: convLayerCount(cfg) }, (_, i) => g.input(`past.${i}.conv`, 'float64', ['batch', L - 1, D])),
    });
    g.output('logits', out.logits);
    out.present.forEach((kv, i) => {
      g.output(`present.${i}.key`, kv.key);
      g.output(`present.${i}.value`, kv.value);
    });
    out.convFresh.forEach((z, i) => g.output(`fresh.${i}.conv`, z));
    return emitOnnx(g).bytes;
  }

  it('prefill 3, then 1, 1 and 2 tokens: the logits of one uncached pass, to 1e-12', async () => {
    const g = new Graph();
    const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.input(s.name, 'float64', s.shape)]));
    const inputIds = g.input('input_ids', 'int64', [B, TOTAL]);
    g.output(
      'logits',
      decoderForward(cfg, p, {
        inputIds,
        mask: g.constant(causalMask(TOTAL), 'float64', [TOTAL, TOTAL]),
        ...Object.fromEntries(Object.entries(tables(0, TOTAL)).map(([k, v]) => [k, g.constant(v.data as Float64Array, 'float64', [TOTAL, HD])])),
      } as never).logits,
    );
    const full = (await run(emitOnnx(g).bytes, { ...pfeeds, input_ids: hostTensor('int64', ids, [B, TOTAL]) }))['logits']!.data as Float64Array;

    const step = stepGraph();
    const V = cfg.vocabSize;
    let kv: Record<string, HostTensor> = {};
    for (let i = 0; i < attentionLayerCount(cfg); i++) {
      kv[`past.${i}.key`] = f64(new Float64Array(0), [B, cfg.nKvHeads, 0, HD]);
      kv[`past.${i}.value`] = f64(new Float64Array(0), [B, cfg.nKvHeads, 0, HD]);
    }
    // conv state per row: the last L − 1 gated inputs (zeros before the first token)
    let conv = Array.from({ length: convLayerCount(cfg) }, () => new Float64Array(B * (L - 1) * D));
    let pos = 0;
    let worst = 0;
    for (const t of [3, 1, 1, 2]) {
      const convFeeds = Object.fromEntries(conv.map((s, i) => [`past.${i}.conv`, f64(s, [B, L - 1, D])]));
      const mask = additiveMask(pos + t, (i, j) => j <= i).slice(pos * (pos + t));
      const out = await run(step, { ...pfeeds, ...kv, ...convFeeds, input_ids: hostTensor('int64', cut(pos, t), [B, t]), mask: f64(mask, [1, 1, t, pos + t]), ...tables(pos, t) });
      const logits = out['logits']!.data as Float64Array;
      for (let b = 0; b < B; b++) for (let r = 0; r < t; r++) for (let v = 0; v < V; v++) worst = Math.max(worst, Math.abs(logits[(b * t + r) * V + v]! - full[(b * TOTAL + pos + r) * V + v]!));
      kv = {};
      for (let i = 0; i < attentionLayerCount(cfg); i++) {
        kv[`past.${i}.key`] = out[`present.${i}.key`]!;
        kv[`past.${i}.value`] = out[`present.${i}.value`]!;
      }
      conv = conv.map((s, i) => {
        const fresh = out[`fresh.${i}.conv`]!.data as Float64Array;
        const next = new Float64Array(s.length);
        for (let b = 0; b < B; b++) {
          const joined = [...s.subarray(b * (L - 1) * D, (b + 1) * (L - 1) * D), ...fresh.subarray(b * t * D, (b + 1) * t * D)];
          next.set(joined.slice(joined.length - (L - 1) * D), b * (L - 1) * D);
        }
        return next;
      });
      pos += t;
    }
    expect(pos).toBe(TOTAL);
    expect(worst).toBeLessThan(1e-12);
  });

  it('two samples packed in one row (segment ids, block-diagonal causal mask, positions restarting) give the logits of each alone', async () => {
    const [n1, n2] = [3, 4];
    const T = n1 + n2;
    const rowIds = BigInt64Array.from({ length: T }, (_, i) => BigInt((i * 7 + 2) % cfg.vocabSize));
    const seg = BigInt64Array.from({ length: T }, (_, i) => (i < n1 ? 0n : 1n));
    const pos = (i: number) => (i < n1 ? i : i - n1);
    const logitsOf = async (ids: BigInt64Array, segIds: BigInt64Array | undefined, positions: number[]) => {
      const t = ids.length;
      const g = new Graph();
      const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.input(s.name, 'float64', s.shape)]));
      const rope = ropeTablesRange(cfg, 0, t);
      const rows = (tab: Float64Array) => Float64Array.from({ length: t * HD }, (_, k) => tab[positions[Math.floor(k / HD)]! * HD + (k % HD)]!);
      const mask = additiveMask(t, (i, j) => j <= i && (!segIds || segIds[i] === segIds[j]));
      const out = decoderForward(cfg, p, {
        inputIds: g.constant(ids, 'int64', [1, t]),
        mask: g.constant(mask, 'float64', [t, t]),
        cos: g.constant(rows(rope.cos), 'float64', [t, HD]),
        sin: g.constant(rows(rope.sin), 'float64', [t, HD]),
        ...(segIds ? { segmentIds: g.constant(segIds, 'int64', [1, t]) } : {}),
      });
      g.output('logits', out.logits);
      return (await run(emitOnnx(g).bytes, pfeeds))['logits']!.data as Float64Array;
    };
    const packed = await logitsOf(
      rowIds,
      seg,
      Array.from({ length: T }, (_, i) => pos(i)),
    );
    const a = await logitsOf(
      rowIds.slice(0, n1),
      undefined,
      Array.from({ length: n1 }, (_, i) => i),
    );
    const b = await logitsOf(
      rowIds.slice(n1),
      undefined,
      Array.from({ length: n2 }, (_, i) => i),
    );
    const alone = [...a, ...b];
    alone.forEach((v, i) => expect(Math.abs(packed[i]! - v), `logit ${i}`).toBeLessThan(1e-12));
  });
});

describe('LFM2 in the sampler (OnnxCausalModel)', () => {
  const weights = Object.fromEntries(Object.entries(randomParams(31)).map(([k, v]) => [k, Float32Array.from(v)]));
  const prompts = [
    [1, 2],
    [3, 4, 5, 6, 7],
    [8, 9, 10],
  ];

  it('cached rows of different lengths in one batch sample the tokens of the uncached reference, alone or together', async () => {
    const kv = await OnnxCausalModel.create(cfg, weights, { provider: 'cpu' });
    const none = await OnnxCausalModel.create(cfg, weights, { provider: 'cpu', cache: 'none' });
    const reqs = prompts.map((prompt, i) => ({ prompt, seed: 40 + i }));
    const opts = { temperature: 1, maxNewTokens: 9, stopIds: [0] };
    const batched = (await sampleAutoregressive(kv, reqs, opts)).map((r) => r.tokens);
    const reference = (await sampleAutoregressive(none, reqs, opts)).map((r) => r.tokens);
    const alone = [];
    for (const r of reqs) alone.push((await sampleAutoregressive(kv, [r], opts))[0]!.tokens);
    expect(batched).toEqual(reference);
    expect(alone).toEqual(reference);
    expect(new Set(reference.map((t) => t.join(','))).size).toBe(3);
  });

  it('block diffusion refuses an LFM2 model by name', async () => {
    await expect(OnnxBlockDiffusionModel.create(cfg, weights, 4)).rejects.toThrow(/LFM2 .*left to right/);
  });
});

/** Two rows of 8 tokens, one sample each, every next token a target. */
function memorised() {
  const T = 8;
  return {
    input_ids: hostTensor(
      'int64',
      BigInt64Array.from({ length: 2 * T }, (_, i) => BigInt((i * 3 + 1) % 17)),
      [2, T],
    ),
    position_ids: hostTensor(
      'int64',
      BigInt64Array.from({ length: 2 * T }, (_, i) => BigInt(i % T)),
      [2, T],
    ),
    segment_ids: hostTensor('int64', new BigInt64Array(2 * T), [2, T]),
    loss_weights: hostTensor('float32', new Float32Array(2 * T).fill(1), [2, T]),
  };
}

describe('training LFM2', () => {
  it('the ar objective builds a fused step from the model and lowers the loss on a memorised batch', async () => {
    const spec = objectiveStepSpec({ objective: 'ar', model: cfg, batch: 2, length: 8, blockLength: 4, maskId: 0 }, { optimizer: { weightDecay: 0 } });
    const params = randomParams(21);
    const init = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Float32Array.from(v, (x) => x * 0.5)]));
    const runner = await StepRunner.create(spec, init, { schedule: () => 0.02, provider: 'cpu' });
    const losses: number[] = [];
    for (let s = 0; s < 30; s++) losses.push((await runner.step(memorised())).loss);
    expect(losses.at(-1)!).toBeLessThan(0.5 * losses[0]!);
  });

  it('bfloat16 autocast: the CUDA step graph builds at opset 23, and 10 emulated steps on the CPU stay within 3% of float32', async () => {
    const spec = objectiveStepSpec({ objective: 'ar', model: cfg, batch: 2, length: 8, blockLength: 4, maskId: 0 });
    const g = buildFusedStep({ ...spec, autocast: autocastFor('bfloat16', 'cuda')!, opset: opsetFor('cuda') });
    for (const [name, t] of g.outputs) expect(t.dtype, name).toBe('float32');
    expect(emitOnnx(g).model.nodes.some((n) => n.opType === 'RotaryEmbedding')).toBe(true);
    const init = Object.fromEntries(Object.entries(randomParams(23)).map(([k, v]) => [k, Float32Array.from(v, (x) => x * 0.5)]));
    const curve = async (precision: 'float32' | 'bfloat16') => {
      const runner = await StepRunner.create(spec, init, { schedule: () => 0.02, provider: 'cpu', precision });
      const out: number[] = [];
      for (let s = 0; s < 10; s++) out.push((await runner.step(memorised())).loss);
      return out;
    };
    const [f32, bf16] = [await curve('float32'), await curve('bfloat16')];
    f32.forEach((l, i) => expect(Math.abs(bf16[i]! - l) / l, `step ${i}`).toBeLessThan(0.03));
    expect(bf16).not.toEqual(f32);
  });

  it('refuses the diffusion objectives, naming why', () => {
    for (const objective of ['bd3', 'mdlm'] as const) expect(() => objectiveStepSpec({ objective, model: cfg, batch: 1, length: 8, blockLength: 4, maskId: 16 })).toThrow(/LFM2 .*ar objective only/);
  });

  it('wm train runs an LFM2 world model (ar) whose checkpoint loads in ChatGenerator as LFM2 and decodes; bd3 is refused', async () => {
    const { dir, data } = transitionsDir('lfm2-train-');
    try {
      const model = {
        model_type: 'lfm2',
        hidden_size: 64,
        intermediate_size: 96,
        block_multiple_of: 16,
        num_hidden_layers: 3,
        num_attention_heads: 4,
        num_key_value_heads: 2,
        layer_types: ['conv', 'full_attention', 'conv'],
        max_position_embeddings: 256,
      };
      const config = resolveTrainConfig({ objective: 'ar', model, seqLength: 64, batchSize: 4, steps: 3, evalFraction: 0 });
      const out = join(dir, 'run');
      await trainWorldModel({ config, data: [data], out, tokenizer: tok, tokenizerJson, provider: 'cpu' });
      const gen = await ChatGenerator.load(join(out, 'model'), { provider: 'cpu' });
      expect(gen.config.lfm2?.layerTypes).toEqual(['conv', 'full_attention', 'conv']);
      const [r] = await gen.generate([{ messages: [{ role: 'user', content: 'Action: open cabinet 1' }] }], { maxNewTokens: 6 });
      expect(r!.tokenIds.length).toBeGreaterThan(0);
      await expect(
        trainWorldModel({
          config: resolveTrainConfig({ objective: 'bd3', model, seqLength: 64, batchSize: 4, steps: 1 }),
          data: [data],
          out: join(dir, 'bd3'),
          tokenizer: tok,
          tokenizerJson,
          provider: 'cpu',
        }),
      ).rejects.toThrow(/objective bd3: LFM2 models .* ar objective only/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
