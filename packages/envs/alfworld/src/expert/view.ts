// What the agent can know: a fold of the conversation it was shown (the welcome text, each
// observation, the admissible lists, its own actions) into which receptacles exist, where it
// stands, what it saw on or in each receptacle, which doors it found shut, what it holds and what
// it heated, cooled, cleaned or switched on. Nothing here reads the game: the searching expert
// decides from this alone, so its action is a function of the visible history.
//
// Unlike harness/belief.ts (the responder's picture, which starts from the baked scene and so
// knows every object's start), a view starts knowing only the receptacle names of the welcome text.
import type { ChatMessage } from '@diffworld/env-core';
import { splitName } from '../engine/names.js';
import { observationOfUserTurn, parseAlfworldAction } from '../harness/agent.js';
import { TRANSFORM_RULES, isTransform, type TransformFlag } from '../world/rules.js';
import { TASK_SPECS, TASK_TYPES, type TaskType } from '../world/tasks.js';
import { NOTHING_HAPPENS } from '../world/text.js';

/** The goal as the task sentence states it. */
export interface VisibleGoal {
  text: string;
  taskType: TaskType;
  obj: string;
  recep: string;
  toggle: string;
}

export interface AgentView {
  goal: VisibleGoal | undefined;
  /** Every receptacle of the room, from the welcome text, in its order. */
  receptacles: string[];
  /** The receptacle the agent last arrived at (undefined in the middle of the room). */
  location: string | undefined;
  /** Receptacles known to stand at the agent's location (the one arrived at, and any the text showed beside it). */
  here: Set<string>;
  /** Last listed contents of each receptacle whose contents an observation listed. */
  contents: Map<string, string[]>;
  /** Receptacles found shut ("The R is closed.") and not opened since. */
  closed: Set<string>;
  /** Receptacles with a door, seen open. */
  opened: Set<string>;
  held: string | undefined;
  /** Where each object the agent picked up came from (it fits there). */
  takenFrom: Map<string, string>;
  flags: Record<TransformFlag, Set<string>>;
  toggled: Set<string>;
  /** Actions answered "Nothing happens." since the agent last moved. */
  failedHere: Set<string>;
  /** The classic grammar (`You arrive at loc N.`, `put X in/on Y`) showed itself. */
  classic: boolean;
  actions: string[];
}

