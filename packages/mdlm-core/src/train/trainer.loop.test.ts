// The trainer's other ways to run a step write the same run as one onnxruntime-node step per call:
// several steps per ORT call (the Loop graph CUDA falls back to), and the IO-bound step (CUDA's
// default) — same logged steps, evals and checkpoints, losses and weights equal up to float32 rounding.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../checkpoint/index.js';
import { tinyWmTokenizer as tok, tinyWmTokenizerJson as tokenizerJson, transitionsDir, tinyRunConfig } from '../testing/index.js';
import { TrainError, resolveStepsPerCall, trainWorldModel } from './trainer.js';

describe('trainWorldModel with stepsPerCall', () => {
  it('5 steps per call write the same metrics, evals and checkpoints as 1 step per call', async () => {
    const { dir, data } = transitionsDir('wm-loop-');
    const config = tinyRunConfig({
      steps: 13,
      evalEvery: 4,
      evalBatches: 1,
      saveEvery: 6,
      keepLast: 5,
      logEvery: 7,
    });
    const run = async (stepsPerCall: number) => {
      const out = join(dir, `run-${stepsPerCall}`);
      const lines: string[] = [];
      await trainWorldModel({ config, data: [data], tokenizer: tok, tokenizerJson, out, provider: 'cpu', stepsPerCall, log: (l) => lines.push(l) });
      const metrics = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, number>);
      return {
        out,
        lines,
        metrics,
        checkpoints: readdirSync(out)
          .filter((d) => d.startsWith('checkpoint-'))
          .sort(),
      };
    };
    const one = await run(1);
    const five = await run(5);
    expect(five.lines.some((l) => l.includes('up to 5 steps per call'))).toBe(true);
    expect(five.checkpoints).toEqual(one.checkpoints);
    expect(five.metrics.map((m) => Object.keys(m).sort())).toEqual(one.metrics.map((m) => Object.keys(m).sort()));
    five.metrics.forEach((m, i) => {
      const o = one.metrics[i]!;
      expect(m['step']).toBe(o['step']);
      expect(m['tokens_seen']).toBe(o['tokens_seen']);
      for (const k of ['loss', 'eval_loss', 'grad_norm']) if (k in o) expect(Math.abs(m[k]! - o[k]!) / Math.abs(o[k]!)).toBeLessThan(1e-4);
    });
    const a = await loadCheckpoint(join(five.out, 'model')),
      b = await loadCheckpoint(join(one.out, 'model'));
    expect(b.weights.size).toBeGreaterThan(0);
    for (const [name, t] of b.weights) {
      const x = a.weights.get(name)!.data,
        y = t.data;
      let worst = 0;
      y.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - x[i]!))));
      expect(worst, name).toBeLessThan(1e-4);
    }
  }, 120_000);

  it('through the IO-bound step (ioBinding, moments joined per group) writes the same run, checkpoints and resume included', async () => {
    const { dir, data } = transitionsDir('wm-bound-');
    const config = tinyRunConfig({
      steps: 10,
      evalEvery: 5,
      evalBatches: 1,
      saveEvery: 4,
      keepLast: 5,
      logEvery: 5,
    });
    const run = async (name: string, ioBinding: boolean, stopAfter?: number, resume = false) => {
      const out = join(dir, name);
      const lines: string[] = [];
      await trainWorldModel({ config, data: [data], tokenizer: tok, tokenizerJson, out, provider: 'cpu', ioBinding, resume, ...(stopAfter ? { stopAfter } : {}), log: (l) => lines.push(l) });
      return {
        out,
        lines,
        metrics: readFileSync(join(out, 'metrics.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, number>),
      };
    };
    const plain = await run('plain', false);
    const bound = await run('bound', true);
    expect(bound.lines.some((l) => l.includes('cpu (IO binding)'))).toBe(true);
    expect(bound.metrics.length).toBe(plain.metrics.length);
    bound.metrics.forEach((m, i) => {
      const o = plain.metrics[i]!;
      for (const k of ['step', 'tokens_seen']) expect(m[k]).toBe(o[k]);
      for (const k of ['loss', 'eval_loss', 'grad_norm']) if (k in o) expect(Math.abs(m[k]! - o[k]!) / Math.abs(o[k]!), `${k} at step ${o['step']}`).toBeLessThan(1e-5);
    });
    // The checkpoint at step 8 holds per-parameter moments (split from the joined ones); resuming
    // from it through the IO-bound step ends where the uninterrupted run does.
    const resumed = await run('resumed', true, 8);
    await run('resumed', true, undefined, true);
    const [a, b, c] = await Promise.all([plain, bound, resumed].map((r) => loadCheckpoint(join(r.out, 'checkpoint-000008'), { optimizer: true })));
    expect([...b!.optimizer!.keys()].sort()).toEqual([...a!.optimizer!.keys()].sort());
    for (const [name, t] of a!.optimizer!) {
      const x = b!.optimizer!.get(name)!.data;
      let worst = 0,
        scale = 0;
      t.data.forEach((v, i) => ((worst = Math.max(worst, Math.abs(v - x[i]!))), (scale = Math.max(scale, Math.abs(v)))));
      expect(worst, name).toBeLessThanOrEqual(1e-4 * scale);
    }
    const final = await Promise.all([bound, resumed].map((r) => loadCheckpoint(join(r.out, 'model'))));
    for (const [name, t] of final[0]!.weights) {
      const x = final[1]!.weights.get(name)!.data;
      t.data.forEach((v, i) => expect(v, name).toBe(x[i]));
    }
    expect(c!.optimizer!.size).toBe(a!.optimizer!.size);
  }, 120_000);

  it("'auto' picks the Loop on CUDA only, and bad values are refused", () => {
    expect(resolveStepsPerCall('auto', 'cuda', 1, false)).toBe(16); // no C API: the Loop keeps the state on the GPU
    expect(resolveStepsPerCall('auto', 'cuda', 1, true)).toBe(1); // the IO-bound step does
    expect(resolveStepsPerCall('auto', 'cuda', 2, false)).toBe(1);
    expect(resolveStepsPerCall('auto', 'cpu', 1)).toBe(1);
    expect(resolveStepsPerCall('auto', 'webgpu', 1)).toBe(1);
    expect(resolveStepsPerCall(4, 'cpu', 1)).toBe(4);
    expect(() => resolveStepsPerCall(0, 'cpu', 1)).toThrow(TrainError);
    expect(() => resolveStepsPerCall(4, 'cpu', 2)).toThrow('stepsPerCall 4 needs gradAccum 1');
  });
});
