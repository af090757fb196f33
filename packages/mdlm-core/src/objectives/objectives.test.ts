import { Rng } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { Graph, typedFrom } from '../graph/index.js';
import { compile, randn, rng } from '../testing/index.js';
import { blockDiffusionAllowed, blockDiffusionMask, repeatedPositionTables } from './block-diffusion.js';
import { maskedDiffusionLoss, nextTokenLoss } from './loss.js';
import { noiseBatch, sampleMaskRatios } from './noise.js';

describe('forward process', () => {
  it('antithetic ratios put one draw in each stratum, with the ε floor', () => {
    const p = sampleMaskRatios(8, new Rng(1), { eps: 1e-3 });
    p.forEach((v, i) => {
      const t = (v - 1e-3) / (1 - 1e-3);
      expect(t).toBeGreaterThanOrEqual(i / 8);
      expect(t).toBeLessThan((i + 1) / 8);
    });
    expect(() => sampleMaskRatios(2, new Rng(1), { eps: 0 })).toThrow('eps must lie in (0, 1)');
  });

  it('masks only eligible tokens, weights them 1/p, keeps the rest, and replays from the seed', () => {
    const B = 4,
      T = 64,
      MASK = 99;
    const ids = BigInt64Array.from({ length: B * T }, (_, i) => BigInt(i % 50));
    const eligible = Uint8Array.from({ length: B * T }, (_, i) => +(i % T >= 16)); // 16-token clean prompt
    const a = noiseBatch(ids, eligible, B, { maskId: MASK, rng: new Rng(7) });
    const b = noiseBatch(ids, eligible, B, { maskId: MASK, rng: new Rng(7) });
    expect(a).toEqual(b);
    for (let s = 0; s < B; s++) {
      let masked = 0;
      for (let i = s * T; i < (s + 1) * T; i++) {
        const isMasked = a.noised[i] === BigInt(MASK);
        if (!eligible[i]) expect(isMasked).toBe(false);
        expect(a.weights[i]).toBe(isMasked ? Math.fround(1 / a.ratios[s]!) : 0);
        if (!isMasked) expect(a.noised[i]).toBe(ids[i]);
        masked += +isMasked;
      }
      expect(masked).toBe(a.maskedCount[s]);
      expect(masked).toBeGreaterThanOrEqual(1);
    }
  });

  it('masks at rate p on average, and at least one token even when p is tiny', () => {
    const T = 20_000;
    const ids = new BigInt64Array(T);
    const r = noiseBatch(ids, new Uint8Array(T).fill(1), 1, { maskId: 1, rng: new Rng(3), antithetic: false });
    const p = r.ratios[0]!;
    expect(Math.abs(r.maskedCount[0]! / T - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / T) + 1e-4);
    const one = noiseBatch(new BigInt64Array(3), Uint8Array.from([0, 1, 0]), 1, { maskId: 5, rng: new Rng(1), eps: 1e-9, antithetic: false });
    expect(Array.from(one.noised)).toEqual([0n, 5n, 0n]);
    expect(noiseBatch(new BigInt64Array(3), new Uint8Array(3), 1, { maskId: 5, rng: new Rng(1) }).maskedCount[0]).toBe(0);
  });
});

describe('block-diffusion layout', () => {
  it('follows the BD3-LM/SDAR index rules', () => {
    const L = 8,
      B = 4; // noisy 0..7 (blocks 0,1), clean 8..15 (blocks 0,1)
    const allow = (q: number, k: number) => blockDiffusionAllowed(q, k, L, B);
    expect(allow(1, 3)).toBe(true); // noisy block 0 sees itself both ways
    expect(allow(3, 1)).toBe(true);
    expect(allow(1, 5)).toBe(false); // not the next noisy block
    expect(allow(5, 1)).toBe(false); // nor an earlier noisy block
    expect(allow(5, 8)).toBe(true); // noisy block 1 sees clean block 0
    expect(allow(5, 12)).toBe(false); // not its own clean block
    expect(allow(1, 8)).toBe(false); // noisy block 0 sees no clean block
    expect(allow(13, 9)).toBe(true); // clean block 1 sees clean block 0
    expect(allow(9, 13)).toBe(false); // clean is block-causal
    expect(allow(12, 15)).toBe(true); // and bidirectional inside a block
    expect(allow(9, 1)).toBe(false); // clean never sees noisy
    const m = blockDiffusionMask(L, B);
    expect(m.length).toBe(256);
    expect(m[5 * 16 + 8]).toBe(0);
    expect(m[9 * 16 + 1]).toBe(-1e9);
    expect(() => blockDiffusionMask(6, 4)).toThrow('must be a positive multiple of block 4');
  });

  it('block size L is plain MDLM on the noisy half; positions repeat in both halves', () => {
    const L = 4;
    for (let q = 0; q < L; q++) for (let k = 0; k < 2 * L; k++) expect(blockDiffusionAllowed(q, k, L, L)).toBe(k < L);
    expect(Array.from(repeatedPositionTables(Float64Array.from([1, 2, 3, 4]), 2, 2))).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
  });
});

describe('losses', () => {
  it('maskedDiffusionLoss = Σ w·CE / normalizer with the [MASK] logit excluded', async () => {
    const N = 6,
      V = 5,
      MASK = 4;
    const next = rng(2);
    const logits = randn(next, N * V);
    const targets = [0, 3, 2, 1, 1, 0];
    const weights = [2, 0, 4, 0, 1.5, 3];
    const g = new Graph();
    const l = g.input('logits', 'float64', [N, V]);
    g.output('loss', maskedDiffusionLoss(l, g.input('t', 'int64', [N]), g.input('w', 'float64', [N]), 4, MASK));
    const out = await (await compile(g))({ logits, t: typedFrom('int64', targets), w: Float64Array.from(weights) });
    let expected = 0;
    for (let i = 0; i < N; i++) {
      const row = Array.from(logits.subarray(i * V, i * V + V - 1)); // MASK (last column) removed
      const lse = Math.log(row.reduce((s, x) => s + Math.exp(x), 0));
      expected += weights[i]! * (lse - row[targets[i]!]!);
    }
    expect(out.loss!.data[0]).toBeCloseTo(expected / 4, 10);
    expect(() => maskedDiffusionLoss(l, l, l, 1, V)).toThrow('maskId 5 is outside the vocabulary of 5');
  });

  it('nextTokenLoss predicts ids[t+1] from position t, counting weighted targets', async () => {
    const B = 1,
      T = 3,
      V = 3;
    const logits = Float64Array.from([0, 0, 5, 5, 0, 0, 9, 9, 9]); // t0 → 2, t1 → 0; t2 is never a predictor
    const g = new Graph();
    const out = nextTokenLoss(g.input('l', 'float64', [B, T, V]), g.input('ids', 'int64', [B, T]), g.input('w', 'float64', [B, T]));
    g.output('loss', out);
    const run = await compile(g);
    const lse = Math.log(Math.exp(5) + 2);
    const both = await run({ l: logits, ids: typedFrom('int64', [1, 2, 0]), w: Float64Array.from([1, 1, 1]) });
    expect(both.loss!.data[0]).toBeCloseTo(lse - 5, 10);
    const second = await run({ l: logits, ids: typedFrom('int64', [1, 2, 1]), w: Float64Array.from([1, 0, 1]) });
    expect(second.loss!.data[0]).toBeCloseTo(lse - 0, 10);
  });
});
