// Input → candidate commands. Objects are named by referents (lower-cased names, container-qualified
// "X in Y", "Y containing X", "<component> <terminal>"); several matches make an ambiguity prompt.
import { GRAMMAR, type ActionTemplate } from '../world/grammar.js';
import { TEXT } from '../world/text.js';
import { World, NONE, type Obj } from './world.js';

export interface Command {
  template: ActionTemplate;
  objs: Obj[];
}

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

/** Objects the agent can refer to: room contents seen through open containers, inventory, doors. */
export function visibleObjects(w: World, includeRooms: boolean): Obj[] {
  const out: Obj[] = [];
  const walk = (o: Obj) => {
    for (const c of o.contents) {
      const child = w.get(c);
      out.push(child);
      if (w.canSeeInside(child)) walk(child);
    }
  };
  const room = w.get(w.agentRoom());
  out.push(room);
  walk(room);
  out.push(...w.doorsOf(room.id));
  if (includeRooms) for (const id of w.roomIds.values()) if (id !== room.id) out.push(w.get(id));
  return out;
}

/** All referents of one object (normalised). */
export function referents(w: World, o: Obj, room: number): string[] {
  const name = w.name(o);
  const refs = [name];
  if (o.rooms) {
    const other = w.name(w.get(w.otherSide(o, room)));
    return [`door to ${other}`, `${other} door`].map(normalize);
  }
  if (o.terminal) {
    const parent = w.name(w.get(o.parent));
    return [`${parent} ${o.terminal}`, `${o.terminal} in ${parent}`, `${o.terminal} on ${parent}`].map(normalize);
  }
  if (o.kind === 'agent') refs.push('agent', 'self');
  // Animals also answer to their kind ("bee" for "bee 2", ScienceWorld's numbered bees).
  if (o.kind === 'animal' && o.species !== undefined) refs.push(o.species);
  // A recipe also answers to its title ("instructions to make sodium acetate").
  if (o.kind === 'recipe' && o.shown !== undefined) refs.push(o.shown.replace(/^A recipe titled /, ''));
  // Inclined planes also answer to "plane" and "plane H" (ScienceWorld's referents).
  if (w.kind(o).incline) refs.push('plane', (o.shown ?? name).replace(/^inclined plane/, 'plane'));
  // A grown plant also answers to its description: "apple tree in the seedling stage", "dead apple tree".
  if (o.kind === 'plant' && o.stage > 0) refs.push(o.stage === TEXT.stageNames.indexOf('dead') ? `dead ${name}` : `${name} in the ${TEXT.stageNames[o.stage]} stage`);
  // A plant that looks unwell also answers to "sick apple tree", "sick apple tree in the seedling stage".
  if (o.kind === 'plant' && o.sickly) refs.push(...refs.map((r) => `sick ${r}`));
  // A living thing shown at a life stage ("giant tortoise egg") also answers to that name.
  if (o.shown !== undefined && !w.kind(o).verbatim) refs.push(normalize(o.shown));
  // Substances also answer to their material's name ("chocolate" for solid chocolate, "water" for ice).
  if (o.material && w.kind(o).category === 'substance' && !o.fixedName && !o.combusted) {
    // ScienceWorld's unknown substances answer to "unknown substance", not to a material name.
    refs.push(o.material.startsWith('thermal unknown') ? 'unknown substance' : o.material);
  }
  if (o.parent !== NONE) {
    const container = w.get(o.parent);
    if (!container.rooms && w.kind(container).category !== 'room') {
      refs.push(`${name} in ${w.name(container)}`);
      if (container.kind === 'agent') refs.push(`${name} in inventory`);
    }
  }
  if (w.kind(o).holds === 'containing') for (const c of o.contents) refs.push(`${name} containing ${w.name(w.get(c))}`);
  return refs.map(normalize);
}

export class ReferentIndex {
  private readonly map = new Map<string, Obj[]>();
  /** Words in the longest referent: a longer slot text cannot name an object. */
  readonly maxWords: number = 0;
  constructor(
    readonly w: World,
    objs: Obj[],
  ) {
    const room = w.agentRoom();
    for (const o of objs) {
      for (const r of referents(w, o, room)) {
        const list = this.map.get(r);
        if (list === undefined) {
          this.map.set(r, [o]);
          this.maxWords = Math.max(this.maxWords, wordCount(r));
        } else if (list[list.length - 1] !== o) list.push(o); // an object's repeated referent counts once
      }
    }
  }
  lookup(text: string): Obj[] {
    return this.map.get(normalize(text)) ?? [];
  }
  keys(): string[] {
    return [...this.map.keys()];
  }
}

/** Words of normalised text (normalised text is words joined by single spaces). */
function wordCount(normalized: string): number {
  if (normalized === '') return 0;
  let n = 1;
  for (let i = normalized.indexOf(' '); i >= 0; i = normalized.indexOf(' ', i + 1)) n++;
  return n;
}

interface CompiledPattern {
  template: ActionTemplate;
  re: RegExp;
  slots: number;
  /** Two-slot patterns: the text before the first slot ("move ") and the separator's words (["to"]). */
  head?: string;
  sepWords?: string[];
}

