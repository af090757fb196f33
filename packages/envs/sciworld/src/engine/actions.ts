// What each action does to the world and what it says. One function per action id, chosen from a
// table; the rules read kind flags (movable, openable, holds, heats…) and never name a kind.
import { TEXT } from '../world/text.js';
import { BROWN_PAINT, PAINTS, RECIPES, WAIT_TICKS, type ActionId, type Ingredient, type Recipe } from '../world/grammar.js';
import { World, NONE, type Obj } from './world.js';
import type { Command } from './parser.js';
import { hasTemperature } from './physics.js';
import { javaFormatFixed0 } from './java-format.js';
import type { GoalEvents } from './goals.js';

export interface ActionContext {
  w: World;
  teleport: boolean;
  electrical: boolean;
}

export interface ActionResult {
  text: string;
  ticks: number;
  events: GoalEvents;
  /** The action parsed but could not apply (no world change). */
  failed?: boolean;
}

const ok = (text: string, ticks = 1, events: GoalEvents = {}): ActionResult => ({ text, ticks, events });
const fail = (text: string): ActionResult => ({ text, ticks: 1, events: {}, failed: true });
// An input ScienceWorld does not offer in this state (its parser never produces it) takes no time.
const unknown = (): ActionResult => ({ text: TEXT.unknownAction, ticks: 0, events: {}, failed: true });

function isLiquidOrGas(w: World, o: Obj): boolean {
  return w.kind(o).category === 'substance' && !o.combusted && (o.state === 'liquid' || o.state === 'gas');
}

/** Whether ScienceWorld gives the thing container properties (cups, furniture, appliances, rooms; the agent carries an inventory). */
function isContainer(w: World, o: Obj): boolean {
  const k = w.kind(o);
  return k.holds !== undefined || k.category === 'room' || o.kind === 'agent';
}

/** The name a destination goes by in messages: the agent's things go to its "inventory". */
const placeName = (w: World, o: Obj) => (o.kind === 'agent' ? 'inventory' : w.name(o));

/**
 * ScienceWorld's ActionMoveObject (move, and pick up / put down, which it runs with the inventory
 * or the agent's room as the destination): no check that the thing is already there, so moving a
 * thing where it is, or picking up what is carried, moves it again and says so.
 */
function moveInto(ctx: ActionContext, thing: Obj, target: Obj): ActionResult {
  const { w } = ctx;
  const name = w.name(thing);
  if (w.kind(thing).anchored) return fail(TEXT.notMovable(name));
  if (thing.id === target.id) return fail(TEXT.intoItself('move'));
  if (w.kind(thing).category === 'substance' && !thing.combusted) {
    if (thing.state === 'liquid') return fail(TEXT.liquid);
    if (thing.state === 'gas') return fail(TEXT.gas);
  }
  if (!isContainer(w, target)) return fail(TEXT.cantBeMovedThere);
  if (!w.canSeeInside(target)) return fail(TEXT.notOpenMove(w.name(target)));
  // (ScienceWorld does not refuse a move into one's own contents; the thing then holds its holder.)
  if (w.isInside(target.id, thing.id)) return fail(TEXT.cantMoveInto(name, w.name(target)));
  w.moveTo(thing.id, target.id);
  // A wired thing that moves is unwired first, as ScienceWorld says it.
  const unwired = unwire(w, thing) ? TEXT.disconnecting(name) : '';
  return ok(unwired + TEXT.moveTo(name, placeName(w, target)));
}

