// The trainer end to end: held-out loss, checkpoints kept-last-K, a loadable Hugging Face model
// directory, two same-seed runs writing the same weights, and a run killed with SIGKILL at random
// moments resuming to the same final weights.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../checkpoint/index.js';
import { resolveTrainConfig } from './config.js';
import { TINY_WM_MODEL, TINY_WM_TOKENIZER, tinyWmModel, tinyWmTokenizer as tok, tinyWmTokenizerJson as tokenizerJson, writeTransitions, transitionsDir, tinyRunConfig } from '../testing/index.js';
import { trainWorldModel } from './trainer.js';

/** Runs a training run in its own process; with `kill`, SIGKILL lands `delayMs` after it has logged `afterSteps` steps (mid-step or mid-checkpoint). */
function trainInChild(run: { config: object; data: string[]; out: string; resume: boolean }, kill?: { afterSteps: number; delayMs: number }) {
  return new Promise<{ code: number | null; killed: boolean; output: string }>((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ['--conditions=@diffworld/source', '--import', 'tsx', new URL('../testing/train-child.ts', import.meta.url).pathname, JSON.stringify({ ...run, tokenizer: TINY_WM_TOKENIZER })],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '',
      killed = false,
      timer: NodeJS.Timeout | undefined;
    p.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (kill && !timer && (output.match(/^step \d+\//gm)?.length ?? 0) >= kill.afterSteps) timer = setTimeout(() => ((killed = p.kill('SIGKILL')), undefined), kill.delayMs);
    });
    p.stderr.on('data', (d: Buffer) => (output += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, killed, output });
    });
  });
}

