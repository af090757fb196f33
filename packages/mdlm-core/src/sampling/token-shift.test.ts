// Token-shifted block diffusion decoding (a bd3 model adapted from AR predicts token i at i−1). At
// block length 1 every position is a block start, predicted from the last committed token's output
// over a block-causal = causal cache: exactly AR decoding. So a shifted bd3 sampler over AR weights
// must give the AR sampler's tokens — which fails if the commit's last output is not read, is read
// from the wrong row, or a stale carry is reused. At block length 4 the inner positions read i−1
// of the query; the cached and uncached decoders must agree there, merged commits or not.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TransformerConfig } from '../nn/transformer.js';
import { sampleAutoregressive } from './autoregressive.js';
import { type BlockDiffusionOptions, sampleBlockDiffusion } from './block-diffusion.js';
import { OnnxBlockDiffusionModel, OnnxCausalModel, type OnnxModelOptions } from './onnx-models.js';
import type { SampleRequest, SampleResult } from './request.js';
import { TOY, progression, trainTiny } from './tiny-models.js';

const cfg: TransformerConfig = { vocabSize: TOY.vocab, dModel: 32, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 64, ropeTheta: 10000, rmsEps: 1e-6 };
const L = 16,
  TERMS = 12;
const exact: OnnxModelOptions = { provider: 'cpu', dtype: 'float64' };
let ar: Record<string, Float32Array>;

beforeAll(async () => {
  ar = await trainTiny({ config: cfg, seqLen: L, terms: TERMS, steps: 250, batch: 8, lr: 1e-2, kind: 'ar' });
}, 120_000);

const requests = (n: number): SampleRequest[] => Array.from({ length: n }, (_, i) => ({ prompt: progression(i % 11, 1 + (i % 4), TERMS, L).slice(0, 3 + (i % 5)), seed: i }));
const toks = (rs: readonly SampleResult[]) => rs.map((r) => r.tokens);
const base: BlockDiffusionOptions = { temperature: 0, maskId: TOY.mask, maxNewTokens: 9, tokenShift: true };

describe('token-shifted block diffusion', () => {
  it('at block length 1 decodes exactly as AR over the same weights (greedy in the model and over logits, merged commits or not)', async () => {
    const reqs = requests(6);
    const want = toks(await sampleAutoregressive(await OnnxCausalModel.create(cfg, ar, exact), reqs, { temperature: 0, maxNewTokens: 9, bannedIds: [TOY.mask] }));
    // Both cache decoders: the host one, and the resident one CUDA uses (here on the CPU, float32).
    const resident = await OnnxBlockDiffusionModel.create(cfg, ar, 1, { provider: 'cpu', decoder: 'resident' });
    const wantF32 = toks(await sampleAutoregressive(await OnnxCausalModel.create(cfg, ar, { provider: 'cpu', decoder: 'resident' }), reqs, { temperature: 0, maxNewTokens: 9, bannedIds: [TOY.mask] }));
    const bd = await OnnxBlockDiffusionModel.create(cfg, ar, 1, exact);
    for (const extra of [{}, { greedyInModel: false }, { mergeCommit: false }, { mergeCommit: false, greedyInModel: false }] as const) {
      expect(toks(await sampleBlockDiffusion(bd, reqs, { ...base, ...extra })), JSON.stringify(extra)).toEqual(want);
      expect(toks(await sampleBlockDiffusion(resident, reqs, { ...base, ...extra })), `resident ${JSON.stringify(extra)}`).toEqual(wantF32);
    }
    // Unshifted, the same weights read position i's own output (the next token's prediction): another answer.
    expect(toks(await sampleBlockDiffusion(bd, reqs, { ...base, tokenShift: false }))).not.toEqual(want);
  });

  it('at block length 4 the cached and uncached decoders agree (greedy and sampled, merged commits or not)', async () => {
    const reqs = requests(5);
    const cached = await OnnxBlockDiffusionModel.create(cfg, ar, 4, exact);
    const uncached = await OnnxBlockDiffusionModel.create(cfg, ar, 4, { ...exact, cache: 'none' });
    for (const extra of [{}, { mergeCommit: false }, { temperature: 0.8, threshold: 0.5 }, { temperature: 0.8, greedyInModel: false, mergeCommit: false }] as const) {
      const o = { ...base, ...extra };
      const a = toks(await sampleBlockDiffusion(cached, reqs, o));
      expect(a.every((t) => t.length === 9)).toBe(true);
      expect(toks(await sampleBlockDiffusion(uncached, reqs, o)), JSON.stringify(extra)).toEqual(a);
    }
  });
});
