import { describe, expect, it } from 'vitest';
import { episodeRecord, pairedDifference, parseEpisodeRecord, summarizeEpisodes, wilsonInterval } from './episode.js';
import { withStepLimit } from './step-limit.js';
import type { StepResult, TaskRef, TextEnv } from './types.js';

const task: TaskRef = { env: 'toy', split: 'train', id: 'toy-1', taskType: 'count', seed: 5 };

describe('episode records', () => {
  it('builds, serialises and re-validates a record', () => {
    const rec = episodeRecord(task, { messages: [{ role: 'user', content: 'hi' }], actions: ['a', 'b'], reward: 1, score: 1, won: true });
    expect(rec.steps).toBe(2);
    expect(Object.keys(rec)).toEqual(['env', 'split', 'task_id', 'task_type', 'seed', 'messages', 'actions', 'steps', 'reward', 'score', 'won']);
    expect(parseEpisodeRecord(JSON.parse(JSON.stringify(rec)))).toEqual({ ok: true, value: rec });
  });

  it('keeps why an episode was truncated, validates it, and the summary counts truncated episodes', () => {
    const cut = episodeRecord(task, { messages: [], actions: ['a'], reward: 0, score: 0, won: false, truncated: 'HTTP 400: context' });
    expect(cut.truncated).toBe('HTTP 400: context');
    expect(parseEpisodeRecord(JSON.parse(JSON.stringify(cut)))).toEqual({ ok: true, value: cut });
    expect(parseEpisodeRecord({ ...cut, truncated: true })).toMatchObject({ ok: false, issues: ['truncated: expected a string (why the episode was cut short) when present'] });
    const whole = episodeRecord(task, { messages: [], actions: ['a'], reward: 1, score: 1, won: true });
    expect(summarizeEpisodes([cut, whole, cut])).toMatchObject({ episodes: 3, wins: 1, truncated: 2 });
    expect(summarizeEpisodes([whole]).truncated).toBe(0);
  });

  it('names every bad field', () => {
    const check = parseEpisodeRecord({ env: 'x', split: '', task_id: 1, task_type: 't', seed: 0, messages: [{ role: 'bot', content: 2 }], actions: [], steps: 0, reward: 0, score: 0, won: 'yes' });
    expect(check).toEqual({
      ok: false,
      issues: [
        'task_id: expected a string',
        'won: expected a boolean',
        'split: expected a split name, got ""',
        'messages[0].role: expected system|user|assistant|tool, got "bot"',
        'messages[0].content: expected a string',
      ],
    });
  });

  it('summarises with Wilson intervals', () => {
    const mk = (won: boolean, steps: number) => episodeRecord(task, { messages: [], actions: Array(steps).fill('x'), reward: won ? 1 : 0, score: won ? 1 : 0, won });
    const s = summarizeEpisodes([mk(true, 2), mk(false, 4), mk(true, 6), mk(true, 8)]);
    expect(s).toMatchObject({ episodes: 4, wins: 3, successRate: 0.75, meanScore: 0.75, meanSteps: 5 });
    // Known value: 3/4 at 95% → [0.3006, 0.9544]
    expect(s.successCI95[0]).toBeCloseTo(0.30064, 4);
    expect(s.successCI95[1]).toBeCloseTo(0.95441, 4);
    expect(wilsonInterval(0, 10)[0]).toBe(0);
    expect(wilsonInterval(10, 10)[1]).toBe(1);
  });
});

describe('withStepLimit', () => {
  it('ends the episode at the limit and refuses further steps', async () => {
    let n = 0;
    const env: TextEnv = {
      name: 'toy',
      reset: async () => ({ text: 'start' }),
      step: async (a): Promise<StepResult> => ({ observation: { text: `${a}${++n}` }, reward: 0, done: false, info: { score: 0, won: false } }),
    };
    const limited = withStepLimit(env, 2);
    await limited.reset(task);
    expect((await limited.step('a')).done).toBe(false);
    const last = await limited.step('b');
    expect(last.done).toBe(true);
    expect(last.info.truncated).toBe(true);
    await expect(limited.step('c')).rejects.toThrow(/2-step limit/);
  });
});

describe('pairedDifference', () => {
  // Paired outcomes from counts of the 2×2 table: both won, only B, only A, neither.
  const table = (both: number, onlyB: number, onlyA: number, neither: number) => {
    const a: { task_id: string; seed: number; won: boolean }[] = [];
    const b: typeof a = [];
    const add = (n: number, wa: boolean, wb: boolean) => {
      for (let i = 0; i < n; i++) {
        const id = `t${a.length}`;
        a.push({ task_id: id, seed: 0, won: wa });
        b.push({ task_id: id, seed: 0, won: wb });
      }
    };
    add(both, true, true);
    add(onlyB, false, true);
    add(onlyA, true, false);
    add(neither, false, false);
    return { a, b };
  };
  const ofTable = (both: number, onlyB: number, onlyA: number, neither: number) => {
    const { a, b } = table(both, onlyB, onlyA, neither);
    return pairedDifference(a, b);
  };

  it('pairs by task and seed, counts the discordant pairs and ignores unpaired tasks', () => {
    const { a, b } = table(3, 4, 1, 12);
    const d = pairedDifference(a, [...b, { task_id: 'other', seed: 0, won: true }]);
    expect(d).toMatchObject({ pairs: 20, onlyB: 4, onlyA: 1 });
    expect(d.difference).toBeCloseTo(3 / 20, 12);
    expect(d.ci95[0]).toBeLessThan(d.difference);
    expect(d.ci95[1]).toBeGreaterThan(d.difference);
    // The same records in another order pair the same way.
    expect(pairedDifference([...a].reverse(), b)).toEqual(d);
  });

  it('agrees with the paired Wald interval when n is large and the rates are away from 0 and 1', () => {
    const n = 10000;
    const d = ofTable(3000, 2500, 1500, 3000);
    const diff = (2500 - 1500) / n;
    const se = Math.sqrt(((2500 + 1500) / n - diff * diff) / n);
    expect(d.ci95[0]).toBeCloseTo(diff - 1.959963984540054 * se, 3);
    expect(d.ci95[1]).toBeCloseTo(diff + 1.959963984540054 * se, 3);
  });

  it('stays inside [-1, 1] and is not degenerate where Wald is (all pairs equal, or all discordant)', () => {
    const equal = ofTable(0, 0, 0, 30);
    expect(equal.difference).toBe(0);
    expect(equal.ci95[0]).toBeLessThan(0);
    expect(equal.ci95[1]).toBeGreaterThan(0);
    const allB = ofTable(0, 30, 0, 0);
    expect(allB.difference).toBe(1);
    expect(allB.ci95[1]).toBe(1);
    expect(allB.ci95[0]).toBeGreaterThan(0.8);
    expect(allB.ci95[0]).toBeLessThan(1);
    // A gain of 10 in 140 games (12 won, 2 lost) excludes 0.
    const gain = ofTable(40, 12, 2, 86);
    expect(gain.ci95[0]).toBeGreaterThan(0);
    expect(pairedDifference([], []).ci95).toEqual([-1, 1]);
  });
});
