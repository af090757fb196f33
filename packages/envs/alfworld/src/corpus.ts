// World-model corpus: searching-expert episodes (src/expert/) plus perturbed ones (random detours, invalid commands,
// failed attempts at plausible actions), so the corpus covers failure states. Layout 'transition'
// (the paper's): each action that got an observation becomes one row {system: grounded WM prompt,
// user: "State: <json.dumps(history)>\n\nAction: <action>", assistant: the engine's raw feedback}.
// Layout 'episode': one row per episode, every observation a target (@diffworld/dataset layout.ts).
// The history is the agent conversation (user turns carry the admissible list) and the action is
// the parsed command, as the simulated env sends them; the target is the bare textworld text the
// responder/WM must produce. Rows are built by the same function as the world model's prompts.
import { Rng, episodeRecord, type ChatMessage, type EpisodeRecord, type PromptSet, type TaskRef } from '@diffworld/env-core';
import { worldModelRowMessages, type ChatRow, type WorldModelLayout } from '@diffworld/dataset';
import { nextCommand } from './expert/policy.js';
import { emptyView, observeUserTurn } from './expert/view.js';
import { AlfworldGame } from './engine/game.js';
import { MAX_STEPS, cachedGame, freshTask, splitTasks } from './engine/splits.js';
import { formatUserTurn } from './harness/agent.js';
import { agentSystemPrompt, worldModelSystemPrompt } from './harness/prompt-set.js';
import { bakeScene } from './harness/scene-prompt.js';

export interface PerturbOptions {
  /** Share of episodes played by the expert alone. */
  expertShare?: number;
  /** Per-step probabilities in perturbed episodes. */
  detour?: number;
  invalid?: number;
  failedAttempt?: number;
  /** The paper's prompts (a loaded prompt file): the agent system prompt of the history and the rows' WM system prompt. */
  prompts?: PromptSet;
}

export interface CorpusOptions extends PerturbOptions {
  split: string;
  episodes: number;
  seed?: number;
  /** Row layout: 'transition' (default, the paper's) or 'episode'. */
  layout?: WorldModelLayout;
  /** Episodes beyond the split's task count play newly generated games (freshTask) instead of replaying its tasks. */
  freshGames?: boolean;
}

export interface PlayedEpisode {
  task: TaskRef;
  messages: ChatMessage[];
  actions: string[];
  /** The engine's raw feedback to each action. */
  observations: string[];
  /** How many state facts each action changed (AlfworldGame.stateFacts): rows carry it as meta.state_changes. */
  stateChanges: number[];
  won: boolean;
  perturbed: boolean;
}

const GARBAGE = ['look around', 'go north', 'take all', 'done', 'put it down', 'open door', 'search the room', 'wait'];

/** A command that looks plausible but is not admissible now: wrong place, wrong verb, wrong object. */
function failedAttempt(game: AlfworldGame, rng: Rng): string {
  const admissible = new Set(game.admissibleCommands());
  const recs = game.spec.receptacles.map((r) => r.name);
  const objs = game.spec.objects.map((o) => o.name);
  for (let i = 0; i < 20; i++) {
    const o = rng.pick(objs);
    const r = rng.pick(recs);
    const cmd = rng.pick([
      `take ${o} from ${r}`,
      `move ${o} to ${r}`,
      `open ${r}`,
      `close ${r}`,
      `heat ${o} with ${r}`,
      `cool ${o} with ${r}`,
      `clean ${o} with ${r}`,
      `use ${o}`,
      `examine ${o}`,
      `go to ${r}`,
    ]);
    if (!admissible.has(cmd)) return cmd;
  }
  return rng.pick(GARBAGE);
}

