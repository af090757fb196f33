// The pool decoder on the CPU (the C API path that CUDA runs with device memory): every row's
// logits and greedy choices equal its own uncached pass through the host-cache decoder, through a
// chunked prefill, rows that skip passes, block-causal queries that are not kept, and pool growth.
import { Rng } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { transformerParams, type TransformerConfig } from '../nn/transformer.js';
import { loadCApi } from '../runtime/capi/index.js';
import { OnnxDecoder } from './onnx-decoder.js';
import { ResidentDecoder, type ResidentPass } from './resident-decoder.js';

const { error } = loadCApi();
if (error) console.warn(`skipping the resident decoder tests: ${error}`);
const describeCApi = error && !process.env['CI'] ? describe.skip : describe;

const cfg: TransformerConfig = { vocabSize: 24, dModel: 16, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 32, ropeTheta: 10000, rmsEps: 1e-6 };

function randomWeights(seed: number): Record<string, Float64Array> {
  const rng = new Rng(seed);
  return Object.fromEntries(
    transformerParams(cfg).map((s) => [s.name, Float64Array.from({ length: s.shape.reduce((a, b) => a * b, 1) }, () => (s.shape.length === 1 ? 1 : (rng.float() - 0.5) * 0.6))]),
  );
}

const range = (start: number, n: number) => Array.from({ length: n }, (_, i) => start + i);
const throughSelf = (i: number) => i + 1;

