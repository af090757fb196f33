// The batched decoder's bookkeeping: a prefill of very different lengths runs in length groups,
// the past tensors get room and are written in place as rows commit at different steps, and none
// of it changes a row's logits — each row equals its own uncached full pass.
import { Rng } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { transformerParams, type TransformerConfig } from '../nn/transformer.js';
import { OnnxDecoder, PastSlot, pastRoom, prefillGroups, type RowCache, type RowPass } from './onnx-decoder.js';

const cfg: TransformerConfig = { vocabSize: 24, dModel: 16, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 32, ropeTheta: 10000, rmsEps: 1e-6 };

function randomWeights(seed: number): Record<string, Float64Array> {
  const rng = new Rng(seed);
  return Object.fromEntries(
    transformerParams(cfg).map((s) => [s.name, Float64Array.from({ length: s.shape.reduce((a, b) => a * b, 1) }, () => (s.shape.length === 1 ? 1 : (rng.float() - 0.5) * 0.6))]),
  );
}

const range = (start: number, n: number) => Array.from({ length: n }, (_, i) => start + i);
const causal = (i: number, j: number) => j <= i;

describe('prefillGroups', () => {
  it('keeps similar lengths together and splits off a far longer prompt', () => {
    expect(prefillGroups([5, 4, 6, 5])).toEqual([[1, 0, 3, 2]]);
    expect(prefillGroups([4, 200, 5, 204, 6])).toEqual([
      [0, 2, 4],
      [1, 3],
    ]);
    expect(prefillGroups([7])).toEqual([[0]]);
    expect(prefillGroups([]).flat()).toEqual([]);
  });
});

describe('pastRoom', () => {
  it('is 0 for a prefill, otherwise a multiple of 16 with 16–31 positions of room', () => {
    expect(pastRoom(0)).toBe(0);
    for (const n of [1, 15, 16, 17, 100, 255]) {
      expect(pastRoom(n) % 16).toBe(0);
      expect(pastRoom(n) - n).toBeGreaterThanOrEqual(16);
      expect(pastRoom(n) - n).toBeLessThan(32);
    }
  });
});

