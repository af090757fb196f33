// The trainer on token examples (the agent's SFT path): the same examples given as token arrays and
// as the chat rows they encode train to the same weights, bit for bit; and what is refused.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../checkpoint/index.js';
import { readRows } from '@diffworld/dataset';
import { tinyRunConfig, tinyWmTokenizer as tok, tinyWmTokenizerJson as tokenizerJson, transitionsDir } from '../testing/index.js';
import { type TrainExample, chatExample, eosPadId } from './data.js';
import { trainWorldModel } from './trainer.js';

const weights = async (dir: string) => [...(await loadCheckpoint(dir)).weights].map(([k, w]) => [k, Array.from(w.data)] as const);

describe('trainWorldModel on token examples', () => {
  it('trains the same weights as from the chat rows they encode', async () => {
    const { dir, data } = transitionsDir('wm-tokens-');
    const config = tinyRunConfig({ objective: 'ar', evalFraction: 0, steps: 6, saveEvery: 0, evalEvery: 0, seqLength: 128 });
    const examples: TrainExample[] = [];
    for await (const row of readRows(data, { policy: 'strict' })) {
      const ex = chatExample(tok, row.messages, { objective: 'ar', blockLength: 1, maxLength: 128, eosId: eosPadId(tok)! });
      if (typeof ex === 'string') throw new Error(`row not trainable: ${ex}`);
      examples.push(ex);
    }
    const steps: number[] = [];
    const a = await trainWorldModel({ config, data: [data], tokenizer: tok, tokenizerJson, out: join(dir, 'rows'), provider: 'cpu' });
    const b = await trainWorldModel({ config, examples, tokenizer: tok, tokenizerJson, out: join(dir, 'tokens'), provider: 'cpu', onStep: (m) => void steps.push(m['step']!) });
    expect(b.examples.train).toBe(examples.length);
    expect(b.finalLoss).toBe(a.finalLoss);
    expect(await weights(b.modelDir)).toEqual(await weights(a.modelDir));
    expect(steps).toEqual([1, 2, 3, 4, 5, 6]);
    expect(
      readFileSync(join(dir, 'tokens', 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(6);
  }, 120_000);

  it('refuses what the ar objective cannot train and counts what is too long', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wm-tokens-bad-'));
    const ok: TrainExample = { ids: Int32Array.of(1, 2, 3), target: Uint8Array.of(0, 1, 1) };
    const run = (examples: TrainExample[], settings: Record<string, unknown> = {}, out = 'x') =>
      trainWorldModel({
        config: tinyRunConfig({ objective: 'ar', evalFraction: 0, steps: 1, seqLength: 8, ...settings }),
        examples,
        tokenizer: tok,
        tokenizerJson,
        out: join(dir, out),
        provider: 'cpu',
      });
    await expect(run([ok], { objective: 'bd3' })).rejects.toThrow(/token examples train with the ar objective; bd3 needs chat rows/);
    await expect(run([{ ids: Int32Array.of(1, 2), target: Uint8Array.of(1, 1) }])).rejects.toThrow(/token example 0: its first token is a target/);
    await expect(run([{ ids: Int32Array.of(1, 1 << 20), target: Uint8Array.of(0, 1) }])).rejects.toThrow(/id 1048576 at 1 is outside the tokenizer's vocabulary/);
    await expect(run([{ ids: Int32Array.of(1, 2), target: Uint8Array.of(0) }])).rejects.toThrow(/token example 0: 2 ids but 1 target flags/);
    await expect(run([{ ids: new Int32Array(9), target: Uint8Array.of(0, 1, 1, 1, 1, 1, 1, 1, 1) }])).rejects.toThrow(/no training examples in 1 token examples \(dropped: 1 over 8 tokens/);
    const r = await run([ok, { ids: new Int32Array(9), target: new Uint8Array(9) }], {}, 'y');
    expect(r.examples.dropped).toEqual({ too_long: 1, no_target: 0 });
  }, 60_000);
});
