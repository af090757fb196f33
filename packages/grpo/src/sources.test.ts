// Rollout sources: the harness framing (first user turn, parser, invalid turns that do not step the
// engine, next user turns), the world-model env asking the world model for what the local
// responder cannot answer, and the suite's reward over the message list.
import type { ChatMessage, WorldModel, WorldModelRequest } from '@diffworld/env-core';
import { ENV_SUITES } from '@diffworld/envs';
import { describe, expect, it } from 'vitest';
import { applySuiteReward, realEngineSource, worldModelSource } from './sources.js';
import type { Episode } from './rollout.js';

const suite = ENV_SUITES.alfworld;
const task = suite.tasks('train')[0]!;

describe('rollout sources', () => {
  it('the real engine behind the agent harness: prompts, invalid turns, the expert wins and earns the suite reward', async () => {
    const env = realEngineSource(suite).makeEnv();
    const inner = suite.createEnv();
    const first = await env.reset(task, task.seed);
    expect(first.text).toBe(suite.agent.firstUserTurn(await inner.reset(task, task.seed)));
    const bad = await env.step('I think I will ponder this');
    expect(bad.done).toBe(false);
    expect(bad.info.valid).toBe(false);
    expect(bad.observation.text).toBe(suite.agent.invalidTurn(first.admissible));
    const messages: ChatMessage[] = [
      { role: 'user', content: first.text },
      { role: 'assistant', content: 'I think I will ponder this' },
      { role: 'user', content: bad.observation.text },
    ];
    let won = false;
    for (const action of suite.expert(task)) {
      const completion = suite.agent.formatAction(action);
      const r = await env.step(completion);
      expect(r.observation.text).toBe(suite.agent.nextUserTurn(await inner.step(action)));
      messages.push({ role: 'assistant', content: completion }, { role: 'user', content: r.observation.text });
      won = r.info.won;
      if (r.done) break;
    }
    expect(won).toBe(true);
    // The paper's ALFWorld reward: 1 for a clean win, less when a turn was wasted, 0 without progress.
    const clean = { task, messages: [messages[0]!, ...messages.slice(3)], reward: 0 } as unknown as Episode;
    const wasted = { task, messages, reward: 0 } as unknown as Episode;
    applySuiteReward(suite, suite.agent.system(), [clean, wasted]);
    expect(clean.reward).toBe(1);
    expect(wasted.reward).toBeGreaterThan(0);
    expect(wasted.reward).toBeLessThan(1);
    const lost = { task, messages: messages.slice(0, 3), reward: 7 } as unknown as Episode;
    applySuiteReward(suite, suite.agent.system(), [lost]);
    expect(lost.reward).toBe(0);
  });

  it('the world-model env sends what the responder defers (examine) to the world model, framed the same way', async () => {
    const seen: WorldModelRequest[] = [];
    const wm: WorldModel = { predict: async (req) => (seen.push(req), { text: 'The thing looks ordinary.' }) };
    const env = worldModelSource(suite, wm).makeEnv();
    const first = await env.reset(task, task.seed);
    expect(first.text).toBe(suite.agent.firstUserTurn(await suite.createEnv().reset(task, task.seed)));
    const target = first.admissible!.find((a) => a.startsWith('go to '))!.slice('go to '.length);
    const r = await env.step(suite.agent.formatAction(`examine ${target}`));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.action).toBe(`examine ${target}`);
    expect(r.observation.text).toContain('The thing looks ordinary.');
  });

  it('counts the transitions it plays and those the world model answered, with the responder on and off', async () => {
    const wm: WorldModel = { predict: async () => ({ text: 'Nothing happens.' }) };
    for (const useResponder of [true, false]) {
      const src = worldModelSource(suite, wm, { useResponder });
      const env = src.makeEnv();
      const first = await env.reset(task, task.seed);
      const target = first.admissible!.find((a) => a.startsWith('go to '))!.slice('go to '.length);
      await env.step(suite.agent.formatAction(`go to ${target}`)); // the responder knows where the agent arrives
      await env.step(suite.agent.formatAction(`examine ${target}`)); // deferred to the world model
      expect(src.counts, `useResponder ${useResponder}`).toEqual({ transitions: 2, worldModelAnswers: useResponder ? 1 : 2 });
    }
  });

  it("closing the source closes its world model (a local model's GPU memory goes with the GRPO stage)", async () => {
    let closed = 0;
    const wm: WorldModel = { predict: async () => ({ text: 'Nothing happens.' }), close: async () => void closed++ };
    await worldModelSource(suite, wm).close?.();
    expect(closed).toBe(1);
  });
});
