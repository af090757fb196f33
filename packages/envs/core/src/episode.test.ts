import { describe, expect, it } from 'vitest';
import { episodeRecord, parseEpisodeRecord, summarizeEpisodes, wilsonInterval } from './episode.js';
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
