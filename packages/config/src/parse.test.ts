import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, configIssues, keyPath, parseConfig } from './parse.js';
import { closestName, editDistance } from './suggest.js';
import { mergeSettings } from './merge.js';

const grpo = z.strictObject({
  epsilon: z.number().min(0).max(1).default(0.2),
  groupSize: z.int().min(2).default(8),
  aggregation: z.enum(['grpo', 'dapo', 'dr_grpo']).default('grpo'),
});
const schema = z.strictObject({
  env: z.string(),
  seeds: z.array(z.int().min(0)).min(1).default([0]),
  grpo: grpo.prefault({}),
});

const issuesOf = (v: unknown) => configIssues(schema, v).map((i) => `${i.path}: ${i.message}`);

describe('parseConfig', () => {
  it('fills defaults, nested sections included', () => {
    expect(parseConfig(schema, { env: 'alfworld' }, 'test')).toEqual({ env: 'alfworld', seeds: [0], grpo: { epsilon: 0.2, groupSize: 8, aggregation: 'grpo' } });
    expect(parseConfig(schema, { env: 'a', grpo: { groupSize: 4 } }, 'test').grpo).toEqual({ epsilon: 0.2, groupSize: 4, aggregation: 'grpo' });
  });

  it('names a misspelt key by its path and suggests the nearest', () => {
    expect(issuesOf({ env: 'a', grpo: { epsilom: 0.3 } })).toEqual(['grpo.epsilom: unknown key, did you mean epsilon?']);
    expect(issuesOf({ env: 'a', zzz: 1 })).toEqual(['zzz: unknown key; known: env, seeds, grpo']);
  });

  it('names wrong types and out-of-range values with what was given', () => {
    expect(issuesOf({ env: 'a', grpo: { epsilon: 'big' } })).toEqual(['grpo.epsilon: must be a number, got "big"']);
    expect(issuesOf({ env: 'a', grpo: { epsilon: 3 } })).toEqual(['grpo.epsilon: value must be ≤ 1, got 3']);
    expect(issuesOf({ env: 'a', grpo: { groupSize: 1 } })).toEqual(['grpo.groupSize: value must be ≥ 2, got 1']);
    expect(issuesOf({ env: 'a', grpo: { groupSize: 2.5 } })).toEqual(['grpo.groupSize: must be an integer, got 2.5']);
    expect(issuesOf({ env: 'a', grpo: { aggregation: 'ppo' } })).toEqual(['grpo.aggregation: must be one of "grpo", "dapo", "dr_grpo", got "ppo"']);
    expect(issuesOf({ env: 'a', seeds: [0, -1] })).toEqual(['seeds[1]: value must be ≥ 0, got -1']);
    expect(issuesOf({ env: 'a', seeds: [] })).toEqual(['seeds: length must be ≥ 1, got 0']);
    expect(issuesOf({})).toEqual(['env: required (a string)']);
  });

  it('throws one ConfigError marked as bad input, listing every problem', () => {
    let err: unknown;
    try {
      parseConfig(schema, { grpo: { epsilom: 1, groupSize: 0 } }, 'run.json');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const e = err as ConfigError;
    expect(e.badInput).toBe(true);
    expect(e.issues.map((i) => i.path).sort()).toEqual(['env', 'grpo.epsilom', 'grpo.groupSize']);
    expect(e.message).toMatch(/^run\.json: 3 problems\n/);
  });
});

describe('helpers', () => {
  it('keyPath', () => {
    expect(keyPath([])).toBe('(root)');
    expect(keyPath(['a', 'b', 2, 'c'])).toBe('a.b[2].c');
  });
  it('editDistance and closestName', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closestName('epsilom', ['beta', 'epsilon', 'epsilonHigh'])).toBe('epsilon');
    expect(closestName('LR', ['lr', 'beta'])).toBe('lr');
    expect(closestName('xyzzy', ['lr', 'beta'])).toBeUndefined();
    expect(closestName('anchors', ['rows', 'anchorTokens', 'maxNewTokens'])).toBe('anchorTokens');
    expect(closestName('max', ['maxTurns', 'maxSeqLen'])).toBeUndefined();
  });
  it('mergeSettings layers objects and replaces arrays', () => {
    const base = { a: 1, s: { x: 1, y: [1, 2] } };
    expect(mergeSettings(base, { s: { y: [3] }, b: 2 })).toEqual({ a: 1, s: { x: 1, y: [3] }, b: 2 });
    expect(mergeSettings(base, { s: { x: undefined } })).toEqual(base);
    expect(base).toEqual({ a: 1, s: { x: 1, y: [1, 2] } });
  });
});