/** Goal sentences of every task type's templates, as patterns (the class names are single words). */
const GOAL_PATTERNS: { taskType: TaskType; re: RegExp; slots: ('obj' | 'recep' | 'toggle')[] }[] = TASK_TYPES.flatMap((taskType) =>
  TASK_SPECS[taskType].templates.map((t) => {
    const slots: ('obj' | 'recep' | 'toggle')[] = [];
    const source = t.replace(/\{(obj|recep|toggle)\}|[^{]+/g, (part, slot: 'obj' | 'recep' | 'toggle' | undefined) => {
      if (!slot) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      slots.push(slot);
      return '(\\w+)';
    });
    return { taskType, re: new RegExp(`^${source}$`), slots };
  }),
);

/** The goal of a task sentence (`put a clean cloth in cabinet`), or undefined when no template matches. */
export function parseGoal(text: string): VisibleGoal | undefined {
  const sentence = text.trim().replace(/\.$/, '');
  for (const { taskType, re, slots } of GOAL_PATTERNS) {
    const m = re.exec(sentence);
    if (!m) continue;
    const goal: VisibleGoal = { text: sentence, taskType, obj: '', recep: '', toggle: '' };
    slots.forEach((s, i) => (goal[s] = m[i + 1]!));
    return goal;
  }
  return undefined;
}

const LIST_ITEM = /a ([a-z]+ \d+)/g;
function parseList(text: string): string[] {
  return text.trim() === 'nothing' ? [] : [...text.matchAll(LIST_ITEM)].map((m) => m[1]!);
}

export function emptyView(): AgentView {
  return {
    goal: undefined,
    receptacles: [],
    location: undefined,
    here: new Set(),
    contents: new Map(),
    closed: new Set(),
    opened: new Set(),
    held: undefined,
    takenFrom: new Map(),
    flags: { hot: new Set(), cool: new Set(), clean: new Set() },
    toggled: new Set(),
    failedHere: new Set(),
    classic: false,
    actions: [],
  };
}

const without = (list: readonly string[] | undefined, x: string) => (list ?? []).filter((y) => y !== x);

/** A receptacle's view: "On the R, you see …" / "The R is open. In it, you see …" / "The R is closed." */
function applyReceptacleView(v: AgentView, text: string): string | undefined {
  let m: RegExpExecArray | null;
  if ((m = /^On the (.+?), you see (.*)\.$/.exec(text))) {
    v.contents.set(m[1]!, parseList(m[2]!));
    v.closed.delete(m[1]!);
    return m[1]!;
  }
  if ((m = /^The (.+?) is open\. In it, you see (.*)\.$/.exec(text))) {
    v.contents.set(m[1]!, parseList(m[2]!));
    v.closed.delete(m[1]!);
    v.opened.add(m[1]!);
    return m[1]!;
  }
  if ((m = /^The (.+?) is closed\.$/.exec(text))) {
    v.closed.add(m[1]!);
    v.opened.delete(m[1]!);
    return m[1]!;
  }
  return undefined;
}

function moveTo(v: AgentView, receptacle: string | undefined): void {
  v.failedHere.clear();
  v.location = receptacle;
  v.here = new Set(receptacle === undefined ? [] : [receptacle]);
}

/** Applies the answer to `action` (undefined for the welcome text). Unknown texts change nothing. */
export function applyTurn(v: AgentView, action: string | undefined, observation: string): void {
  const text = observation.trim();
  if (action !== undefined) v.actions.push(action);
  let m: RegExpExecArray | null;
  if ((m = /^Your task is to: (.+)$/m.exec(text)) && action === undefined) v.goal = parseGoal(m[1]!);
  if ((m = /You are in the middle of a room\. Looking quickly around you, you see (.*)\./.exec(text))) {
    if (action === undefined || v.receptacles.length === 0) v.receptacles = parseList(m[1]!);
    moveTo(v, undefined);
    return;
  }
  if (text === NOTHING_HAPPENS) {
    if (action === undefined) return;
    v.failedHere.add(action);
    // `go to R` is refused where R stands beside the agent (the engine offers no walk to it).
    const to = /^go to (.+)$/.exec(action)?.[1];
    if (to !== undefined && v.location !== undefined && v.receptacles.includes(to)) v.here.add(to);
    return;
  }
  if ((m = /^You arrive at (loc \d+|.+?)\. (.*)$/.exec(text))) {
    // The view that follows names the receptacle (the classic grammar's arrival names only a loc).
    if (m[1]!.startsWith('loc ')) v.classic = true;
    moveTo(v, applyReceptacleView(v, m[2]!));
    return;
  }
  if ((m = /^You open the (.+?)\. (.*)$/.exec(text))) {
    applyReceptacleView(v, m[2]!);
    v.here.add(m[1]!);
    return;
  }
  if ((m = /^You close the (.+?)\.$/.exec(text))) {
    v.closed.add(m[1]!);
    v.opened.delete(m[1]!);
    v.here.add(m[1]!);
    return;
  }
  if ((m = /^You pick up the (.+?) from the (.+?)\.$/.exec(text))) {
    const [, obj, from] = m as unknown as [string, string, string];
    v.held = obj;
    v.takenFrom.set(obj, from);
    // Taking an object listed in two receptacles removes it from both (ObjectSpec.alsoIn).
    for (const [r, list] of v.contents) if (list.includes(obj)) v.contents.set(r, without(list, obj));
    return;
  }
  if ((m = /^You (?:move|put) the (.+?) (?:to|in\/on) the (.+?)\.$/.exec(text))) {
    const [, obj, to] = m as unknown as [string, string, string];
    if (v.held === obj) v.held = undefined;
    v.contents.set(to, [...without(v.contents.get(to), obj), obj]);
    return;
  }
  if ((m = /^You (\w+) the (.+?) using the (.+?)\.$/.exec(text)) && isTransform(m[1]!)) {
    const rule = TRANSFORM_RULES[m[1]];
    v.flags[rule.sets].add(m[2]!);
    if (rule.clears) v.flags[rule.clears].delete(m[2]!);
    return;
  }
  if ((m = /^You turn on the (.+?)\.$/.exec(text))) {
    v.toggled.add(m[1]!);
    return;
  }
  if ((m = /^You are carrying: a (.+?)\.$/.exec(text))) {
    v.held = m[1]!;
    return;
  }
  if (text === 'You are not carrying anything.') {
    v.held = undefined;
    return;
  }
  if ((m = /^You are facing the (.+?)\. Next to it, you see/.exec(text))) {
    for (const r of m[1]!.split(/, and |, /)) if (v.receptacles.includes(r)) v.here.add(r);
    return;
  }
  if ((m = /^This is a ((?:hot|cool|cold|clean)\b.*?) ([a-z]+ \d+)\.$/.exec(text)) && m[2] === v.held) {
    // `examine` of the held object names its state.
    const [, words, obj] = m as unknown as [string, string, string];
    if (/\bhot\b/.test(words)) v.flags.hot.add(obj);
    if (/\b(cool|cold)\b/.test(words)) v.flags.cool.add(obj);
    if (/\bclean\b/.test(words)) v.flags.clean.add(obj);
    return;
  }
  // `examine R` prints the receptacle's view alone.
  const seen = applyReceptacleView(v, text);
  if (seen !== undefined) v.here.add(seen);
}

/** Commands in an admissible list that show a receptacle stands here (the list may be cut short: only what it names counts). */
function applyAdmissible(v: AgentView, admissible: readonly string[]): void {
  if (v.location === undefined) return;
  const known = new Set(v.receptacles);
  for (const c of admissible) {
    if (c.startsWith('put ')) v.classic = true;
    const m = /^(open|close|examine) (.+)$/.exec(c) ?? /^(take .+ from|move .+ to|put .+ in\/on|(?:heat|cool|clean) .+ with) (.+)$/.exec(c);
    const r = m?.[2];
    if (r === undefined || !known.has(r)) continue;
    v.here.add(r);
    // `open R` is offered only while R is shut; `close R` only while it is open.
    if (m![1] === 'open') v.closed.add(r);
    if (m![1] === 'close') v.closed.delete(r), v.opened.add(r);
  }
}

function admissibleOf(content: string): string[] {
  const at = content.lastIndexOf('\n\nAdmissible commands:\n');
  if (at < 0) return [];
  return content
    .slice(at + '\n\nAdmissible commands:\n'.length)
    .split('\n')
    .filter((l) => l.startsWith('- '))
    .map((l) => l.slice(2));
}

/**
 * The view after a conversation in the agent's format: user turns `Observation:\n…\n\nAdmissible
 * commands:\n- …` (the first is the welcome text), assistant turns the agent's completions
 * (parsed as the harness parses them; an unparseable one is a turn with the empty action).
 */
export function viewOf(history: readonly ChatMessage[]): AgentView {
  const v = emptyView();
  let pending: string | undefined;
  let started = false;
  for (const msg of history) {
    if (msg.role === 'assistant') pending = parseAlfworldAction(msg.content) ?? '';
    else if (msg.role === 'user' || msg.role === 'tool') {
      observeUserTurn(v, started ? (pending ?? '') : undefined, msg.content);
      started = true;
      pending = undefined;
    }
  }
  return v;
}

/** Extends a view by one user turn answering `action` (undefined for the first turn, the welcome text). */
export function observeUserTurn(v: AgentView, action: string | undefined, content: string): void {
  applyTurn(v, action, observationOfUserTurn(content));
  applyAdmissible(v, admissibleOf(content));
}

export const classOf = (name: string): string => splitName(name).cls;
