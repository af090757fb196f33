// Agreement with SDAR's own modelling code (tools/golden/sdar_golden.py ran JetAstra/SDAR's
// modeling_sdar.py and generate.py on a random tiny SDAR; outputs in test-data/golden/sdar-tiny):
// the checkpoint loads as an SDAR config (Qwen3 block with block_size and mask_token_id) with every
// parameter name SDAR's code has; our block-diffusion training layout ([x_t ; x_0], BD3 mask,
// repeated positions) gives SDAR's logits of the same pass under its own block_diff_mask; and
// decoding with SDAR's settings (block length, denoising steps, threshold from the checkpoint,
// sdarDecoding) through our block sampler gives the tokens generate.py gave, the sequential run
// call by call (each denoising pass's logits over the cached blocks). Without the golden files this
// suite skips with the reason printed, except under CI=true, where it fails.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint, weightArrays } from '../checkpoint/index.js';
import { Graph, typedFrom } from '../graph/index.js';
import { compile } from '../testing/index.js';
import { type ModelConfig, parseHfConfig } from '../nn/config.js';
import { additiveMask } from '../nn/masks.js';
import { ropeTablesAt } from '../nn/rope.js';
import { headDimOf, transformerForward, transformerParams } from '../nn/transformer.js';
import { blockDiffusionAllowed } from '../objectives/block-diffusion.js';
import { sampleBlockDiffusion } from './block-diffusion.js';
import { OnnxBlockDiffusionModel, type Weights } from './onnx-models.js';
import { sdarDecoding } from './sdar.js';

const GOLDEN = resolve(import.meta.dirname, '../../../../test-data/golden/sdar-tiny');
const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
const present = existsSync(join(GOLDEN, 'index.json')) && existsSync(join(GOLDEN, 'tensors.bin'));
if (!present) {
  const reason = `the SDAR golden files are not at ${GOLDEN} (make them with python3 tools/golden/sdar_golden.py SDAR_REPO_DIR; see packages/mdlm-core/README.md)`;
  if (CI) throw new Error(`${reason}; CI must have them`);
  console.log(`skipping: ${reason}`);
}
const describeGolden = present ? describe : describe.skip;

interface Entry {
  offset: number;
  shape: number[];
}
interface Call {
  tokens: number[];
  position: number;
  store_kv: boolean;
  logits: Entry;
}
interface Index {
  stand_ins: string[];
  errors: string[];
  checkpoint: string;
  param_names: string[];
  forward: { input_ids: number[]; position_ids: number[]; shape: [number, number]; length: number; allowed: number[]; logits: Entry };
  decode: {
    prompt: number[];
    gen_length: number;
    block_length: number;
    denoising_steps: number;
    threshold: number;
    top_k: number;
    runs: Record<'sequential' | 'low_confidence_dynamic', { tokens: number[]; calls: number; forwards?: Call[] }>;
  };
}

let index: Index;
let blob: Float32Array;
let cfg: ModelConfig;
let weights: Weights;
let gc: Record<string, unknown> | undefined;
const tensor = (e: Entry): Float32Array => blob.subarray(e.offset, e.offset + e.shape.reduce((a, b) => a * b, 1));

function maxRel(actual: ArrayLike<number>, expected: ArrayLike<number>): { abs: number; rel: number } {
  expect(actual.length).toBe(expected.length);
  let abs = 0;
  let scale = 1;
  for (let i = 0; i < expected.length; i++) {
    abs = Math.max(abs, Math.abs(actual[i]! - expected[i]!));
    scale = Math.max(scale, Math.abs(expected[i]!));
  }
  return { abs, rel: abs / scale };
}

const TOL = 3e-5;