/** ScienceWorld's ActionPourObject: a container's movable contents, or a liquid out of its movable container. */
function pour(ctx: ActionContext, from: Obj, to: Obj): ActionResult {
  const { w } = ctx;
  const name = w.name(from);
  const pouringOut = w.kind(from).holds !== undefined;
  if (w.kind(from).anchored) return fail(TEXT.notMovable(name));
  if (!pouringOut) {
    if (from.parent === NONE) return fail(TEXT.notInContainer(name));
    const holder = w.get(from.parent);
    if (w.kind(holder).anchored || w.kind(holder).category === 'room') return fail(TEXT.holderNotMovable(placeName(w, holder), name));
  }
  if (pouringOut && !w.canSeeInside(from)) return fail(TEXT.cantPourClosed(name));
  if (!pouringOut) {
    // Things other than substances are solid by their material (a glass thermometer, a steel fork).
    const state = w.kind(from).category === 'substance' ? (from.combusted ? 'solid' : from.state) : from.material || w.kind(from).material ? 'solid' : undefined;
    if (state === 'solid') return fail(TEXT.pourSolid);
    if (state === 'gas') return fail(TEXT.pourGas);
  }
  if (!isContainer(w, to)) return fail(TEXT.pourNotContainer);
  if (!w.canSeeInside(to)) return fail(TEXT.notOpenMove(w.name(to)));
  if (from.id === to.id) return fail(TEXT.intoItself('move'));
  if (w.isInside(to.id, from.id)) return fail(TEXT.cantMoveInto(name, w.name(to)));
  let unwired = '';
  if (pouringOut) {
    // Every movable thing inside goes (an empty container pours nothing, and says it poured).
    for (const c of [...from.contents].map((id) => w.get(id))) {
      if (c.terminal || w.kind(c).anchored) continue;
      w.moveTo(c.id, to.id);
      if (unwire(w, c)) unwired += `${TEXT.disconnecting(w.name(c))}\n`;
    }
    return ok(unwired + TEXT.pourInto(name, placeName(w, to)));
  }
  w.moveTo(from.id, to.id);
  if (unwire(w, from)) unwired = `${TEXT.disconnecting(name)}\n`;
  return ok(unwired + TEXT.pourSubstance(name, placeName(w, to)));
}

function go(ctx: ActionContext, target: Obj): ActionResult {
  const { w } = ctx;
  const here = w.agentRoom();
  let door: Obj | undefined;
  let dest = NONE;
  if (target.rooms) {
    door = target;
    dest = w.otherSide(target, here);
  } else if (w.kind(target).category === 'room') {
    dest = target.id;
    door = w.doorsOf(here).find((d) => w.otherSide(d, here) === dest);
  }
  if (!door || dest === NONE || dest === here) return fail(TEXT.noPath);
  if (!door.isOpen) return fail(TEXT.doorClosed(w.name(w.get(dest))));
  w.moveTo(w.agent, dest);
  return ok(TEXT.moveRoom(w.name(w.get(dest))));
}

/** ScienceWorld's Chemistry.getSubstance: the first thing in the container with the name (in the state, if one is asked), or of that material in the state. */
function findIngredient(w: World, inside: readonly Obj[], ing: Ingredient): Obj | undefined {
  return inside.find((o) => (w.name(o) === ing.name || (ing.state !== undefined && o.material === ing.name)) && (ing.state === undefined || o.state === ing.state));
}

/** ScienceWorld's Chemistry.mixContainer (see RECIPES): only an exact count of things mixes. */
function mix(ctx: ActionContext, c: Obj): ActionResult {
  const { w } = ctx;
  const inside = c.contents.map((id) => w.get(id)).filter((o) => !o.terminal);
  if (inside.length === 0) return fail(TEXT.mixEmpty);
  if (inside.length === 1) return fail(TEXT.mixOne(inside[0]!.shown ?? w.name(inside[0]!)));
  let recipe: Recipe | undefined;
  let used: Obj[] = [];
  for (const r of inside.length === 2 || inside.length === 3 ? RECIPES[inside.length] : []) {
    const found = r.inputs.map((ing) => findIngredient(w, inside, ing));
    if (found.every((f) => f !== undefined)) {
      recipe = r;
      used = found as Obj[];
      break;
    }
  }
  if (!recipe && inside.length <= 4) {
    // Any two to four different paints (each colour counted once, all of the container's things).
    const paints = PAINTS.map((p) => findIngredient(w, inside, { name: p, state: 'liquid' })).filter((o): o is Obj => o !== undefined);
    if (paints.length === inside.length) (recipe = BROWN_PAINT), (used = paints);
  }
  if (!recipe) return fail(TEXT.mixNothing(w.name(c)));
  for (const o of used) w.remove(o.id);
  w.create(recipe.product, c.id);
  return ok(recipe.message);
}

/**
 * The terminal an input names, as ScienceWorld resolves it: a terminal is itself; a component must
 * name one of its terminals; any other wired thing (a fork, a jar) offers its first free terminal.
 */
function terminalFor(w: World, o: Obj): { terminal?: Obj; error?: string } {
  if (o.terminal) return { terminal: o };
  const e = w.kind(o).electrical;
  if (e) return { error: e.polarized ? TEXT.namePolarizedTerminal : TEXT.nameUnpolarizedTerminal };
  const terms = o.contents.map((c) => w.get(c)).filter((c) => c.terminal);
  if (terms.length === 0) return { error: TEXT.notConnectable(w.name(o)) };
  const free = terms.find((t) => t.links.length === 0);
  return free ? { terminal: free } : { error: TEXT.alreadyConnected(w.name(o)) };
}

