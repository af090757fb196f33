// The decode loops against deterministic fake models: strategy rules, anchors, stops, lengths,
// cache commits and batch independence. The same properties on trained ONNX models are in
// onnx-models.test.ts.
import { describe, expect, it } from 'vitest';
import { sampleAutoregressive } from './autoregressive.js';
import { sampleBlockDiffusion, type BlockDiffusionOptions } from './block-diffusion.js';
import { SamplingError } from './errors.js';
import { FakeBidirectionalModel, FakeBlockModel, FakeCausalModel } from './fake-models.js';
import { sampleLlada } from './llada.js';
import { leftPadToBlock, type SampleRequest } from './request.js';
import { selectUnmask, transferSchedule } from './unmasking.js';

const V = 16,
  MASK = 15,
  B = 4;
const prompts = [[1, 2, 3, 4, 5, 6], [7], [2, 2, 2, 2, 2, 2, 2, 2], [], [9, 8, 7, 6, 5]];
const reqs = (seed = 0): SampleRequest[] => prompts.map((prompt, i) => ({ prompt, seed: seed + i }));
const base: BlockDiffusionOptions = { temperature: 0, maskId: MASK, maxNewTokens: 13 };

describe('unmasking rules', () => {
  it('transferSchedule puts the remainder on the first steps', () => {
    expect(transferSchedule(4, 4)).toEqual([1, 1, 1, 1]);
    expect(transferSchedule(10, 4)).toEqual([3, 3, 2, 2]);
    expect(transferSchedule(2, 4)).toEqual([1, 1, 0, 0]);
  });
  it('sequential, static and dynamic pick what their definitions say', () => {
    const conf = [0.1, 0.9, 0.5, 0.86, 0.2];
    const masked = [0, 1, 2, 3];
    expect(selectUnmask('sequential', masked, conf, 2)).toEqual([0, 1]);
    expect(selectUnmask('low_confidence_static', masked, conf, 2)).toEqual([1, 3]);
    expect(selectUnmask('low_confidence_dynamic', masked, conf, 1, 0.85)).toEqual([1, 3]);
    expect(selectUnmask('low_confidence_dynamic', masked, conf, 3, 0.85)).toEqual([1, 2, 3]); // fewer than k above τ → top-k
    expect(selectUnmask('low_confidence_dynamic', masked, [1, 1, 1, 1], 1, 1)).toEqual([0]); // strict >: τ = 1 is static
    expect(selectUnmask('low_confidence_static', [2], conf, 3)).toEqual([2]); // k clamped to the masks left
  });
});

