// Scenario templates and the tasks they generate (AppWorld: a scenario has 3 task variants with
// different supervisors and parameters, and per-task state-based tests).
import type Database from 'better-sqlite3';
import type { Rng } from '@diffworld/env-core';
import type { AppWorldTemplate } from '../../engine/world.js';
import type { TableName } from '../schema.js';
import type { DbDiff } from './diff.js';
import type { ExpertContext } from './expert.js';

export type Difficulty = 1 | 2 | 3;

export interface TestResult {
  name: string;
  passed: boolean;
  detail?: string;
  /** AppWorld's test label: whether the test already passes when the agent does nothing. */
  label?: TestLabel;
}

export type TestLabel = 'no_op_fail' | 'no_op_pass';

export interface Variant {
  supervisorId: number;
  instruction: string;
  /** The ground-truth answer of a question task; null for action tasks. */
  answer: number | string | null;
  /** Preconditions written into the episode's database before it starts. */
  setup?: (db: Database.Database) => void;
  /** Tables the task may change (the supervisor task record is always allowed). */
  allowedTables: readonly TableName[];
  /** Task-specific tests over the diff and the final database. */
  expected: (diff: DbDiff, db: Database.Database) => TestResult[];
  /** The expert's program; it ends with `x.complete(…)`. */
  solve: (x: ExpertContext) => void;
}

export interface Scenario {
  name: string;
  kind: 'question' | 'action';
  split: string;
  difficulty: Difficulty;
  apps: readonly string[];
  /** Exactly three variants, with distinct supervisors. */
  variants: (world: AppWorldTemplate, rng: Rng) => [Variant, Variant, Variant];
}

export interface Supervisor {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
}

/** A resolved task: a scenario variant bound to the world it was generated from. */
export interface AppworldTask {
  id: string;
  scenarioId: string;
  scenario: Scenario;
  variantIndex: 1 | 2 | 3;
  split: string;
  difficulty: Difficulty;
  supervisor: Supervisor;
  variant: Variant;
  worldSeed: number;
}
