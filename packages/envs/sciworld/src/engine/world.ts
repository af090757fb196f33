// The object graph: every thing in the world is an Obj with a parent (containment), flags and
// physical state. Kind behaviour comes from world/kinds.ts; names and texts from world/text.ts.
import { kindDef, type KindDef } from '../world/kinds.js';
import { javaFormatFixed0 } from './java-format.js';
import { CREATED_C, ROOM_AIR_C, material, nameInState, type StateOfMatter } from '../world/materials.js';
import { ROOMS, DOORS, type Genes, type Spawn } from '../world/layout.js';
import { TEXT, article, grownPlantName } from '../world/text.js';
import { flowerDescription, grownPlantTraits } from '../world/plant-traits.js';

export interface Obj {
  id: number;
  kind: string;
  /** The kind's definition, resolved once at creation (looked up on every step and tick). */
  def: KindDef;
  /** Fixed display name; substances without one are named by material and state. */
  fixedName?: string;
  /** What descriptions show instead of the name (see Spawn.shown). */
  shown?: string;
  /** Name until the first change of state (see Spawn.bornName). */
  bornName?: string;
  parent: number;
  contents: number[];
  isOpen: boolean;
  isOn: boolean;
  temperature: number;
  material?: string;
  state?: StateOfMatter;
  combusted: boolean;
  tags: string[];
  species?: string;
  /** Life stage index into TEXT.stageNames (plants) — animals stay at 2 (adult). */
  stage: number;
  stageTicks: number;
  /** Terminals: the terminals this one is wired to. */
  links: number[];
  /** Terminal label ("anode", "terminal 1"). */
  terminal?: string;
  /** Loads: the source currently powering it (−1 when off). */
  poweredBy: number;
  /** Readable text (recipes). */
  text?: string;
  /** Doors: the two room ids. */
  rooms?: [number, number];
  removed: boolean;
  /** Devices a task disabled: they stay in the world but never switch on. */
  broken: boolean;
  /** Plants with a Mendelian trait. */
  genes?: Genes;
  /** Inclined planes: angle (degrees) and friction coefficient of the surface. */
  angle?: number;
  friction?: number;
  /** Growing plants: ticks in a row without water, without soil, out of temperature bounds (reset on a new stage). */
  stress?: { dry: number; soilless: number; outOfBounds: number };
  /** Growing plants that look unwell ("(that looks unwell)", also called "sick …"). */
  sickly?: boolean;
  /** Ticks counted: the time a stopwatch shows; for a block, ticks spent on its current incline. */
  counter: number;
  /** A stopwatch's running count (ScienceWorld's stopwatchCurTime), 0 while it is off. */
  timerRun: number;
  /** The parser's memo of this thing's normalised referents (engine/referents.ts) and what they were built from. */
  referentCache?: { key: string | boolean; refs: readonly string[] };
  /** Things on an inclined plane: position along it, 1 at the top (where they are put) to 0 at the bottom. */
  planePosition: number;
}

export const NONE = -1;

/** ScienceWorld's plane says "at the top" from the float 0.99f on (0.9900000095367432 as a double). */
const TOP_OF_PLANE = Math.fround(0.99);

/** The value a plant shows: the dominant one if it carries it, else the recessive one. */
export function phenotype(g: Genes): string {
  const showsFirst = g.firstDominant ? g.alleles[0] || g.alleles[1] : g.alleles[0] && g.alleles[1];
  return showsFirst ? g.values[0] : g.values[1];
}

export class World {
  readonly objs: Obj[] = [];
  readonly roomIds = new Map<string, number>();
  /** Doors and circuit parts, kept as lists because every step and tick asks for them. */
  readonly doors: Obj[] = [];
  readonly components: Obj[] = [];
  agent = NONE;

  kind(o: Obj): KindDef {
    return o.def;
  }

  /**
   * The objects that pass `test`, in creation order, for passes that every tick makes over a few
   * kinds of thing (plants, water sources, timers): `test` must depend only on what is fixed when an
   * object is created (its kind), so the list is kept under `key` and only extended with objects
   * created since the last call. Removed objects stay listed; callers skip them.
   */
  select(key: string, test: (o: Obj) => boolean): readonly Obj[] {
    let sel = this.selections.get(key);
    if (!sel) this.selections.set(key, (sel = { list: [], seen: 0 }));
    for (; sel.seen < this.objs.length; sel.seen++) if (test(this.objs[sel.seen]!)) sel.list.push(this.objs[sel.seen]!);
    return sel.list;
  }
  private readonly selections = new Map<string, { list: Obj[]; seen: number }>();

