// The generator's models see what training saw. For checkpoints written by trainWorldModel, the
// logits the samplers get from the ONNX models (cached, block by block or token by token) equal
// the logits of the training layout for the same tokens: bd3's [x_t ; x_0] pass with the answer
// masked in x_t, ar's causal pass, mdlm's bidirectional pass over the sample.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint, weightArrays } from '../checkpoint/index.js';
import { Graph, emitOnnx } from '../graph/index.js';
import { parseHfConfig, type ModelConfig } from '../nn/config.js';
import { ropeAtPositions, ropeTablesRange } from '../nn/rope.js';
import { headDimOf, transformerForward, transformerParams } from '../nn/transformer.js';
import { type HostTensor, createSession, hostTensor } from '../runtime/index.js';
import { resolveTrainConfig } from '../train/config.js';
import { chatExample, materialize, type TrainExample } from '../train/data.js';
import { attentionBias, type ObjectiveSpec } from '../train/objective.js';
import { TINY_WM_MODEL, tinyWmTokenizer as tok, tinyWmTokenizerJson as tokenizerJson, writeTransitions } from '../testing/index.js';
import { trainWorldModel } from '../train/trainer.js';
import { OnnxBidirectionalModel, OnnxBlockDiffusionModel, OnnxCausalModel } from './onnx-models.js';

const T = 64;
const B = 4;

async function trained(objective: 'ar' | 'bd3' | 'mdlm'): Promise<{ config: ModelConfig; weights: Record<string, Float32Array>; examples: TrainExample[] }> {
  const dir = mkdtempSync(join(tmpdir(), `layout-${objective}-`));
  const data = join(dir, 'rows.jsonl');
  writeTransitions(data);
  const config = resolveTrainConfig({ objective, model: TINY_WM_MODEL, seqLength: T, batchSize: 4, steps: 15, lr: 3e-3, evalFraction: 0, evalEvery: 0, saveEvery: 0, logEvery: 1000 });
  const s = await trainWorldModel({ config, data: [data], tokenizer: tok, tokenizerJson, out: join(dir, 'run'), provider: 'cpu' });
  const ck = await loadCheckpoint(s.modelDir);
  const rows = readFileSync(data, 'utf8')
    .trim()
    .split('\n')
    .slice(0, 3)
    .map((l) => (JSON.parse(l) as { messages: never }).messages);
  const examples = rows.map((m) => chatExample(tok, m, { objective, blockLength: B, maxLength: T, eosId: tok.requireId('<|endoftext|>') }) as TrainExample);
  return { config: parseHfConfig(ck.config), weights: weightArrays(ck.weights), examples };
}

/** Logits [S × V] of one row of the training layout (ids, positions, attention bias as the trainer builds them). */
async function trainingLogits(config: ModelConfig, weights: Record<string, Float32Array>, ids: number[], positions: number[], bias: Float32Array): Promise<Float32Array> {
  const S = ids.length,
    hd = headDimOf(config);
  const g = new Graph();
  const params = Object.fromEntries(transformerParams(config).map((p) => [p.name, g.input(p.name, 'float32', p.shape)]));
  const inIds = g.input('input_ids', 'int64', [1, S]);
  const pos = g.input('position_ids', 'int64', [1, S]);
  const mask = g.input('attention_bias', 'float32', [1, 1, S, S]);
  const { cos, sin } = ropeTablesRange(config, 0, T);
  g.output('logits', transformerForward(config, params, { inputIds: inIds, mask, cos: ropeAtPositions(cos, hd, pos), sin: ropeAtPositions(sin, hd, pos) }));
  const session = await createSession(emitOnnx(g).bytes, { provider: 'cpu' });
  const feeds = Object.fromEntries(transformerParams(config).map((p) => [p.name, hostTensor('float32', weights[p.name]!, p.shape)]));
  const out = await session.run({
    ...feeds,
    input_ids: hostTensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, S]),
    position_ids: hostTensor('int64', BigInt64Array.from(positions.map(BigInt)), [1, S]),
    attention_bias: hostTensor('float32', bias, [1, 1, S, S]),
  });
  return (out['logits'] as HostTensor).data as Float32Array;
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

