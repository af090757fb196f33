// Multi-span objectives equal a per-span reference on a tiny batch. A two-observation episode row R
// is noised once; its loss (as a sum: normalizer 1) must equal the loss of span 1 computed on the
// row's prefix P alone (a one-observation row) plus the loss of span 2 on R with span 1 left clean,
// both with the same noise draws. That holds when no target token sees anything inference would not
// have: ar is causal; bd3 needs every answer padded to a block boundary (a noisy block sees itself
// and earlier clean blocks only). mdlm attends the whole sample both ways, so it has no such
// decomposition (a span sees the later turns); what it must do is draw one mask ratio per span.
// Measured relative gaps: ar 3.6e-8, bd3 1.3e-8 (float32 summation order); mdlm, run through the
// same check, 1.5e-4 — the size of the leak this test would catch for bd3 without the answer pads.
import { Rng, worldModelRowMessages } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { noiseSegments } from '../objectives/noise.js';
import { parseHfConfig } from '../nn/config.js';
import { type HostTensor, hostTensor } from '../runtime/index.js';
import { TINY_WM_MODEL, tinyWmTokenizer as tok } from '../testing/index.js';
import { type Objective, type TrainExample, chatExample, eosPadId, materialize } from './data.js';
import { type ObjectiveSpec, objectiveFeeds, objectiveStepSpec } from './objective.js';
import { StepRunner } from './runner.js';
import { initialWeights } from './trainer.js';

const T = 256;
const BLOCK = 4;
const eosId = eosPadId(tok)!;
const maskId = tok.maskId!;
const model = parseHfConfig({ vocab_size: tok.vocabSize, ...TINY_WM_MODEL });
const weights = initialWeights(model, 3);

const history = [
  { role: 'system' as const, content: 'You are an agent.' },
  { role: 'user' as const, content: 'You are in a kitchen. Your task is to: find the mug.' },
  { role: 'assistant' as const, content: 'Action: open cabinet 1' },
  { role: 'user' as const, content: 'You open the cabinet 1. It holds a mug 1.' },
];
const system = 'cabinet 1 holds mug 1';
/** R: two observations; P: its first step alone (a prefix of R's tokens). */
const rowR = worldModelRowMessages({ system, history, action: 'take mug 1 from cabinet 1' }, 'You pick up the mug 1.', { layout: 'episode' });
const rowP = worldModelRowMessages({ system, history: history.slice(0, 2), action: 'open cabinet 1' }, 'You open the cabinet 1. It holds a mug 1.', { layout: 'episode' });

function example(objective: Objective, messages: typeof rowR): TrainExample {
  const ex = chatExample(tok, messages, { objective, blockLength: BLOCK, maxLength: T, eosId });
  if (typeof ex === 'string') throw new Error(`example dropped: ${ex}`);
  return ex;
}

type Feeds = Record<string, HostTensor>;
const data = <A>(f: Feeds, k: string) => f[k]!.data as unknown as A;

/** A copy of feeds with loss weights kept only on [from, to) (and, for span-1-clean, x_t there restored from x_0). */
function restrict(s: ObjectiveSpec, f: Feeds, from: number, to: number, cleanBefore: number): Feeds {
  const w = Float32Array.from(data<Float32Array>(f, 'loss_weights'), (v, i) => (i >= from && i < to ? v : 0));
  const ids = data<BigInt64Array>(f, 'input_ids').slice();
  if (s.objective !== 'ar') {
    const clean = data<BigInt64Array>(f, 'targets');
    for (let i = 0; i < cleanBefore; i++) ids[i] = clean[i]!; // x_t half (row 0 starts at 0)
  }
  return {
    ...f,
    input_ids: hostTensor('int64', ids, f['input_ids']!.dims as number[]),
    loss_weights: hostTensor('float32', w, [1, T]),
    ...(s.objective !== 'ar' ? { normalizer: hostTensor('float32', Float32Array.of(1), []) } : {}),
  };
}

