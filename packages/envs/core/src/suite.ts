// EnvSuite: the one description of an environment. Each env package exports one; the CLI, eval
// and the servers look envs up by name in one table of suites and ask the suite for everything
// (tasks, engines, expert, random actions, corpus rows, the agent's prompts, reward, server).
import type { ActionEncoding, ChatRow, WorldModelLayout } from '@diffworld/dataset';
import { episodeRecord, type EpisodeRecord } from './episode.js';
import type { RunningServer } from './http.js';
import { readPromptSet, type PromptExtraction, type PromptSet, type PromptSlots } from './prompts.js';
import type { Rng } from './rng.js';
import type { ChatMessage, Observation, ResponderContext, SampleOptions, Split, StepResult, TaskRef, TextEnv, WorldModel } from './types.js';

/** Bad input about environments (an unknown env or split); the CLI maps `badInput` to exit 2. */
export class EnvSuiteError extends Error {
  override readonly name = 'EnvSuiteError';
  readonly badInput = true;
  constructor(
    readonly code: 'unknown_env' | 'unknown_split' | 'no_imports' | 'no_prompts',
    message: string,
  ) {
    super(message);
  }
}

/** What `corpusRows` plays: `episodes` episodes cycling through the split's tasks; `seed` picks the perturbations. */
export interface CorpusRequest {
  split: Split;
  episodes: number;
  seed: number;
  /** The paper's prompts (a loaded prompt file) instead of ours, for the agent history and the WM system prompt. */
  prompts?: PromptSet;
  /**
   * Row layout (@diffworld/dataset's worldModelPromptMessages): 'transition' (default here, the
   * paper's: one row per step, one target) or 'episode' (one row per episode, every observation a target).
   */
  layout?: WorldModelLayout;
  /**
   * Episodes beyond the split's task count play newly generated games of the split instead of
   * replaying its tasks; only suites whose engine generates games (`EnvSuite.generatesGames`).
   */
  freshGames?: boolean;
}

/** The paper harness's framing of an episode, so a policy sees exactly what the paper's agents see. */
export interface AgentHarness {
  /** The agent's system prompt: ours, or the prompt set's when one is given. */
  system(prompts?: PromptSet): string;
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
}

/** The options every simulated env takes (each package may accept more through its own class). */
export interface SimulatedEnvOptions {
  /** Answer certain outcomes with the deterministic local responder (default true). */
  useResponder?: boolean;
  /** Sampling options passed to the world model. */
  sampling?: SampleOptions;
  /** The paper's prompts: the agent system prompt in the history and the WM system prompt come from this set. */
  prompts?: PromptSet;
}

export interface ServerStartOptions {
  host: string;
  port: number;
  /** A file of imported real games to serve too (ALFWorld: `diffworld env import alfworld` output). */
  gamesFile?: string;
  /** The paper's prompts: the server also answers `POST /prompts {task_id}` with the episode's agent and WM system prompts. */
  prompts?: PromptSet;
  /** Where the server says what a client left to its defaults (e.g. which game a reset without one plays); silent when absent. */
  log?: (line: string) => void;
}

/** How many of the paper's rows our harness reproduces byte for byte with a prompt set. */
export interface PromptComparison {
  rows: number;
  agentSystemIdentical: number;
  worldModelIdentical: number;
  /** Rows whose world-model prompt we could not build (e.g. a task our engine does not have), each with why. */
  unavailable: { where: string; why: string }[];
  /** Up to a few rows that differ, each with the first differing character offset. */
  firstDifferences: { where: string; prompt: 'agentSystem' | 'worldModel'; offset: number }[];
}

/** An env's support for the paper's prompts: the slots its harness fills, extraction and comparison. */
export interface SuitePrompts {
  readonly slots: PromptSlots;
  /** Derives the paper's templates from rows of its published data (files the user has). */
  extract(rowFiles: readonly string[]): Promise<PromptExtraction>;
  /** Renders every row's prompts with our harness and the set, and counts the identical ones. */
  compare(rowFiles: readonly string[], set: PromptSet): Promise<PromptComparison>;
}