function connect(ctx: ActionContext, a: Obj, b: Obj): ActionResult {
  const { w } = ctx;
  const ra = terminalFor(w, a);
  if (!ra.terminal) return fail(ra.error!);
  const rb = terminalFor(w, b);
  if (!rb.terminal) return fail(rb.error!);
  const [ta, tb] = [ra.terminal, rb.terminal];
  if (ta.id === tb.id) return fail(TEXT.connectToItself);
  // Each terminal takes one connection (ScienceWorld's MAX_CONNECTIONS = 1).
  for (const t of [ta, tb]) if (t.links.length > 0) return fail(TEXT.terminalAlreadyConnected(t.terminal!, w.name(w.get(t.parent))));
  ta.links.push(tb.id);
  tb.links.push(ta.id);
  return ok(TEXT.connected(ta.terminal!, w.name(w.get(ta.parent)), tb.terminal!, w.name(w.get(tb.parent))));
}

/** Unwires a thing's terminals; true when any was wired. */
function unwire(w: World, o: Obj): boolean {
  let wired = false;
  for (const t of o.contents.map((c) => w.get(c)).filter((c) => c.terminal)) {
    for (const l of t.links) {
      const other = w.get(l);
      other.links = other.links.filter((x) => x !== t.id);
      wired = true;
    }
    t.links = [];
  }
  return wired;
}

function disconnect(ctx: ActionContext, o: Obj): ActionResult {
  const { w } = ctx;
  if (o.terminal) return fail(TEXT.disconnectWholeObject(w.name(w.get(o.parent))));
  unwire(w, o);
  return ok(TEXT.disconnected(w.name(o)));
}

type Handler = (ctx: ActionContext, objs: Obj[]) => ActionResult;

