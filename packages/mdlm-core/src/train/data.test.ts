import { Rng } from '@diffworld/dataset';
import { type ChatMessage, Tokenizer } from '@diffworld/tokenizer';
import { describe, expect, it } from 'vitest';
import { Graph, emitOnnx } from '../graph/index.js';
import { blockDiffusionMask } from '../objectives/block-diffusion.js';
import { type HostTensor, createSession } from '../runtime/index.js';
import { BatchPlan, type TrainExample, chatExample, materialize, packRows, paddingWaste } from './data.js';
import { type ObjectiveSpec, attentionBias, attentionBiasGraph, modelLength, objectiveFeeds } from './objective.js';

const tok = Tokenizer.load(new URL('../../../../test-data/tokenizer/ours.tokenizer.json', import.meta.url).pathname);
const EOS = tok.requireId('<|endoftext|>');
const chat: ChatMessage[] = [
  { role: 'system', content: 'You simulate a kitchen.' },
  { role: 'user', content: 'Action: open fridge 1' },
  { role: 'assistant', content: 'You open the fridge 1. It is empty.' },
];

describe('chatExample', () => {
  it('keeps the prompt clean, trains the last message and pads diffusion examples with EOS to whole blocks', () => {
    const ex = chatExample(tok, chat, { objective: 'bd3', blockLength: 4, maxLength: 512, eosId: EOS }) as TrainExample;
    expect(ex.ids.length % 4).toBe(0);
    const firstTarget = ex.target.indexOf(1);
    const prompt = tok.decode(Array.from(ex.ids.subarray(0, firstTarget)));
    expect(prompt.endsWith('assistant\n')).toBe(true);
    expect(ex.target.subarray(0, firstTarget).every((v) => v === 0)).toBe(true);
    expect(ex.target.subarray(firstTarget).every((v) => v === 1)).toBe(true); // response, <|im_end|>, EOS pads
    const ar = chatExample(tok, chat, { objective: 'ar', blockLength: 4, maxLength: 512, eosId: EOS }) as TrainExample;
    expect(tok.decode(Array.from(ar.ids.subarray(firstTarget)), { skipSpecialTokens: false })).toBe('You open the fridge 1. It is empty.<|im_end|>');
    const pads = ex.ids.length - ar.ids.length;
    expect(pads).toBeGreaterThanOrEqual(0);
    expect(pads).toBeLessThan(4);
    expect(Array.from(ex.ids.subarray(ar.ids.length))).toEqual(new Array(pads).fill(EOS));
  });

  it('drops rows over the maximum length and rows without an assistant target', () => {
    expect(chatExample(tok, chat, { objective: 'mdlm', blockLength: 4, maxLength: 8, eosId: EOS })).toBe('too_long');
    expect(chatExample(tok, chat.slice(0, 2), { objective: 'ar', blockLength: 1, maxLength: 512, eosId: EOS })).toBe('no_target');
    expect(chatExample(tok, chat.slice(2), { objective: 'ar', blockLength: 1, maxLength: 512, eosId: EOS })).toBe('no_target');
  });
});