describe('trainWorldModel', () => {
  it('on the committed ALFWorld corpus the training and held-out losses fall', async () => {
    const root = new URL('../../../../test-data/wm/', import.meta.url).pathname;
    const out = join(mkdtempSync(join(tmpdir(), 'wm-curve-')), 'run');
    const config = resolveTrainConfig({
      objective: 'bd3',
      model: tinyWmModel(64),
      seqLength: 128,
      batchSize: 4,
      steps: 80,
      lr: 3e-3,
      evalEvery: 40,
      evalBatches: 2,
      saveEvery: 0,
      logEvery: 20,
    });
    await trainWorldModel({ config, data: [join(root, 'alfworld-train.jsonl')], evalData: [join(root, 'alfworld-eval.jsonl')], tokenizer: tok, tokenizerJson, out, provider: 'cpu' });
    const m = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { step: number; loss: number; eval_loss?: number });
    const evals = m.filter((x) => x.eval_loss !== undefined).map((x) => x.eval_loss!);
    expect(evals).toHaveLength(2);
    expect(evals[1]!).toBeLessThan(evals[0]!);
    expect(evals[0]!).toBeLessThan(Math.log(tok.vocabSize)); // already below uniform guessing
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(m.slice(-10).map((x) => x.loss))).toBeLessThan(0.85 * mean(m.slice(0, 10).map((x) => x.loss)));
  }, 120_000);

  it('logs held-out loss, keeps the last K checkpoints, refuses to overwrite a run', async () => {
    const { dir, data } = transitionsDir('wm-eval-');
    const config = tinyRunConfig({
      steps: 12,
      evalEvery: 4,
      evalBatches: 2,
      saveEvery: 3,
      keepLast: 2,
      logEvery: 4,
    });
    const out = join(dir, 'run');
    const s = await trainWorldModel({ config, data: [data], tokenizer: tok, tokenizerJson, out, provider: 'cpu' });
    expect(s.examples.eval).toBeGreaterThan(0);
    expect(s.examples.train + s.examples.eval).toBe(32);
    const evals = readFileSync(join(out, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { step: number; eval_loss?: number })
      .filter((m) => m.eval_loss !== undefined);
    expect(evals.map((m) => m.step)).toEqual([4, 8, 12]);
    expect(existsSync(join(out, 'checkpoint-000009'))).toBe(true);
    expect(existsSync(join(out, 'checkpoint-000012'))).toBe(true);
    expect(existsSync(join(out, 'checkpoint-000006'))).toBe(false);
    const ck = await loadCheckpoint(join(out, 'model'));
    expect(ck.config['architectures']).toEqual(['LlamaForCausalLM']);
    expect(ck.tokenizerJson).toBe(tokenizerJson);
    expect(ck.optimizer).toBeUndefined();
    await expect(trainWorldModel({ config, data: [data], tokenizer: tok, tokenizerJson, out, provider: 'cpu' })).rejects.toThrow('already holds a run');
    await expect(trainWorldModel({ config: { ...config, lr: 0.5 }, data: [data], tokenizer: tok, tokenizerJson, out, provider: 'cpu', resume: true })).rejects.toThrow('settings differ from the run');
  }, 60_000);

  it('two same-seed runs in separate processes, every core each, write the same model.safetensors', async () => {
    // The committed ALFWorld corpus in 256-token rows: bd3 looks up 2,048 embeddings per step, enough
    // for the old ScatterND embedding gradient's thread race to part two runs within a few steps.
    const dir = mkdtempSync(join(tmpdir(), 'wm-seed-'));
    const data = new URL('../../../../test-data/wm/alfworld-train.jsonl', import.meta.url).pathname;
    const config = { objective: 'bd3', model: TINY_WM_MODEL, seqLength: 256, batchSize: 4, steps: 5, lr: 2e-3, evalFraction: 0, evalEvery: 0, saveEvery: 0, logEvery: 1 };
    const runs = await Promise.all(['a', 'b'].map((name) => trainInChild({ config, data: [data], out: join(dir, name), resume: false })));
    for (const r of runs) expect(r.code, r.output).toBe(0);
    const losses = (name: string) =>
      readFileSync(join(dir, name, 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { loss: number }).loss);
    expect(losses('b')).toEqual(losses('a'));
    expect(readFileSync(join(dir, 'b', 'model', 'model.safetensors')).equals(readFileSync(join(dir, 'a', 'model', 'model.safetensors')))).toBe(true);
  }, 120_000); // 33–55 s on the loaded 2-core machine

  it('a run killed with SIGKILL at random moments resumes to the same final weights, bit for bit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wm-kill-'));
    const data = join(dir, 'rows.jsonl');
    writeTransitions(data);
    const config = { objective: 'bd3', model: TINY_WM_MODEL, seqLength: 64, batchSize: 4, gradAccum: 2, steps: 30, evalFraction: 0.2, evalEvery: 10, saveEvery: 2, keepLast: 2, logEvery: 1 };
    const child = (out: string, resume: boolean, kill?: { afterSteps: number; delayMs: number }) => trainInChild({ config, data: [data], out, resume }, kill);
    const whole = await child(join(dir, 'whole'), false);
    expect(whole.code, whole.output).toBe(0);
    const seed = Date.now() % 100_000;
    const r = new Rng(seed);
    const out = join(dir, 'killed');
    let kills = 0,
      runs = 0,
      done = false;
    while (!done && runs < 12) {
      // Four kills after 1–5 logged steps each (at most 20 of the 30 steps, so none can finish first), then let it finish.
      const kill = kills < 4 ? { afterSteps: r.int(1, 5), delayMs: r.int(0, 40) } : undefined;
      const res = await child(out, runs > 0, kill);
      runs++;
      if (res.killed) kills++;
      else {
        expect(res.code, `seed ${seed}: ${res.output}`).toBe(0);
        done = res.output.includes('done');
      }
    }
    expect(done).toBe(true);
    expect(kills, `seed ${seed}`).toBeGreaterThanOrEqual(3);
    const a = readFileSync(join(dir, 'whole', 'model', 'model.safetensors'));
    const b = readFileSync(join(out, 'model', 'model.safetensors'));
    expect(b.equals(a), `seed ${seed}: final weights differ after ${kills} kills`).toBe(true);
    const steps = (p: string) =>
      readFileSync(join(p, 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { step: number }).step);
    expect(steps(out)).toEqual(steps(join(dir, 'whole')));
  }, 240_000);
});