describe('multi-span objectives', () => {
  for (const objective of ['ar', 'bd3'] as const) {
    it(`${objective}: the loss of a 2-span row = span 1 on its prefix + span 2 with span 1 clean, same noise`, async () => {
      const s: ObjectiveSpec = { objective, model, batch: 1, length: T, blockLength: BLOCK, maskId };
      const R = example(objective, rowR);
      const P = example(objective, rowP);
      expect(R.spans).toHaveLength(2);
      // The prefix row is exactly R's first tokens (bd3: the first answer's block pads included).
      expect(Array.from(R.ids.slice(0, P.ids.length))).toEqual(Array.from(P.ids));
      const span2 = R.spans![1]!;
      const feedsR = objectiveFeeds(s, materialize([R], [{ examples: [0] }], T, eosId), new Rng(11));
      if (objective === 'bd3') expect(data<Float32Array>(feedsR, 'loss_weights').some((w, i) => w > 0 && i < P.ids.length)).toBe(true);
      const runner = await StepRunner.create(objectiveStepSpec(s, { optimizer: { weightDecay: 0 } }), weights, { provider: 'cpu' });
      try {
        // bd3/mdlm report Σ w·CE / normalizer, ar the mean over weighted targets: compare sums.
        const total = async (f: Feeds) => {
          const loss = await runner.evaluate(f);
          if (objective !== 'ar') return loss;
          const w = data<Float32Array>(f, 'loss_weights');
          return loss * w.slice(1).reduce((a, b) => a + b, 0);
        };
        const whole = await total(restrict(s, feedsR, 0, T, 0));
        // Span 1 on P alone: P's own batch (the rest of the row is padding), R's noise on its tokens.
        const feedsP = objectiveFeeds(s, materialize([P], [{ examples: [0] }], T, eosId), new Rng(0));
        const ids = data<BigInt64Array>(feedsP, 'input_ids').slice();
        const noisyR = data<BigInt64Array>(feedsR, 'input_ids');
        for (let i = 0; i < P.ids.length; i++) ids[i] = noisyR[i]!;
        const w = Float32Array.from({ length: T }, (_, i) => (i < P.ids.length ? data<Float32Array>(feedsR, 'loss_weights')[i]! : 0));
        const first = await total({ ...restrict(s, feedsP, 0, T, 0), input_ids: hostTensor('int64', ids, feedsP['input_ids']!.dims as number[]), loss_weights: hostTensor('float32', w, [1, T]) });
        const second = await total(restrict(s, feedsR, span2.start, span2.start + span2.length, span2.start));
        expect(first).toBeGreaterThan(0);
        expect(second).toBeGreaterThan(0);
        expect(Math.abs(whole - (first + second)) / whole).toBeLessThan(1e-5);
      } finally {
        runner.release();
      }
    }, 60_000);
  }

  it('mdlm and bd3 draw one mask ratio per target span, not per sample', () => {
    for (const objective of ['mdlm', 'bd3'] as const) {
      const s: ObjectiveSpec = { objective, model, batch: 1, length: T, blockLength: BLOCK, maskId };
      const R = example(objective, rowR);
      const packed = materialize([R], [{ examples: [0] }], T, eosId);
      expect(packed.spans).toEqual(R.spans);
      const feeds = objectiveFeeds(s, packed, new Rng(5));
      const reference = noiseSegments(packed.ids, packed.target, R.spans!, { maskId, rng: new Rng(5) });
      expect(reference.ratios).toHaveLength(2);
      expect(Array.from(data<Float32Array>(feeds, 'loss_weights'))).toEqual(Array.from(reference.weights));
      // Each span's weights are 1/p of its own ratio.
      R.spans!.forEach((sp, k) => {
        const ws = Array.from(reference.weights.slice(sp.start, sp.start + sp.length)).filter((x) => x > 0);
        expect(ws.length).toBeGreaterThan(0);
        for (const x of ws) expect(x).toBeCloseTo(1 / reference.ratios[k]!, 4);
      });
    }
  });
});
