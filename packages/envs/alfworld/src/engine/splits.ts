// Task lists per split. A task is (split, task type, index); its seed is a hash of those, so task
// lists are stable across runs and machines, and the game is rebuilt from the TaskRef alone.
import { hashSeed, type TaskRef } from '@diffworld/env-core';
import { SPLITS, SPLIT_COUNTS, TASK_TYPES, isTaskType, type AlfworldSplit } from '../world/tasks.js';
import { generateGame } from './generate.js';
import type { GameSpec } from './scene.js';

export const ENV_NAME = 'alfworld';

export class UnknownSplitError extends Error {
  constructor(split: string) {
    super(`[alfworld] unknown split ${JSON.stringify(split)}; valid splits: ${SPLITS.join(', ')}`);
    this.name = 'UnknownSplitError';
  }
}

export function isSplit(split: string): split is AlfworldSplit {
  return (SPLITS as readonly string[]).includes(split);
}

const taskCache = new Map<string, TaskRef[]>();

/** Every task of a split, grouped by task type in TASK_TYPES order, then by index. */
export function splitTasks(split: string): TaskRef[] {
  if (!isSplit(split)) throw new UnknownSplitError(split);
  const cached = taskCache.get(split);
  if (cached) return cached.map((t) => ({ ...t }));
  const out: TaskRef[] = [];
  for (const taskType of TASK_TYPES) {
    const n = SPLIT_COUNTS[split][taskType];
    for (let i = 0; i < n; i++) {
      const id = `${split}/${taskType}/${String(i).padStart(4, '0')}`;
      out.push({ env: ENV_NAME, split, id, taskType, seed: hashSeed(`alfworld:${id}`) });
    }
  }
  taskCache.set(split, out);
  return out.map((t) => ({ ...t }));
}

/** The game of a task; validates the TaskRef so a bad one fails with a message, not a stack. */
export function gameForTask(task: TaskRef): GameSpec {
  if (task.env !== ENV_NAME) throw new TypeError(`[alfworld] task ${JSON.stringify(task.id)} belongs to env ${JSON.stringify(task.env)}, not alfworld`);
  if (!isTaskType(task.taskType)) throw new TypeError(`[alfworld] task ${JSON.stringify(task.id)}: unknown task type ${JSON.stringify(task.taskType)}; valid: ${TASK_TYPES.join(', ')}`);
  if (!Number.isInteger(task.seed)) throw new TypeError(`[alfworld] task ${JSON.stringify(task.id)}: seed must be an integer`);
  return generateGame({ id: task.id, split: task.split, taskType: task.taskType, seed: task.seed });
}
