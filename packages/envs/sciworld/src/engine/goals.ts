// Scoring (after ScienceWorld's Goal.scala): ordered subgoals S and optional subgoals U;
// score = idx/|S| + done(U)·(1/(|S|+1))/|U|, capped at 1; a wrong focus on a failIfWrong find fails.
// Subgoals are data (a tagged union) checked by one generic function.
import type { StateOfMatter } from '../world/materials.js';
import { World, NONE, type Obj } from './world.js';

/** Which objects a subgoal is about. All given fields must hold. */
export interface Match {
  tag?: string;
  material?: string;
  kind?: string;
  name?: string;
  species?: string;
  category?: string;
  /** Any living thing (plants at any stage, animals). */
  living?: boolean;
  /**
   * Any movable thing that is not alive (ScienceWorld's GoalFocusOnNonlivingThing: not a
   * LivingThing, and movable, so furniture and substances count; appliances, rooms, doors do not).
   */
  nonLiving?: boolean;
  /** Living things at this life stage or later. */
  minStage?: number;
  /** Living things at exactly this life stage (an animal's index into its life cycle). */
  stage?: number;
  /** Power sources whose energy is (not) renewable. */
  renewable?: boolean;
  /** Only the object the agent currently focuses on. */
  focused?: boolean;
  /** Only things in the agent's room, at any depth (ScienceWorld's goals that look around the agent). */
  nearAgent?: boolean;
  /** Substances that are burning (ScienceWorld's isCombusting; here: combusted). */
  combusted?: boolean;
  /** Named so, or made of the material so named (ScienceWorld's goals match names: "acetic acid", "red paint"). */
  called?: string;
  /** Electrical components of this role (sources are ScienceWorld's Generators). */
  role?: 'source' | 'load' | 'wire' | 'switch';
}