describe('block diffusion (fake block-causal model)', () => {
  it('dynamic with threshold 1.0 equals static, token for token and forward for forward', async () => {
    for (const temperature of [0, 1]) {
      const m = new FakeBlockModel(V, B);
      const st = await sampleBlockDiffusion(m, reqs(), { ...base, temperature, unmasking: 'low_confidence_static' });
      const dy = await sampleBlockDiffusion(m, reqs(), { ...base, temperature, unmasking: 'low_confidence_dynamic', threshold: 1 });
      expect(dy.map((r) => [r.tokens, r.stats.forwards])).toEqual(st.map((r) => [r.tokens, r.stats.forwards]));
    }
  });

  it('lower thresholds commit more per forward; every row yields maxNewTokens without stops', async () => {
    const m = new FakeBlockModel(V, B, 14);
    const fpt = async (threshold: number) => {
      const rs = await sampleBlockDiffusion(m, reqs(), { ...base, threshold });
      for (const r of rs) expect(r.tokens).toHaveLength(13);
      return rs.reduce((a, r) => a + r.stats.forwards, 0);
    };
    const [lo, mid, hi] = [await fpt(0.3), await fpt(0.85), await fpt(1)];
    expect(lo).toBeLessThan(hi);
    expect(lo).toBeLessThanOrEqual(mid);
    expect(mid).toBeLessThanOrEqual(hi);
  });

  it('results do not depend on batch size or order', async () => {
    const m = new FakeBlockModel(V, B);
    for (const opts of [base, { ...base, temperature: 1, topK: 5 }, { ...base, temperature: 0.8, unmasking: 'sequential' as const }]) {
      const all = await sampleBlockDiffusion(m, reqs(3), opts);
      const alone = await Promise.all(reqs(3).map(async (r) => (await sampleBlockDiffusion(m, [r], opts))[0]!));
      const reversed = (await sampleBlockDiffusion(m, reqs(3).reverse(), opts)).reverse();
      expect(alone.map((r) => r.tokens)).toEqual(all.map((r) => r.tokens));
      expect(reversed.map((r) => r.tokens)).toEqual(all.map((r) => r.tokens));
      expect(alone.map((r) => r.stats.forwards)).toEqual(all.map((r) => r.stats.forwards));
    }
  });

  it('greedy is deterministic; seeds change sampled output', async () => {
    const m = new FakeBlockModel(V, B, 2);
    const a = await sampleBlockDiffusion(m, reqs(0), base);
    const b = await sampleBlockDiffusion(m, reqs(100), base);
    expect(b.map((r) => r.tokens)).toEqual(a.map((r) => r.tokens));
    const s1 = await sampleBlockDiffusion(m, reqs(0), { ...base, temperature: 1 });
    const s2 = await sampleBlockDiffusion(m, reqs(100), { ...base, temperature: 1 });
    expect(s2.map((r) => r.tokens)).not.toEqual(s1.map((r) => r.tokens));
  });

  it('merged and separate cache commits give the same tokens; separate costs one forward per committed span', async () => {
    const m = new FakeBlockModel(V, B);
    const merged = await sampleBlockDiffusion(m, reqs(), { ...base, temperature: 1 });
    const split = await sampleBlockDiffusion(m, reqs(), { ...base, temperature: 1, mergeCommit: false });
    expect(split.map((r) => r.tokens)).toEqual(merged.map((r) => r.tokens));
    // Committed spans: the prompt's full blocks (if any) + each finished block before the last.
    const spans = prompts.map((p, i) => (p.length >= B ? 1 : 0) + Math.ceil(((p.length % B) + merged[i]!.tokens.length) / B) - 1);
    expect(split.map((r, i) => r.stats.forwards - merged[i]!.stats.forwards)).toEqual(spans);
  });

  it('the prompt tail is decoded as the first block with its tokens fixed; stop ids end after the block and cut', async () => {
    const m = new FakeBlockModel(V, B);
    const free = await sampleBlockDiffusion(m, reqs(), { ...base, temperature: 1, maxNewTokens: 24 });
    const stopId = free[0]!.tokens[5]!;
    const cut = await sampleBlockDiffusion(m, reqs(), { ...base, temperature: 1, maxNewTokens: 24, stopIds: [stopId] });
    for (const [i, r] of cut.entries()) {
      const first = free[i]!.tokens.indexOf(stopId);
      expect(r.tokens).toEqual(first < 0 ? free[i]!.tokens : free[i]!.tokens.slice(0, first));
      expect(r.finish).toBe(first < 0 ? 'length' : 'stop');
      expect(r.tokens).not.toContain(stopId);
    }
    expect(cut[0]!.finish).toBe('stop');
  });

  it('anchors appear verbatim in every output, and stop ids cannot end a sample before its anchors', async () => {
    const m = new FakeBlockModel(V, B, 3);
    const anchors = [
      { at: 2, tokens: [11, 12, 13] },
      { at: 17, tokens: [14] },
    ];
    const requests = Array.from({ length: 300 }, (_, i) => ({ prompt: prompts[i % prompts.length]!, seed: i, anchors }));
    const rs = await sampleBlockDiffusion(m, requests, { ...base, temperature: 1, maxNewTokens: 20, stopIds: [0, 1] });
    for (const r of rs) {
      expect(r.tokens.slice(2, 5)).toEqual([11, 12, 13]);
      expect(r.tokens[17]).toBe(14);
    }
  });

  it("leftPadToBlock reproduces the reference's batched layout: whole prompt blocks, no prompt tail in the first block", async () => {
    expect(leftPadToBlock([5, 6, 7, 8, 9], 4, 0)).toEqual([0, 0, 0, 5, 6, 7, 8, 9]);
    expect(leftPadToBlock([5, 6, 7, 8], 4, 0)).toEqual([5, 6, 7, 8]);
    const m = new FakeBlockModel(V, B);
    const o = { ...base, mergeCommit: false, unmasking: 'sequential' as const };
    const [padded] = await sampleBlockDiffusion(m, [{ prompt: leftPadToBlock([5, 6, 7, 8, 9], B, 0), seed: 1 }], o);
    const [plain] = await sampleBlockDiffusion(m, [{ prompt: [5, 6, 7, 8, 9], seed: 1 }], o);
    expect(padded!.tokens).toHaveLength(13);
    // Padded: commit 2 prompt blocks (1 pass) + 4 blocks × 4 steps + 3 block commits = 20.
    // Plain: commit 1 prompt block + (3 + 4 + 4 + 4) steps (the first block holds the prompt tail) + 3 commits = 19.
    expect([padded!.stats.forwards, plain!.stats.forwards]).toEqual([20, 19]);
  });

  it('rejects bad options and anchors with typed errors', async () => {
    const m = new FakeBlockModel(V, B);
    await expect(sampleBlockDiffusion(m, reqs(), { ...base, maxNewTokens: 0 })).rejects.toThrow(/maxNewTokens/);
    await expect(sampleBlockDiffusion(m, reqs(), { ...base, threshold: 2 })).rejects.toThrow(SamplingError);
    await expect(sampleBlockDiffusion(m, [{ prompt: [1], seed: 0, anchors: [{ at: 12, tokens: [1, 2] }] }], base)).rejects.toThrow(/inside the 13 generated/);
    await expect(sampleBlockDiffusion(m, [{ prompt: [99], seed: 0 }], base)).rejects.toThrow(/outside the vocabulary/);
    await expect(sampleBlockDiffusion(m, [{ prompt: [1, MASK], seed: 0 }], base)).rejects.toThrow(/mask id/);
  });
});

