// Input → candidate commands. Objects are named by referents (lower-cased names, container-qualified
// "X in Y", "Y containing X", "<component> <terminal>"); several matches make an ambiguity prompt.
import { GRAMMAR, type ActionTemplate } from '../world/grammar.js';
import { World, NONE, type Obj } from './world.js';
import { normalize, wordCount, type ReferentIndex } from './referents.js';

export { normalize, referents, ReferentIndex } from './referents.js';

export interface Command {
  template: ActionTemplate;
  objs: Obj[];
}

/** Objects the agent can refer to: room contents seen through open containers, inventory, doors. */
export function visibleObjects(w: World, includeRooms: boolean): Obj[] {
  const out: Obj[] = [];
  const walk = (o: Obj) => {
    for (const c of o.contents) {
      const child = w.get(c);
      out.push(child);
      if (w.canSeeInside(child)) walk(child);
      // A thing's terminals are reachable whether or not it is open (ScienceWorld adds them with the thing).
      else for (const t of child.contents) if (w.get(t).terminal) out.push(w.get(t));
    }
  };
  const room = w.get(w.agentRoom());
  out.push(room);
  walk(room);
  out.push(...w.doorsOf(room.id));
  if (includeRooms) for (const id of w.roomIds.values()) if (id !== room.id) out.push(w.get(id));
  return out;
}

interface CompiledPattern {
  template: ActionTemplate;
  re: RegExp;
  slots: number;
  /** The literal text before the first slot ("look at "): an input that lacks it cannot match. */
  prefix: string;
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
  const prefix = slots > 0 ? p.slice(0, p.indexOf('{')) : p;
  if (slots !== 2) return { template, slots, re, prefix };
  // "verb {a} sep {b}": splits() tries the separator at each position after the head.
  const [, sep] = /\{[ab]\} (.+) \{[ab]\}/.exec(p) ?? [];
  return { template, slots, re, prefix, head: prefix, ...(sep ? { sepWords: sep.split(' ') } : {}) };
}

/**
 * Every reading of the input as a command over visible objects (deduplicated). `index` may be a
 * function that builds it: it is then built only for inputs that start like a pattern with an
 * object slot ("look around" or "wait" need none).
 */
export function parseCommands(w: World, input: string, index: ReferentIndex | (() => ReferentIndex), teleport: boolean): Command[] {
  const text = input.toLowerCase().trim().replace(/\s+/g, ' ');
  const out: Command[] = [];
  const seen = new Set<string>();
  let built = typeof index === 'function' ? undefined : index;
  for (const p of patterns()) {
    if (p.template.teleportOnly && !teleport) continue;
    if (p.slots > 0 && !text.startsWith(p.prefix)) continue;
    built ??= (index as () => ReferentIndex)();
    for (const split of splits(text, p, built.maxWords)) {
      const resolved = split.map((s) => built!.lookup(s));
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