  create(spawn: Spawn, parent: number): Obj {
    const k = kindDef(spawn.kind);
    const matName = spawn.material ?? k.material;
    const mat = matName ? material(matName) : undefined;
    const o: Obj = {
      id: this.objs.length,
      kind: spawn.kind,
      def: k,
      parent: NONE,
      contents: [],
      isOpen: spawn.open ?? !k.openable,
      isOn: spawn.on ?? k.startsOn ?? false,
      temperature: spawn.temperature ?? mat?.temperature ?? CREATED_C,
      combusted: false,
      tags: spawn.tags ? [...spawn.tags] : [],
      stage: spawn.stage ?? 0,
      stageTicks: 0,
      links: [],
      poweredBy: NONE,
      removed: false,
      broken: spawn.broken ?? false,
      counter: 0,
      timerRun: 0,
      planePosition: 1,
    };
    if (spawn.name !== undefined) o.fixedName = spawn.name;
    if (spawn.shown !== undefined) o.shown = spawn.shown;
    if (spawn.bornName !== undefined) o.bornName = spawn.bornName;
    if (matName) o.material = matName;
    if (k.category === 'substance') o.state = spawn.state ?? mat!.state;
    if (spawn.species !== undefined) o.species = spawn.species;
    if (spawn.text !== undefined) o.text = spawn.text;
    if (spawn.genes !== undefined) o.genes = spawn.genes;
    if (spawn.angle !== undefined) o.angle = spawn.angle;
    if (spawn.friction !== undefined) o.friction = spawn.friction;
    this.objs.push(o);
    if (k.category === 'door') this.doors.push(o);
    const wired = k.electrical !== undefined || k.connectable === true || spawn.connectable === true;
    if (wired) this.components.push(o);
    if (parent !== NONE) this.moveTo(o.id, parent);
    if (wired) {
      const labels = k.electrical?.polarized ? ['anode', 'cathode'] : ['terminal 1', 'terminal 2'];
      for (const label of labels) {
        const t = this.create({ kind: 'terminal' }, o.id);
        t.terminal = label;
      }
    }
    for (const child of spawn.contents ?? []) this.create(child, o.id);
    return o;
  }

  /** Builds rooms, doors and the agent; `contents` fills the rooms. */
  static build(contents: Record<string, Spawn[]>, opts: { openDoors: boolean; agentRoom: string; inventory: Spawn[] }): World {
    const w = new World();
    for (const room of ROOMS) {
      const r = w.create({ kind: 'room', name: room }, NONE);
      w.roomIds.set(room, r.id);
    }
    for (const [a, b] of DOORS) {
      const d = w.create({ kind: 'door', name: 'door', open: opts.openDoors }, NONE);
      d.rooms = [w.room(a), w.room(b)];
    }
    for (const room of ROOMS) {
      w.create({ kind: 'substance', material: 'air', temperature: ROOM_AIR_C }, w.room(room));
      for (const s of contents[room] ?? []) w.create(s, w.room(room));
    }
    const agent = w.create({ kind: 'agent', name: 'agent' }, w.room(opts.agentRoom));
    w.agent = agent.id;
    for (const s of opts.inventory) w.create(s, agent.id);
    return w;
  }

  room(name: string): number {
    const id = this.roomIds.get(name);
    if (id === undefined) throw new Error(`sciworld: unknown room '${name}'`);
    return id;
  }

  get(id: number): Obj {
    const o = this.objs[id];
    if (!o) throw new Error(`sciworld: no object #${id}`);
    return o;
  }

  moveTo(id: number, parent: number): void {
    const o = this.get(id);
    // A moved object starts again at the top of whatever incline it lands on.
    o.planePosition = 1;
    if (!o.def.timer) o.counter = 0;
    if (o.parent !== NONE) {
      const old = this.get(o.parent).contents;
      old.splice(old.indexOf(id), 1);
    }
    o.parent = parent;
    if (parent !== NONE) this.get(parent).contents.push(id);
  }

  remove(id: number): void {
    const o = this.get(id);
    this.moveTo(id, NONE);
    o.removed = true;
    for (const c of [...o.contents]) this.remove(c);
  }

  name(o: Obj): string {
    if (o.fixedName !== undefined) return o.fixedName;
    if (o.combusted) return 'ash';
    if (o.bornName !== undefined) return o.bornName;
    if (o.material && o.state && this.kind(o).category === 'substance') return nameInState(o.material, o.state);
    if (o.terminal) return o.terminal;
    if (o.species) {
      if (o.kind === 'plant') return o.stage === 0 ? `${o.species} seed` : grownPlantName(o.species);
      return o.species;
    }
    return o.kind;
  }