const HANDLERS: Record<ActionId, Handler> = {
  open: ({ w }, [o]) => {
    const name = o!.rooms ? 'door' : w.name(o!);
    if (!w.kind(o!).openable) return fail(TEXT.notOpenable(name));
    if (o!.isOpen) return fail(TEXT.alreadyOpen(name));
    o!.isOpen = true;
    return ok(TEXT.nowOpen(name));
  },
  close: ({ w }, [o]) => {
    const name = o!.rooms ? 'door' : w.name(o!);
    if (!w.kind(o!).openable) return fail(TEXT.notClosable(name));
    if (!o!.isOpen) return fail(TEXT.alreadyClosed(name));
    o!.isOpen = false;
    return ok(TEXT.nowClosed(name));
  },
  go: (ctx, [o]) => go(ctx, o!),
  teleport: ({ w }, [o]) => {
    if (w.kind(o!).category !== 'room') return fail(TEXT.noPath);
    w.moveTo(w.agent, o!.id);
    return ok(TEXT.teleport(w.name(o!)));
  },
  // Looking around and the inventory take no time (ScienceWorld's ActionHandler.doesActionTakeTime).
  'look around': ({ w }) => ok(w.describeRoom(w.agentRoom()), 0),
  'look at': ({ w }, [o]) => ok(w.kind(o!).category === 'room' ? w.describeRoom(o!.id) : w.lookAt(o!), 1, { examined: o! }),
  'look in': ({ w }, [o]) => {
    if (!w.canSeeInside(o!)) return fail(TEXT.notSeeInside(w.name(o!)));
    const items = w.sortedContents(o!).map((c) => `\t${w.describe(c, true)}`);
    return ok(TEXT.lookIn(w.name(o!), items.length ? items.join('\n') : '\tnothing'));
  },
  activate: ({ w }, [o]) => {
    if (!w.kind(o!).activatable) return fail(TEXT.notActivatable(w.name(o!)));
    if (o!.broken) return ok(TEXT.broken(w.name(o!)));
    if (o!.isOn) return fail(TEXT.alreadyActivated(w.name(o!)));
    o!.isOn = true;
    return ok(TEXT.activated(w.name(o!)));
  },
  deactivate: ({ w }, [o]) => {
    if (!w.kind(o!).activatable) return fail(TEXT.notDeactivatable(w.name(o!)));
    if (o!.broken) return ok(TEXT.broken(w.name(o!)));
    if (!o!.isOn) return fail(TEXT.alreadyDeactivated(w.name(o!)));
    o!.isOn = false;
    return ok(TEXT.deactivated(w.name(o!)));
  },
  eat: ({ w }, [o]) => {
    if (!w.kind(o!).edible) return fail(TEXT.notEdible(w.name(o!)));
    const name = w.name(o!);
    w.remove(o!.id);
    return ok(TEXT.eat(name));
  },
  'pick up': (ctx, [o]) => moveInto(ctx, o!, ctx.w.get(ctx.w.agent)),
  // Put down moves the thing to the agent's room, carried or not (ScienceWorld checks only when listing valid actions).
  'put down': (ctx, [o]) => moveInto(ctx, o!, ctx.w.get(ctx.w.agentRoom())),
  move: (ctx, [o, to]) => moveInto(ctx, o!, to!),
  pour: (ctx, [a, b]) => pour(ctx, a!, b!),
  // ScienceWorld's ActionDunkObject: "dunk A in B" moves B's liquids into A.
  dunk: (ctx, [a, b]) => {
    const { w } = ctx;
    if (a === b) return fail(TEXT.intoItself('dunk'));
    if (w.kind(a!).anchored) return fail(TEXT.notMovable(w.name(a!)));
    if (w.kind(a!).holds !== undefined && !w.canSeeInside(a!)) return fail(TEXT.dunkNotOpen(w.name(a!)));
    if (w.kind(a!).holds === undefined) return fail(TEXT.dunkNotContainer(w.name(a!)));
    const liquids = b!.contents.map((c) => w.get(c)).filter((c) => isLiquidOrGas(w, c) && c.state === 'liquid');
    if (liquids.length === 0) return fail(TEXT.dunkNoLiquid(w.name(b!)));
    let unwired = '';
    for (const l of liquids) {
      w.moveTo(l.id, a!.id);
      if (unwire(w, l)) unwired += TEXT.disconnecting(w.name(l));
    }
    return ok(
      unwired +
        TEXT.dunk(
          w.name(a!),
          w.name(b!),
          liquids.map((l) => w.name(l)),
        ),
    );
  },
  focus: ({ w }, [o]) => ok(TEXT.focus(w.kind(o!).verbatim ? w.name(o!) : (o!.shown ?? w.name(o!))), 1, { focus: o! }),
  'reset task': () => ok(TEXT.resetTask, 0),
  use: ({ w }, [tool, target]) => {
    if (tool!.kind === 'shovel') {
      // ScienceWorld's Shovelling: digging the ground leaves a hole and a heap of soil beside it.
      if (target!.kind !== 'ground') return fail(TEXT.cantUseTogether);
      const room = target!.parent;
      w.create({ kind: 'hole' }, room);
      w.create({ kind: 'substance', material: 'soil' }, room);
      return ok(TEXT.dig);
    }
    if (!w.kind(tool!).thermometer) return fail(TEXT.notAThermometer(w.name(tool!)));
    const used = { used: { tool: tool!, target: target! } };
    if (!hasTemperature(w, target!)) return ok(TEXT.noTemperature, 1, used);
    return ok(TEXT.thermometer(javaFormatFixed0(target!.temperature)), 1, used);
  },
  // ScienceWorld's ActionRead: documents read out (Recipe.readDocument, Paper's blank page); anything else is refused.
  read: ({ w }, [o]) => {
    if (o!.kind === 'recipe' && o!.text !== undefined) return ok(TEXT.readRecipe(o!.text), 1, { read: o! });
    if (o!.kind === 'paper') return ok(TEXT.blankPaper, 1, { read: o! });
    if (o!.text !== undefined) return ok(TEXT.readText(w.name(o!), o!.text), 1, { read: o! });
    return fail(TEXT.notReadable);
  },
  flush: ({ w }, [o]) => {
    if (o!.kind !== 'toilet') return fail(TEXT.notFlushable(w.name(o!)));
    return ok(TEXT.flush(w.name(o!)));
  },
  connect: (ctx, [a, b]) => connect(ctx, a!, b!),
  disconnect: (ctx, [o]) => disconnect(ctx, o!),
  mix: (ctx, [o]) => mix(ctx, o!),
  // ScienceWorld ticks once for the wait action itself, then once per iteration waited.
  wait: () => ok(TEXT.waitN(WAIT_TICKS), WAIT_TICKS + 1),
  wait1: () => ok(TEXT.wait1, 2),
  inventory: ({ w }) => ok(w.describeInventory(), 0),
};

export function execute(ctx: ActionContext, cmd: Command): ActionResult {
  if (!ctx.electrical && (cmd.template.id === 'connect' || cmd.template.id === 'disconnect')) return unknown();
  return HANDLERS[cmd.template.id](ctx, cmd.objs);
}
