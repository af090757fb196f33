// The task refs of a split: every variation of every implemented task, id "{task}_v{variation}".
import { checkSplit, type TaskRef } from '@diffworld/env-core';
import { TASKS, SCIWORLD_SPLITS, splitVariations } from './catalog.js';
import { isImplemented } from './setup.js';

export const ENV_NAME = 'sciworld';

/** Task refs of a split (optionally only the named tasks); an unknown split throws EnvSuiteError. */
export function sciworldTasks(splitName: string, only?: readonly string[]): TaskRef[] {
  const split = checkSplit({ name: ENV_NAME, splits: SCIWORLD_SPLITS }, splitName);
  return TASKS.filter((t) => isImplemented(t.name) && (!only || only.includes(t.name))).flatMap((t) =>
    splitVariations(t.variations)[split].map((v) => ({ env: ENV_NAME, split, id: `${t.name}_v${v}`, taskType: t.name, seed: v })),
  );
}