  /** The room an object is in (walking up containment). */
  roomOf(id: number): number {
    let o = this.get(id);
    while (o.parent !== NONE) {
      if (this.kind(o).category === 'room') return o.id;
      o = this.get(o.parent);
    }
    return this.kind(o).category === 'room' ? o.id : NONE;
  }

  agentRoom(): number {
    return this.get(this.agent).parent;
  }

  /** True when `id` is (transitively) inside `ancestor`. */
  isInside(id: number, ancestor: number): boolean {
    let p = this.get(id).parent;
    while (p !== NONE) {
      if (p === ancestor) return true;
      p = this.get(p).parent;
    }
    return false;
  }

  doorsOf(room: number): Obj[] {
    return this.doors.filter((o) => o.rooms![0] === room || o.rooms![1] === room);
  }

  otherSide(door: Obj, room: number): number {
    return door.rooms![0] === room ? door.rooms![1] : door.rooms![0];
  }

  /**
   * How same-named siblings are ordered. ScienceWorld sorts a listing by name and leaves equal names
   * in hash-set order (identity hashes, which differ between its own runs); ours is creation order
   * unless a caller (the golden suite, trying every tie order) sets another.
   */
  tieOrder: (a: Obj, b: Obj) => number = (a, b) => a.id - b.id;

  /** Children sorted the way ScienceWorld lists them: by name, ties by `tieOrder`. */
  sortedContents(o: Obj): Obj[] {
    return o.contents
      .map((c) => this.get(c))
      .filter((c) => this.kind(c).category !== 'terminal')
      .sort((a, b) => (this.name(a) < this.name(b) ? -1 : this.name(a) > this.name(b) ? 1 : this.tieOrder(a, b)));
  }

  canSeeInside(o: Obj): boolean {
    return o.isOpen || !this.kind(o).openable;
  }

  // ---- descriptions -------------------------------------------------------------------------

  /** An object as a listing shows it; `detailed` is the `look at` form (stopwatches add their time). */
  describe(o: Obj, nested = false, detailed = false): string {
    const k = this.kind(o);
    if (k.verbatim && o.shown !== undefined) return o.shown;
    const name = o.shown ?? this.name(o);
    const list = () => {
      const items = this.sortedContents(o).map((c) => this.describe(c, true));
      return items.length ? items.join(', ') : 'nothing';
    };
    switch (k.category) {
      case 'agent':
        return 'the agent';
      case 'substance':
        return o.material && material(o.material).bare && !o.combusted ? name : `a substance called ${name}`;
      case 'terminal':
        return name;
      case 'living':
        // A plant's shown name (a pea seed's traits, "wrinkly green pea seed") is its seed's only.
        if (o.kind === 'plant' && o.stage === TEXT.stageNames.indexOf('dead')) return `a dead ${this.name(o)}`;
        if (o.kind === 'plant' && o.stage > 0) {
          const trait =
            !o.genes || o.stage < 2
              ? ''
              : o.genes.traits
                ? grownPlantTraits(o.species!, o.genes.traits)
                : o.genes.suffix
                  ? ` with a ${phenotype(o.genes)} ${o.genes.suffix}`
                  : ` with ${phenotype(o.genes)} ${o.genes.trait}`;
          // What grows on it (a flower) follows: "a apple tree in the reproducing stage. On the apple tree you see: a flower. "
          const on = this.sortedContents(o);
          const grows = on.length ? `. On the ${this.name(o)} you see: ${on.map((c) => this.describe(c, true)).join(', ')}. ` : '';
          const unwell = o.sickly ? ' (that looks unwell)' : '';
          return `${article(this.name(o))} in the ${TEXT.stageNames[o.stage]} stage${trait}${unwell}${grows}`;
        }
        return article(name);
      case 'electrical': {
        // Loads, switches and generators say whether they are on (a battery does not).
        if (k.electrical?.role === 'load' || k.electrical?.role === 'switch' || (k.electrical?.role === 'source' && o.kind !== 'battery')) return `${article(name)}, which is ${o.isOn ? 'on' : 'off'}`;
        return article(name);
      }
      case 'item': {
        // A flower shows its plant's flower traits ("a small flower").
        if (o.kind === 'flower') return flowerDescription(o.parent === NONE ? undefined : this.get(o.parent).genes?.traits);
        if (k.thermometer) return `${article(name)}, currently reading a temperature of ${javaFormatFixed0(o.temperature)} degrees celsius`;
        if (k.timer) return `${article(name)}, which is ${o.isOn ? 'activated' : 'deactivated'}. ${detailed ? `The time reads ${o.counter} ticks.` : ''}`;
        if (k.drain) return `A ${name}, which is ${o.isOpen ? 'open' : 'closed'}`;
        const parent = o.parent === NONE ? undefined : this.get(o.parent);
        return article(name);
      }
      default:
        break;
    }
    if (k.listedByName) {
      if (!detailed) return article(name);
      if (!o.isOpen) return `${article(name)}. The ${name} is closed.`;
      const items = this.sortedContents(o).map((c) => `\t${this.describe(c, true)}\n`);
      return `${article(name)}. In the ${name} is: \n${items.length ? items.join('') : '\tnothing'}`;
    }
    if (k.incline) return this.describeIncline(o, name);
    if (k.definite) return `the ${name}`;
    const onOff = k.showsOnOff || (k.mentionsOnlyOff && !o.isOn) ? `, which is turned ${o.isOn ? 'on' : 'off'}` : '';
    if (k.holds === 'containing') return `${article(name)}${onOff} (containing ${list()})`;
    if (k.openable) {
      if (nested) return o.isOpen ? `${article(name)} (containing ${list()})` : article(name);
      if (!o.isOpen) return `${article(name)}${onOff}. The ${name} door is closed. `;
      return `${article(name)}${onOff}. The ${name} door is open. In the ${name} is: ${list()}.`;
    }
    if (k.holds) {
      const prep = k.holds === 'on' ? 'On' : 'In';
      if (nested && o.contents.length === 0) return `${article(name)}${onOff}`;
      return `${article(name)}${onOff}. ${prep} the ${name} is: ${list()}.`;
    }
    return `${article(name)}${onOff}`;
  }

