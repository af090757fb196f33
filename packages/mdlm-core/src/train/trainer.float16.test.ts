// The trainer in float16: skipped steps are logged and marked in metrics.jsonl, the loss scaler's
// state goes into trainer_state.json, and a run stopped at a checkpoint resumes to the same metrics
// and weights as the run that never stopped (a fresh scaler would not: steps were skipped before
// the checkpoint, so its AdamW counter would be ahead).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../checkpoint/index.js';
import { resolveTrainConfig } from './config.js';
import { TINY_WM_MODEL, tinyWmTokenizer as tok, tinyWmTokenizerJson as tokenizerJson, writeTransitions } from '../testing/index.js';
import { type TrainRunOptions, trainWorldModel } from './trainer.js';

describe('trainWorldModel in float16', () => {
  it('logs skipped steps, saves the scaler and resumes with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wm-f16-'));
    const data = join(dir, 'rows.jsonl');
    writeTransitions(data);
    const config = resolveTrainConfig({ objective: 'bd3', model: TINY_WM_MODEL, seqLength: 64, batchSize: 4, steps: 12, evalFraction: 0, saveEvery: 6, keepLast: 5, logEvery: 6 });
    const base = {
      config,
      data: [data],
      tokenizer: tok,
      tokenizerJson,
      provider: 'cpu',
      precision: 'float16',
      lossScaling: { initScale: 2 ** 24, growthInterval: 2 },
    } satisfies Partial<TrainRunOptions>;
    const metrics = (out: string) =>
      readFileSync(join(out, 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, number>);

    const whole = join(dir, 'whole');
    const lines: string[] = [];
    await trainWorldModel({ ...base, out: whole, log: (l) => lines.push(l) });
    const m = metrics(whole);
    const skipped = m.filter((r) => r['skipped'] === 1).map((r) => r['step']);
    expect(skipped.length).toBeGreaterThan(0);
    expect(lines.filter((l) => /gradients not finite at loss scale/.test(l)).map((l) => Number(/^step (\d+)/.exec(l)![1]))).toEqual(skipped);
    expect(lines.some((l) => l.includes('float16 MatMuls with dynamic loss scaling'))).toBe(true);
    expect(m[0]!['loss_scale']).toBe(2 ** 24);
    const state = (await loadCheckpoint(join(whole, 'checkpoint-000006'))).trainerState as { loss_scaler: { scale: number; good_steps: number; optimizer_step: number } };
    expect(state.loss_scaler.optimizer_step).toBe(7 - m.slice(0, 6).filter((r) => r['skipped'] === 1).length);
    expect(state.loss_scaler.optimizer_step).toBeLessThan(7); // steps were skipped before the save: the state matters

    const split = join(dir, 'split');
    await trainWorldModel({ ...base, out: split, stopAfter: 6 });
    await trainWorldModel({ ...base, out: split, resume: true });
    const timeless = (rs: Record<string, number>[]) => rs.map(({ tokens_per_s, ...r }) => r);
    expect(timeless(metrics(split))).toEqual(timeless(m));
    const a = await loadCheckpoint(join(split, 'model')),
      b = await loadCheckpoint(join(whole, 'model'));
    for (const [name, t] of b.weights) expect(Buffer.from(a.weights.get(name)!.data.buffer).equals(Buffer.from(t.data.buffer)), name).toBe(true);
  }, 120_000);
});