export type Subgoal =
  | { type: 'focus'; match: Match; failIfWrong: boolean }
  | { type: 'focusState'; states: StateOfMatter[]; orCombusted?: boolean }
  | { type: 'focusChangedState' }
  | { type: 'focusStage'; stage: number }
  | { type: 'inside'; match: Match; container: Match; failContainer?: Match }
  | { type: 'insideByReading'; match: Match; threshold: number; above: Match; below: Match }
  /** ScienceWorld's GoalContainerByTemperature: in the above box at ≥ threshold or the below box at ≤ it, now; the other box fails. */
  | { type: 'insideByTemperature'; match: Match; threshold: number; above: Match; below: Match }
  | { type: 'sameRoom'; match: Match }
  | { type: 'held'; match: Match }
  | { type: 'activated'; match: Match }
  | { type: 'powered'; match: Match; by?: Match }
  | { type: 'used'; tool: Match; target: Match }
  | { type: 'exists'; match: Match }
  | { type: 'temperatureChanged'; match: Match; by: number }
  /** An incline has had an object slide on it for a while (or to the bottom). */
  | { type: 'tested'; match: Match }
  /** A thing directly in a container (ScienceWorld's GoalSpecificObjectInDirectContainer; the inventory is the agent). */
  | { type: 'directlyIn'; match: Match; container: Match }
  /** Some container near the agent holds exactly one thing, a matching one (GoalObjectsInSingleContainer). */
  | { type: 'alone'; match: Match }
  /** The focused thing is this much warmer (by > 0) or colder (by < 0) than when the goal first saw it (GoalTemperatureIncrease/Decrease). */
  | { type: 'focusTemperature'; by: number }
  /**
   * `goal`, evaluated only once one of the optional goals `after` is done and the ordered goals have
   * reached `afterOrdered` (ScienceWorld's keysMustBeCompletedBefore; goals that latch a starting
   * value latch it then).
   */
  | { type: 'after'; after?: number[]; afterOrdered?: number; goal: Subgoal }
  /** The agent is somewhere other than where this goal first saw it, or in `unless` (GoalMoveToNewLocation). */
  | { type: 'movedAway'; unless?: string }
  /** The agent is in this room (GoalMoveToLocation). */
  | { type: 'inRoom'; room: string }
  /** The agent's room has an open door (GoalInRoomWithOpenDoor). */
  | { type: 'openDoorHere' }
  /** A use action, after this goal was first evaluated, with the tool or the target matching (GoalPastActionUseObjectOnObject). */
  | { type: 'usedSince'; tool: Match; target: Match }
  /** A `look at` of a matching thing after this goal was first evaluated (GoalPastActionExamineObject). */
  | { type: 'examinedSince'; match: Match }
  /** A `read` of a matching thing after this goal was first evaluated (GoalPastActionReadObject). */
  | { type: 'readSince'; match: Match }
  /** Some container near the agent holds exactly as many things as `names`, each called one of them (GoalObjectsInSingleContainer). */
  | { type: 'onlyThese'; names: string[] }
  /** At least `min` plants of the species near the agent at this life stage (GoalLifeStageAnywhere). */
  | { type: 'stageCount'; species: string; stage: number; min: number }
  /**
   * The agent has been in this room for `min` goal evaluations in a row (GoalStayInLocation counts
   * its own evaluations: two per tick of the step loop, more when other goals complete).
   */
  | { type: 'stayIn'; room: string; min: number }
  /** A matching container near the agent is open (GoalContainerOpen). */
  | { type: 'open'; match: Match }
  /** A matching device that is off (GoalDeactivateDeviceWithName). */
  | { type: 'deactivated'; match: Match }
  /** The focused load is powered through a matching source; with failIfWrong any other source fails the task (GoalElectricallyConnected). */
  | { type: 'poweredFrom'; source: Match; failIfWrong: boolean }
  /** A matching thing near the agent has its first (anode, terminal 1) or second terminal wired to a wire (GoalObjectConnectedToWire). */
  | { type: 'wiredTerminal'; match: Match; terminal: 0 | 1 }
  /** One wire near the agent joins a thing matching `a` and one matching `b` (GoalWireConnects…). */
  | { type: 'wireBetween'; a: Match; b: Match };

export interface GoalSpec {
  ordered: Subgoal[];
  optional: Subgoal[];
}

/** What happened this step, besides the world state. */
export interface GoalEvents {
  /** An action ran (ScienceWorld's action history grows by one). */
  acted?: boolean;
  focus?: Obj;
  used?: { tool: Obj; target: Obj };
  /** The thing a `look at` examined. */
  examined?: Obj;
  /** The thing a `read` read. */
  read?: Obj;
}

export function matches(w: World, o: Obj, m: Match, focus?: Obj): boolean {
  if (o.removed) return false;
  if (m.tag !== undefined && !o.tags.includes(m.tag)) return false;
  if (m.material !== undefined && (o.material !== m.material || w.kind(o).category !== 'substance')) return false;
  if (m.kind !== undefined && o.kind !== m.kind) return false;
  if (m.name !== undefined && w.name(o) !== m.name) return false;
  if (m.species !== undefined && o.species !== m.species) return false;
  if (m.category !== undefined && w.kind(o).category !== m.category) return false;
  if (m.living && w.kind(o).category !== 'living') return false;
  if (m.nonLiving && (w.kind(o).category === 'living' || w.kind(o).anchored)) return false;
  if (m.focused && o !== focus) return false;
  if (m.minStage !== undefined && o.stage < m.minStage) return false;
  if (m.stage !== undefined && o.stage !== m.stage) return false;
  if (m.renewable !== undefined && w.kind(o).electrical?.renewable !== m.renewable) return false;
  if (m.nearAgent && !(o.parent !== NONE && w.roomOf(o.id) === w.agentRoom() && o.id !== w.agentRoom())) return false;
  if (m.combusted !== undefined && o.combusted !== m.combusted) return false;
  if (m.role !== undefined && w.kind(o).electrical?.role !== m.role) return false;
  if (m.called !== undefined && w.name(o) !== m.called && o.material !== m.called) return false;
  return true;
}

