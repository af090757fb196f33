// The paper's ScienceWorld prompts, derived from its rows (never stored in this repository): the
// agent system prompt is the rows' first message; the world-model prompt is the rows' baked
// `wm_system_prompt` with its per-task parts cut out (task, type, first look-around, the room map,
// the action templates). `compareSciworldPrompts` renders each row's prompts with our harness and
// engine (task "{name}_v{variation}" → our variation) and counts the byte-identical ones.
import { deriveTemplate, firstDifference, promptSetOf, type DerivedTemplate, type PromptComparison, type PromptExtraction, type PromptSet, type TemplateExample } from '@diffworld/env-core';
import { ENV_NAME, sciworldTasks } from '../world/tasks/split-tasks.js';
import { SCIWORLD_SPLITS, taskInfo } from '../world/tasks/catalog.js';
import { SCIWORLD_WM_SLOTS, actionTemplates, agentSystemPrompt, worldModelSystemPrompt, type SciworldWmSlot } from '../harness/prompt-set.js';
import { readSciworldRows, type SciworldPaperRow } from './rows.js';

interface PlacedRow {
  where: string;
  row: SciworldPaperRow;
}

async function readAll(files: readonly string[]): Promise<PlacedRow[]> {
  const out: PlacedRow[] = [];
  for (const f of files) (await readSciworldRows(f)).forEach((row, i) => out.push({ where: `${f}:${i + 1}`, row }));
  return out;
}

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

const systemOf = (row: SciworldPaperRow) => (row.messages[0]?.role === 'system' ? row.messages[0].content : undefined);

function withSkipped(d: DerivedTemplate, skipped: readonly string[]): DerivedTemplate {
  return { ...d, provenance: { ...d.provenance, examples: d.provenance.examples + skipped.length }, disagreeing: [...skipped, ...d.disagreeing] };
}

/** Derives the paper's templates from its rows; rows that do not follow them are named. */
export async function extractSciworldPrompts(files: readonly string[]): Promise<PromptExtraction> {
  const rows = await readAll(files);
  const agent: TemplateExample[] = [];
  const wm: TemplateExample[] = [];
  const noSystem: string[] = [];
  const noSlots: string[] = [];
  for (const { where, row } of rows) {
    const system = systemOf(row);
    if (system === undefined) noSystem.push(where);
    else agent.push({ where, text: system, slots: [] });
    const values = rowSlots(row);
    if (!values) noSlots.push(where);
    else wm.push({ where, text: row.wm_system_prompt, slots: SCIWORLD_WM_SLOTS.map((s) => [s, values[s]] as const) });
  }
  return promptSetOf(ENV_NAME, files, withSkipped(deriveTemplate(agent, 'sciworld agentSystem'), noSystem), withSkipped(deriveTemplate(wm, 'sciworld worldModel'), noSlots));
}

/** Our harness's prompts for every row with the set (our engine's variation of the row's task), compared byte for byte. */
export async function compareSciworldPrompts(files: readonly string[], set: PromptSet): Promise<PromptComparison> {
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
    const { name, variation } = splitTaskId(row.task_id);
    let ours: string;
    try {
      const task = SCIWORLD_SPLITS.flatMap((s) => sciworldTasks(s, [name])).find((t) => t.seed === variation);
      if (!task) throw new Error(`our ${name} has no variation ${variation} (${taskInfo(name).variations} variations)`);
      ours = worldModelSystemPrompt(task, set);
    } catch (e) {
      cmp.unavailable.push({ where, why: (e as Error).message });
      continue;
    }
    if (ours === row.wm_system_prompt) cmp.worldModelIdentical++;
    else differs(where, 'worldModel', ours, row.wm_system_prompt);
  }
  return cmp;
}
