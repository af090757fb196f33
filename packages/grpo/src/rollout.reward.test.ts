// The reward GRPO trains on must see a win. Expert demonstrations of every environment, played
// through the rollout path GRPO uses (the real engine behind the agent harness, `demonstration`'s
// turn recording, the suite's reward over the message list), earn the suite's full reward: 1.0 on
// ALFWorld wins, the env's own shaped score on ScienceWorld, the heuristic's on AppWorld — the same
// reward as the env's whole transcript, final observation included (it was dropped once: a win
// then scored 0.03 or 0.25).
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '@diffworld/env-core';
import { ENV_NAMES, envSuite } from '@diffworld/envs';
import { Tokenizer } from '@diffworld/tokenizer';
import { describe, expect, it } from 'vitest';
import { ChatTurnCodec } from './chat-codec.js';
import { demonstration } from './rollout.js';
import { applySuiteReward, realEngineSource } from './sources.js';

const TOKENIZER = fileURLToPath(new URL('../../../test-data/tokenizer/ours.tokenizer.json', import.meta.url));
const LIMITS = { maxTurns: 60, maxTokensPerTurn: 512, maxSeqLen: 1 << 17 };

describe('the reward of expert demonstrations through the rollout path', () => {
  const tok = Tokenizer.load(TOKENIZER);
  for (const env of ENV_NAMES) {
    it(`${env}: every expert demonstration earns the reward of its whole transcript, the final observation included`, async () => {
      const suite = envSuite(env);
      const codec = new ChatTurnCodec(tok, { system: suite.agent.system() });
      const tasks = suite.tasks(suite.splits[0]!).slice(0, 6);
      for (const task of tasks) {
        // What the env printed, turn by turn, when the expert played it directly through the harness.
        const direct = realEngineSource(suite).makeEnv();
        const first = await direct.reset(task, task.seed);
        const transcript: ChatMessage[] = [{ role: 'user', content: first.text }];
        let won = false;
        for (const action of suite.expert(task).map((a) => suite.agent.formatAction(a))) {
          const r = await direct.step(action);
          transcript.push({ role: 'assistant', content: action }, { role: 'user', content: r.observation.text });
          won ||= r.info.won;
          if (r.done) break;
        }
        const textEnv = realEngineSource(suite).makeEnv();
        const ep = await demonstration(
          textEnv,
          task,
          suite.expert(task).map((a) => suite.agent.formatAction(a)),
          codec,
          LIMITS,
          task.seed,
        );
        expect(ep.won, `${task.id} won`).toBe(won);
        expect(ep.messages.at(-1), `${task.id}: the last message is the env's final observation`).toEqual(transcript.at(-1));
        const [rewarded] = applySuiteReward(suite, suite.agent.system(), [ep]);
        const expected = suite.reward([{ role: 'system', content: suite.agent.system() }, ...transcript], task);
        expect(rewarded!.reward, task.id).toBe(expected);
        if (env === 'alfworld' && won) expect(rewarded!.reward, task.id).toBe(1);
        if (won) expect(rewarded!.reward, task.id).toBeGreaterThan(0);
      }
    }, 300_000);
  }
});