const WIRE: Match = { kind: 'wire' };
/** Ticks an object must spend on an incline for the incline to count as tested. */
const TESTED_TICKS = 3;

export class GoalTracker {
  idx = 0;
  failed = false;
  readonly optionalDone: boolean[];
  focus: Obj | undefined;
  private focusState: StateOfMatter | undefined;
  private readonly readings = new Map<number, number>();
  private readonly uses: Array<{ tool: number; target: number; at: number }> = [];
  private readonly looks: Array<{ obj: number; at: number }> = [];
  private readonly reads: Array<{ obj: number; at: number }> = [];
  /** Actions run so far (ScienceWorld's action history size). */
  private actions = 0;
  /** What latching goals saw when first evaluated: the agent's room, the action count. */
  private readonly firstSeen = new Map<Subgoal, number>();
  /** Consecutive evaluations in the room of each stayIn goal. */
  private readonly stays = new Map<Subgoal, number>();
  private readonly startTemps = new Map<number, number>();
  /** The focused thing's temperature when each focusTemperature goal first saw it (never reset, as ScienceWorld's). */
  private readonly focusStartTemps = new Map<Subgoal, number>();

  constructor(
    readonly spec: GoalSpec,
    w: World,
  ) {
    this.optionalDone = spec.optional.map(() => false);
    for (const o of w.objs) this.startTemps.set(o.id, o.temperature);
  }

  reset(): void {
    this.idx = 0;
    this.failed = false;
    this.optionalDone.fill(false);
    this.focus = undefined;
    this.uses.length = 0;
  }

  /** Applies this step's events and advances as far as the state allows. */
  update(w: World, ev: GoalEvents): void {
    if (this.failed) return;
    // The world does not change while goals are checked: matches are computed once per update.
    this.cache = new Map();
    this.nearList = undefined;
    this.nearNames = undefined;
    try {
      this.advance(w, ev);
    } finally {
      this.cache = undefined;
    }
  }

  /** Whether some goal counts its own evaluations (then every check of ScienceWorld's step loop matters). */
  get countsEvaluations(): boolean {
    return this.spec.optional.some((g) => g.type === 'stayIn');
  }

  /** Per-update memo of `any` (undefined outside an update). */
  private cache: Map<Match, Obj[]> | undefined;
  private nearList: Obj[] | undefined;

  /** Everything in the agent's room, at any depth (the room itself not included). */
  private near(w: World): Obj[] {
    if (this.nearList && this.cache) return this.nearList;
    const out: Obj[] = [];
    const stack = [...w.get(w.agentRoom()).contents];
    while (stack.length) {
      const o = w.get(stack.pop()!);
      if (o.removed) continue;
      out.push(o);
      stack.push(...o.contents);
    }
    this.nearList = out;
    return out;
  }

  /**
   * Objects that can match `m`, narrowed by its focus, kind, tag or material. Kinds, materials and
   * tags are fixed once an object exists (only 'fruited' is added later, which no goal reads), so
   * the lists are kept until the world creates another object; removed ones fail `matches`.
   */
  private candidates(w: World, m: Match): readonly Obj[] {
    if (m.focused) return this.focus ? [this.focus] : [];
    const key = m.kind !== undefined ? `k:${m.kind}` : m.tag !== undefined ? `t:${m.tag}` : m.material !== undefined ? `m:${m.material}` : undefined;
    if (key === undefined) return w.objs;
    // Objects are only ever appended, so the index takes in just the ones created since last time.
    const add = (k: string, o: Obj) => (this.index.get(k) ?? this.index.set(k, []).get(k)!).push(o);
    for (; this.indexedCount < w.objs.length; this.indexedCount++) {
      const o = w.objs[this.indexedCount]!;
      add(`k:${o.kind}`, o);
      if (o.material !== undefined) add(`m:${o.material}`, o);
      for (const t of o.tags) add(`t:${t}`, o);
    }
    return this.index.get(key) ?? [];
  }

