// The paper's AppWorld agent prompt, derived from its rows (never stored in this repository): the
// rows' first message, one text for every row of a file (its fixed instructions and its own tool
// list). The rows' `wm_system_prompt` is not made a template: its per-task parts (the real
// AppWorld database, per-app tool notes) are not what our engine's worlds hold, so with a prompt set
// the world model keeps our grounding prompt.
import { readJsonlValues } from '@diffworld/dataset';
import { deriveTemplate, firstDifference, promptSetOf, renderTemplate, type ChatMessage, type PromptComparison, type PromptExtraction, type PromptSet, type PromptSlots, type TemplateExample } from '@diffworld/env-core';
import { agentSystemPrompt } from '../harness/prompt.js';
import { ENV_NAME } from '../world/tasks/catalog.js';

/** The agent prompt is constant; there is no world-model template. */
export const APPWORLD_PROMPT_SLOTS: PromptSlots = { agentSystem: [], worldModel: [] };

/** A row that is not one of the paper's AppWorld rows; `where` names the line and field. */
export class AppworldRowError extends Error {
  override readonly name = 'AppworldRowError';
  readonly badInput = true;
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(`${where}: ${message}`);
  }
}

/** The agent conversation of a row: a list, or its JSON text (the RL split stores it as a string). */
export function paperRowMessages(value: unknown, where: string): ChatMessage[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppworldRowError(where, 'expected a JSON object');
  let list = (value as { messages?: unknown }).messages;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      throw new AppworldRowError(`${where}: messages`, 'a string that is not JSON');
    }
  }
  if (!Array.isArray(list) || !list.every((m) => typeof m?.role === 'string' && typeof m?.content === 'string')) {
    throw new AppworldRowError(`${where}: messages`, 'expected an array of {role, content} (or its JSON text)');
  }
  return list as ChatMessage[];
}

async function systemPrompts(files: readonly string[]): Promise<{ where: string; system: string | undefined }[]> {
  const out: { where: string; system: string | undefined }[] = [];
  for (const f of files) {
    for await (const { line, value } of readJsonlValues(f)) {
      const first = paperRowMessages(value, `${f}:${line}`)[0];
      out.push({ where: `${f}:${line}`, system: first?.role === 'system' ? first.content : undefined });
    }
  }
  return out;
}

/** Derives the paper's agent prompt from its rows; rows that carry another one are named. */
export async function extractAppworldPrompts(files: readonly string[]): Promise<PromptExtraction> {
  const rows = await systemPrompts(files);
  const examples: TemplateExample[] = rows.flatMap((r) => (r.system === undefined ? [] : [{ where: r.where, text: r.system, slots: [] }]));
  const derived = deriveTemplate(examples, 'appworld agentSystem');
  const skipped = rows.filter((r) => r.system === undefined).map((r) => r.where);
  return promptSetOf(ENV_NAME, files, { ...derived, provenance: { ...derived.provenance, examples: rows.length }, disagreeing: [...skipped, ...derived.disagreeing] });
}

/** Our agent prompt with the set, compared with every row's byte for byte (no world-model comparison). */
export async function compareAppworldPrompts(files: readonly string[], set: PromptSet): Promise<PromptComparison> {
  const rows = await systemPrompts(files);
  const ours = agentSystemPromptWith(set);
  const cmp: PromptComparison = { rows: rows.length, agentSystemIdentical: 0, worldModelIdentical: 0, unavailable: [], firstDifferences: [] };
  for (const r of rows) {
    if (r.system === ours) cmp.agentSystemIdentical++;
    else if (cmp.firstDifferences.length < 5) cmp.firstDifferences.push({ where: r.where, prompt: 'agentSystem', offset: firstDifference(ours, r.system ?? '') });
  }
  return cmp;
}

/** The agent's system prompt: ours, or the set's. */
export function agentSystemPromptWith(prompts?: PromptSet): string {
  return prompts ? renderTemplate(prompts.agentSystem, {}, 'appworld agentSystem') : agentSystemPrompt();
}
