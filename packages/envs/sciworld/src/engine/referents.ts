// What the agent can call a thing, after ScienceWorld's EnvObject.getReferentsWithContainers: each
// thing's own referents (its class's getReferents: the name, the name descriptions show, generic
// words such as "cup" or "substance", and for cups "<ref> containing <contents>"), each also
// followed by " in " or " on " and any own referent of its container ("water in cup", "cathode in
// buzzer", "banana seed in seed jar containing banana seed and banana seed"). Input and referents are
// compared after normalize (lower case, stop words a/an/the dropped).
import { TEXT } from '../world/text.js';
import { lifeStages } from '../world/animals.js';
import { NONE, type Obj, type World } from './world.js';

const STOP = new Set(['a', 'an', 'the']);

export function normalize(input: string): string {
  // Every step normalises the referents of every visible thing, and those are mostly the same few
  // hundred strings; the memo turns that into a map lookup. Long inputs (agent text) are not kept.
  const hit = normalized.get(input);
  if (hit !== undefined) return hit;
  const out = input
    .toLowerCase()
    .replace(/[^a-z0-9'\- ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !STOP.has(w))
    .join(' ');
  if (input.length <= MEMO_MAX_LENGTH) {
    if (normalized.size >= MEMO_MAX_ENTRIES) normalized.clear();
    normalized.set(input, out);
  }
  return out;
}

/** normalize's memo, bounded in entries and in key length so that arbitrary input cannot grow it. */
const normalized = new Map<string, string>();
const MEMO_MAX_ENTRIES = 20_000;
const MEMO_MAX_LENGTH = 200;

/** The name a thing's own referents and its container's "containing …" forms use (ScienceWorld's getDescriptName). */
function descriptName(w: World, o: Obj): string {
  return o.kind === 'animal' && o.shown !== undefined ? o.shown : w.name(o);
}

/** A thing's own referents, before normalising (ScienceWorld's getReferents); doors have none here. */
export function ownReferents(w: World, o: Obj): string[] {
  const k = w.kind(o);
  const name = w.name(o);
  if (o.terminal) {
    const parent = w.name(w.get(o.parent));
    return ['terminal', o.terminal, `${o.terminal} on ${parent}`, `${parent} ${o.terminal}`];
  }
  if (k.category === 'room') return [name === 'outside' ? 'outside' : 'room', name];
  const refs = [...(k.referents ?? []), name];
  if (o.kind === 'agent') return refs;
  // Animals also answer to their kind ("bee" for "bee 2", ScienceWorld's numbered bees), and (but
  // bees, ScienceWorld's WanderingAnimal) to "<stage> <name>" and "<stage> <stage name>" (Animal.getReferents:
  // "egg giant tortoise", "egg giant tortoise egg", "adult adult butterfly").
  if (o.kind === 'animal' && o.species !== undefined) {
    refs.push(o.species);
    const stage = o.species === 'bee' ? undefined : lifeStages(o.species)[o.stage]?.name;
    if (stage !== undefined) refs.push(`${stage} ${name}`, `${stage} ${descriptName(w, o)}`);
  }
  // A recipe also answers to its title ("instructions to make sodium acetate").
  if (o.kind === 'recipe' && o.shown !== undefined) refs.push(o.shown.replace(/^A recipe titled /, ''));
  // Inclined planes also answer to "plane H" (ScienceWorld's referents).
  if (k.incline) refs.push((o.shown ?? name).replace(/^inclined plane/, 'plane'));
  // A plant also answers to its stage (FruitingTree.getReferents): "apple tree in the seedling stage",
  // "seedling plant", "seedling apple tree", "seed apple seed", "dead apple tree".
  if (o.kind === 'plant') {
    const stage = TEXT.stageNames[o.stage]!;
    refs.push(`${name} in the ${stage} stage`, `${stage} plant`, `${stage} ${name}`);
  }
  // A plant that looks unwell also answers to "sick apple tree", "sick apple tree in the seedling stage".
  if (o.kind === 'plant' && o.sickly) refs.push(...refs.map((r) => `sick ${r}`));
  // A living thing shown at a life stage ("giant tortoise egg") also answers to that name.
  if (o.shown !== undefined && !k.verbatim) refs.push(o.shown);
  // ScienceWorld's unknown substances answer to "unknown substance" (UnknownSubstanceThermal and
  // UnknownSubstanceElectricalConductivity), not to a material name.
  if (name.startsWith('unknown substance') || name.includes(' unknown substance ')) refs.push('unknown substance');
  else if (o.material && k.category === 'substance' && !o.fixedName && !o.combusted) {
    // Substances also answer to their material's name ("chocolate" for solid chocolate, "water" for ice).
    refs.push(o.material.startsWith('thermal unknown') ? 'unknown substance' : o.material);
  }
  // Every plain Substance is also "substance" (ScienceWorld's Substance; foods and paints are not).
  if (k.category === 'substance' && o.material && !o.combusted && substanceWord(o.material)) refs.push('substance');
  if (k.contentReferents) {
    const inside = o.contents
      .map((c) => w.get(c))
      .filter((c) => !c.terminal)
      .map((c) => descriptName(w, c))
      .sort();
    const what = inside.length ? inside.join(' and ') : 'nothing';
    for (const r of [...refs]) refs.push(`${r} containing ${what}`);
  }
  return refs;
}

/** Materials ScienceWorld makes as foods or paints, which do not answer to "substance". */
const NOT_SUBSTANCES = new Set(['chocolate', 'marshmallow', 'ice cream', 'orange juice', 'apple juice', 'flour', 'paint', 'soil', 'food mixture']);
const substanceWord = (materialName: string) => !NOT_SUBSTANCES.has(materialName);

/**
 * What a thing's own referents depend on besides its kind: its name, what it shows, its stage and
 * health, its parent's name (terminals) and, for cups, the names of what they hold.
 */
function referentKey(w: World, o: Obj): string {
  let key = `${w.name(o)}\u0000${o.shown ?? ''}\u0000${o.stage}\u0000${o.sickly ? 1 : 0}`;
  if (o.terminal) key += `\u0000${w.name(w.get(o.parent))}`;
  if (w.kind(o).contentReferents) for (const c of o.contents) key += `\u0000${descriptName(w, w.get(c))}`;
  return key;
}

const NO_REFERENTS: readonly string[] = [];

/**
 * Things whose referents change only if they burn (furniture, appliances, tools named once and
 * for all); substances, living things, terminals and cups (named by their contents) change more.
 */
function fixedReferents(o: Obj): boolean {
  const k = o.def;
  return k.category !== 'substance' && k.category !== 'living' && k.category !== 'terminal' && !k.contentReferents && o.species === undefined && o.bornName === undefined;
}

/**
 * A thing's own referents, normalised (no empty or one-letter ones, each once). Every step indexes
 * every visible thing, and most of them have not changed since the step before, so the list is kept
 * on the thing with the key of what it was built from (for most things, only whether it burned).
 */
export function normalizedOwnReferents(w: World, o: Obj): readonly string[] {
  if (o.rooms) return NO_REFERENTS;
  const key = fixedReferents(o) ? o.combusted : referentKey(w, o);
  const hit = o.referentCache;
  if (hit !== undefined && hit.key === key) return hit.refs;
  const refs = [...new Set(ownReferents(w, o).map(normalize))].filter((r) => r.length > 1);
  o.referentCache = { key, refs };
  return refs;
}

const INVENTORY: readonly string[] = ['inventory'];

/** A container's own referents as its contents see it: the agent carries things in its "inventory". */
function containerReferents(w: World, c: Obj): readonly string[] {
  return c.kind === 'agent' ? INVENTORY : normalizedOwnReferents(w, c);
}

/** All referents of one object (normalised), container forms included. */
export function referents(w: World, o: Obj, room: number): string[] {
  if (o.rooms) {
    const other = w.name(w.get(w.otherSide(o, room)));
    return ['door', `door to ${other}`, `${other} door`].map(normalize);
  }
  const own = normalizedOwnReferents(w, o);
  const out = new Set(own);
  if (o.parent !== NONE) {
    const cs = containerReferents(w, w.get(o.parent));
    for (const r of own) for (const c of cs) out.add(`${r} in ${c}`).add(`${r} on ${c}`);
  }
  return [...out];
}

/**
 * The objects each referent names, for one step's visible objects. Own referents are indexed;
 * container forms ("X in Y", "X on Y") are resolved when looked up, by splitting the text at each
 * " in " / " on " and checking the container's own referents, so that the cross product of every
 * thing's referents with its container's is never built.
 */
export class ReferentIndex {
  private readonly map = new Map<string, Obj[]>();
  private readonly containerRefs = new Map<number, Set<string>>();
  /** Words in the longest referent: a longer slot text cannot name an object. */
  readonly maxWords: number = 0;
  constructor(
    readonly w: World,
    readonly objs: Obj[],
  ) {
    const room = w.agentRoom();
    let longest = 0;
    for (const o of objs) {
      const own = o.rooms ? referents(w, o, room) : normalizedOwnReferents(w, o);
      for (const r of own) {
        const list = this.map.get(r);
        if (list === undefined) {
          this.map.set(r, [o]);
          longest = Math.max(longest, wordCount(r));
        } else if (list[list.length - 1] !== o) list.push(o); // an object's repeated referent counts once
      }
    }
    // A container form is an own referent, "in"/"on", and a container's own referent.
    this.maxWords = 2 * longest + 1;
  }

  private ownOf(container: Obj): Set<string> {
    let refs = this.containerRefs.get(container.id);
    if (refs === undefined) this.containerRefs.set(container.id, (refs = new Set(containerReferents(this.w, container))));
    return refs;
  }

  lookup(text: string): Obj[] {
    const n = normalize(text);
    const direct = this.map.get(n);
    let found: Obj[] | undefined;
    for (let i = n.indexOf(' in '), j = n.indexOf(' on '); i >= 0 || j >= 0; ) {
      const at = i < 0 ? j : j < 0 ? i : Math.min(i, j);
      const thing = this.map.get(n.slice(0, at));
      if (thing) {
        const container = n.slice(at + 4);
        for (const o of thing) {
          if (o.rooms || o.parent === NONE || !this.ownOf(this.w.get(o.parent)).has(container)) continue;
          (found ??= direct ? [...direct] : []).includes(o) || found.push(o);
        }
      }
      if (at === i) i = n.indexOf(' in ', i + 1);
      else j = n.indexOf(' on ', j + 1);
    }
    if (!found) return direct ?? [];
    // In the order of the visible things, as the directly named ones are (rare: a container form named several).
    return found.length > 1 ? found.sort((a, b) => this.objs.indexOf(a) - this.objs.indexOf(b)) : found;
  }

  /** Every referent of every indexed object (the `objects` command). */
  keys(): string[] {
    const room = this.w.agentRoom();
    const out = new Set<string>();
    for (const o of this.objs) for (const r of referents(this.w, o, room)) out.add(r);
    return [...out];
  }
}

/** Words of normalised text (normalised text is words joined by single spaces). */
export function wordCount(normalized: string): number {
  if (normalized === '') return 0;
  let n = 1;
  for (let i = normalized.indexOf(' '); i >= 0; i = normalized.indexOf(' ', i + 1)) n++;
  return n;
}
