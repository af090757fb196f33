// The steps every env's `env prompts extract` shares once its rows are read: each row offers its
// agent system prompt and (where the env fills a world-model template) its world-model prompt with
// the slot values it records and our rendering of it. Extraction derives the templates; comparison
// counts the rows our harness reproduces byte for byte.
import type { ChatMessage } from './types.js';
import { deriveTemplate, promptSetOf, type DerivedTemplate, type PromptExtraction, type PromptSet, type TemplateExample } from './prompts.js';
import { firstDifference, type PromptComparison } from './suite.js';

/** A conversation given as a list of {role, content} or as its JSON text (as some paper files store it); undefined when it is neither. */
export function chatMessagesOf(value: unknown): ChatMessage[] | undefined {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const ok = Array.isArray(list) && list.every((m) => typeof m?.role === 'string' && typeof m?.content === 'string');
  return ok ? (list as ChatMessage[]) : undefined;
}

/** The agent system prompt of a conversation: its first message when that is a system message. */
export function systemPromptOf(messages: readonly ChatMessage[]): string | undefined {
  return messages[0]?.role === 'system' ? messages[0].content : undefined;
}

/** One row as the prompt tools see it. */
export interface PromptRow {
  where: string;
  agentSystem: string | undefined;
  /** Absent where the env has no world-model template (AppWorld). */
  worldModel?: {
    theirs: string;
    /** The slot values the row records, in text order; undefined when a part is missing. */
    slots(): readonly (readonly [string, string])[] | undefined;
    /** Our harness's rendering with the set; may throw (e.g. a task our engine lacks). */
    ours(set: PromptSet): string;
  };
}

function derive(examples: TemplateExample[], skipped: string[], what: string): DerivedTemplate {
  const d = deriveTemplate(examples, what);
  // Rows that could not be examples count as examples that disagree.
  return { ...d, provenance: { ...d.provenance, examples: d.provenance.examples + skipped.length }, disagreeing: [...skipped, ...d.disagreeing] };
}

/** Derives an env's prompt set from its rows (a world-model template when the rows offer one). */
export function extractPromptSet(env: string, files: readonly string[], rows: readonly PromptRow[]): PromptExtraction {
  const agent: TemplateExample[] = [];
  const wm: TemplateExample[] = [];
  const noAgent: string[] = [];
  const noSlots: string[] = [];
  for (const r of rows) {
    if (r.agentSystem === undefined) noAgent.push(r.where);
    else agent.push({ where: r.where, text: r.agentSystem, slots: [] });
    if (!r.worldModel) continue;
    const slots = r.worldModel.slots();
    if (slots) wm.push({ where: r.where, text: r.worldModel.theirs, slots });
    else noSlots.push(r.where);
  }
  const withWm = rows.some((r) => r.worldModel);
  return promptSetOf(env, files, derive(agent, noAgent, `${env} agentSystem`), withWm ? derive(wm, noSlots, `${env} worldModel`) : undefined);
}

/** Our prompts with the set against every row's, byte for byte; the first few differences located. */
export function comparePromptSet(rows: readonly PromptRow[], set: PromptSet, ourAgent: string): PromptComparison {
  const cmp: PromptComparison = { rows: rows.length, agentSystemIdentical: 0, worldModelIdentical: 0, unavailable: [], firstDifferences: [] };
  const differs = (where: string, prompt: 'agentSystem' | 'worldModel', ours: string, theirs: string) => {
    if (cmp.firstDifferences.length < 5) cmp.firstDifferences.push({ where, prompt, offset: firstDifference(ours, theirs) });
  };
  for (const r of rows) {
    if (ourAgent === r.agentSystem) cmp.agentSystemIdentical++;
    else differs(r.where, 'agentSystem', ourAgent, r.agentSystem ?? '');
    if (!r.worldModel) continue;
    let ours: string;
    try {
      ours = r.worldModel.ours(set);
    } catch (e) {
      cmp.unavailable.push({ where: r.where, why: (e as Error).message });
      continue;
    }
    if (ours === r.worldModel.theirs) cmp.worldModelIdentical++;
    else differs(r.where, 'worldModel', ours, r.worldModel.theirs);
  }
  return cmp;
}
