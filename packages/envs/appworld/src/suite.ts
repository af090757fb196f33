// The AppWorld EnvSuite: tasks by split, the real engine, the expert, the WM prompt, the local
// responder, and a reward that is the paper's heuristic or the exact database tests.
import { playExpertRecord, refuseServerExtras, withStepLimit, type ChatMessage, type EnvSuite, type TaskRef } from '@diffworld/env-core';
import { corpusRows } from './corpus.js';
import { AppworldEnv } from './env.js';
import { SimulatedAppworldEnv } from './simulated-env.js';
import { parseToolCall } from './harness/parser.js';
import { NO_TOOL_CALL_MESSAGE } from './harness/prompt.js';
import { randomAppworldCall } from './harness/random-action.js';
import { heuristicReward } from './harness/reward.js';
import { formatToolCall } from './harness/tool-call.js';
import { groundingPrompt, localResponder } from './harness/wm.js';
import { ENV_NAME, resolveTask, SPLITS, taskRef, tasksOf } from './world/tasks/catalog.js';
import { replayActions, runExpert } from './world/tasks/run-expert.js';
import { APPWORLD_SERVER_PROTOCOL, startAppworldServer } from './server.js';
import { APPWORLD_PROMPT_SLOTS, agentSystemPromptWith, compareAppworldPrompts, extractAppworldPrompts } from './paper/prompts.js';

export type RewardMode = 'heuristic' | 'exact';

/** Steps per episode: enough for the longest expert (≈15 calls) with room for mistakes. */
export const APPWORLD_MAX_STEPS = 30;

export function createAppworldSuite(opts: { reward?: RewardMode } = {}): EnvSuite {
  const mode = opts.reward ?? 'heuristic';
  const parseAction = (completion: string) => {
    const call = parseToolCall(completion);
    return call ? formatToolCall(call) : undefined;
  };
  const suite: EnvSuite = {
    name: ENV_NAME,
    splits: SPLITS,
    maxSteps: APPWORLD_MAX_STEPS,
    paperMaxTurns: 10,
    actionEncoding: 'raw',
    tasks: (split) => tasksOf(split).map(taskRef),
    createEnv: () => withStepLimit(new AppworldEnv(), APPWORLD_MAX_STEPS),
    createSimulatedEnv: (wm, simOpts) => withStepLimit(new SimulatedAppworldEnv(wm, simOpts), APPWORLD_MAX_STEPS),
    expert: (ref: TaskRef) => runExpert(resolveTask(ref)).actions,
    expertRecord: (ref: TaskRef) => playExpertRecord(suite, ref),
    randomAction: (_task, history, rng) => randomAppworldCall(history, rng),
    corpusRows: (req) => corpusRows(req),
    agent: {
      system: (prompts) => agentSystemPromptWith(prompts),
      firstUserTurn: (obs) => obs.text,
      nextUserTurn: (r) => r.observation.text,
      invalidTurn: () => NO_TOOL_CALL_MESSAGE,
      formatAction: (action) => action,
      parse: (completion) => parseAction(completion),
    },
    // A prompt set carries AppWorld's agent prompt only: the world model keeps our grounding prompt.
    worldModelPrompt: (ref: TaskRef) => groundingPrompt(resolveTask(ref)),
    prompts: { slots: APPWORLD_PROMPT_SLOTS, extract: extractAppworldPrompts, compare: compareAppworldPrompts },
    localResponder,
    parseAction,
    reward: (trajectory: ChatMessage[], ref: TaskRef) => {
      const task = resolveTask(ref);
      if (mode === 'exact')
        return replayActions(
          task,
          trajectory.filter((m) => m.role === 'assistant').map((m) => m.content),
        ).success
          ? 1
          : 0;
      return heuristicReward(trajectory, task.variant.instruction, task.variant.answer === null ? null : String(task.variant.answer));
    },
    server: {
      defaultPort: 30002,
      protocol: APPWORLD_SERVER_PROTOCOL,
      start: ({ gamesFile, prompts, ...serverOpts }) => refuseServerExtras('appworld', { gamesFile, prompts }) ?? startAppworldServer(serverOpts),
    },
  };
  return suite;
}

/** The default suite (heuristic reward, as the paper's GRPO runs). */
export const appworldSuite: EnvSuite = createAppworldSuite();