  private readonly index = new Map<string, Obj[]>();
  private indexedCount = 0;

  /**
   * The things near the agent that can match `m`, in `near` order: those of its name when it names
   * one (several goals ask for a heater or a pot by name each check; grouping once is cheaper).
   */
  private nearCandidates(w: World, m: Match): readonly Obj[] {
    if (m.name === undefined) return this.near(w);
    if (!this.nearNames || !this.cache) {
      this.nearNames = new Map();
      for (const o of this.near(w)) {
        const n = w.name(o);
        const list = this.nearNames.get(n);
        if (list) list.push(o);
        else this.nearNames.set(n, [o]);
      }
    }
    return this.nearNames.get(m.name) ?? [];
  }
  private nearNames: Map<string, Obj[]> | undefined;

  private nearMatching(w: World, m: Match): Obj[] {
    return this.near(w).filter((o) => matches(w, o, m, this.focus));
  }

  private advance(w: World, ev: GoalEvents): void {
    if (ev.acted) this.actions++;
    if (ev.examined) this.looks.push({ obj: ev.examined.id, at: this.actions - 1 });
    if (ev.read) this.reads.push({ obj: ev.read.id, at: this.actions - 1 });
    if (ev.used) {
      this.uses.push({ tool: ev.used.tool.id, target: ev.used.target.id, at: this.actions - 1 });
      if (!this.readings.has(ev.used.target.id)) this.readings.set(ev.used.target.id, ev.used.target.temperature);
    }
    let pendingFocus = ev.focus;
    if (ev.focus) {
      this.focus = ev.focus;
      this.focusState = ev.focus.state;
    }
    while (this.idx < this.spec.ordered.length) {
      const g = this.spec.ordered[this.idx]!;
      if (g.type === 'focus') {
        if (!pendingFocus) break;
        if (matches(w, pendingFocus, g.match)) {
          pendingFocus = undefined;
          this.idx++;
          continue;
        }
        if (g.failIfWrong) this.failed = true;
        break;
      }
      const r = this.check(w, g);
      if (r === 'fail') {
        this.failed = true;
        break;
      }
      if (r !== 'done') break;
      this.idx++;
    }
    // Optional goals are checked until none completes, as ScienceWorld's (one may unlock another).
    for (let changed = true; changed; ) {
      changed = false;
      this.spec.optional.forEach((g, i) => {
        if (this.optionalDone[i] || g.type === 'focus' || !this.unlocked(g)) return;
        if (this.check(w, g) === 'done') this.optionalDone[i] = changed = true;
      });
    }
  }

  private unlocked(g: Subgoal): boolean {
    if (g.type !== 'after') return true;
    if (g.afterOrdered !== undefined && this.idx < g.afterOrdered) return false;
    return !g.after || g.after.some((i) => this.optionalDone[i]);
  }

  private any(w: World, m: Match): Obj[] {
    const hit = this.cache?.get(m);
    if (hit) return hit;
    const found = (m.nearAgent ? this.nearCandidates(w, m) : this.candidates(w, m)).filter((o) => matches(w, o, m, this.focus));
    this.cache?.set(m, found);
    return found;
  }

