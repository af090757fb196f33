import { ConfigError } from '@diffworld/config';
import { describe, expect, it } from 'vitest';
import { TRAIN_DEFAULTS, resolveTrainConfig, resumeMismatches } from './config.js';

const problems = (file: unknown, overrides = {}) => {
  try {
    resolveTrainConfig(file, overrides, 'run.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).badInput).toBe(true);
    return (e as ConfigError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  return [];
};

describe('the trainer config schema', () => {
  it('fills every default; file and overrides layer on top', () => {
    expect(resolveTrainConfig(undefined)).toEqual(TRAIN_DEFAULTS);
    expect(TRAIN_DEFAULTS).toMatchObject({ objective: 'bd3', seqLength: 256, maskRange: [0.001, 1], blockLength: 4, schedule: 'cosine' });
    const c = resolveTrainConfig({ lr: 3e-4, steps: 10 }, { steps: 20, seed: undefined });
    expect(c.lr).toBe(3e-4);
    expect(c.steps).toBe(20);
    expect(c.seed).toBe(0);
  });

  it('names a misspelt key, a wrong type and an out-of-range value by their path', () => {
    expect(problems({ lerning_rate: 1 })).toEqual(['lerning_rate: unknown key; known: ' + Object.keys(TRAIN_DEFAULTS).join(', ')]);
    expect(problems({ stesp: 3 })).toEqual(['stesp: unknown key, did you mean steps?']);
    expect(problems({ lr: '1e-3' })).toEqual(['lr: must be a number, got "1e-3"']);
    expect(problems({ batchSize: 0 })).toEqual(['batchSize: value must be ≥ 1, got 0']);
    expect(problems({ objective: 'gpt' })).toEqual(['objective: must be one of "ar", "mdlm", "bd3", got "gpt"']);
    expect(problems({ maskRange: [0.5, 0.2] })).toEqual(['maskRange: must be [lo, hi] with 0 < lo < hi ≤ 1']);
    expect(problems({ seqLength: 30, blockLength: 4 })).toEqual(['seqLength: must be a multiple of blockLength']);
    expect(problems([1, 2])).toEqual(['(root): must be a JSON object']);
  });

  it('resume may change only the logging cadence, the step budget and the bad-row policy', () => {
    const a = resolveTrainConfig({});
    expect(a.skipBadRows).toBe(false);
    expect(resumeMismatches(a, { ...a, steps: 900, logEvery: 1, skipBadRows: true })).toEqual([]);
    expect(resumeMismatches(a, { ...a, lr: 0.5 })).toEqual(['lr']);
  });
});
