// Prompt sets: the paper's prompt templates, derived from rows of its published data that the user
// has, so that our harness can speak them byte for byte without the repository shipping their text.
// A template is literal text with named holes ("slots"); each env fills the slots with what its own
// engine and harness compute for a task. `deriveTemplate` finds the literals by cutting the slot
// values out of example texts; every example must agree, and the examples that do not are named.
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '@diffworld/dataset';
import { LocatedError } from './located-error.js';

/** One piece of a template: literal text, or a hole filled at render time. */
export type TemplatePart = { readonly text: string } | { readonly slot: string };

export interface PromptTemplate {
  readonly parts: readonly TemplatePart[];
}

/** How many rows a template was derived from and how many of them it reproduces exactly. */
export interface TemplateProvenance {
  readonly examples: number;
  readonly agreeing: number;
}

/** The file `diffworld env prompts extract` writes and `--prompts FILE` reads. */
export interface PromptSet {
  readonly format: typeof PROMPT_SET_FORMAT;
  /** The env whose harness fills the slots. */
  readonly env: string;
  /** The agent's system prompt. */
  readonly agentSystem: PromptTemplate;
  /**
   * The world model's system prompt of a task (the rows' `wm_system_prompt`); absent where the env
   * cannot fill it from its own engine (AppWorld): the env's own world-model prompt is used then.
   */
  readonly worldModel?: PromptTemplate;
  /** Where the templates came from (file names only, never their text). */
  readonly source: { readonly files: readonly string[]; readonly agentSystem: TemplateProvenance; readonly worldModel?: TemplateProvenance };
}

export const PROMPT_SET_FORMAT = 'diffworld.prompts/1';

/** A bad prompt file, example or render; `where` names the file, field or example. */
export class PromptSetError extends LocatedError {
  override readonly name = 'PromptSetError';
}

/** One text the template must reproduce, with the values its slots take there, in text order. */
export interface TemplateExample {
  /** Names the example in errors and reports, e.g. `rows.jsonl:12`. */
  readonly where: string;
  readonly text: string;
  readonly slots: readonly (readonly [name: string, value: string])[];
}

export interface DerivedTemplate {
  readonly template: PromptTemplate;
  readonly provenance: TemplateProvenance;
  /** Examples whose literals differ from the template's (or whose slot values are not in the text). */
  readonly disagreeing: readonly string[];
}

/** Cuts the slot values out of one example, left to right; undefined when a value is not found. */
function templateOf(ex: TemplateExample): PromptTemplate | undefined {
  const parts: TemplatePart[] = [];
  let at = 0;
  for (const [slot, value] of ex.slots) {
    // An empty value has no position of its own: it would silently move text between literals.
    if (value === '') throw new PromptSetError(`${ex.where}: ${slot}`, 'a slot value must not be empty');
    const found = ex.text.indexOf(value, at);
    if (found < 0) return undefined;
    if (found > at) parts.push({ text: ex.text.slice(at, found) });
    parts.push({ slot });
    at = found + value.length;
  }
  if (at < ex.text.length) parts.push({ text: ex.text.slice(at) });
  return { parts };
}

const keyOf = (t: PromptTemplate) => JSON.stringify(t.parts);

/**
 * The template every example follows: the most common one when examples disagree (the others are
 * listed). Throws when there is no example or none yields a template.
 */
export function deriveTemplate(examples: readonly TemplateExample[], what: string): DerivedTemplate {
  if (examples.length === 0) throw new PromptSetError(what, 'no examples to derive a template from');
  const byKey = new Map<string, { template: PromptTemplate; where: string[] }>();
  const unmatched: string[] = [];
  for (const ex of examples) {
    const t = templateOf(ex);
    if (!t) {
      unmatched.push(ex.where);
      continue;
    }
    const k = keyOf(t);
    const entry = byKey.get(k) ?? { template: t, where: [] };
    entry.where.push(ex.where);
    byKey.set(k, entry);
  }
  const ranked = [...byKey.values()].sort((a, b) => b.where.length - a.where.length);
  const best = ranked[0];
  if (!best) throw new PromptSetError(what, `no example contains its slot values in order (first: ${unmatched[0]})`);
  return {
    template: best.template,
    provenance: { examples: examples.length, agreeing: best.where.length },
    disagreeing: [...unmatched, ...ranked.slice(1).flatMap((e) => e.where)],
  };
}

/** The slots a template has, in order (a slot may repeat). */
export function templateSlots(t: PromptTemplate): string[] {
  return t.parts.flatMap((p) => ('slot' in p ? [p.slot] : []));
}

/** Fills a template; a slot without a value is an error naming it. */
export function renderTemplate(t: PromptTemplate, values: Readonly<Record<string, string>>, what = 'template'): string {
  return t.parts
    .map((p) => {
      if ('text' in p) return p.text;
      const v = Object.hasOwn(values, p.slot) ? values[p.slot] : undefined;
      if (v === undefined) throw new PromptSetError(`${what}: ${p.slot}`, `no value for slot "${p.slot}" (have ${Object.keys(values).join(', ') || 'none'})`);
      return v;
    })
    .join('');
}