  check(w: World, g: Subgoal): 'done' | 'fail' | 'pending' {
    const f = this.focus && !this.focus.removed ? this.focus : undefined;
    switch (g.type) {
      case 'focus':
        return f && matches(w, f, g.match) ? 'done' : 'pending';
      case 'focusState':
        if (!f) return 'pending';
        if (g.orCombusted && f.combusted) return 'done';
        return !f.combusted && f.state && g.states.includes(f.state) ? 'done' : 'pending';
      case 'focusChangedState':
        return f && (f.combusted || (f.state !== undefined && f.state !== this.focusState)) ? 'done' : 'pending';
      case 'focusStage':
        return f && f.stage >= g.stage ? 'done' : 'pending';
      case 'inside': {
        // Walk up from each matching thing (cheaper than listing every possible container).
        const things = this.any(w, g.match);
        const within = (t: Obj, m: Match) => {
          for (let p = t.parent; p !== NONE; p = w.get(p).parent) if (matches(w, w.get(p), m, this.focus)) return true;
          return false;
        };
        if (g.failContainer && things.some((t) => within(t, g.failContainer!))) return 'fail';
        return things.some((t) => within(t, g.container)) ? 'done' : 'pending';
      }
      case 'insideByReading': {
        const above = this.any(w, g.above);
        const below = this.any(w, g.below);
        for (const t of this.any(w, g.match)) {
          const reading = this.readings.get(t.id) ?? this.startTemps.get(t.id) ?? t.temperature;
          const [right, wrong] = reading > g.threshold ? [above, below] : [below, above];
          if (wrong.some((b) => w.isInside(t.id, b.id))) return 'fail';
          if (right.some((b) => w.isInside(t.id, b.id))) return 'done';
        }
        return 'pending';
      }
      case 'insideByTemperature': {
        const above = this.any(w, g.above);
        const below = this.any(w, g.below);
        for (const t of this.any(w, g.match)) {
          const inAbove = above.some((b) => t.parent === b.id);
          const inBelow = below.some((b) => t.parent === b.id);
          if ((inAbove && t.temperature >= g.threshold) || (inBelow && t.temperature <= g.threshold)) return 'done';
          if (inAbove || inBelow) return 'fail';
        }
        return 'pending';
      }
      case 'sameRoom':
        return this.near(w).some((o) => matches(w, o, g.match, this.focus)) ? 'done' : 'pending';
      case 'held':
        return this.any(w, g.match).some((o) => w.isInside(o.id, w.agent)) ? 'done' : 'pending';
      case 'activated':
        return this.any(w, g.match).some((o) => o.isOn) ? 'done' : 'pending';
      case 'powered':
        return this.any(w, g.match).some((o) => o.isOn && (!g.by || (o.poweredBy !== NONE && matches(w, w.get(o.poweredBy), g.by, this.focus)))) ? 'done' : 'pending';
      case 'used':
        return this.uses.some((u) => matches(w, w.get(u.tool), g.tool) && matches(w, w.get(u.target), g.target)) ? 'done' : 'pending';
      case 'exists':
        return this.any(w, g.match).some((o) => o.parent !== NONE) ? 'done' : 'pending';
      case 'tested':
        return this.any(w, g.match).some((p) => p.contents.some((c) => w.get(c).counter >= TESTED_TICKS)) ? 'done' : 'pending';
      case 'directlyIn':
        return this.any(w, g.container).some((c) => c.contents.some((id) => matches(w, w.get(id), g.match, this.focus))) ? 'done' : 'pending';
      case 'alone':
        return this.near(w).some((c) => {
          const inside = c.contents.map((id) => w.get(id)).filter((x) => !x.removed && !x.terminal);
          return inside.length === 1 && matches(w, inside[0]!, g.match, this.focus);
        })
          ? 'done'
          : 'pending';
      case 'focusTemperature': {
        if (!f) return 'pending';
        if (!this.focusStartTemps.has(g)) this.focusStartTemps.set(g, f.temperature);
        const start = this.focusStartTemps.get(g)!;
        return (g.by > 0 ? f.temperature >= start + g.by : f.temperature <= start + g.by) ? 'done' : 'pending';
      }
      case 'after':
        return this.check(w, g.goal);
      case 'movedAway': {
        if (g.unless !== undefined && w.name(w.get(w.agentRoom())) === g.unless) return 'done';
        if (!this.firstSeen.has(g)) this.firstSeen.set(g, w.agentRoom());
        return w.agentRoom() !== this.firstSeen.get(g) ? 'done' : 'pending';
      }
      case 'examinedSince':
      case 'readSince': {
        if (!this.firstSeen.has(g)) this.firstSeen.set(g, this.actions);
        const since = this.firstSeen.get(g)!;
        return (g.type === 'readSince' ? this.reads : this.looks).some((l) => l.at >= since && matches(w, w.get(l.obj), g.match, this.focus)) ? 'done' : 'pending';
      }
      case 'onlyThese':
        return this.near(w).some((c) => {
          const inside = c.contents.map((id) => w.get(id)).filter((x) => !x.removed && !x.terminal);
          return inside.length === g.names.length && inside.every((x) => g.names.some((n) => matches(w, x, { called: n })));
        })
          ? 'done'
          : 'pending';
      case 'deactivated':
        return this.any(w, g.match).some((o) => w.kind(o).activatable && !o.isOn) ? 'done' : 'pending';
      case 'poweredFrom': {
        if (!f || !f.isOn || f.poweredBy === NONE) return 'pending';
        if (matches(w, w.get(f.poweredBy), g.source, f)) return 'done';
        return g.failIfWrong ? 'fail' : 'pending';
      }
      case 'wiredTerminal':
        return this.nearMatching(w, g.match).some((o) => {
          const t = o.contents.map((c) => w.get(c)).filter((c) => c.terminal)[g.terminal];
          return t !== undefined && t.links.some((l) => w.get(w.get(l).parent).kind === 'wire');
        })
          ? 'done'
          : 'pending';
      case 'wireBetween':
        return this.nearMatching(w, WIRE).some((wire) => {
          const owners = wire.contents.flatMap((c) => w.get(c).links.map((l) => w.get(w.get(l).parent)));
          return owners.some((o) => matches(w, o, g.a, this.focus)) && owners.some((o) => matches(w, o, g.b, this.focus));
        })
          ? 'done'
          : 'pending';
      case 'stayIn': {
        const n = w.name(w.get(w.agentRoom())) === g.room ? (this.stays.get(g) ?? 0) + 1 : 0;
        this.stays.set(g, n);
        return n >= g.min ? 'done' : 'pending';
      }
      case 'stageCount':
        return this.near(w).filter((o) => o.kind === 'plant' && !o.removed && o.species === g.species && o.stage === g.stage).length >= g.min ? 'done' : 'pending';
      case 'open':
        return this.nearMatching(w, g.match).some((o) => o.isOpen) ? 'done' : 'pending';
      case 'openDoorHere':
        return w.doorsOf(w.agentRoom()).some((d) => d.isOpen) ? 'done' : 'pending';
      case 'inRoom':
        return w.name(w.get(w.agentRoom())) === g.room ? 'done' : 'pending';
      case 'usedSince': {
        if (!this.firstSeen.has(g)) this.firstSeen.set(g, this.actions);
        const since = this.firstSeen.get(g)!;
        return this.uses.some((u) => u.at >= since && (matches(w, w.get(u.tool), g.tool) || matches(w, w.get(u.target), g.target))) ? 'done' : 'pending';
      }
      case 'temperatureChanged':
        return this.any(w, g.match).some((o) => Math.abs(o.temperature - (this.startTemps.get(o.id) ?? o.temperature)) >= g.by) ? 'done' : 'pending';
    }
  }

  /** Score in [0, 1], or −1 after a failure. */
  score(): number {
    if (this.failed) return -1;
    const s = this.spec.ordered.length;
    const u = this.spec.optional.length;
    const opt = u === 0 ? 0 : (this.optionalDone.filter(Boolean).length * (1 / (s + 1))) / u;
    return Math.min(1, (s === 0 ? 1 : this.idx / s) + opt);
  }

  completed(): boolean {
    return !this.failed && this.idx >= this.spec.ordered.length;
  }
}
