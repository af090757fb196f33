// bd3 with tokenShift: the step's loss equals a host reference over the model's full outputs — every
// noisy target i read at the noisy stream's i−1 inside a block and at the clean stream's i−1 at a
// block start (per packed sample) — and the same reference without the shift equals the unshifted
// step, so the reference itself is checked and the two losses differ. Two samples share the row,
// so the per-sample restart of positions and blocks is exercised too.
import { Rng, worldModelRowMessages } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { emitOnnx } from '../graph/emit.js';
import { Graph } from '../graph/index.js';
import { parseHfConfig } from '../nn/config.js';
import { ropeInputs, ropeTablesRange } from '../nn/rope.js';
import { headDimOf, transformerForward, transformerParams } from '../nn/transformer.js';
import { type HostTensor, createSession, hostTensor } from '../runtime/index.js';
import { TINY_WM_MODEL, tinyWmTokenizer as tok } from '../testing/index.js';
import { chatExample, eosPadId, materialize, type TrainExample } from './data.js';
import { type ObjectiveSpec, attentionBiasGraph, modelLength, objectiveFeeds, objectiveStepSpec, shiftedLogitRows } from './objective.js';
import { StepRunner } from './runner.js';
import { initialWeights } from './trainer.js';

const T = 256,
  BLOCK = 4;
const eosId = eosPadId(tok)!;
const maskId = tok.maskId!;
const model = parseHfConfig({ vocab_size: tok.vocabSize, ...TINY_WM_MODEL });
const weights = initialWeights(model, 7);

const history = [
  { role: 'system' as const, content: 'You are an agent.' },
  { role: 'user' as const, content: 'You are in a kitchen. Your task is to: find the mug.' },
];
const rows = [
  worldModelRowMessages({ system: 'cabinet 1 holds mug 1', history, action: 'open cabinet 1' }, 'You open the cabinet 1. It holds a mug 1.', { layout: 'episode' }),
  worldModelRowMessages({ system: 'drawer 2 holds a key', history, action: 'go to drawer 2' }, 'You arrive at drawer 2. On the drawer 2, you see a key 1.', { layout: 'episode' }),
];
const examples = rows.map((m) => chatExample(tok, m, { objective: 'bd3', blockLength: BLOCK, maxLength: T, eosId }) as TrainExample);

/** The model's logits at every position of the [x_t ; x_0] row, [S, V]. */
async function fullLogits(s: ObjectiveSpec, feeds: Record<string, HostTensor>): Promise<Float32Array> {
  const S = modelLength(s);
  const g = new Graph();
  const p = Object.fromEntries(transformerParams(model).map((t) => [t.name, g.input(t.name, 'float32', t.shape)]));
  const ids = g.input('input_ids', 'int64', [1, S]);
  const positions = g.input('position_ids', 'int64', [1, S]);
  const mask = attentionBiasGraph(s, g.input('segment_ids', 'int64', [1, S]), g.input('block_ids', 'int64', [1, S]));
  g.output('logits', transformerForward(model, p, { inputIds: ids, mask, ...ropeInputs(ropeTablesRange(model, 0, T), headDimOf(model), positions) }));
  const session = await createSession(emitOnnx(g).bytes, { provider: 'cpu' });
  const params = Object.fromEntries(transformerParams(model).map((t) => [t.name, hostTensor('float32', weights[t.name]!, [...t.shape] as number[])]));
  const out = await session.run({ ...params, input_ids: feeds['input_ids']!, position_ids: feeds['position_ids']!, segment_ids: feeds['segment_ids']!, block_ids: feeds['block_ids']! });
  return (out['logits'] as HostTensor).data as Float32Array;
}

/** Σ w·(−log p_SUBS(target)) / normalizer with target i read at `source(i)`. */
function referenceLoss(logits: Float32Array, feeds: Record<string, HostTensor>, source: (i: number) => number): number {
  const V = model.vocabSize;
  const w = feeds['loss_weights']!.data as Float32Array;
  const targets = feeds['targets']!.data as BigInt64Array;
  let sum = 0;
  for (let i = 0; i < T; i++) {
    if (!w[i]) continue;
    const row = logits.subarray(source(i) * V, (source(i) + 1) * V);
    let max = -Infinity;
    for (let v = 0; v < V; v++) if (v !== maskId) max = Math.max(max, row[v]!);
    let z = 0;
    for (let v = 0; v < V; v++) if (v !== maskId) z += Math.exp(row[v]! - max);
    sum += w[i]! * -(row[Number(targets[i]!)]! - max - Math.log(z));
  }
  return sum / (feeds['normalizer']!.data as Float32Array)[0]!;
}

describe('bd3 token shift', () => {
  it('the shifted loss reads i−1 (noisy inside a block, clean at a block start); the unshifted one reads i', async () => {
    const packed = materialize(examples, [{ examples: [0, 1] }], T, eosId);
    expect(packed.segments).toHaveLength(2);
    const plain: ObjectiveSpec = { objective: 'bd3', model, batch: 1, length: T, blockLength: BLOCK, maskId };
    const shifted: ObjectiveSpec = { ...plain, tokenShift: true };
    const feeds = objectiveFeeds(plain, packed, new Rng(3));
    const feedsShifted = objectiveFeeds(shifted, packed, new Rng(3));
    expect(feedsShifted['loss_weights']!.data).toEqual(feeds['loss_weights']!.data); // same noise
    const logits = await fullLogits(plain, feeds);
    const pos = (i: number) => Number(packed.positions[i]!);
    const prev = (i: number) => (pos(i) % BLOCK !== 0 ? i - 1 : T + i - 1);
    const wantPlain = referenceLoss(logits, feeds, (i) => i);
    const wantShifted = referenceLoss(logits, feeds, prev);
    expect(Math.abs(wantShifted - wantPlain) / wantPlain).toBeGreaterThan(1e-3);
    for (const [s, f, want] of [
      [plain, feeds, wantPlain],
      [shifted, feedsShifted, wantShifted],
    ] as const) {
      const runner = await StepRunner.create(objectiveStepSpec(s, { optimizer: { weightDecay: 0 } }), weights, { provider: 'cpu' });
      try {
        const got = await runner.evaluate(f);
        expect(Math.abs(got - want) / want, `tokenShift ${s.tokenShift === true}`).toBeLessThan(1e-5);
      } finally {
        runner.release();
      }
    }
  }, 60_000);

  it('every position gets a distinct source (GatherND gradients must not see repeats), block length 1 included', () => {
    for (const blockLength of [1, 4]) {
      const ex = examples.map((e) => (blockLength === BLOCK ? e : (chatExample(tok, rows[examples.indexOf(e)]!, { objective: 'bd3', blockLength, maxLength: T, eosId }) as TrainExample)));
      const packed = materialize(ex, [{ examples: [0, 1] }], T, eosId);
      const src = shiftedLogitRows({ objective: 'bd3', model, batch: 1, length: T, blockLength, maskId, tokenShift: true }, packed);
      const sources = Array.from({ length: T }, (_, t) => Number(src[2 * t + 1]!));
      expect(new Set(sources).size).toBe(T);
      expect(sources.every((x) => x >= 0 && x < 2 * T)).toBe(true);
    }
  });
});
