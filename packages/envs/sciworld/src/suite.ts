// sciworldSuite: everything the trainer, the corpus builder and eval need, behind env-core's EnvSuite.
import type { ChatMessage, EnvSuite, ResponderContext, TaskRef } from '@diffworld/env-core';
import { TASKS, SCIWORLD_SPLITS, splitVariations, type SciworldSplit } from './tasks/catalog.js';
import { isImplemented } from './tasks/setup.js';
import { SciworldEnv } from './env.js';
import { expertActions } from './expert/expert.js';
import { worldModelPrompt } from './harness/wm-prompt.js';
import { sciworldLocalResponder } from './harness/responder.js';
import { sciworldReward } from './harness/reward.js';
import { parseSciworldAction } from './harness/parse.js';

/** Task refs of a split: every variation of every implemented task, id "{task}_v{variation}". */
export function sciworldTasks(split: string, only?: readonly string[]): TaskRef[] {
  if (!(SCIWORLD_SPLITS as readonly string[]).includes(split)) throw new Error(`sciworld: unknown split '${split}'; valid splits: ${SCIWORLD_SPLITS.join(', ')}`);
  return TASKS.filter((t) => isImplemented(t.name) && (!only || only.includes(t.name))).flatMap((t) =>
    splitVariations(t.variations)[split as SciworldSplit].map((v) => ({ env: 'sciworld', split, id: `${t.name}_v${v}`, taskType: t.name, seed: v })),
  );
}

export const sciworldSuite: EnvSuite = {
  name: 'sciworld',
  splits: SCIWORLD_SPLITS,
  tasks: (split) => sciworldTasks(split),
  createEnv: () => new SciworldEnv(),
  expert: (task: TaskRef) => expertActions(task.taskType, task.seed).actions,
  worldModelPrompt,
  localResponder: (ctx: ResponderContext) => sciworldLocalResponder(ctx),
  reward: (trajectory: ChatMessage[], task: TaskRef) => sciworldReward(trajectory, task),
  parseAction: (completion: string) => parseSciworldAction(completion),
  maxSteps: 50,
};
