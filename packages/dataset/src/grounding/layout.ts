// How a world-model request {system, history, action} becomes chat messages, in one of two layouts.
// Training rows and inference prompts are both built here, so a model sees at inference exactly
// the prompt shape it was trained on (the row is the prompt plus the observation as the last turn).
//
//   transition  the paper's row: [system, user "State: <json.dumps(history)>\n\nAction: <a>"];
//               one row per step, one target per row.
//   episode     the steps as turns: [system, user "<first user turn>\n\nAction: a1", assistant o1,
//               user "Action: a2", assistant o2, …, user "Action: aN"]; as a training row (with
//               the last observation appended) every observation is a target.
//
// The episode layout reads the agent conversation as: leading system messages (the agent's own
// instructions, left out: the grounded system prompt describes the world), the first user turn
// (the task and first observation), then (assistant action, user/tool observation) pairs. An
// action turn written `Action: <a>` (ALFWorld's agents) contributes <a>; an observation turn written
// `Observation:\n<o>\n\nAdmissible commands:…` (ALFWorld's user turns, the first one included)
// contributes <o>, which is what the engine said and what the world model writes: the admissible
// lists are the agent's menu, not world state (on ALFWorld they were 181 of an episode row's
// ~1,850 tokens). Other turns are taken as they are.
// Actions are always written raw here (the transition layout's ActionEncoding is for the paper's rows).
// A window keeps the system prompt and the first user turn, drops the oldest steps whole and says
// how many it dropped, so a long episode still fits the model's length.
import type { ChatMessage } from '../rows.js';
import { type ActionEncoding, encodeAction, worldModelUserTurn } from './worldmodel.js';

export const WORLD_MODEL_LAYOUTS = ['transition', 'episode'] as const;
export type WorldModelLayout = (typeof WORLD_MODEL_LAYOUTS)[number];

/** What a world model is asked: env-core's WorldModelRequest, restated here so the dataset owns the layout. */
export interface WorldModelPromptRequest {
  system: string;
  history: readonly ChatMessage[];
  action: string;
}

export interface LayoutOptions {
  layout: WorldModelLayout;
  /** transition only: how the action is written after "Action: " (default 'raw'). */
  actionEncoding?: ActionEncoding;
  /** episode only: keep only the latest `keepSteps` observed steps (default: all). */
  keepSteps?: number;
}

/** One observed step of an episode. */
export interface EpisodeStep {
  action: string;
  observation: string;
}

/** An episode as the episode layout sees it: the steps already observed and the action to answer. */
export interface EpisodeView {
  system: string;
  /** The observation of the conversation's first user turn (task and first observation). */
  context: string;
  steps: EpisodeStep[];
  /** Steps left out before `steps` (a window of a longer episode). */
  omitted: number;
  /** The action whose observation is to be predicted; undefined for a training row (all steps observed). */
  action?: string;
}

const ACTION_PREFIX = 'Action: ';
const OBSERVATION_PREFIX = 'Observation:\n';
const ADMISSIBLE_SUFFIX = '\n\nAdmissible commands:';
const OMITTED = /\n\n\[(\d+) earlier steps? not shown\]$/;

/** The action of an agent turn: `Action: <a>` gives <a>, anything else is the action itself. */
export function actionOfTurn(content: string): string {
  return content.startsWith(ACTION_PREFIX) ? content.slice(ACTION_PREFIX.length) : content;
}

/** The observation of an env turn: ALFWorld's `Observation:\n<o>\n\nAdmissible commands:…` gives <o>. */
export function observationOfTurn(content: string): string {
  if (!content.startsWith(OBSERVATION_PREFIX)) return content;
  const body = content.slice(OBSERVATION_PREFIX.length);
  const at = body.lastIndexOf(ADMISSIBLE_SUFFIX);
  return at < 0 ? body : body.slice(0, at);
}

/** Reads an agent conversation as an episode (see the file comment); throws naming the message that breaks the shape. */
export function episodeView(req: WorldModelPromptRequest): EpisodeView {
  const h = req.history;
  let i = 0;
  while (h[i]?.role === 'system') i++;
  const first = h[i];
  if (first?.role !== 'user')
    throw new RangeError(`episode layout: history[${i}] must be the first user turn (task and observation), got ${first ? `a ${first.role} message` : 'the end of the history'}`);
  const steps: EpisodeStep[] = [];
  for (i++; i < h.length; i += 2) {
    const act = h[i]!;
    const obs = h[i + 1];
    if (act.role !== 'assistant') throw new RangeError(`episode layout: history[${i}] must be an agent action (assistant), got a ${act.role} message`);
    if (obs?.role !== 'user' && obs?.role !== 'tool')
      throw new RangeError(`episode layout: history[${i + 1}] must be the observation (user or tool) of the action before it, got ${obs ? `a ${obs.role} message` : 'the end of the history'}`);
    steps.push({ action: actionOfTurn(act.content), observation: observationOfTurn(obs.content) });
  }
  return { system: req.system, context: observationOfTurn(first.content), steps, omitted: 0, action: req.action };
}

/**
 * The messages of an episode view: a prompt ending on the user turn of `view.action`, or, without
 * an action, a training row ending on the last observation. `keepSteps` windows it to the latest steps.
 */