/** One per environment package: everything the trainer, the corpus builder, eval and the CLI need. */
export interface EnvSuite {
  readonly name: string;
  /** The splits `tasks` accepts, training split first, then the default evaluation split. */
  readonly splits: readonly Split[];
  /** Step limit of an episode. */
  readonly maxSteps: number;
  /** Turn limit of an agent episode in the paper's GRPO scripts (max_turns: ALFWorld 30, ScienceWorld 50, AppWorld 10). */
  readonly paperMaxTurns: number;
  /** How this env's world-model rows write the action after "Action: " (ScienceWorld wraps it as an assistant message in JSON). */
  readonly actionEncoding: ActionEncoding;
  /** Every task of a split, in a stable order; an unknown split throws EnvSuiteError (checked by `checkSplit`). */
  tasks(split: Split): TaskRef[];
  /** The real engine (with the suite's step limit). */
  createEnv(): TextEnv;
  /** The same game played by a world model behind the same TextEnv face. */
  createSimulatedEnv(wm: WorldModel, opts?: SimulatedEnvOptions): TextEnv;
  /** An action sequence that solves the task in the real engine. */
  expert(task: TaskRef): string[];
  /** The expert's episode in the real engine as an episode record. */
  expertRecord(task: TaskRef): EpisodeRecord | Promise<EpisodeRecord>;
  /**
   * The expert's next action after a conversation in the agent's format, as a pure function of
   * what the agent was shown (for labelling the states a policy reaches, DAgger-style); undefined
   * when it has nothing to suggest. Absent where the env's expert needs the engine's hidden state.
   */
  expertAction?(task: TaskRef, history: readonly ChatMessage[]): string | undefined;
  /**
   * A random action for envs whose engine lists no admissible commands (the random policy's
   * documented generator); absent where the engine lists them.
   */
  randomAction?(task: TaskRef, history: readonly ChatMessage[], rng: Rng): string;
  /** The engine generates games beyond the split's list (CorpusRequest.freshGames); absent: its tasks are all there is. */
  readonly generatesGames?: boolean;
  /** World-model training rows from expert and perturbed episodes. */
  corpusRows(req: CorpusRequest): Iterable<ChatRow> | AsyncIterable<ChatRow>;
  /** The agent's prompts and parser. */
  readonly agent: AgentHarness;
  /** Grounded world-model system prompt (dataset's section layout) for the task's initial state; the set's template when one is given. */
  worldModelPrompt(task: TaskRef, prompts?: PromptSet): string;
  /** The paper's prompts for this env (`diffworld env prompts extract`); absent where not supported. */
  readonly prompts?: SuitePrompts;
  /** A deterministic answer when the outcome is certain, or undefined to defer to the world model. */
  localResponder(ctx: ResponderContext): string | undefined;
  /** Reward computed from the trajectory alone (no engine access). */
  reward(trajectory: ChatMessage[], task: TaskRef): number;
  /** Turns a policy completion into the env's action string (or undefined when unparseable). */
  parseAction(completion: string): string | undefined;
  /**
   * Registers imported real games from a file (ALFWorld: `diffworld env import alfworld` output) so
   * that every part of the suite plays them by TaskRef, and returns their tasks. Absent where an env
   * imports none. Call it in every process (and worker thread) that plays them.
   */
  loadGames?(file: string): Promise<TaskRef[]>;
  /**
   * The HTTP env server (the reference's reset/step/close protocol), its default port, and its
   * protocol for people: routes with their request and response JSON, one per line or two (`env serve --help`).
   */
  readonly server: { readonly defaultPort: number; readonly protocol: string; start(opts: ServerStartOptions): Promise<RunningServer> };
}

/** The one place a split name is checked: returns it, or throws naming the env's valid splits. */
export function checkSplit<S extends Split>(suite: { readonly name: string; readonly splits: readonly S[] }, split: string): S {
  if (!(suite.splits as readonly string[]).includes(split)) throw new EnvSuiteError('unknown_split', `unknown split "${split}" for ${suite.name}: one of ${suite.splits.join(', ')}`);
  return split as S;
}

/** Reads a prompt file for a suite (`--prompts FILE`): its env and slots are checked. */
export function loadPromptSet(suite: Pick<EnvSuite, 'name' | 'prompts'>, path: string): PromptSet {
  if (!suite.prompts) throw new EnvSuiteError('no_prompts', `${suite.name} does not support the paper's prompt sets`);
  return readPromptSet(path, suite.name, suite.prompts.slots);
}

/** Where two texts first differ (the shorter length when one is a prefix of the other). */
export function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return n;
}

/** The error of an env that has no imported real games (only ALFWorld imports the paper's rows). */
export function noImports(env: string): EnvSuiteError {
  return new EnvSuiteError('no_imports', `${env} has no imported games: only alfworld imports the paper's rows`);
}

/**
 * For a server that serves neither imported games nor prompts (its protocol has no route for them):
 * a rejection naming the env when either was asked for, else undefined.
 */
export function refuseServerExtras(env: string, extras: { gamesFile?: string | undefined; prompts?: PromptSet | undefined }): Promise<never> | undefined {
  if (extras.gamesFile) return Promise.reject(noImports(env));
  if (extras.prompts) return Promise.reject(new EnvSuiteError('no_prompts', `the ${env} server serves no prompts (its protocol has no route for them); use --prompts with env corpus or eval agent`));
  return undefined;
}

/** Looks an env up in a name → suite table, or throws naming the valid envs. */
export function suiteByName<T extends EnvSuite>(table: Readonly<Record<string, T>>, name: string | undefined): T {
  const names = Object.keys(table).join(', ');
  if (!name) throw new EnvSuiteError('unknown_env', `missing environment name: one of ${names}`);
  const suite = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!suite) throw new EnvSuiteError('unknown_env', `unknown environment "${name}": one of ${names}`);
  return suite;
}

/**
 * The expert's actions played in the suite's real engine, framed as the agent sees them: the
 * first observation and each response as user turns, each action as an assistant turn.
 */
export async function playExpertRecord(suite: Pick<EnvSuite, 'createEnv' | 'expert'>, task: TaskRef): Promise<EpisodeRecord> {
  const env = suite.createEnv();
  const first = await env.reset(task);
  const messages: ChatMessage[] = [{ role: 'user', content: first.text }];
  const actions: string[] = [];
  let reward = 0;
  let score = 0;
  let won = false;
  try {
    for (const action of suite.expert(task)) {
      const r = await env.step(action);
      actions.push(action);
      messages.push({ role: 'assistant', content: action }, { role: 'user', content: r.observation.text });
      reward += r.reward;
      score = r.info.score;
      won = r.info.won;
      if (r.done) break;
    }
  } finally {
    await env.close?.();
  }
  return episodeRecord(task, { messages, actions, reward, score, won });
}

/** Cycles through a split's tasks `count` times in all: yields each task with its pass (0 = first). */
export function* roundRobin<T>(items: readonly T[], count: number): Generator<[T, number]> {
  if (items.length === 0) return;
  for (let i = 0; i < count; i++) yield [items[i % items.length]!, Math.floor(i / items.length)];
}