let compiled: CompiledPattern[] | undefined;
function patterns(): CompiledPattern[] {
  compiled ??= GRAMMAR.flatMap((template) => template.patterns.map((p) => compile(template, p)));
  return compiled;
}

function compile(template: ActionTemplate, p: string): CompiledPattern {
  const slots = (p.match(/\{[ab]\}/g) ?? []).length;
  const re = new RegExp(`^${p.replace(/\{[ab]\}/g, '(.+)')}$`);
  if (slots !== 2) return { template, slots, re };
  // "verb {a} sep {b}": splits() tries the separator at each position after the head.
  const [, sep] = /\{[ab]\} (.+) \{[ab]\}/.exec(p) ?? [];
  return { template, slots, re, head: p.slice(0, p.indexOf('{')), ...(sep ? { sepWords: sep.split(' ') } : {}) };
}

/** Every reading of the input as a command over visible objects (deduplicated). */
export function parseCommands(w: World, input: string, index: ReferentIndex, teleport: boolean): Command[] {
  const text = input.toLowerCase().trim().replace(/\s+/g, ' ');
  const out: Command[] = [];
  const seen = new Set<string>();
  for (const p of patterns()) {
    if (p.template.teleportOnly && !teleport) continue;
    for (const split of splits(text, p, index.maxWords)) {
      const resolved = split.map((s) => index.lookup(s));
      if (resolved.some((r) => r.length === 0)) continue;
      for (const combo of product(resolved)) {
        const key = `${p.template.id}|${combo.map((o) => o.id).join(',')}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ template: p.template, objs: combo });
      }
    }
  }
  return out;
}

/**
 * Slot texts for a pattern; two-slot patterns try every position of the separator word where
 * neither slot has more words than the longest referent (`maxWords`, counted after normalising).
 * That bound keeps parsing linear: a slot that holds more than `maxWords` separators cannot
 * resolve, so only the first few separators are tried instead of every one in a long input.
 */
function splits(text: string, p: CompiledPattern, maxWords: number): string[][] {
  if (p.slots === 0) return p.re.test(text) ? [[]] : [];
  if (p.slots === 1) {
    const m = p.re.exec(text);
    return m ? [[m[1]!]] : [];
  }
  const out: string[][] = [];
  const { head, sepWords } = p;
  if (head === undefined || sepWords === undefined || !text.startsWith(head)) return out;
  const rest = text.slice(head.length);
  const words = rest.split(' ');
  // before[i]: normalised words in words[0..i).
  const before = [0];
  for (const word of words) before.push(before[before.length - 1]! + wordCount(normalize(word)));
  const total = before[words.length]!;
  for (let i = 1; i + sepWords.length < words.length && before[i]! <= maxWords; i++) {
    if (total - before[i + sepWords.length]! > maxWords) continue;
    if (sepWords.every((sw, j) => words[i + j] === sw)) out.push([words.slice(0, i).join(' '), words.slice(i + sepWords.length).join(' ')]);
  }
  return out;
}

function product(lists: Obj[][]): Obj[][] {
  return lists.reduce<Obj[][]>((acc, list) => acc.flatMap((prefix) => list.map((o) => [...prefix, o])), [[]]);
}

/**
 * A command as the ambiguity prompt lists it (ScienceWorld's human-readable clarification): the
 * action's first synonym (`patterns[0]`: "move {a} to {b}", "pour {a} in {b}") with each object's
 * name and, in parentheses, its chain of containers up to the agent's room ("in inventory, in agent,
 * in art studio"); `qualify: false` gives the canonical form with bare names.
 */
export function renderCommand(w: World, c: Command, qualify: boolean): string {
  let i = 0;
  const form = qualify ? c.template.patterns[0]! : c.template.canonical;
  return form.replace(/\{[ab]\}/g, () => {
    const o = c.objs[i++]!;
    return qualify ? withContainers(w, o) : w.name(o);
  });
}

/** "NAME (in C1, in C2, …, in ROOM)": the containers from the object up to the agent's room. */
export function withContainers(w: World, o: Obj): string {
  if (o.rooms) return `door to ${w.name(w.get(w.otherSide(o, w.agentRoom())))}`;
  if (o.terminal) return w.terminalLabel(o);
  const chain: string[] = [];
  const stop = w.agentRoom();
  for (let p = o.parent; p !== NONE; p = w.get(p).parent) {
    const c = w.get(p);
    // The real agent carries its things in an "inventory" object inside itself.
    if (c.kind === 'agent') chain.push('in inventory', 'in agent');
    else chain.push(`in ${w.name(c)}`);
    if (p === stop) break;
  }
  const name = o.shown !== undefined && w.kind(o).shownInPrompts ? o.shown : w.name(o);
  return chain.length ? `${name} (${chain.join(', ')})` : name;
}

export function qualifiedName(w: World, o: Obj): string {
  if (o.rooms) return `door to ${w.name(w.get(w.otherSide(o, w.agentRoom())))}`;
  if (o.terminal) return w.terminalLabel(o);
  const parts = [w.name(o)];
  let p = o.parent;
  while (p !== NONE) {
    const c = w.get(p);
    parts.push(c.kind === 'agent' ? 'in inventory' : `in ${w.name(c)}`);
    if (w.kind(c).category === 'room' || c.kind === 'agent') break;
    p = c.parent;
  }
  return parts.join(' ');
}
