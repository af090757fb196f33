// The searching expert: the next command from what the agent has seen (expert/view.ts), never from
// the game. It explores the receptacles that can hold what it looks for in the order of the real
// games' placement rates per receptacle (engine/placement.ts) divided by the turns a look costs
// (go there, open it if it has a door; nothing to walk for one beside the agent), opens closed
// receptacles to look inside, takes the target once it has seen it, and then does the task's
// remaining steps: heat / cool / clean with the appliance, find and switch on the lamp, bring a
// second object for pick-two, put it down in the destination. A stray object in hand goes back to
// where it came from. Being a function of the history, it also labels any state a policy reaches.
import type { ChatMessage } from '@diffworld/env-core';
import { canHost, placementRate } from '../engine/placement.js';
import { splitName } from '../engine/names.js';
import { TRANSFORM_RULES } from '../world/rules.js';
import { TASK_SPECS } from '../world/tasks.js';
import { COMMANDS } from '../world/text.js';
import { OPENABLE, canContain } from '../world/vocab.js';
import { classOf, viewOf, type AgentView, type VisibleGoal } from './view.js';

/**
 * The searching expert's next command after a conversation in the agent's format (see `viewOf`),
 * or undefined when the conversation shows no goal or nothing is left to try. Pure: the same
 * history gives the same command.
 */
export function expertAction(history: readonly ChatMessage[]): string | undefined {
  return nextCommand(viewOf(history));
}

/** The searching expert's next command from a view. */
export function nextCommand(v: AgentView): string | undefined {
  if (!v.goal) return undefined;
  for (const a of options(v, v.goal)) if (!v.failedHere.has(a)) return a;
  return undefined;
}

const numberOf = (name: string) => splitName(name).num;

/** Name order for ties: class, then number ascending (cabinet 1 before cabinet 2). */
function byName(a: string, b: string): number {
  const ca = classOf(a);
  const cb = classOf(b);
  if (ca !== cb) return ca < cb ? -1 : 1;
  return numberOf(a) - numberOf(b);
}

/** Whether the agent can see inside r now: it stands there and r's contents were listed and it is not shut. */
const sees = (v: AgentView, r: string) => v.here.has(r) && v.contents.has(r) && !v.closed.has(r);

/** The next step toward doing `act` at r: walk there, then open it (or look at it) when the act needs its inside. */
function* reach(v: AgentView, r: string, act: string, needsInside: boolean): Generator<string> {
  if (!v.here.has(r)) yield COMMANDS.goTo(r);
  else if (!needsInside || sees(v, r)) yield act;
  else if (v.closed.has(r)) yield COMMANDS.open(r);
  else yield COMMANDS.examine(r);
}

/** Turns until the agent sees inside r: none when it does; one to open or look beside it; else the walk, plus opening when r is shut or may be. */
function lookCost(v: AgentView, r: string): number {
  if (v.here.has(r)) return sees(v, r) ? 0 : 1;
  const shut = v.closed.has(r) || (!v.contents.has(r) && OPENABLE.has(classOf(r)));
  return shut ? 2 : 1;
}

/** Objects of a class seen in receptacles, cheapest to reach first. */
function seenOfClass(v: AgentView, cls: string): { obj: string; at: string }[] {
  const out: { obj: string; at: string }[] = [];
  for (const [at, list] of v.contents) for (const obj of list) if (classOf(obj) === cls && obj !== v.held) out.push({ obj, at });
  return out.sort((a, b) => lookCost(v, a.at) - lookCost(v, b.at) || byName(a.at, b.at) || byName(a.obj, b.obj));
}

/**
 * Receptacles whose contents the agent has not seen, that could hold `cls`, most promising per
 * turn first; those of class `unlikely` (a simple task's destination: a target there would have
 * won the game at the start) and those that cannot hold it come last, in case a game is odd.
 */
function* explore(v: AgentView, cls: string, unlikely?: string): Generator<string> {
  const unseen = v.receptacles.filter((r) => !v.contents.has(r));
  const score = (r: string) => placementRate(cls, classOf(r)) / lookCost(v, r);
  const likely = (r: string) => canHost(classOf(r), cls) && classOf(r) !== unlikely;
  const hosts = unseen.filter(likely).sort((a, b) => score(b) - score(a) || byName(a, b));
  const rest = unseen.filter((r) => !likely(r)).sort((a, b) => lookCost(v, a) - lookCost(v, b) || byName(a, b));
  for (const r of [...hosts, ...rest]) yield* reach(v, r, COMMANDS.examine(r), true);
}

/** The destination instance: for pick-two the one already holding the most targets; else one beside the agent; else the lowest number. */
function destination(v: AgentView, goal: VisibleGoal): string | undefined {
  const dests = v.receptacles.filter((r) => classOf(r) === goal.recep);
  const targetsIn = (r: string) => (v.contents.get(r) ?? []).filter((o) => classOf(o) === goal.obj).length;
  return dests.sort((a, b) => (TASK_SPECS[goal.taskType].two ? targetsIn(b) - targetsIn(a) : 0) || Number(v.here.has(b)) - Number(v.here.has(a)) || byName(a, b))[0];
}

function put(v: AgentView, obj: string, r: string): string {
  return COMMANDS.put(v.classic ? 'classic' : 'current', obj, r);
}

/** Every command worth trying now, best first (the caller skips those refused here already). */
function* options(v: AgentView, goal: VisibleGoal): Generator<string> {
  const spec = TASK_SPECS[goal.taskType];
  const held = v.held;

  if (held && classOf(held) === goal.obj) {
    if (spec.light) {
      for (const lamp of seenOfClass(v, goal.toggle)) yield* reach(v, lamp.at, COMMANDS.use(lamp.obj), true);
      yield* explore(v, goal.toggle);
      return;
    }
    if (spec.transform && !v.flags[TRANSFORM_RULES[spec.transform].sets].has(held)) {
      const appliances = v.receptacles.filter((r) => TRANSFORM_RULES[spec.transform!].appliances.includes(classOf(r)));
      appliances.sort((a, b) => Number(v.here.has(b)) - Number(v.here.has(a)) || byName(a, b));
      for (const a of appliances) yield* reach(v, a, COMMANDS[spec.transform](held, a), false);
      return;
    }
    const dest = destination(v, goal);
    if (dest) yield* reach(v, dest, put(v, held, dest), true);
    return;
  }

  if (held) {
    // Not what the task needs: set it down here if something here takes it, else where it came from.
    const here = [...v.here].filter((r) => canContain(classOf(r), classOf(held))).sort(byName);
    for (const r of here) yield* reach(v, r, put(v, held, r), true);
    const from = v.takenFrom.get(held);
    if (from) yield* reach(v, from, put(v, held, from), true);
    return;
  }

  const dest = spec.light ? undefined : destination(v, goal);
  for (const t of seenOfClass(v, goal.obj)) {
    if (spec.two && t.at === dest) continue;
    yield* reach(v, t.at, COMMANDS.take(t.obj, t.at), true);
  }
  yield* explore(v, goal.obj, spec.light || spec.transform || spec.two ? undefined : goal.recep);
}