describe('autoregressive and LLaDA loops (fake models)', () => {
  it('AR: batch-independent, stops at a stop id, honours maxNewTokens', async () => {
    const m = new FakeCausalModel(V);
    const rq = reqs(1).filter((r) => r.prompt.length > 0);
    const opts = { temperature: 1, maxNewTokens: 10 };
    const all = await sampleAutoregressive(m, rq, opts);
    const alone = await Promise.all(rq.map(async (r) => (await sampleAutoregressive(m, [r], opts))[0]!));
    expect(alone.map((r) => r.tokens)).toEqual(all.map((r) => r.tokens));
    for (const r of all) expect([r.tokens.length, r.stats.forwards]).toEqual([10, 10]);
    const stopId = all[0]!.tokens[3]!;
    const cut = await sampleAutoregressive(m, rq, { ...opts, stopIds: [stopId] });
    expect(cut[0]!.tokens).toEqual(all[0]!.tokens.slice(0, all[0]!.tokens.indexOf(stopId)));
    expect(cut[0]!.finish).toBe('stop');
  });

  it('AR forced prefix: the answer opens with it and continues as if it ended the prompt, per row, in one prefill', async () => {
    const m = new FakeCausalModel(V);
    const rq = reqs(1).filter((r) => r.prompt.length > 0);
    const prefixes = [[3], [4, 5, 6], [], [7, 7]];
    // Sampled (seeded) and per row in one batch, the continuation is generation from prompt + prefix.
    const plain = { temperature: 1, maxNewTokens: 10 };
    const forcedPlain = await sampleAutoregressive(
      m,
      rq.map((r, i) => ({ ...r, forcedPrefix: prefixes[i]! })),
      plain,
    );
    for (const [i, r] of rq.entries()) {
      const p = prefixes[i]!;
      const [ref] = await sampleAutoregressive(m, [{ prompt: [...r.prompt, ...p], seed: r.seed }], { ...plain, maxNewTokens: 10 - p.length });
      expect(forcedPlain[i]!.tokens).toEqual([...p, ...ref!.tokens]);
      expect(forcedPlain[i]!.stats.forwards).toBe(10 - p.length); // prompt and prefix in one forward
    }
    const whole = await sampleAutoregressive(m, [{ prompt: [1], seed: 0, forcedPrefix: [2, 3] }], { temperature: 0, maxNewTokens: 2 });
    expect(whole[0]).toMatchObject({ tokens: [2, 3], finish: 'length', stats: { forwards: 0 } });
    await expect(sampleAutoregressive(m, [{ prompt: [1], seed: 0, forcedPrefix: [2, 3, 4] }], { temperature: 0, maxNewTokens: 2 })).rejects.toThrow(
      /forced prefix has 3 tokens, more than maxNewTokens 2/,
    );
    await expect(sampleAutoregressive(m, [{ prompt: [1], seed: 0, forcedPrefix: [2, 9] }], { temperature: 0, maxNewTokens: 4, stopIds: [9] })).rejects.toThrow(
      /forced prefix token 1 = 9 is a stop id/,
    );
    await expect(sampleAutoregressive(m, [{ prompt: [1], seed: 0, forcedPrefix: [V] }], { temperature: 0, maxNewTokens: 4 })).rejects.toThrow(SamplingError);
  });

  it('LLaDA: one token per step by default, semi-AR blocks, anchors kept, random remasking seeded', async () => {
    const m = new FakeBidirectionalModel(V, 3);
    const anchors = [{ at: 5, tokens: [12, 13] }];
    const rq = reqs(2).map((r) => ({ ...r, anchors }));
    const one = await sampleLlada(m, rq, { temperature: 1, maskId: MASK, genLength: 8, blockLength: 4 });
    for (const r of one) {
      expect(r.tokens.slice(5, 7)).toEqual([12, 13]);
      expect(r.tokens).not.toContain(MASK);
      expect(r.stats.forwards).toBe(6); // 8 positions − 2 anchored, one per step
    }
    const fewer = await sampleLlada(m, rq, { temperature: 0, maskId: MASK, genLength: 8, blockLength: 4, steps: 4 });
    for (const r of fewer) expect(r.stats.forwards).toBe(4);
    const rnd = (seed: number) => sampleLlada(m, reqs(seed), { temperature: 0, maskId: MASK, genLength: 8, remasking: 'random', steps: 4 });
    expect((await rnd(0)).map((r) => r.tokens)).toEqual((await rnd(0)).map((r) => r.tokens));
    const alone = await sampleLlada(m, [reqs(2)[1]!], { temperature: 1, maskId: MASK, genLength: 8, blockLength: 4 });
    expect(alone[0]!.tokens).toEqual((await sampleLlada(m, reqs(2), { temperature: 1, maskId: MASK, genLength: 8, blockLength: 4 }))[1]!.tokens);
  });
});
