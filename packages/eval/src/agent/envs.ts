// What the agent runner needs from each environment, in one table: the suite (tasks, real engine,
// expert, parser, step limit) and the paper harness's framing of the conversation, so a policy sees
// exactly what the paper's agents see. Workers look envs up here by name, so the table is static.
import type { ChatMessage, EnvSuite, Observation, StepResult, TaskRef } from '@diffworld/env-core';
import { AGENT_SYSTEM_PROMPT as ALFWORLD_SYSTEM_PROMPT, alfworldSuite, formatUserTurn, NOTHING_HAPPENS } from '@diffworld/alfworld';
import { agentSystemPrompt, appworldSuite, NO_TOOL_CALL_MESSAGE } from '@diffworld/appworld';
import { AGENT_SYSTEM_PROMPT as SCIWORLD_SYSTEM_PROMPT, frameObservation, INVALID_ACTION_MESSAGE, parseSciworldAction, sciworldSuite, taskUserMessage } from '@diffworld/sciworld';
import { randomAppworldCall } from './appworld-actions.js';
import { EvalError } from '../errors.js';
import type { Rng } from '@diffworld/env-core';

export interface AgentEnv {
  readonly suite: EnvSuite;
  /** The agent's system prompt. */
  system(): string;
  /** The first user turn, from the reset observation. */
  firstUserTurn(obs: Observation): string;
  /** The user turn after a step. */
  nextUserTurn(result: StepResult): string;
  /** The user turn after a completion the parser rejected (the env is not stepped). */
  invalidTurn(admissible: readonly string[] | undefined): string;
  /** An action as the agent would write it, so that `parse(completion)` gives the action back. */
  formatAction(action: string): string;
  /** The harness's parser; `lastObservation` lets ScienceWorld accept a number after an ambiguity prompt. */
  parse(completion: string, lastObservation: string): string | undefined;
  /**
   * A random action for envs whose engine lists no admissible commands (the random policy's
   * documented generator); undefined where the engine lists them.
   */
  randomAction?(task: TaskRef, history: readonly ChatMessage[], rng: Rng): string;
}

// ScienceWorld asks "Ambiguous request: Please enter the number for the action you intended
// (or blank to cancel):" and then expects a bare number.
const AMBIGUITY_PROMPT = /enter the number for the action you intended/i;

export const AGENT_ENVS = {
  alfworld: {
    suite: alfworldSuite,
    system: () => ALFWORLD_SYSTEM_PROMPT,
    firstUserTurn: (obs) => formatUserTurn(obs.text, obs.admissible ?? []),
    nextUserTurn: (r) => formatUserTurn(r.observation.text, r.observation.admissible ?? []),
    invalidTurn: (admissible) => formatUserTurn(NOTHING_HAPPENS, admissible ?? []),
    formatAction: (action) => `Action: ${action}`,
    parse: (completion) => alfworldSuite.parseAction(completion),
  },
  sciworld: {
    suite: sciworldSuite,
    system: () => SCIWORLD_SYSTEM_PROMPT,
    firstUserTurn: (obs) => taskUserMessage(obs.goal ?? '', obs.text),
    nextUserTurn: (r) => frameObservation(r.observation.text),
    invalidTurn: () => INVALID_ACTION_MESSAGE,
    formatAction: (action) => action,
    parse: (completion, last) => parseSciworldAction(completion, { allowNumber: AMBIGUITY_PROMPT.test(last) }),
  },
  appworld: {
    suite: appworldSuite,
    system: () => agentSystemPrompt(),
    firstUserTurn: (obs) => obs.text,
    nextUserTurn: (r) => r.observation.text,
    invalidTurn: () => NO_TOOL_CALL_MESSAGE,
    formatAction: (action) => action,
    parse: (completion) => appworldSuite.parseAction(completion),
    randomAction: (task, history, rng) => randomAppworldCall(history, rng),
  },
} as const satisfies Record<string, AgentEnv>;

export type AgentEnvName = keyof typeof AGENT_ENVS;
export const AGENT_ENV_NAMES = Object.keys(AGENT_ENVS) as AgentEnvName[];

export function agentEnv(name: string): AgentEnv {
  const env = (AGENT_ENVS as Record<string, AgentEnv>)[name];
  if (!env) throw new EvalError('bad_option', `unknown environment "${name}"; one of ${AGENT_ENV_NAMES.join(', ')}`, 'agent env');
  return env;
}