describe('packing and the batch plan', () => {
  it('packs every example exactly once without overflowing a row', () => {
    const r = new Rng(3);
    const lengths = Array.from({ length: 300 }, () => 4 * r.int(1, 16));
    const rows = packRows(
      lengths,
      lengths.map((_, i) => i),
      64,
    );
    expect(rows.flatMap((x) => x.examples).sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
    for (const row of rows) expect(row.examples.reduce((a, e) => a + lengths[e]!, 0)).toBeLessThanOrEqual(64);
    const waste = paddingWaste(lengths, 64, 8);
    expect(waste.packed).toBeLessThan(0.1);
    expect(waste.bucketed).toBeGreaterThan(0); // sorted neighbours still differ in length
    expect(() => packRows([65], [0], 64)).toThrow('more than the row length 64');
  });

  it('batch k is a pure function of (examples, seed, k), across epochs', () => {
    const lengths = Array.from({ length: 50 }, (_, i) => 4 + (i % 7) * 4);
    const a = new BatchPlan(lengths, 32, 4, 9);
    const b = new BatchPlan(lengths, 32, 4, 9);
    const per = a.batchesPerEpoch;
    expect(per).toBeGreaterThan(2);
    const ks = [3 * per + 1, 0, per, per - 1, 5 * per + 2];
    for (const k of ks) expect(b.batch(k)).toEqual(new BatchPlan(lengths, 32, 4, 9).batch(k));
    expect(a.batch(0)).not.toEqual(a.batch(per)); // a new epoch reshuffles
    expect(new BatchPlan(lengths, 32, 4, 10).batch(0)).not.toEqual(a.batch(0));
    for (let k = 0; k < 3 * per; k++) expect(a.batch(k)).toHaveLength(4);
  });
});

describe('attention layouts of packed batches', () => {
  const model = { vocabSize: 16, dModel: 8, nLayers: 1, nHeads: 2, nKvHeads: 1, ffnDim: 8, ropeTheta: 10000, rmsEps: 1e-6 };
  const spec = (objective: ObjectiveSpec['objective'], length: number): ObjectiveSpec => ({ objective, model, batch: 1, length, blockLength: 4, maskId: 3 });
  const example = (n: number, promptLen: number): TrainExample => ({
    ids: Int32Array.from({ length: n }, (_, i) => 5 + (i % 9)),
    target: Uint8Array.from({ length: n }, (_, i) => (i >= promptLen ? 1 : 0)),
  });

  it('one sample filling the row gives exactly the block-diffusion mask', () => {
    const packed = materialize([example(16, 5)], [{ examples: [0] }], 16, 4);
    const bias = attentionBias(spec('bd3', 16), packed);
    const ref = blockDiffusionMask(16, 4);
    for (let i = 0; i < ref.length; i++) expect(bias[i] === 0).toBe(ref[i] === 0);
  });

  it('packed samples never see each other; positions restart; padding sees only itself', () => {
    const packed = materialize([example(8, 3), example(4, 1)], [{ examples: [0, 1] }], 16, 4);
    expect(Array.from(packed.positions, Number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 0, 0, 0, 0]);
    expect(packed.targetTokens).toBe(5 + 3);
    for (const objective of ['ar', 'mdlm', 'bd3'] as const) {
      const s = spec(objective, 16);
      const S = objective === 'bd3' ? 32 : 16;
      const bias = attentionBias(s, packed);
      const row = (q: number): number[] => Array.from(bias.subarray(q * S, (q + 1) * S), (v) => (v === 0 ? 1 : 0));
      const sampleOf = (i: number) => packed.sample[i % 16]!;
      for (let q = 0; q < S; q++) {
        const seen = row(q);
        for (let k = 0; k < S; k++) if (seen[k]) expect(sampleOf(k)).toBe(sampleOf(q));
        if (sampleOf(q) < 0) expect(seen.reduce((a, b) => a + b, 0)).toBe(1);
      }
      // ar: causal inside the sample; mdlm: the whole sample
      if (objective === 'ar') expect(row(9)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0]);
      if (objective === 'mdlm') expect(row(9)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]);
    }
  });

  it('the in-graph bias from the feeds equals the host reference on packed, padded rows of every objective', async () => {
    // rows of several samples, lengths not multiples of anything, and a padded tail; two rows
    const examples = [example(8, 3), example(4, 1), example(5, 2), example(9, 4), example(3, 0)];
    const packed = materialize(examples, [{ examples: [0, 1] }, { examples: [2, 3, 4] }], 24, 4);
    for (const objective of ['ar', 'mdlm', 'bd3'] as const) {
      const s: ObjectiveSpec = { ...spec(objective, 24), batch: 2 };
      const S = modelLength(s);
      const g = new Graph();
      const seg = g.input('segment_ids', 'int64', [2, S]);
      const blocks = objective === 'bd3' ? g.input('block_ids', 'int64', [2, S]) : undefined;
      g.output('bias', attentionBiasGraph(s, seg, blocks));
      const session = await createSession(emitOnnx(g).bytes, { provider: 'cpu' });
      const feeds = objectiveFeeds(s, packed, new Rng(1));
      const out = await session.run({ segment_ids: feeds.segment_ids!, ...(blocks ? { block_ids: feeds.block_ids! } : {}) });
      const got = (out['bias'] as HostTensor).data as Float32Array;
      expect(Array.from(got)).toEqual(Array.from(attentionBias(s, packed)));
    }
  });

  it('bd3 feeds: [x_t ; x_0] per row, only targets masked, repeated positions', () => {
    const packed = materialize([example(8, 3), example(4, 1)], [{ examples: [0, 1] }], 16, 4);
    const feeds = objectiveFeeds(spec('bd3', 16), packed, new Rng(1));
    const ids = feeds.input_ids!.data as BigInt64Array;
    expect(feeds.input_ids!.dims).toEqual([1, 32]);
    expect(Array.from(ids.subarray(16))).toEqual(Array.from(packed.ids));
    for (let i = 0; i < 16; i++) {
      if (!packed.target[i]) expect(ids[i]).toBe(packed.ids[i]);
      else expect(ids[i] === 3n || ids[i] === packed.ids[i]).toBe(true);
    }
    const w = feeds.loss_weights!.data as Float32Array;
    for (let i = 0; i < 16; i++) expect(w[i]! > 0).toBe(ids[i] === 3n);
    expect(Array.from(feeds.position_ids!.data as BigInt64Array).slice(16)).toEqual(Array.from(packed.positions));
    expect((feeds.normalizer!.data as Float32Array)[0]).toBe(8);
  });
});