describe('OnnxDecoder batches', () => {
  it('a grouped prefill and in-place past writes give every row the logits of its own uncached pass', async () => {
    const dec = await OnnxDecoder.create(cfg, randomWeights(1), { provider: 'cpu', dtype: 'float64' });
    const rng = new Rng(2);
    const seqs = [3, 90, 5].map((n) => Array.from({ length: n }, () => 1 + Math.floor(rng.float() * (cfg.vocabSize - 1))));
    const caches: RowCache[] = seqs.map(() => dec.newCache());
    const slot = new PastSlot();
    /** The reference: the row's whole sequence so far in one uncached pass, logits of its last token. */
    const reference = async (tokens: number[]) => (await dec.run([{ cache: null, tokens, positions: range(0, tokens.length), allowed: causal, keep: 0, logitsOf: [tokens.length - 1] }]))[0]!;
    const check = async (got: Float32Array[], rows: number[]) => {
      for (const [k, r] of rows.entries()) {
        const want = await reference(seqs[r]!);
        for (let v = 0; v < cfg.vocabSize; v++) expect(got[k]![v]).toBeCloseTo(want[v]!, 5);
      }
    };
    const before = dec.passes;
    const prefill = await dec.run(
      seqs.map((s, b) => ({ cache: caches[b]!, tokens: s, positions: range(0, s.length), allowed: causal, keep: s.length, logitsOf: [s.length - 1] })),
      slot,
    );
    expect(dec.passes - before).toBe(2); // the 90-token prompt ran apart from the short ones
    await check(prefill, [0, 1, 2]);
    // Rows take 1–3 new tokens per pass, so their caches grow out of step and past the slot's room.
    for (let step = 0; step < 24; step++) {
      const passes: RowPass[] = seqs.map((s, b) => {
        const add = Array.from({ length: 1 + ((step + b) % 3) }, () => 1 + Math.floor(rng.float() * (cfg.vocabSize - 1)));
        s.push(...add);
        return { cache: caches[b]!, tokens: add, positions: range(caches[b]!.length, add.length), allowed: causal, keep: add.length, logitsOf: [add.length - 1] };
      });
      await check(await dec.run(passes, slot), [0, 1, 2]);
    }
    expect(caches.map((c) => c.length)).toEqual(seqs.map((s) => s.length));
    // A subset of the rows (one finished) re-assembles the past and still matches.
    const tail = [0, 2].map((b) => {
      seqs[b]!.push(7);
      return { cache: caches[b]!, tokens: [7], positions: [caches[b]!.length], allowed: causal, keep: 1, logitsOf: [0] };
    });
    await check(await dec.run(tail, slot), [0, 2]);
  });

  it('a prefix pattern given as visible(i) masks as its allowed(i, j) does', async () => {
    const dec = await OnnxDecoder.create(cfg, randomWeights(5), { provider: 'cpu', dtype: 'float64' });
    const tokens = [3, 9, 4, 1, 7, 2, 8];
    const blockCausal = (i: number, j: number) => Math.floor(j / 3) <= Math.floor(i / 3);
    const pass = (fast: boolean) =>
      dec.run([
        { cache: null, tokens, positions: range(0, 7), allowed: blockCausal, ...(fast ? { visible: (i: number) => (Math.floor(i / 3) + 1) * 3 } : {}), keep: 0, logitsOf: range(0, 7) },
        { cache: null, tokens: tokens.slice(0, 4), positions: range(0, 4), allowed: causal, ...(fast ? { visible: (i: number) => i + 1 } : {}), keep: 0, logitsOf: range(0, 4) },
      ]);
    const [slow, fast] = [await pass(false), await pass(true)];
    expect(fast.map((l) => Array.from(l))).toEqual(slow.map((l) => Array.from(l)));
  });

  it('rows that leave the batch are compacted out of the past tensors in place, and the others keep their logits', async () => {
    const dec = await OnnxDecoder.create(cfg, randomWeights(3), { provider: 'cpu', dtype: 'float64' });
    const rng = new Rng(4);
    const draw = () => 1 + Math.floor(rng.float() * (cfg.vocabSize - 1));
    const seqs = [6, 9, 4, 7].map((n) => Array.from({ length: n }, draw));
    const caches = seqs.map(() => dec.newCache());
    const slot = new PastSlot();
    const pass = (rows: number[]) =>
      dec.run(
        rows.map((b) => {
          const t = draw();
          seqs[b]!.push(t);
          return { cache: caches[b]!, tokens: [t], positions: [caches[b]!.length], allowed: causal, keep: 1, logitsOf: [0] };
        }),
        slot,
      );
    await dec.run(
      seqs.map((s, b) => ({ cache: caches[b]!, tokens: [...s], positions: range(0, s.length), allowed: causal, keep: s.length, logitsOf: [] })),
      slot,
    );
    await pass([0, 1, 2, 3]); // assembles the past with room
    const buffer = slot.host[0]!.key;
    for (const rows of [[0, 1, 2, 3], [0, 2, 3], [2, 3], [3]]) {
      const got = await pass(rows);
      expect(slot.host[0]!.key).toBe(buffer); // moved within, not re-assembled
      for (const [k, b] of rows.entries()) {
        const s = seqs[b]!;
        const [want] = await dec.run([{ cache: null, tokens: s, positions: range(0, s.length), allowed: causal, keep: 0, logitsOf: [s.length - 1] }]);
        for (let v = 0; v < cfg.vocabSize; v++) expect(got[k]![v]).toBeCloseTo(want![v]!, 9);
      }
    }
  });

  it('rows that join or are reset are written into their blocks, a prefill between steps leaves the past in place, and every row keeps its logits', async () => {
    const dec = await OnnxDecoder.create(cfg, randomWeights(6), { provider: 'cpu', dtype: 'float64' });
    const rng = new Rng(7);
    const draw = () => 1 + Math.floor(rng.float() * (cfg.vocabSize - 1));
    const seqs = [8, 5, 11].map((n) => Array.from({ length: n }, draw));
    const caches = seqs.map(() => dec.newCache());
    const slot = new PastSlot();
    const prefill = (rows: number[]) =>
      dec.run(
        rows.map((b) => ({ cache: caches[b]!, tokens: [...seqs[b]!], positions: range(0, seqs[b]!.length), allowed: causal, keep: seqs[b]!.length, logitsOf: [seqs[b]!.length - 1] })),
        slot,
      );
    const step = async (rows: number[]) => {
      const got = await dec.run(
        rows.map((b) => {
          const t = draw();
          seqs[b]!.push(t);
          return { cache: caches[b]!, tokens: [t], positions: [caches[b]!.length], allowed: causal, keep: 1, logitsOf: [0] };
        }),
        slot,
      );
      for (const [k, b] of rows.entries()) {
        const s = seqs[b]!;
        const [want] = await dec.run([{ cache: null, tokens: s, positions: range(0, s.length), allowed: causal, keep: 0, logitsOf: [s.length - 1] }]);
        for (let v = 0; v < cfg.vocabSize; v++) expect(got[k]![v]).toBeCloseTo(want![v]!, 9);
      }
    };
    await prefill([0, 1, 2]);
    await step([0, 1, 2]);
    expect(slot.assemblies).toBe(1);
    const buffer = slot.host[0]!.key;
    // Row 1 takes a new sequence (continuous batching): its prefill runs alone, then it steps with the others.
    seqs[1] = Array.from({ length: 6 }, draw);
    caches[1] = dec.newCache();
    await prefill([1]);
    expect(slot.host[0]!.key).toBe(buffer);
    await step([0, 1, 2]);
    await step([0, 2]); // row 1 finished: row 2 moves up
    seqs[1] = Array.from({ length: 3 }, draw);
    caches[1] = dec.newCache();
    await prefill([1]);
    await step([0, 2, 1]); // and a new row 1 joins behind it
    await step([0, 2, 1]);
    await step([0, 1]); // row 2 left: row 1 moves up
    seqs[2] = Array.from({ length: 4 }, draw);
    caches[2] = dec.newCache();
    await prefill([2]);
    await step([0, 2, 1]); // a new row 2 joins before it: row 1 moves down
    expect(slot.assemblies).toBe(1);
    expect(slot.host[0]!.key).toBe(buffer);
    await step([1, 0, 2]); // held rows out of their order: re-assembled
    expect(slot.assemblies).toBe(2);
    await step([1, 0, 2]);
    // A joining prompt longer than the past's room re-assembles, and still matches.
    seqs[0] = Array.from({ length: 40 }, draw);
    caches[0] = dec.newCache();
    await prefill([0]);
    await step([0, 2, 1]);
    expect(slot.assemblies).toBe(3);
  });
});
