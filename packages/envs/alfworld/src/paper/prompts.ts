// The paper's ALFWorld prompts, derived from its rows (never stored in this repository): the agent
// system prompt is the rows' first message (one text for every row); the world-model prompt is the
// rows' `wm_system_prompt` with the baked scene's parts cut out. Comparison renders each row's
// prompts with our harness (the row imported as a game, its scene baked by us).
import { comparePromptSet, extractPromptSet, systemPromptOf, type PromptComparison, type PromptExtraction, type PromptRow, type PromptSet } from '@diffworld/env-core';
import { ENV_NAME } from '../engine/splits.js';
import { agentSystemPrompt, worldModelSystemPrompt } from '../harness/prompt-set.js';
import { BAKED_SCENE_SLOTS, bakeScene, bakedSceneSlots, parseBakedScene } from '../harness/scene-prompt.js';
import { importPaperRow } from './import.js';
import { readPaperRows } from './rows.js';

async function promptRows(files: readonly string[]): Promise<PromptRow[]> {
  const out: PromptRow[] = [];
  for (const f of files) {
    (await readPaperRows(f)).forEach((row, i) => {
      const where = `${f}:${i + 1}`;
      out.push({
        where,
        agentSystem: systemPromptOf(row.messages),
        worldModel: {
          theirs: row.wm_system_prompt,
          // Read from the row's own text, so extraction does not depend on our engine.
          slots: () => {
            const scene = parseBakedScene(row.wm_system_prompt);
            if (!scene) return undefined;
            const values = bakedSceneSlots(scene);
            return BAKED_SCENE_SLOTS.map((s) => [s, values[s]] as const);
          },
          ours: (set) => worldModelSystemPrompt(bakeScene(importPaperRow(row, where).spec), set),
        },
      });
    });
  }
  return out;
}

/** Derives the paper's templates from its rows; rows that do not follow them are named. */
export async function extractPaperPrompts(files: readonly string[]): Promise<PromptExtraction> {
  return extractPromptSet(ENV_NAME, files, await promptRows(files));
}

/** Our harness's prompts for every row with the set, compared with the row's byte for byte. */
export async function comparePaperPrompts(files: readonly string[], set: PromptSet): Promise<PromptComparison> {
  return comparePromptSet(await promptRows(files), set, agentSystemPrompt(set));
}
