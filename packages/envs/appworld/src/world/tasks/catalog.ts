// The task catalogue: every scenario's three variants, generated from the seeded world, by split.
import { checkSplit, hashSeed, Rng, type TaskRef } from '@diffworld/env-core';
import { DEFAULT_WORLD_SEED, sharedTemplate, type AppWorldSession } from '../../engine/world.js';
import { PAPER_PASSWORD_APPS } from '../../harness/paper-protocol.js';
import { ToolRunner } from '../../harness/tool-call.js';
import { SCENARIOS } from './scenarios.js';
import type { AppworldTask, Supervisor } from './types.js';
import { FEW_LIKES } from '../history.js';

export const SPLITS = ['train', 'dev', 'test_normal', 'test_challenge'] as const;
export const ENV_NAME = 'appworld';

/** AppWorld-style 7-hex scenario id, stable for a scenario name. */
export function scenarioId(name: string): string {
  return hashSeed(name).toString(16).padStart(8, '0').slice(0, 7);
}

const cache = new Map<number, AppworldTask[]>();

export function allTasks(worldSeed: number = DEFAULT_WORLD_SEED): AppworldTask[] {
  const hit = cache.get(worldSeed);
  if (hit) return hit;
  const world = sharedTemplate(worldSeed);
  const tasks: AppworldTask[] = [];
  for (const scenario of SCENARIOS) {
    const sid = scenarioId(scenario.name);
    const variants = scenario.variants(world, new Rng(hashSeed(`${worldSeed}:${scenario.name}`)));
    variants.forEach((variant, i) => {
      const supervisor = world.query<Supervisor>('SELECT id, first_name, last_name, email, phone_number FROM users WHERE id = ?', variant.supervisorId)[0]!;
      tasks.push({ id: `${sid}_${i + 1}`, scenarioId: sid, scenario, variantIndex: (i + 1) as 1 | 2 | 3, split: scenario.split, difficulty: scenario.difficulty, supervisor, variant, worldSeed });
    });
  }
  cache.set(worldSeed, tasks);
  return tasks;
}

export function tasksOf(split: string, worldSeed?: number): AppworldTask[] {
  const valid = checkSplit({ name: ENV_NAME, splits: SPLITS }, split);
  return allTasks(worldSeed).filter((t) => t.split === valid);
}

/** The catalogue task with this id, if any. */
export function knownTask(id: string, worldSeed?: number): AppworldTask | undefined {
  return allTasks(worldSeed).find((x) => x.id === id);
}

export function findTask(id: string, worldSeed?: number): AppworldTask {
  const t = knownTask(id, worldSeed);
  if (!t) throw new RangeError(`appworld: no task "${id}"; ids look like ${allTasks(worldSeed)[0]?.id} (see tasks(split))`);
  return t;
}

export function taskRef(t: AppworldTask): TaskRef {
  return { env: ENV_NAME, split: t.split, id: t.id, taskType: t.scenario.name, seed: t.worldSeed };
}

/** The task behind a TaskRef (its seed is the world seed). */
export function resolveTask(ref: TaskRef): AppworldTask {
  return findTask(ref.id, ref.seed);
}

/** The agent's first message (AppWorld's prompt line). */
export function taskPrompt(t: AppworldTask): string {
  const s = t.supervisor;
  return `My name is: ${s.first_name} ${s.last_name}. My personal email is ${s.email} and phone number is ${s.phone_number}.\nTask: ${t.variant.instruction}`;
}

/**
 * The apps whose credentials the task's passwords call lists: the paper's four, then the task's
 * other apps (an agent must be able to read every password it logs in with).
 */
export function passwordAppsOf(t: Pick<AppworldTask, 'scenario'>): string[] {
  return [...PAPER_PASSWORD_APPS, ...t.scenario.apps.filter((a) => !(PAPER_PASSWORD_APPS as readonly string[]).includes(a))];
}

/** A fresh episode: a private database copy with the task's preconditions and active task record. */
export function startEpisode(t: AppworldTask, opts: { strict?: boolean } = {}): { session: AppWorldSession; runner: ToolRunner } {
  const session = sharedTemplate(t.worldSeed).open({
    supervisorId: t.supervisor.id,
    strict: opts.strict ?? false,
    setup: (db) => {
      t.variant.setup?.(db);
      db.prepare("INSERT INTO supervisor_tasks (user_id, instruction, status) VALUES (?, ?, 'active')").run(t.supervisor.id, t.variant.instruction);
    },
  });
  return { session, runner: new ToolRunner(session, passwordAppsOf(t)) };
}

/**
 * An episode for an AppWorld task id outside this catalogue (a real task, whose database is not
 * here): this world, with a supervisor fixed by the id and an active task naming it. The supervisor
 * is one of the people whose history looks like AppWorld's supervisors' (more than FEW_LIKES liked
 * songs, pages of settled payment requests), not one of the few-likes people a catalogue task needs.
 * Its calls answer as any episode's; it has no tests.
 */
export function openTaskId(id: string, worldSeed: number = DEFAULT_WORLD_SEED): { session: AppWorldSession; runner: ToolRunner } {
  const world = sharedTemplate(worldSeed);
  const people = world.query<{ id: number }>(
    "SELECT DISTINCT a.user_id AS id FROM accounts a WHERE (a.app = 'supervisor' OR a.app = 'spotify') AND (SELECT count(*) FROM liked_songs l WHERE l.user_id = a.user_id) > ? ORDER BY a.user_id",
    FEW_LIKES,
  );
  const supervisorId = people[hashSeed(`task:${id}`) % people.length]!.id;
  const session = world.open({
    supervisorId,
    setup: (db) => void db.prepare("INSERT INTO supervisor_tasks (user_id, instruction, status) VALUES (?, ?, 'active')").run(supervisorId, `AppWorld task ${id} (not in this world's catalogue).`),
  });
  return { session, runner: new ToolRunner(session) };
}
