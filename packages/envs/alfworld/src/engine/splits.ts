// Task lists per split. A task is (split, task type, index); its seed is a hash of those, so task
// lists are stable across runs and machines, and the game is rebuilt from the TaskRef alone.
import { checkSplit, hashSeed, type TaskRef } from '@diffworld/env-core';
import { SPLITS, SPLIT_COUNTS, TASK_TYPES, isTaskType, type AlfworldSplit, type TaskType } from '../world/tasks.js';
import { generateGame } from './generate.js';
import type { GameSpec } from './scene.js';
import type { GoalMeta } from '../harness/reward.js';

export const ENV_NAME = 'alfworld';

export function isSplit(split: string): split is AlfworldSplit {
  return (SPLITS as readonly string[]).includes(split);
}

const taskCache = new Map<string, TaskRef[]>();

/** Every task of a split, grouped by task type in TASK_TYPES order, then by index; an unknown split throws EnvSuiteError. */
export function splitTasks(name: string): TaskRef[] {
  const split = checkSplit({ name: ENV_NAME, splits: SPLITS }, name);
  const cached = taskCache.get(split);
  if (cached) return cached.map((t) => ({ ...t }));
  const out: TaskRef[] = [];
  for (const taskType of TASK_TYPES) {
    const n = SPLIT_COUNTS[split][taskType];
    for (let i = 0; i < n; i++) out.push(taskRef(split, taskType, i));
  }
  taskCache.set(split, out);
  return out.map((t) => ({ ...t }));
}

/** Task `index` of a split and task type: its id names all three, its seed is the id's hash. */
function taskRef(split: AlfworldSplit, taskType: TaskType, index: number): TaskRef {
  const id = `${split}/${taskType}/${String(index).padStart(4, '0')}`;
  return { env: ENV_NAME, split, id, taskType, seed: hashSeed(`alfworld:${id}`) };
}

/**
 * A game beyond the split's list, generated the same way (the split's floorplans, a fresh seed):
 * `round` r ≥ 1 of `task` gets index count·r + its index, so no two rounds or tasks share an id,
 * and none equals a listed task. For corpora with more distinct scenes than the split lists: a
 * world model trained on a few thousand scenes memorises their contents instead of reading them
 * from its prompt.
 */
export function freshTask(task: TaskRef, round: number): TaskRef {
  const split = checkSplit({ name: ENV_NAME, splits: SPLITS }, task.split) as AlfworldSplit;
  if (!isTaskType(task.taskType)) throw new TypeError(`[alfworld] task ${JSON.stringify(task.id)}: unknown task type ${JSON.stringify(task.taskType)}`);
  const index = Number(task.id.slice(task.id.lastIndexOf('/') + 1));
  const count = SPLIT_COUNTS[split][task.taskType];
  if (!(Number.isInteger(index) && index >= 0 && index < count)) throw new TypeError(`[alfworld] task ${JSON.stringify(task.id)} is not one of the ${split} list's ${task.taskType} tasks`);
  if (!(Number.isInteger(round) && round >= 1)) throw new RangeError(`[alfworld] freshTask: round must be an integer ≥ 1, got ${round}`);
  return taskRef(split, task.taskType, count * round + index);
}

// Games that no seed rebuilds (imported from the paper's rows), by task id. A TaskRef must resolve
// from itself alone everywhere the suite takes one (expert, reward, prompts, envs), so imported
// games are registered once per process and found here.
const registered = new Map<string, GameSpec>();

/** Makes games playable by TaskRef (their `task.id`); a later game with the same id replaces the earlier. */
export function registerGames(games: Iterable<{ task: TaskRef; spec: GameSpec }>): void {
  for (const g of games) {
    registered.set(g.task.id, g.spec);
    specCache.delete(cacheKey(g.task));
  }
}

/** The game of a task; validates the TaskRef so a bad one fails with a message, not a stack. */
export function gameForTask(task: TaskRef): GameSpec {
  const imported = registered.get(task.id);
  if (imported && task.env === ENV_NAME) return imported;
  if (task.env !== ENV_NAME) throw new TypeError(`[alfworld] task ${JSON.stringify(task.id)} belongs to env ${JSON.stringify(task.env)}, not alfworld`);
  if (!isTaskType(task.taskType)) throw new TypeError(`[alfworld] task ${JSON.stringify(task.id)}: unknown task type ${JSON.stringify(task.taskType)}; valid: ${TASK_TYPES.join(', ')}`);
  if (!Number.isInteger(task.seed)) throw new TypeError(`[alfworld] task ${JSON.stringify(task.id)}: seed must be an integer`);
  return generateGame({ id: task.id, split: task.split, taskType: task.taskType, seed: task.seed });
}

/** ALFWorld's gym wrapper caps episodes at 50 steps (max_nb_steps_per_episode). */
export const MAX_STEPS = 50;

// Generating a game takes well under a millisecond, but rewards and prompts are asked for per
// rollout: keep the last few hundred.
const specCache = new Map<string, GameSpec>();
const cacheKey = (task: TaskRef) => `${task.split}|${task.taskType}|${task.seed}|${task.id}`;
export function cachedGame(task: TaskRef): GameSpec {
  const key = cacheKey(task);
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