export function episodeMessages(view: EpisodeView, keepSteps?: number): ChatMessage[] {
  const keep = keepSteps === undefined ? view.steps.length : keepSteps;
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`episode layout: keepSteps must be a non-negative integer, got ${keepSteps}`);
  const kept = view.steps.slice(Math.max(0, view.steps.length - keep));
  const omitted = view.omitted + view.steps.length - kept.length;
  const head = omitted > 0 ? `${view.context}\n\n[${omitted} earlier step${omitted === 1 ? '' : 's'} not shown]` : view.context;
  const actions = [...kept.map((s) => s.action), ...(view.action === undefined ? [] : [view.action])];
  if (actions.length === 0) throw new RangeError('episode layout: an episode needs at least one action');
  const out: ChatMessage[] = [{ role: 'system', content: view.system }];
  actions.forEach((a, k) => {
    out.push({ role: 'user', content: k === 0 ? `${head}\n\n${ACTION_PREFIX}${a}` : `${ACTION_PREFIX}${a}` });
    const step = kept[k];
    if (step) out.push({ role: 'assistant', content: step.observation });
  });
  return out;
}

/** The prompt of a request in a layout: every message up to the user turn whose answer is the next observation. */
export function worldModelPromptMessages(req: WorldModelPromptRequest, opts: LayoutOptions): ChatMessage[] {
  if (opts.layout === 'transition') {
    return [
      { role: 'system', content: req.system },
      { role: 'user', content: worldModelUserTurn(req.history, encodeAction(req.action, opts.actionEncoding ?? 'raw')) },
    ];
  }
  return episodeMessages(episodeView(req), opts.keepSteps);
}

/** A training row's messages: the request's prompt and the observation that followed, as the last (target) turn. */
export function worldModelRowMessages(req: WorldModelPromptRequest, observation: string, opts: LayoutOptions): ChatMessage[] {
  return [...worldModelPromptMessages(req, opts), { role: 'assistant', content: observation }];
}

/**
 * Reads an episode-layout training row back (for windowing it). Undefined when the messages are
 * not one: [system, user "<context>\n\nAction: a1", assistant, (user "Action: a", assistant)*].
 */
export function parseEpisodeRow(messages: readonly ChatMessage[]): EpisodeView | undefined {
  const [system, first] = messages;
  if (system?.role !== 'system' || first?.role !== 'user' || messages.length < 3 || messages.length % 2 === 0) return undefined;
  const at = first.content.lastIndexOf(`\n\n${ACTION_PREFIX}`);
  if (at < 0 || first.content.startsWith('State: ')) return undefined;
  let context = first.content.slice(0, at);
  let omitted = 0;
  const marker = OMITTED.exec(context);
  if (marker) {
    omitted = Number(marker[1]);
    context = context.slice(0, marker.index);
  }
  const steps: EpisodeStep[] = [];
  for (let i = 1; i < messages.length; i += 2) {
    const u = messages[i]!,
      a = messages[i + 1]!;
    if (u.role !== 'user' || a.role !== 'assistant') return undefined;
    if (i > 1 && !u.content.startsWith(ACTION_PREFIX)) return undefined;
    const action = i === 1 ? first.content.slice(at + 2 + ACTION_PREFIX.length) : u.content.slice(ACTION_PREFIX.length);
    steps.push({ action, observation: a.content });
  }
  return { system: system.content, context, steps, omitted };
}

/**
 * One row per step of an episode-layout row: the prefix ending on that step's observation. Its
 * prompt (all but the last message) is exactly the world model's prompt for that step, so held-out
 * episodes expanded this way score every transition as inference meets it.
 */
export function episodeStepRows(messages: readonly ChatMessage[]): ChatMessage[][] {
  if (!parseEpisodeRow(messages)) throw new RangeError('episodeStepRows: not an episode-layout row ([system, user "…\n\nAction: a1", assistant, (user "Action: a", assistant)*])');
  const out: ChatMessage[][] = [];
  for (let end = 3; end <= messages.length; end += 2) out.push(messages.slice(0, end));
  return out;
}

/** Which layout a row's messages are in, or undefined for rows that are neither. */
export function worldModelLayoutOf(messages: readonly ChatMessage[]): WorldModelLayout | undefined {
  if (messages.length === 3 && messages[0]?.role === 'system' && messages[1]?.role === 'user' && messages[1].content.startsWith('State: ') && messages[2]?.role === 'assistant') return 'transition';
  return parseEpisodeRow(messages) ? 'episode' : undefined;
}

/**
 * The largest window (most recent steps kept) of an episode whose messages pass `fits`, or
 * undefined when not even the last step alone does. `fits` must be monotone: a window that fits
 * still fits with fewer steps. Binary search: O(log steps) calls.
 */
export function fitEpisodeWindow<T>(view: EpisodeView, fits: (messages: ChatMessage[]) => T | undefined): { value: T; keptSteps: number } | undefined {
  // A training row needs one observed step (its target); a prompt may keep none.
  let lo = view.action === undefined ? 1 : 0;
  let hi = view.steps.length;
  let best: { value: T; keptSteps: number } | undefined;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const value = fits(episodeMessages(view, mid));
    if (value !== undefined) {
      best = { value, keptSteps: mid };
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}