describeGolden('SDAR golden (its modeling_sdar.py and generate.py)', () => {
  beforeAll(async () => {
    index = JSON.parse(readFileSync(join(GOLDEN, 'index.json'), 'utf8')) as Index;
    const bytes = readFileSync(join(GOLDEN, 'tensors.bin'));
    blob = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    expect(index.errors).toEqual([]);
    console.log(`[sdar golden] stand-ins the generator used for packages absent there: ${index.stand_ins.join('; ')}`);
    const ck = await loadCheckpoint(join(GOLDEN, index.checkpoint), { optimizer: false });
    cfg = parseHfConfig(ck.config, join(GOLDEN, index.checkpoint, 'config.json'));
    weights = weightArrays(ck.weights);
    gc = ck.generationConfig;
  });

  it('config.json parses as sdar (q/k norms, head_dim 12, block_size, mask_token_id) with SDAR’s parameter names', () => {
    expect(cfg).toMatchObject({ modelType: 'sdar', qkNorm: true, headDim: 12, tieEmbeddings: false, blockDiffusion: { blockSize: 4, maskTokenId: 63 } });
    expect(
      transformerParams(cfg)
        .map((p) => p.name)
        .sort(),
    ).toEqual([...index.param_names].sort());
  });

  it('the block-diffusion training layout gives SDAR’s logits under its own block_diff_mask', async () => {
    const f = index.forward;
    const [B, S] = f.shape;
    const L = f.length;
    // Our mask rules are SDAR's: the same allowed pairs as its block_diff_mask.
    const ours = Array.from({ length: S * S }, (_, i) => +blockDiffusionAllowed(Math.floor(i / S), i % S, L, cfg.blockDiffusion!.blockSize));
    expect(ours).toEqual(f.allowed);
    const hd = headDimOf(cfg);
    const g = new Graph();
    const p = Object.fromEntries(transformerParams(cfg).map((s) => [s.name, g.input(s.name, 'float32', s.shape)]));
    const rope = ropeTablesAt(cfg, f.position_ids.slice(0, S));
    const k = (data: Float64Array, shape: number[]) => g.constant(typedFrom('float32', data), 'float32', shape);
    const logits = transformerForward(cfg, p, {
      inputIds: g.constant(BigInt64Array.from(f.input_ids, BigInt), 'int64', [B, S]),
      mask: k(
        additiveMask(S, (q, kk) => blockDiffusionAllowed(q, kk, L, cfg.blockDiffusion!.blockSize)),
        [S, S],
      ),
      cos: k(rope.cos, [S, hd]),
      sin: k(rope.sin, [S, hd]),
    });
    g.output('logits', logits);
    const out = await (await compile(g))(Object.fromEntries(Object.entries(weights).map(([n, w]) => [n, Float32Array.from(w)])));
    const d = maxRel(out['logits']!.data as Float32Array, tensor(f.logits));
    console.log(`[sdar golden] [x_t ; x_0] forward: max abs diff logits ${d.abs.toExponential(2)}`);
    expect(d.rel).toBeLessThan(TOL);
  });

  it('sdarDecoding reads SDAR’s settings from the checkpoint (block 4, 4 steps, dynamic at 0.85, mask 63)', () => {
    expect(sdarDecoding(cfg, gc, 'generation_config.json')).toEqual({ blockLength: 4, maskId: 63, denoisingSteps: 4, threshold: 0.85, unmasking: 'low_confidence_dynamic' });
    const d = index.decode;
    expect([d.block_length, d.denoising_steps, d.threshold]).toEqual([4, 4, 0.85]);
  });

  it.each(['sequential', 'low_confidence_dynamic'] as const)('decoding with SDAR’s settings (%s) gives generate.py’s tokens', async (unmasking) => {
    const s = sdarDecoding(cfg, gc, 'generation_config.json');
    const model = await OnnxBlockDiffusionModel.create(cfg, weights, s.blockLength, { provider: 'cpu' });
    const d = index.decode;
    // generate.py at top_k 1: its multinomial draw is the argmax and x0_p (the filtered confidence) is 1.
    const [r] = await sampleBlockDiffusion(model, [{ prompt: d.prompt, seed: 0 }], {
      maskId: s.maskId,
      maxNewTokens: d.gen_length,
      stopIds: [],
      unmasking,
      threshold: s.threshold,
      denoisingSteps: s.denoisingSteps,
      temperature: 1,
      topK: d.top_k,
      confidence: 'filtered',
    });
    expect(r!.tokens).toEqual(d.runs[unmasking].tokens);
  });

  it('each of generate.py’s denoising passes (sequential run) has SDAR’s logits through our cached block decoder', async () => {
    const s = sdarDecoding(cfg, gc, 'generation_config.json');
    const model = await OnnxBlockDiffusionModel.create(cfg, weights, s.blockLength, { provider: 'cpu', dtype: 'float64' });
    const dec = await model.open(1);
    let worst = 0;
    let denoising = 0;
    for (const call of index.decode.runs.sequential.forwards!) {
      if (call.store_kv) {
        // a prefill or a finished block: into the cache (SDAR stores the clean block's keys/values)
        await dec.forward([{ row: 0, commit: call.tokens }]);
        continue;
      }
      const [logits] = await dec.forward([{ row: 0, query: call.tokens }]);
      const d = maxRel(logits!, tensor(call.logits));
      worst = Math.max(worst, d.abs);
      expect(d.rel, `denoising pass at position ${call.position}`).toBeLessThan(TOL);
      denoising++;
    }
    console.log(`[sdar golden] ${denoising} denoising passes of generate.py: max abs diff logits ${worst.toExponential(2)}`);
    expect(denoising).toBeGreaterThanOrEqual(8);
  });
});
