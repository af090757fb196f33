// BD3 adapted from AR (SDAR's recipe, `wm train --objective bd3 --init <ar run>/model`): the bd3 run
// starts from exactly the AR weights. Observed through a run whose only step cannot move them
// (learning rate 0, no weight decay: AdamW's update is then p − 0 = p, bit for bit), so what it
// writes is what it started from; a run with a learning rate shows the comparison is not vacuous.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint, weightArrays } from '../checkpoint/index.js';
import { tinyWmConfig, tinyWmTokenizer, tinyWmTokenizerJson, trainTinyWorldModel, transitionsDir } from '../testing/index.js';
import { ChatGenerator } from '../sampling/index.js';
import { trainWorldModel } from './trainer.js';

async function weightsOf(dir: string): Promise<Record<string, Float32Array>> {
  return weightArrays((await loadCheckpoint(dir, { optimizer: false })).weights);
}

async function bd3From(init: string, data: string, lr: number): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'bd3-from-ar-')), 'run');
  const s = await trainWorldModel({
    config: tinyWmConfig({ objective: 'bd3', steps: 1, lr, schedule: 'constant', weightDecay: 0 }),
    data: [data],
    tokenizer: tinyWmTokenizer,
    tokenizerJson: tinyWmTokenizerJson,
    out,
    init,
    provider: 'cpu',
  });
  return s.modelDir;
}

describe('bd3 initialised from an ar run', () => {
  it('starts from exactly the AR weights (bit-identical parameters before step 1)', async () => {
    const { data } = transitionsDir('bd3-from-ar-data-');
    const ar = await trainTinyWorldModel({ data, settings: { objective: 'ar', steps: 8 } });
    const arWeights = await weightsOf(ar);
    const frozen = await weightsOf(await bd3From(ar, data, 0));
    expect(Object.keys(frozen).sort()).toEqual(Object.keys(arWeights).sort());
    for (const [name, w] of Object.entries(arWeights)) {
      const f = frozen[name]!;
      expect(f.length, name).toBe(w.length);
      // Bit-identical: compare the float32 bit patterns, not values within a tolerance.
      expect(Buffer.from(f.buffer, f.byteOffset, f.byteLength).equals(Buffer.from(w.buffer, w.byteOffset, w.byteLength)), name).toBe(true);
    }
    // Same architecture (config.json), now decoding as bd3 (generation_config.json).
    const arCk = await loadCheckpoint(ar, { optimizer: false });
    const bd3Ck = await loadCheckpoint(await bd3From(ar, data, 0), { optimizer: false });
    expect(bd3Ck.config).toEqual(arCk.config);
    // tokenShift auto: adapted from AR, the model keeps predicting token i at i−1, and says so for the sampler.
    expect(bd3Ck.generationConfig).toMatchObject({ objective: 'bd3', token_shift: true });
    expect((await ChatGenerator.load(await bd3From(ar, data, 0), { provider: 'cpu' })).tokenShift).toBe(true);
    // From scratch the objective predicts each token at its own position.
    expect((await ChatGenerator.load(await trainTinyWorldModel({ data, settings: { objective: 'bd3', steps: 2 } }), { provider: 'cpu' })).tokenShift).toBe(false);
    // One step with a learning rate moves them: the comparison above would see a change.
    const moved = await weightsOf(await bd3From(ar, data, 1e-3));
    expect(Object.entries(arWeights).some(([name, w]) => w.some((x, i) => x !== moved[name]![i]))).toBe(true);
  }, 180_000);
});