const TOL = 1e-3;

describe('samplers see the training layout', () => {
  it('bd3: each answer block queried after its committed prefix = the [x_t ; x_0] pass with the answer masked', async () => {
    const { config, weights, examples } = await trained('bd3');
    const model = await OnnxBlockDiffusionModel.create(config, weights, B, { provider: 'cpu' });
    const V = config.vocabSize,
      maskId = tok.maskId!;
    const spec: ObjectiveSpec = { objective: 'bd3', model: config, batch: 1, length: T, blockLength: B, maskId };
    let blocks = 0;
    for (const ex of examples) {
      const packed = materialize([ex], [{ examples: [0] }], T, tok.padId!);
      const x0 = Array.from(packed.ids, Number);
      const xt = x0.map((t, i) => (packed.target[i] ? maskId : t));
      const pos = Array.from(packed.positions, Number);
      const logits = await trainingLogits(config, weights, [...xt, ...x0], [...pos, ...pos], attentionBias(spec, packed));
      for (let b = 0; b * B < ex.ids.length; b++) {
        if (!xt.slice(b * B, (b + 1) * B).includes(maskId)) continue;
        const dec = model.open(1);
        const [got] = await dec.forward([{ row: 0, commit: x0.slice(0, b * B), query: xt.slice(b * B, (b + 1) * B) }]);
        await dec.close();
        expect(maxDiff(got!, logits.subarray(b * B * V, (b + 1) * B * V)), `block ${b}`).toBeLessThan(TOL);
        blocks++;
      }
    }
    expect(blocks).toBeGreaterThanOrEqual(12); // 3 answers of 4–6 blocks
  }, 120_000);

  it('ar: the cached decoder, fed one token at a time, = the causal training pass', async () => {
    const { config, weights, examples } = await trained('ar');
    const model = await OnnxCausalModel.create(config, weights, { provider: 'cpu' });
    const V = config.vocabSize;
    const spec: ObjectiveSpec = { objective: 'ar', model: config, batch: 1, length: T, blockLength: 1, maskId: 0 };
    for (const ex of examples) {
      const packed = materialize([ex], [{ examples: [0] }], T, tok.padId!);
      const ids = Array.from(packed.ids, Number);
      const logits = await trainingLogits(config, weights, ids, Array.from(packed.positions, Number), attentionBias(spec, packed));
      const p = ex.target.indexOf(1);
      const dec = model.open(1);
      let [got] = await dec.forward([{ row: 0, tokens: ids.slice(0, p) }]);
      for (let i = p - 1; i < ex.ids.length - 1; i++) {
        expect(maxDiff(got!, logits.subarray(i * V, (i + 1) * V)), `position ${i}`).toBeLessThan(TOL);
        [got] = await dec.forward([{ row: 0, tokens: [ids[i + 1]!] }]);
      }
      await dec.close();
    }
  }, 120_000);

  it('mdlm: the bidirectional model on the sample = the training pass', async () => {
    const { config, weights, examples } = await trained('mdlm');
    const model = await OnnxBidirectionalModel.create(config, weights, { provider: 'cpu' });
    const V = config.vocabSize,
      maskId = tok.maskId!;
    const spec: ObjectiveSpec = { objective: 'mdlm', model: config, batch: 1, length: T, blockLength: B, maskId };
    for (const ex of examples) {
      const packed = materialize([ex], [{ examples: [0] }], T, tok.padId!);
      const xt = Array.from(packed.ids, (t, i) => (packed.target[i] ? maskId : Number(t)));
      const logits = await trainingLogits(config, weights, xt, Array.from(packed.positions, Number), attentionBias(spec, packed));
      const [got] = await model.forward([xt.slice(0, ex.ids.length)]);
      expect(maxDiff(got!, logits.subarray(0, ex.ids.length * V))).toBeLessThan(TOL);
    }
  }, 120_000);
});