function parseTemplate(v: unknown, where: string, allowed: readonly string[]): PromptTemplate {
  if (typeof v !== 'object' || v === null || !Array.isArray((v as { parts?: unknown }).parts)) throw new PromptSetError(where, 'expected {"parts": [...]}');
  const parts = (v as { parts: unknown[] }).parts.map((p, i): TemplatePart => {
    const at = `${where}.parts[${i}]`;
    if (typeof p !== 'object' || p === null) throw new PromptSetError(at, 'expected {"text": …} or {"slot": …}');
    const keys = Object.keys(p);
    if (keys.length === 1 && typeof (p as { text?: unknown }).text === 'string') return { text: (p as { text: string }).text };
    if (keys.length === 1 && typeof (p as { slot?: unknown }).slot === 'string') {
      const slot = (p as { slot: string }).slot;
      if (!allowed.includes(slot)) throw new PromptSetError(at, `unknown slot "${slot}": one of ${allowed.join(', ') || '(none)'}`);
      return { slot };
    }
    throw new PromptSetError(at, 'expected exactly one of "text" (string) or "slot" (string)');
  });
  return { parts };
}

function parseProvenance(v: unknown, where: string): TemplateProvenance {
  const o = v as { examples?: unknown; agreeing?: unknown } | null;
  if (typeof o !== 'object' || o === null || !Number.isInteger(o.examples) || !Number.isInteger(o.agreeing)) throw new PromptSetError(where, 'expected {"examples": int, "agreeing": int}');
  return { examples: o.examples as number, agreeing: o.agreeing as number };
}

/** The slots each env's templates may use: what its harness can fill. */
export interface PromptSlots {
  readonly agentSystem: readonly string[];
  readonly worldModel: readonly string[];
}

/** Validates a parsed prompt file for `env`; every slot must be one the env fills. */
export function parsePromptSet(value: unknown, where: string, env: string, slots: PromptSlots): PromptSet {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PromptSetError(where, 'expected a JSON object');
  const o = value as Record<string, unknown>;
  if (o.format !== PROMPT_SET_FORMAT) throw new PromptSetError(`${where}: format`, `expected "${PROMPT_SET_FORMAT}", got ${JSON.stringify(o.format)}`);
  if (o.env !== env) throw new PromptSetError(`${where}: env`, `this prompt set is for ${JSON.stringify(o.env)}, not ${env}`);
  const src = o.source as Record<string, unknown> | undefined;
  if (typeof src !== 'object' || src === null || !Array.isArray(src.files) || !src.files.every((f) => typeof f === 'string')) {
    throw new PromptSetError(`${where}: source`, 'expected {"files": [string], "agentSystem": …, "worldModel": …}');
  }
  // A world-model template is optional; present, it comes with its provenance.
  const wm = o.worldModel === undefined ? undefined : parseTemplate(o.worldModel, `${where}: worldModel`, slots.worldModel);
  return {
    format: PROMPT_SET_FORMAT,
    env,
    agentSystem: parseTemplate(o.agentSystem, `${where}: agentSystem`, slots.agentSystem),
    ...(wm ? { worldModel: wm } : {}),
    source: {
      files: src.files as string[],
      agentSystem: parseProvenance(src.agentSystem, `${where}: source.agentSystem`),
      ...(wm ? { worldModel: parseProvenance(src.worldModel, `${where}: source.worldModel`) } : {}),
    },
  };
}

/** Reads and validates a prompt file (`--prompts FILE`). */
export function readPromptSet(path: string, env: string, slots: PromptSlots): PromptSet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PromptSetError(path, `cannot read the prompt file (${(e as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new PromptSetError(path, `not JSON (${(e as Error).message})`);
  }
  return parsePromptSet(value, path, env, slots);
}

/** Writes a prompt file atomically. */
export function writePromptSet(path: string, set: PromptSet): void {
  writeFileAtomic(path, JSON.stringify(set, null, 2) + '\n');
}

/** What an env's extractor reports besides the set: which rows the templates do not reproduce. */
export interface PromptExtraction {
  readonly set: PromptSet;
  readonly disagreeing: { readonly agentSystem: readonly string[]; readonly worldModel: readonly string[] };
}

/** The set's world-model template, or an error naming the env when the set carries none. */
export function worldModelTemplate(set: PromptSet): PromptTemplate {
  if (!set.worldModel) throw new PromptSetError(`${set.env} prompt set`, 'it carries no world-model template (only the agent system prompt)');
  return set.worldModel;
}

/** Assembles a prompt set from the derived templates (the world-model one is optional). */
export function promptSetOf(env: string, files: readonly string[], agent: DerivedTemplate, wm?: DerivedTemplate): PromptExtraction {
  const names = files.map((f) => f.split(/[\\/]/).pop()!);
  return {
    set: {
      format: PROMPT_SET_FORMAT,
      env,
      agentSystem: agent.template,
      ...(wm ? { worldModel: wm.template } : {}),
      source: { files: names, agentSystem: agent.provenance, ...(wm ? { worldModel: wm.provenance } : {}) },
    },
    disagreeing: { agentSystem: agent.disagreeing, worldModel: wm?.disagreeing ?? [] },
  };
}