  /** ScienceWorld's inclined plane: "an NAME", or "an NAME, with: a BLOCK approximately N% down the plane". */
  private describeIncline(o: Obj, name: string): string {
    const on = this.sortedContents(o);
    if (on.length === 0) return `an ${name}`;
    const where = (c: Obj) => {
      if (c.planePosition === 0) return ' at the bottom of the plane';
      if (c.planePosition >= TOP_OF_PLANE) return ' at the top of the plane';
      return ` approximately ${(100 - 100 * c.planePosition).toFixed(0)}% down the plane`;
    };
    return `an ${name}, with: ${on.map((c) => `a ${c.shown ?? this.name(c)}${where(c)}`).join(',')}`;
  }

  describeRoom(room: number): string {
    const r = this.get(room);
    const name = this.name(r);
    const lines = [TEXT.roomHeader(name)];
    for (const c of this.sortedContents(r)) lines.push(`\t${this.describe(c)}`);
    lines.push(TEXT.alsoSee);
    const doors = this.doorsOf(room)
      .map((d) => ({ to: this.name(this.get(this.otherSide(d, room))), open: d.isOpen }))
      .sort((a, b) => (a.to < b.to ? -1 : 1));
    for (const d of doors) lines.push(`\t${TEXT.door(d.to, d.open)}`);
    return lines.join('\n');
  }

  describeInventory(): string {
    const items = this.sortedContents(this.get(this.agent)).map((c) => `\t${this.describe(c)}`);
    // No trailing newline: the recorded inventories end with their last item.
    return `${TEXT.inventory}\n${items.length ? items.join('\n') : '\tnothing'}`;
  }

  /**
   * "look at X" (ScienceWorld's getDescription in MODE_DETAILED): the description, and for an
   * electrical component what each terminal is wired to, as its class prints it — including the
   * wire's missing separator ("a blue wireits terminal 1 is connected to: …").
   */
  lookAt(o: Obj): string {
    const k = this.kind(o);
    if (!k.electrical) return this.describe(o, false, true);
    const terms = o.contents.map((c) => this.get(c)).filter((c) => c.terminal);
    const wiring = terms.map((t) => `its ${t.terminal} is connected to: ${t.links.length ? t.links.map((l) => this.terminalDescription(this.get(l))).join(', ') : 'nothing'}. `).join('');
    if (k.electrical.polarized) return `${this.describe(o)}. ${wiring}`;
    return `${this.describe(o)}${wiring}`;
  }

  /** A terminal as listings show it (ScienceWorld's Terminal in MODE_CURSORY_DETAIL): "a anode on battery". */
  terminalDescription(t: Obj): string {
    return `a ${t.terminal} on ${this.name(this.get(t.parent))}`;
  }

  terminalLabel(t: Obj): string {
    return `${this.name(this.get(t.parent))} ${t.terminal}`;
  }
}
