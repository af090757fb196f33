import { Rng } from '@diffworld/dataset';
import type { Observation, StepResult, TextEnv } from '@diffworld/env-core';
import { describe, expect, it } from 'vitest';
import { GrpoError } from './errors.js';
import { type NextTokenPolicy, type RolloutLimits, demonstration, rollout } from './rollout.js';
import { LINE_WALK_VOCAB, LineWalkCodec, LineWalkEnv, lineWalkLayout, lineWalkTasks } from './toy/line-walk.js';

const codec = new LineWalkCodec();
const id = (w: string) => LINE_WALK_VOCAB.indexOf(w as (typeof LINE_WALK_VOCAB)[number]);
const LIMITS: RolloutLimits = { maxTurns: 5, maxTokensPerTurn: 2, maxSeqLen: 40 };
const GREEDY = { temperature: 0 };

/** A fake policy: each row's next token from a function of the row (logits 10 on it, 0 elsewhere). */
function scripted(next: (row: readonly number[]) => number, batch = 8): NextTokenPolicy & { calls: number } {
  const p = {
    batch,
    calls: 0,
    async nextLogits(rows: readonly (readonly number[])[]) {
      p.calls++;
      return rows.map((r) => {
        const l = new Float64Array(LINE_WALK_VOCAB.length);
        l[next(r)] = 10;
        return l;
      });
    },
  };
  return p;
}

/** Walks right: answer R, then end the turn. */
const rightWalker = scripted((row) => (row[row.length - 1] === id('R') ? codec.endOfTurn : id('R')));

describe('rollout', () => {
  it('keeps one token sequence per episode: prompt, policy turns (mask 1), observation ids (mask 0), no re-tokenisation', async () => {
    const task = lineWalkTasks('t', 50, 1).find((t) => lineWalkLayout(t).goal - lineWalkLayout(t).start === 2)!;
    const { start, goal } = lineWalkLayout(task);
    const [ep] = await rollout(rightWalker, [{ task, groupId: 'g', env: new LineWalkEnv(), rng: new Rng(1) }], codec, LIMITS, GREEDY);
    const obs = (at: number) => codec.encodeObservation({ text: `at ${at} goal ${goal}` });
    const expected = [codec.bos, ...obs(start), id('R'), codec.endOfTurn, ...obs(start + 1), id('R'), codec.endOfTurn];
    expect(ep!.ids).toEqual(expected);
    expect(ep!.lossMask).toEqual([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1]);
    expect(ep!.policyTokens).toBe(4);
    expect(ep!).toMatchObject({ won: true, reward: 1, turns: 2, truncated: false, actions: ['R', 'R'] });
    // The final observation closes the conversation (where a win shows) but not the token sequence.
    expect(ep!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(ep!.messages.at(-1)!.content).toBe(`at ${goal} goal ${goal}`);
  });

  it('cuts a turn at maxTokensPerTurn and an episode at maxTurns (truncated)', async () => {
    const babbler = scripted(() => id('goal')); // never ends a turn, never a valid action
    const task = lineWalkTasks('t', 1, 2)[0]!;
    const [ep] = await rollout(babbler, [{ task, groupId: 'g', env: new LineWalkEnv(), rng: new Rng(1) }], codec, { ...LIMITS, maxTurns: 2 }, GREEDY);
    expect(ep!.actions).toEqual(['goal goal', 'goal goal']);
    expect(ep!.turns).toBe(2);
    expect(ep!.truncated).toBe(true);
    expect(ep!.won).toBe(false);
  });

  it('never exceeds the window', async () => {
    const babbler = scripted(() => id('goal'));
    const task = lineWalkTasks('t', 1, 3)[0]!;
    const [ep] = await rollout(babbler, [{ task, groupId: 'g', env: new LineWalkEnv(), rng: new Rng(1) }], codec, { maxTurns: 10, maxTokensPerTurn: 4, maxSeqLen: 12 }, GREEDY);
    expect(ep!.ids.length).toBeLessThanOrEqual(12);
    expect(ep!.truncated).toBe(true);
    expect(ep!.ids.length).toBe(ep!.lossMask.length);
  });

  it('episodes do not depend on batching: same seeds, same episodes with batch 1 and batch 8', async () => {
    const tasks = lineWalkTasks('t', 6, 4);
    const sampled = (batch: number): NextTokenPolicy => ({
      batch,
      async nextLogits(rows) {
        return rows.map(() => Float64Array.from(LINE_WALK_VOCAB, (w) => (w === 'L' || w === 'R' || w === '<eot>' ? 1 : -5)));
      },
    });
    const run = (batch: number) =>
      rollout(
        sampled(batch),
        tasks.map((task, i) => ({ task, groupId: 'g', env: new LineWalkEnv(), rng: new Rng(100 + i) })),
        codec,
        LIMITS,
        { temperature: 1 },
      );
    const a = await run(1);
    const b = await run(8);
    expect(a.map((e) => e.ids)).toEqual(b.map((e) => e.ids));
    expect(new Set(a.map((e) => e.ids.join(','))).size).toBeGreaterThan(1);
  });

  it('names the env, task and turn when an env fails', async () => {
    const broken: TextEnv = {
      name: 'broken',
      reset: async (): Promise<Observation> => ({ text: 'at 1 goal 3' }),
      step: async (): Promise<StepResult> => {
        throw new Error('engine crashed');
      },
    };
    const task = lineWalkTasks('t', 1, 5)[0]!;
    const p = rollout(rightWalker, [{ task, groupId: 'g', env: broken, rng: new Rng(1) }], codec, LIMITS, GREEDY);
    await expect(p).rejects.toThrow(GrpoError);
    await expect(p).rejects.toThrow(/env broken failed on task t-0 at turn 1 \(action "R"\): engine crashed/);
  });

  it('records demonstrations exactly as rollouts record episodes', async () => {
    const task = lineWalkTasks('t', 1, 6)[0]!;
    const { start, goal } = lineWalkLayout(task);
    const actions = Array.from({ length: Math.abs(goal - start) }, () => (goal > start ? 'R' : 'L'));
    const demo = await demonstration(new LineWalkEnv(), task, actions, codec, LIMITS);
    const walker = scripted((row) => (row[row.length - 1] === id(actions[0]!) ? codec.endOfTurn : id(actions[0]!)));
    const [ep] = await rollout(walker, [{ task, groupId: task.id, env: new LineWalkEnv(), rng: new Rng(1) }], codec, LIMITS, GREEDY);
    expect(demo.ids).toEqual(ep!.ids);
    expect(demo.lossMask).toEqual(ep!.lossMask);
    expect(demo.won).toBe(true);
  });

  it('rejects bad limits', async () => {
    await expect(rollout(rightWalker, [], codec, { ...LIMITS, maxTurns: 0 }, GREEDY)).rejects.toThrow(/maxTurns must be a positive integer/);
  });
});
