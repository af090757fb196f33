// alfworldSuite: everything trainers, corpus builders and eval need, behind env-core's EnvSuite.
import { withStepLimit, type ChatMessage, type EnvSuite, type ResponderContext, type TaskRef } from '@diffworld/env-core';
import { corpusRows, expertDemo, playedEpisodeRecord } from './corpus.js';
import { AlfworldGame } from './engine/game.js';
import { expertAction } from './expert/policy.js';
import { playExpert } from './expert/run.js';
import { ENV_NAME, MAX_STEPS, cachedGame, goalMeta, registerGames, splitTasks } from './engine/splits.js';
import { AlfworldEnv } from './env.js';
import { formatUserTurn, parseAlfworldAction } from './harness/agent.js';
import { ALFWORLD_PROMPT_SLOTS, agentSystemPrompt, worldModelSystemPrompt } from './harness/prompt-set.js';
import { comparePaperPrompts, extractPaperPrompts } from './paper/prompts.js';
import { localResponder } from './harness/responder.js';
import { alfworldReward } from './harness/reward.js';
import { bakeScene } from './harness/scene-prompt.js';
import { ALFWORLD_SERVER_PROTOCOL, startAlfworldServer } from './server.js';
import { SimulatedAlfworldEnv } from './simulated-env.js';
import { readImportedGames } from './paper/games-file.js';
import { SPLITS } from './world/tasks.js';
import { NOTHING_HAPPENS, type Grammar } from './world/text.js';

export interface AlfworldSuite extends EnvSuite {
  /**
   * The searching expert's next command (what `expert(task)` plays, one turn at a time): a function
   * of what the agent was shown alone. ALFWorld's needs nothing of the task beyond its first
   * observation, which the history holds.
   */
  expertAction(task: TaskRef, history: readonly ChatMessage[]): string | undefined;
  /** The real engine with a chosen grammar (createEnv() uses the current one). */
  createEnvWith(opts: { grammar?: Grammar; maxSteps?: number }): AlfworldEnv | ReturnType<typeof withStepLimit>;
}

export const alfworldSuite: AlfworldSuite = {
  name: ENV_NAME,
  splits: SPLITS,
  maxSteps: MAX_STEPS,
  paperMaxTurns: 30,
  actionEncoding: 'raw',
  tasks: (split) => splitTasks(split),
  createEnv: () => withStepLimit(new AlfworldEnv(), MAX_STEPS),
  createEnvWith: ({ grammar, maxSteps }) => withStepLimit(new AlfworldEnv({ grammar: grammar ?? 'current' }), maxSteps ?? MAX_STEPS),
  createSimulatedEnv: (wm, opts) => withStepLimit(new SimulatedAlfworldEnv(wm, opts), MAX_STEPS),
  // The searching expert (src/expert/): it sees what an agent sees. The oracle (engine/oracle.ts) is for solvability and replay tests.
  expert: (task) => playExpert(new AlfworldGame(cachedGame(task))).actions,
  expertAction: (_task, history) => expertAction(history),
  expertRecord: (task) => playedEpisodeRecord(expertDemo(task)),
  generatesGames: true,
  corpusRows: (req) => corpusRows(req),
  agent: {
    system: (prompts) => agentSystemPrompt(prompts),
    firstUserTurn: (obs) => formatUserTurn(obs.text, obs.admissible ?? []),
    nextUserTurn: (r) => formatUserTurn(r.observation.text, r.observation.admissible ?? []),
    invalidTurn: (admissible) => formatUserTurn(NOTHING_HAPPENS, admissible ?? []),
    formatAction: (action) => `Action: ${action}`,
    parse: (completion) => parseAlfworldAction(completion),
  },
  worldModelPrompt: (task, prompts) => worldModelSystemPrompt(bakeScene(cachedGame(task)), prompts),
  prompts: { slots: ALFWORLD_PROMPT_SLOTS, extract: extractPaperPrompts, compare: comparePaperPrompts },
  localResponder: (ctx: ResponderContext) => localResponder(ctx),
  reward: (trajectory: ChatMessage[], task: TaskRef) => alfworldReward(goalMeta(task), trajectory),
  parseAction: parseAlfworldAction,
  // The reference's ALFWorld server listens on 30003.
  loadGames: async (file) => {
    const games = await readImportedGames(file);
    registerGames(games);
    return games.map((g) => g.task);
  },
  server: {
    defaultPort: 30003,
    protocol: ALFWORLD_SERVER_PROTOCOL,
    start: async ({ gamesFile, prompts, ...opts }) => startAlfworldServer({ ...opts, ...(gamesFile ? { games: await readImportedGames(gamesFile) } : {}), ...(prompts ? { prompts } : {}) }),
  },
};
