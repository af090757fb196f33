// The one name → suite table of the workspace: eval's agent runner, its worker threads, the
// experiments and the CLI look environments up here, and ask the suite for everything else (tasks,
// engines, expert, random actions, the agent's prompts and parser, the paper's turn limit, how its
// world-model rows encode actions). Workers look envs up by name, so the table is static.
import { suiteByName, type EnvSuite } from '@diffworld/env-core';
import { alfworldSuite } from '@diffworld/alfworld';
import { appworldSuite } from '@diffworld/appworld';
import { sciworldSuite } from '@diffworld/sciworld';

export const ENV_SUITES = {
  alfworld: alfworldSuite,
  sciworld: sciworldSuite,
  appworld: appworldSuite,
} as const satisfies Record<string, EnvSuite>;

export type EnvName = keyof typeof ENV_SUITES;
export const ENV_NAMES = Object.keys(ENV_SUITES) as EnvName[];

/** The suite of an env name; an unknown or missing name throws EnvSuiteError (bad input) naming the valid ones. */
export function envSuite(name: string | undefined): EnvSuite {
  return suiteByName<EnvSuite>(ENV_SUITES, name);
}
