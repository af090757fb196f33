// alfworldSuite: everything trainers, corpus builders and eval need, behind env-core's EnvSuite.
import { withStepLimit, type ChatMessage, type EnvSuite, type ResponderContext, type TaskRef } from '@diffworld/env-core';
import { runExpert } from './engine/expert.js';
import { AlfworldGame } from './engine/game.js';
import { ENV_NAME, gameForTask, splitTasks } from './engine/splits.js';
import type { GameSpec } from './engine/scene.js';
import { AlfworldEnv } from './env.js';
import { parseAlfworldAction } from './harness/agent.js';
import { localResponder } from './harness/responder.js';
import { alfworldReward, type GoalMeta } from './harness/reward.js';
import { bakeScene } from './harness/scene-prompt.js';
import { initialWorldModelPrompt } from './harness/wm-prompt.js';
import { SPLITS } from './world/tasks.js';
import type { Grammar } from './world/text.js';

/** ALFWorld's gym wrapper caps episodes at 50 steps (max_nb_steps_per_episode). */
export const MAX_STEPS = 50;

// Generating a game takes well under a millisecond, but rewards and prompts are asked for per
// rollout: keep the last few hundred.
const specCache = new Map<string, GameSpec>();
export function cachedGame(task: TaskRef): GameSpec {
  const key = `${task.split}|${task.taskType}|${task.seed}|${task.id}`;
  let spec = specCache.get(key);
  if (!spec) {
    spec = gameForTask(task);
    if (specCache.size >= 512) specCache.delete(specCache.keys().next().value!);
    specCache.set(key, spec);
  }
  return spec;
}

export function goalMeta(task: TaskRef): GoalMeta {
  const g = cachedGame(task).goal;
  return { taskType: g.taskType, target: g.obj, destination: g.recep, toggle: g.toggle };
}

export interface AlfworldSuite extends EnvSuite {
  /** The real engine with a chosen grammar (createEnv() uses the current one). */
  createEnvWith(opts: { grammar?: Grammar; maxSteps?: number }): AlfworldEnv | ReturnType<typeof withStepLimit>;
}

export const alfworldSuite: AlfworldSuite = {
  name: ENV_NAME,
  splits: SPLITS,
  maxSteps: MAX_STEPS,
  tasks: (split) => splitTasks(split),
  createEnv: () => withStepLimit(new AlfworldEnv(), MAX_STEPS),
  createEnvWith: ({ grammar, maxSteps }) => withStepLimit(new AlfworldEnv({ grammar: grammar ?? 'current' }), maxSteps ?? MAX_STEPS),
  expert: (task) => runExpert(new AlfworldGame(cachedGame(task))),
  worldModelPrompt: (task) => initialWorldModelPrompt(bakeScene(cachedGame(task))),
  localResponder: (ctx: ResponderContext) => localResponder(ctx),
  reward: (trajectory: ChatMessage[], task: TaskRef) => alfworldReward(goalMeta(task), trajectory),
  parseAction: parseAlfworldAction,
};