/** Plays one episode in the real engine with the given perturbation mix. */
export function playEpisode(task: TaskRef, rng: Rng, perturbed: boolean, opts: PerturbOptions = {}): PlayedEpisode {
  const game = new AlfworldGame(cachedGame(task));
  const first = formatUserTurn(game.intro(), game.admissibleCommands());
  const messages: ChatMessage[] = [
    { role: 'system', content: agentSystemPrompt(opts.prompts) },
    { role: 'user', content: first },
  ];
  // The searching expert's view of the conversation, kept turn by turn: after a detour it carries on from what it saw.
  const view = emptyView();
  observeUserTurn(view, undefined, first);
  const actions: string[] = [];
  const observations: string[] = [];
  const stateChanges: number[] = [];
  const detour = opts.detour ?? 0.15;
  const invalid = opts.invalid ?? 0.05;
  const failed = opts.failedAttempt ?? 0.08;
  while (!game.won && actions.length < MAX_STEPS) {
    let action = nextCommand(view) ?? 'look';
    if (perturbed) {
      const roll = rng.float();
      if (roll < detour) action = rng.pick(game.admissibleCommands());
      else if (roll < detour + invalid) action = rng.pick(GARBAGE);
      else if (roll < detour + invalid + failed) action = failedAttempt(game, rng);
    }
    const before = game.stateFacts();
    const out = game.step(action);
    actions.push(action);
    observations.push(out.feedback);
    stateChanges.push(changedFacts(before, game.stateFacts()));
    const turn = formatUserTurn(out.feedback, game.admissibleCommands());
    messages.push({ role: 'assistant', content: `Action: ${action}` }, { role: 'user', content: turn });
    observeUserTurn(view, action, turn);
  }
  return { task, messages, actions, observations, stateChanges, won: game.won, perturbed };
}

/** Facts whose value differs between two snapshots (added or removed ones included). */
function changedFacts(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): number {
  let n = 0;
  for (const [k, v] of after) if (before.get(k) !== v) n++;
  for (const k of before.keys()) if (!after.has(k)) n++;
  return n;
}

/**
 * The episodes of a corpus run, lazily: task i is the split's task (seeded shuffle) i mod n, or
 * with freshGames, from the second pass over the list on, a new game of that task's type.
 */
export function* corpusEpisodes(opts: CorpusOptions): Generator<PlayedEpisode> {
  if (!Number.isInteger(opts.episodes) || opts.episodes < 0) throw new RangeError(`[alfworld.corpus] episodes must be a non-negative integer, got ${opts.episodes}`);
  const rng = new Rng(opts.seed ?? 0);
  const tasks = rng.shuffle(splitTasks(opts.split));
  const expertShare = opts.expertShare ?? 0.3;
  for (let i = 0; i < opts.episodes; i++) {
    const listed = tasks[i % tasks.length]!;
    const round = Math.floor(i / tasks.length);
    const task = opts.freshGames && round > 0 ? freshTask(listed, round) : listed;
    const epRng = rng.fork(i);
    yield playEpisode(task, epRng, !epRng.bool(expertShare), opts);
  }
}

/** The world-model request of step k of an episode, as the simulated env sends it. */
function stepRequest(ep: PlayedEpisode, system: string, k: number) {
  return { system, history: ep.messages.slice(0, 2 + 2 * k), action: ep.actions[k]! };
}

/** World-model rows of one episode (dataset "alfworld"): one per step ('transition') or one for the episode ('episode'). */
export function episodeRows(ep: PlayedEpisode, prompts?: PromptSet, layout: WorldModelLayout = 'transition'): ChatRow[] {
  const grounding = worldModelSystemPrompt(bakeScene(cachedGame(ep.task)), prompts);
  const row = (k: number, stateChanges: number | number[]): ChatRow => ({
    dataset: 'alfworld',
    messages: worldModelRowMessages(stepRequest(ep, grounding, k), ep.observations[k]!, { layout }),
    meta: { state_changes: stateChanges },
  });
  // An episode row's meta lists every observation's count, in order (episodeStepRows cuts keep theirs).
  if (layout === 'episode') return ep.actions.length ? [row(ep.actions.length - 1, ep.stateChanges)] : [];
  return ep.actions.map((_, k) => row(k, ep.stateChanges[k]!));
}

/** All rows of a corpus run, episode by episode. */
export function* corpusRows(opts: CorpusOptions): Generator<ChatRow> {
  for (const ep of corpusEpisodes(opts)) yield* episodeRows(ep, opts.prompts, opts.layout);
}

/** The env-core episode record of a played episode (for `env expert` demos and logs). */
export function playedEpisodeRecord(ep: PlayedEpisode): EpisodeRecord {
  return episodeRecord(ep.task, { messages: ep.messages, actions: ep.actions, reward: ep.won ? 1 : 0, score: ep.won ? 1 : 0, won: ep.won });
}

/**
 * SFT expert demos as the reference builds them: system, user turns, `Action: <cmd>` turns; the
 * episode ends on the winning action (its observation is not appended).
 */
export function expertDemo(task: TaskRef): PlayedEpisode {
  const ep = playEpisode(task, new Rng(0), false);
  return { ...ep, messages: ep.won ? ep.messages.slice(0, -1) : ep.messages };
}
