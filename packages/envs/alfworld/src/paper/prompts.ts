// The paper's ALFWorld prompts, derived from its rows (never stored in this repository): the agent
// system prompt is the rows' first message (one text for every row); the world-model prompt is the
// rows' `wm_system_prompt` with the baked scene's parts cut out. `comparePaperPrompts` renders each
// row's prompts with our harness (the row imported as a game, its scene baked by us) and counts the
// ones that are identical byte for byte.
import { deriveTemplate, type DerivedTemplate, firstDifference, promptSetOf, type PromptComparison, type PromptExtraction, type PromptSet, type TemplateExample } from '@diffworld/env-core';
import { ENV_NAME } from '../engine/splits.js';
import { agentSystemPrompt, worldModelSystemPrompt } from '../harness/prompt-set.js';
import { BAKED_SCENE_SLOTS, bakeScene, bakedSceneSlots, parseBakedScene } from '../harness/scene-prompt.js';
import { importPaperRow } from './import.js';
import { readPaperRows, type PaperRow } from './rows.js';

interface PlacedRow {
  where: string;
  row: PaperRow;
}

async function readAll(files: readonly string[]): Promise<PlacedRow[]> {
  const out: PlacedRow[] = [];
  for (const f of files) (await readPaperRows(f)).forEach((row, i) => out.push({ where: `${f}:${i + 1}`, row }));
  return out;
}

/** The row's agent system prompt: its first message when that is a system message. */
function systemOf(row: PaperRow): string | undefined {
  const first = row.messages[0];
  return first?.role === 'system' ? first.content : undefined;
}

/** Counts rows that could not be examples (no system message, no baked scene) as disagreeing. */
function withSkipped(d: DerivedTemplate, skipped: readonly string[]): DerivedTemplate {
  return { ...d, provenance: { ...d.provenance, examples: d.provenance.examples + skipped.length }, disagreeing: [...skipped, ...d.disagreeing] };
}

/** Derives the paper's templates from its rows; rows that do not follow them are named. */
export async function extractPaperPrompts(files: readonly string[]): Promise<PromptExtraction> {
  const rows = await readAll(files);
  const agent: TemplateExample[] = [];
  const noSystem: string[] = [];
  for (const { where, row } of rows) {
    const text = systemOf(row);
    if (text === undefined) noSystem.push(where);
    else agent.push({ where, text, slots: [] });
  }
  const wm: TemplateExample[] = [];
  const unparsed: string[] = [];
  for (const { where, row } of rows) {
    // The slot values are read from the row's own text, so extraction does not depend on our engine.
    const scene = parseBakedScene(row.wm_system_prompt);
    if (!scene) {
      unparsed.push(where);
      continue;
    }
    const values = bakedSceneSlots(scene);
    wm.push({ where, text: row.wm_system_prompt, slots: BAKED_SCENE_SLOTS.map((s) => [s, values[s]] as const) });
  }
  const wmTemplate = deriveTemplate(wm, 'alfworld worldModel');
  return promptSetOf(ENV_NAME, files, withSkipped(deriveTemplate(agent, 'alfworld agentSystem'), noSystem), withSkipped(wmTemplate, unparsed));
}

/** Our harness's prompts for every row with the set, compared with the row's byte for byte. */
export async function comparePaperPrompts(files: readonly string[], set: PromptSet): Promise<PromptComparison> {
  const rows = await readAll(files);
  const cmp: PromptComparison = { rows: rows.length, agentSystemIdentical: 0, worldModelIdentical: 0, unavailable: [], firstDifferences: [] };
  const differs = (where: string, prompt: 'agentSystem' | 'worldModel', ours: string, theirs: string) => {
    if (cmp.firstDifferences.length < 5) cmp.firstDifferences.push({ where, prompt, offset: firstDifference(ours, theirs) });
  };
  const agent = agentSystemPrompt(set);
  for (const { where, row } of rows) {
    const theirs = systemOf(row) ?? '';
    if (agent === theirs) cmp.agentSystemIdentical++;
    else differs(where, 'agentSystem', agent, theirs);
    let ours: string;
    try {
      ours = worldModelSystemPrompt(bakeScene(importPaperRow(row, where).spec), set);
    } catch (e) {
      cmp.unavailable.push({ where, why: (e as Error).message });
      continue;
    }
    if (ours === row.wm_system_prompt) cmp.worldModelIdentical++;
    else differs(where, 'worldModel', ours, row.wm_system_prompt);
  }
  return cmp;
}