describeCApi('ResidentDecoder (pool KV cache written in place)', () => {
  // cudaGraph on the CPU: the graph-step path (fixed buffers per shape, bound once) without capture.
  for (const cudaGraph of [false, true])
    it(`a prefill, decode steps over changing subsets of rows and a chunked long segment give each row its uncached logits${cudaGraph ? ' (graph steps)' : ''}`, async () => {
      const weights = randomWeights(1);
      const ref = await OnnxDecoder.create(cfg, weights, { provider: 'cpu', dtype: 'float64' });
      // A score budget this small gives each prompt a prefill pass of its own (three passes), and
      // splits a long segment of a row that has a cache into 64-token chunks.
      const dec = ResidentDecoder.create(cfg, weights, { provider: 'cpu', dtype: 'float64', maxScoreBytes: 1, cudaGraph });
      const rng = new Rng(2);
      const draw = () => 1 + Math.floor(rng.float() * (cfg.vocabSize - 1));
      const seqs = [3, 150, 7].map((n) => Array.from({ length: n }, draw));
      const pool = dec.openPool(3);
      const uncached = async (tokens: number[]) =>
        (await ref.run([{ cache: null, tokens, positions: range(0, tokens.length), allowed: (i, j) => j <= i, visible: throughSelf, keep: 0, logitsOf: [tokens.length - 1] }]))[0]!;
      const check = async (got: Float32Array[], rows: number[]) => {
        for (const [k, r] of rows.entries()) {
          const want = await uncached(seqs[r]!);
          for (let v = 0; v < cfg.vocabSize; v++) expect(got[k]![v]).toBeCloseTo(want[v]!, 9);
        }
      };
      const before = dec.passes;
      const prefill = await dec.run(seqs.map((s, b) => ({ cache: pool.rows[b]!, tokens: [...s], positions: range(0, s.length), visible: throughSelf, keep: s.length, logitsOf: [s.length - 1] })));
      expect(dec.passes - before).toBe(3);
      await check(prefill, [0, 1, 2]);
      for (const rows of [[0, 1, 2], [2, 0], [1], [0, 1, 2], [2]]) {
        const passes: ResidentPass[] = rows.map((b) => {
          const add = Array.from({ length: 1 + (b % 2) }, draw);
          seqs[b]!.push(...add);
          const row = pool.rows[b]!;
          return { cache: row, tokens: add, positions: range(row.length, add.length), visible: throughSelf, keep: add.length, logitsOf: [add.length - 1] };
        });
        await check(await dec.run(passes), rows);
      }
      expect(pool.rows.map((r) => r.length)).toEqual(seqs.map((s) => s.length));
      // 150 tokens onto row 0's cache in one step: chunks of 64, 64, then the last 22 with the logits.
      const long = Array.from({ length: 150 }, draw);
      seqs[0]!.push(...long);
      const at = pool.rows[0]!.length;
      const passesBefore = dec.passes;
      await check(await dec.run([{ cache: pool.rows[0]!, tokens: long, positions: range(at, 150), visible: throughSelf, keep: 150, logitsOf: [149] }]), [0]);
      expect(dec.passes - passesBefore).toBe(3);
      expect(pool.rows.map((r) => r.length)).toEqual(seqs.map((s) => s.length));
      expect(pool.capacity).toBeGreaterThanOrEqual(Math.max(...seqs.map((s) => s.length)));
      // Graph steps: the five decode steps (one or two tokens a row) and the long segment's last 22
      // tokens (≤ GRAPH_MAX_NEW); not the prefill nor the two 64-token chunks.
      expect(dec.graphPasses).toBe(cudaGraph ? 6 : 0);
      pool.release();
      dec.release();
    });

  for (const cudaGraph of [false, true])
    it(`block-causal queries that are not kept, then their commit, match the host-cache decoder; greedy choices honour bans${cudaGraph ? ' (graph steps)' : ''}`, async () => {
      const weights = randomWeights(3);
      const B = 4;
      const blockVisible = (i: number) => (Math.floor(i / B) + 1) * B;
      const blockCausal = (i: number, j: number) => Math.floor(j / B) <= Math.floor(i / B);
      const ref = await OnnxDecoder.create(cfg, weights, { provider: 'cpu', dtype: 'float64' });
      const dec = ResidentDecoder.create(cfg, weights, { provider: 'cpu', dtype: 'float64', cudaGraph });
      const pool = dec.openPool(2);
      const refCaches = [ref.newCache(), ref.newCache()];
      const rng = new Rng(4);
      const draw = () => 1 + Math.floor(rng.float() * (cfg.vocabSize - 1));
      const bans = { lists: [[], [5, 6, 7]] };
      for (let step = 0; step < 6; step++) {
        // Row 0 commits a block and queries the next; row 1 only queries (its commit comes later).
        const commit = step % 2 === 0 ? Array.from({ length: B }, draw) : [];
        const query = Array.from({ length: B }, draw);
        const item = (b: number) => {
          const tokens = b === 0 || commit.length === 0 ? [...commit, ...query] : query;
          const keep = tokens.length - B;
          return { tokens, keep, logitsOf: range(keep, B), banOf: [0, 1, 0, 1] };
        };
        const items = [item(0), item(1)];
        const got = await dec.runGreedy(
          items.map((it, b) => ({ cache: pool.rows[b]!, positions: range(pool.rows[b]!.length, it.tokens.length), visible: blockVisible, ...it })),
          bans,
        );
        const want = await ref.runGreedy(
          items.map((it, b) => ({ cache: refCaches[b]!, positions: range(refCaches[b]!.length, it.tokens.length), allowed: blockCausal, visible: blockVisible, ...it })),
          bans,
        );
        for (const b of [0, 1]) {
          expect(Array.from(got[b]!.tokens)).toEqual(Array.from(want[b]!.tokens));
          for (const [w, p] of got[b]!.probs.entries()) expect(p).toBeCloseTo(want[b]!.probs[w]!, 9);
          for (const [w, t] of got[b]!.tokens.entries()) if (w % 2 === 1) expect(bans.lists[1]).not.toContain(t);
        }
        expect(pool.rows.map((r) => r.length)).toEqual(refCaches.map((c) => c.length));
      }
      if (cudaGraph) expect(dec.graphPasses).toBeGreaterThan(0);
      else expect(dec.graphPasses).toBe(0);
      pool.release();
      dec.release();
    });

  it('graph steps: a released pool is kept for the next pool of as many rows, its steps serving again; without cudaGraph it is freed', async () => {
    const weights = randomWeights(9);
    const plain = ResidentDecoder.create(cfg, weights, { provider: 'cpu', dtype: 'float64' });
    const graphed = ResidentDecoder.create(cfg, weights, { provider: 'cpu', dtype: 'float64', cudaGraph: true });
    /** A batch of two rows: a prefill and three greedy steps; the pool, its step count and the last logits. */
    const batch = async (dec: ResidentDecoder, seed: number) => {
      const rng = new Rng(seed);
      const seqs = [9, 14].map((n) => Array.from({ length: n }, () => 1 + Math.floor(rng.float() * (cfg.vocabSize - 1))));
      const pool = dec.openPool(2);
      expect(pool.rows.map((r) => r.length)).toEqual([0, 0]);
      let logits: Float32Array[] = [];
      for (let step = 0; step < 4; step++) {
        logits = await dec.run(
          seqs.map((s, b) => {
            const row = pool.rows[b]!;
            const tokens = s.slice(row.length);
            return { cache: row, tokens, positions: range(row.length, tokens.length), visible: throughSelf, keep: tokens.length, logitsOf: [tokens.length - 1] };
          }),
        );
        logits.forEach((l, b) => seqs[b]!.push(l.indexOf(Math.max(...l))));
      }
      const steps = pool.graphSteps.size;
      pool.release();
      return { pool, steps, logits };
    };
    const [a, b] = [await batch(graphed, 1), await batch(graphed, 2)];
    expect(b.pool).toBe(a.pool);
    expect(a.steps).toBe(1); // one bucket: two rows, one token each, one capacity
    expect(b.steps).toBe(1); // the kept step served the second batch
    expect(graphed.openPool(3)).not.toBe(a.pool);
    const [c, d] = [await batch(plain, 1), await batch(plain, 2)];
    expect(d.pool).not.toBe(c.pool);
    for (const [got, want] of [
      [a, c],
      [b, d],
    ] as const)
      got.logits.forEach((l, r) => l.forEach((v, i) => expect(v).toBeCloseTo(want.logits[r]![i]!, 9)));
    graphed.release();
    plain.release();
  });

  it('float16: weights and pool in half precision give logits within 0.02 of float32 and the same greedy tokens', async () => {
    const weights = randomWeights(6);
    const full = ResidentDecoder.create(cfg, weights, { provider: 'cpu', dtype: 'float32' });
    const half = ResidentDecoder.create(cfg, weights, { provider: 'cpu', dtype: 'float16' });
    const rng = new Rng(7);
    const draw = () => 1 + Math.floor(rng.float() * (cfg.vocabSize - 1));
    const seqs = [5, 70, 12].map((n) => Array.from({ length: n }, draw));
    const [pf, ph] = [full.openPool(3), half.openPool(3)];
    const bans = { lists: [[]] };
    const V = cfg.vocabSize;
    const passes = (pool: typeof pf, keep: boolean): ResidentPass[] =>
      seqs.map((s, b) => {
        const row = pool.rows[b]!;
        const tokens = s.slice(row.length);
        return { cache: row, tokens, positions: range(row.length, tokens.length), visible: throughSelf, keep: keep ? tokens.length : 0, logitsOf: [tokens.length - 1] };
      });
    const argmax = (l: Float32Array) => l.indexOf(Math.max(...l));
    let maxDiff = 0,
      decided = 0;
    // Greedy decoding led by float32; each step the half decoder's greedy head (a query it does not
    // keep) and its logits (the same tokens, kept) are checked against float32's.
    for (let step = 0; step < 12; step++) {
      // Step 6 brings row 1 a 350-token continuation: the pools grow (a half pool through its float32 copy).
      if (step === 6) seqs[1]!.push(...Array.from({ length: 350 }, draw));
      const capacity = ph.capacity;
      const picks = await half.runGreedy(passes(ph, false), bans);
      if (step === 6) expect(ph.capacity).toBeGreaterThan(capacity);
      const [lf, lh] = [await full.run(passes(pf, true)), await half.run(passes(ph, true))];
      for (let b = 0; b < seqs.length; b++) {
        const [f, h] = [lf[b]!, lh[b]!];
        for (let v = 0; v < V; v++) maxDiff = Math.max(maxDiff, Math.abs(f[v]! - h[v]!));
        const want = argmax(f);
        expect(picks[b]!.tokens[0]).toBe(argmax(h)); // the half graph's own greedy head
        // Where float32's best beats its runner-up by more than twice the tolerance, half precision must agree.
        const runnerUp = Math.max(...f.filter((_, v) => v !== want));
        if (f[want]! - runnerUp > 0.04) {
          decided++;
          expect(picks[b]!.tokens[0]).toBe(want);
        }
        seqs[b]!.push(want);
      }
    }
    expect(decided).toBeGreaterThanOrEqual(30); // of 36 choices
    expect(maxDiff).toBeLessThan(0.02);
    expect(maxDiff).toBeGreaterThan(0); // the half graph really computes in half precision
    for (const p of [pf, ph]) p.release();
    full.release();
    half.release();
  });

  it('bfloat16 is refused on the CPU, by name', () => {
    expect(() => ResidentDecoder.create(cfg, randomWeights(8), { provider: 'cpu', dtype: 'bfloat16' })).toThrow(/bfloat16 runs on CUDA only/);
  });

  it('refuses rows of two pools, a row twice, and keep past the new tokens, by name', async () => {
    const dec = ResidentDecoder.create(cfg, randomWeights(5), { provider: 'cpu' });
    const [a, b] = [dec.openPool(1), dec.openPool(1)];
    const pass = (row = a.rows[0]!, keep = 1): ResidentPass => ({ cache: row, tokens: [1], positions: [row.length], visible: throughSelf, keep, logitsOf: [0] });
    await expect(dec.run([pass(), pass(b.rows[0]!)])).rejects.toThrow(/one pool/);
    await expect(dec.run([pass(), pass()])).rejects.toThrow(/pool row 0 appears twice/);
    await expect(dec.run([pass(a.rows[0]!, 2)])).rejects.toThrow(/keep 2 of 1/);
    expect(a.rows[0]!.length).toBe(0);
    dec.release();
  });
});
