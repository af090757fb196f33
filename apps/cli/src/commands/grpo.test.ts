// `diffworld grpo train`: help, the resolved settings, and bad settings exiting 2 with the key path
// named (the pipeline itself runs end to end in apps/experiments/src/grpo-train.test.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../testing.js';
import { parseSet } from './experiment-options.js';

describe('diffworld grpo train', () => {
  it('has help naming the stages, the presets and an example', async () => {
    const r = await runCli('grpo', 'train', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: diffworld grpo train --env <alfworld|sciworld|appworld>');
    for (const s of ['grpo-world-model', 'grpo-real', '--print-config', '--set KEY=VALUE', 'npx nx run grpo:train:alfworld']) expect(r.out).toContain(s);
  });

  it('--print-config shows the resolved settings: preset, file and --set layered, the env filling its facts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'grpo-cli-'));
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify({ extends: fileURLToPath(new URL('../../../experiments/configs/cpu.json', import.meta.url)), grpo: { steps: 3 } }));
    const r = await runCli('grpo', 'train', '--env', 'sciworld', '--config', file, '--set', 'grpo.lr=3e-4', '--set', 'worldModel.urls=http://127.0.0.1:9', '--print-config');
    expect(r.code, r.err).toBe(0);
    const c = JSON.parse(r.out) as { env: string; grpo: { steps: number; lr: number; epsilon: number }; worldModel: { urls: string }; rollout: { maxTurns: number } };
    expect(c.env).toBe('sciworld');
    expect(c.grpo).toMatchObject({ steps: 3, lr: 3e-4, epsilon: 0.2 });
    expect(c.worldModel.urls).toBe('http://127.0.0.1:9');
    expect(c.rollout.maxTurns).toBe(8); // the cpu preset's
    const d = await runCli('grpo', 'train', '--env', 'appworld', '--config', 'gpu', '--print-config');
    expect((JSON.parse(d.out) as { rollout: { maxTurns: number } }).rollout.maxTurns).toBe(10); // the env's paper turn limit
  });

  it('bad settings exit 2 naming the key path: a misspelt key, a wrong type, an out-of-range value', async () => {
    const cases: [string[], string][] = [
      [['--env', 'alfworld', '--set', 'grpo.epsilom=0.3'], 'grpo.epsilom: unknown key, did you mean epsilon?'],
      [['--env', 'alfworld', '--set', 'sft.lr="fast"'], 'sft.lr: must be a number, got "fast"'],
      [['--env', 'alfworld', '--set', 'grpo.groupSize=1'], 'grpo.groupSize: value must be ≥ 2, got 1'],
      [['--env', 'alfworld', '--set', 'grpo.arms=["real","real"]'], 'grpo.arms: each arm at most once'],
      [['--env', 'alfworld', '--set', 'grpo.arms=["sim"]'], 'grpo.arms[0]: must be one of "world-model", "real", got "sim"'],
      [['--env', 'alfworld', '--set', 'worldModel.train.maskRange=[0.5,0.1]'], 'worldModel.train.maskRange: must be [lo, hi] with 0 < lo < hi ≤ 1'],
      [['--env', 'mars'], '--env must be one of alfworld, sciworld, appworld'],
      [['--config', 'gpu'], 'a preset needs --env'],
      [['--env', 'alfworld', '--set', 'grpo'], 'expected KEY=VALUE'],
      [['--env', 'alfworld', '--env-workers', '0'], '--env-workers must be a positive integer'],
    ];
    for (const [args, message] of cases) {
      const r = await runCli('grpo', 'train', ...args, '--print-config');
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain(message);
    }
  });

  it('--set paths become nested settings, JSON values parsed', () => {
    expect(parseSet('grpo.steps=40')).toEqual({ grpo: { steps: 40 } });
    expect(parseSet('worldModel.urls=http://a:1,http://b:2')).toEqual({ worldModel: { urls: 'http://a:1,http://b:2' } });
    expect(parseSet('seeds=[0,1]')).toEqual({ seeds: [0, 1] });
  });
});
