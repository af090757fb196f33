// The clipped mask schedule (BD3-LM): mask ratios drawn only inside maskRange, 1/p weights of the
// span's own ratio, and each token's expected weight 1 whatever the range (so a clip changes which
// noise levels are trained, not the scale of the loss), with the largest weight bounded by 1/lo.
import { Rng } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { noiseSegments, sampleMaskRatios } from '../objectives/noise.js';
import { parseHfConfig } from '../nn/config.js';
import { TINY_WM_MODEL, tinyWmTokenizer as tok, transitionsDir } from '../testing/index.js';
import { readFileSync } from 'node:fs';
import { MASK_RANGE_PRESETS, resolveTrainConfig } from './config.js';
import { type TrainExample, chatExample, eosPadId, materialize, packRows } from './data.js';
import { type ObjectiveSpec, objectiveFeeds } from './objective.js';

const [LO, HI] = MASK_RANGE_PRESETS.bd3lmClipped;

describe('clipped mask schedule', () => {
  it('draws mask ratios only inside [0.45, 0.95], one per stratum', () => {
    const n = 4096;
    const r = sampleMaskRatios(n, new Rng(1), { eps: LO, max: HI });
    expect(Math.min(...r)).toBeGreaterThanOrEqual(LO);
    expect(Math.max(...r)).toBeLessThanOrEqual(HI);
    // Antithetic: the i-th ratio lies in the i-th of n equal strata of the range.
    r.forEach((p, i) => {
      expect(p).toBeGreaterThanOrEqual(LO + ((HI - LO) * i) / n - 1e-12);
      expect(p).toBeLessThanOrEqual(LO + ((HI - LO) * (i + 1)) / n + 1e-12);
    });
    // Without stratification the draws stay inside too.
    const free = sampleMaskRatios(n, new Rng(2), { eps: LO, max: HI, antithetic: false });
    expect(free.every((p) => p >= LO && p <= HI)).toBe(true);
  });

  it('training feeds under maskRange [0.45, 0.95] weigh every masked target 1/p of its own span, inside [1/0.95, 1/0.45]', () => {
    const { data } = transitionsDir('mask-range-');
    const rows = readFileSync(data, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { messages: never }).messages);
    const T = 128,
      B = 8;
    const eosId = eosPadId(tok)!;
    const examples = rows.map((m) => chatExample(tok, m, { objective: 'bd3', blockLength: 4, maxLength: T, eosId }) as TrainExample);
    const packed = materialize(
      examples,
      packRows(
        examples.map((e) => e.ids.length),
        examples.map((_, i) => i),
        T,
      ).slice(0, B),
      T,
      eosId,
    );
    const s: ObjectiveSpec = { objective: 'bd3', model: parseHfConfig({ vocab_size: tok.vocabSize, ...TINY_WM_MODEL }), batch: B, length: T, blockLength: 4, maskId: tok.maskId!, maskRange: [LO, HI] };
    const weights = objectiveFeeds(s, packed, new Rng(9))['loss_weights']!.data as Float32Array;
    const masked = Array.from(weights).filter((w) => w > 0);
    expect(masked.length).toBeGreaterThan(packed.targetTokens * LO * 0.8);
    expect(masked.every((w) => w >= 1 / HI - 1e-6 && w <= 1 / LO + 1e-6)).toBe(true);
    // The same draws as noiseSegments over the batch's spans with ε = 0.45, max = 0.95.
    const ref = noiseSegments(packed.ids, packed.target, packed.spans, { maskId: tok.maskId!, rng: new Rng(9), eps: LO, max: HI });
    expect(Array.from(weights)).toEqual(Array.from(ref.weights));
    packed.spans.forEach((sp, k) => {
      for (let i = sp.start; i < sp.start + sp.length; i++) if (ref.weights[i]! > 0) expect(ref.weights[i]).toBeCloseTo(1 / ref.ratios[k]!, 5);
    });
  });

  it('1/p weights give every target an expected weight of 1 under the full and the clipped range; the clip bounds the largest weight', () => {
    const N = 64;
    const ids = new BigInt64Array(N);
    const eligible = new Uint8Array(N).fill(1);
    const segments = [{ start: 0, length: N }];
    for (const [eps, max] of [MASK_RANGE_PRESETS.full, MASK_RANGE_PRESETS.bd3lmClipped]) {
      const rng = new Rng(4);
      let sum = 0,
        top = 0;
      const draws = 4000;
      for (let d = 0; d < draws; d++) {
        const { weights } = noiseSegments(ids, eligible, segments, { maskId: 1, rng, eps, max, antithetic: false, atLeastOne: false });
        for (const w of weights) (sum += w), (top = Math.max(top, w));
      }
      expect(sum / (draws * N)).toBeCloseTo(1, 1);
      expect(top).toBeLessThanOrEqual(1 / eps + 1e-6);
    }
  });

  it('the preset is a valid maskRange and the default stays the full range', () => {
    expect(resolveTrainConfig({ maskRange: [...MASK_RANGE_PRESETS.bd3lmClipped] }).maskRange).toEqual([0.45, 0.95]);
    expect(resolveTrainConfig({}).maskRange).toEqual([0.001, 1]);
  });
});
