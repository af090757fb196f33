// sciworldSuite: everything the trainer, the corpus builder, eval and the CLI need, behind env-core's EnvSuite.
import { refuseServerExtras, withStepLimit, type ChatMessage, type EnvSuite, type ResponderContext, type TaskRef } from '@diffworld/env-core';
import { SCIWORLD_SPLITS } from './world/tasks/catalog.js';
import { ENV_NAME, sciworldTasks } from './world/tasks/split-tasks.js';
import { SciworldEnv } from './env.js';
import { expertEpisode } from './episodes.js';
import { expertActions } from './engine/expert/expert.js';
import { corpusRows } from './corpus.js';
import { frameObservation, INVALID_ACTION_MESSAGE, taskUserMessage } from './harness/prompt.js';
import { SCIWORLD_PROMPT_SLOTS, agentSystemPrompt, worldModelSystemPrompt } from './harness/prompt-set.js';
import { compareSciworldPrompts, extractSciworldPrompts } from './paper/prompts.js';
import { sciworldLocalResponder } from './harness/responder.js';
import { sciworldReward } from './harness/reward.js';
import { parseSciworldAction } from './harness/parse.js';
import { SimulatedSciworldEnv } from './simulated-env.js';
import { SCIWORLD_SERVER_PROTOCOL, startSciworldServer } from './server.js';

/** The reference's SciWorld harness caps episodes at 50 steps. */
export const SCIWORLD_MAX_STEPS = 50;

// ScienceWorld asks "Ambiguous request: Please enter the number for the action you intended
// (or blank to cancel):" and then expects a bare number.
const AMBIGUITY_PROMPT = /enter the number for the action you intended/i;

export const sciworldSuite: EnvSuite = {
  name: ENV_NAME,
  splits: SCIWORLD_SPLITS,
  maxSteps: SCIWORLD_MAX_STEPS,
  paperMaxTurns: 50,
  actionEncoding: 'assistant-json',
  tasks: (split) => sciworldTasks(split),
  createEnv: () => withStepLimit(new SciworldEnv(), SCIWORLD_MAX_STEPS),
  createSimulatedEnv: (wm, opts) => new SimulatedSciworldEnv(wm, (task) => worldModelSystemPrompt(task, opts?.prompts), { maxTurns: SCIWORLD_MAX_STEPS, ...opts }),
  expert: (task: TaskRef) => expertActions(task.taskType, task.seed).actions,
  expertRecord: (task) => expertEpisode(task),
  corpusRows: (req) => corpusRows(req),
  agent: {
    system: (prompts) => agentSystemPrompt(prompts),
    firstUserTurn: (obs) => taskUserMessage(obs.goal ?? '', obs.text),
    nextUserTurn: (r) => frameObservation(r.observation.text),
    invalidTurn: () => INVALID_ACTION_MESSAGE,
    formatAction: (action) => action,
    parse: (completion, last) => parseSciworldAction(completion, { allowNumber: AMBIGUITY_PROMPT.test(last) }),
  },
  worldModelPrompt: (task, prompts) => worldModelSystemPrompt(task, prompts),
  prompts: { slots: SCIWORLD_PROMPT_SLOTS, extract: extractSciworldPrompts, compare: compareSciworldPrompts },
  localResponder: (ctx: ResponderContext) => sciworldLocalResponder(ctx),
  reward: (trajectory: ChatMessage[], task: TaskRef) => sciworldReward(trajectory, task),
  parseAction: (completion: string) => parseSciworldAction(completion),
  // The reference's SciWorld server hard-codes 30003 (ALFWorld's port too); its clients use 30004.
  // Every POST path is a step in the reference protocol: no route for prompts.
  server: { defaultPort: 30004, protocol: SCIWORLD_SERVER_PROTOCOL, start: ({ gamesFile, prompts, ...opts }) => refuseServerExtras('sciworld', { gamesFile, prompts }) ?? startSciworldServer(opts) },
};
