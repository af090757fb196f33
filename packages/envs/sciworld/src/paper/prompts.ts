// The paper's ScienceWorld prompts, derived from its rows (never stored in this repository): the
// agent system prompt is the rows' first message; the world-model prompt is the rows' baked
// `wm_system_prompt` with its per-task parts cut out (task, type, first look-around, the room map,
// the action templates). Comparison renders each row's prompts with our harness and engine (task
// "{name}_v{variation}" → our variation).
import { comparePromptSet, extractPromptSet, systemPromptOf, type PromptComparison, type PromptExtraction, type PromptRow, type PromptSet } from '@diffworld/env-core';
import { ENV_NAME, sciworldTasks } from '../world/tasks/split-tasks.js';
import { SCIWORLD_SPLITS, taskInfo } from '../world/tasks/catalog.js';
import { SCIWORLD_WM_SLOTS, actionTemplates, agentSystemPrompt, worldModelSystemPrompt, type SciworldWmSlot } from '../harness/prompt-set.js';
import { readSciworldRows, type SciworldPaperRow } from './rows.js';

/** `boil_v11` → { name: 'boil', variation: 11 }. */
function splitTaskId(id: string): { name: string; variation: number } {
  const at = id.lastIndexOf('_v');
  return { name: id.slice(0, at), variation: Number(id.slice(at + 2)) };
}

// The room map: consecutive "[room]\n<one line>" blocks separated by blank lines.
const ROOM_MAP = /^\[[a-z ]+\]\n.*(?:\n\n\[[a-z ]+\]\n.*)*/m;
const START_MARK = '\n\nYou are in: ';

/** The slot values a row records (its own text), or undefined when a part is missing. */
function rowSlots(row: SciworldPaperRow): Record<SciworldWmSlot, string> | undefined {
  const { name } = splitTaskId(row.task_id);
  const first = row.messages.find((m) => m.role === 'user')?.content ?? '';
  const at = first.indexOf(START_MARK);
  const map = ROOM_MAP.exec(row.wm_system_prompt)?.[0];
  let templates: string;
  try {
    templates = actionTemplates(name).join(', ');
  } catch {
    return undefined;
  }
  if (at < 0 || map === undefined) return undefined;
  return { task: row.instruction, task_type: name, starting_state: first.slice(at + START_MARK.length), room_map: map, action_templates: templates };
}

/** Our engine's variation of a row's task, rendered with the set. */
function ourWorldModel(row: SciworldPaperRow, set: PromptSet): string {
  const { name, variation } = splitTaskId(row.task_id);
  const task = SCIWORLD_SPLITS.flatMap((s) => sciworldTasks(s, [name])).find((t) => t.seed === variation);
  if (!task) throw new Error(`our ${name} has no variation ${variation} (${taskInfo(name).variations} variations)`);
  return worldModelSystemPrompt(task, set);
}

async function promptRows(files: readonly string[]): Promise<PromptRow[]> {
  const out: PromptRow[] = [];
  for (const f of files) {
    (await readSciworldRows(f)).forEach((row, i) => {
      out.push({
        where: `${f}:${i + 1}`,
        agentSystem: systemPromptOf(row.messages),
        worldModel: {
          theirs: row.wm_system_prompt,
          slots: () => {
            const values = rowSlots(row);
            return values && SCIWORLD_WM_SLOTS.map((s) => [s, values[s]] as const);
          },
          ours: (set) => ourWorldModel(row, set),
        },
      });
    });
  }
  return out;
}

/** Derives the paper's templates from its rows; rows that do not follow them are named. */
export async function extractSciworldPrompts(files: readonly string[]): Promise<PromptExtraction> {
  return extractPromptSet(ENV_NAME, files, await promptRows(files));
}

/** Our harness's prompts for every row with the set (our engine's variation of the row's task), compared byte for byte. */
export async function compareSciworldPrompts(files: readonly string[], set: PromptSet): Promise<PromptComparison> {
  return comparePromptSet(await promptRows(files), set, agentSystemPrompt(set));
}
