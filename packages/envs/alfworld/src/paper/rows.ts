// The paper's published ALFWorld rows (build_dataset.py: its RL and evaluation JSONL): the agent's
// first turn, the game path, the goal's pddl_params and `wm_system_prompt`, whose INITIAL SCENE and
// INITIAL OBJECT LOCATIONS sections are a walk of the real scene. Read from the user's copy; the
// rows are the paper's data and never enter this repository.
import { readJsonlValues } from '@diffworld/dataset';
import { PaperRowError, type ChatMessage } from '@diffworld/env-core';
import { isTaskType, type TaskType } from '../world/tasks.js';

export interface PaperRow {
  /** The agent's system prompt and first user turn (`Observation:\n…\n\nAdmissible commands:\n- …`). */
  messages: ChatMessage[];
  /** The real game's path, e.g. `/…/json_2.1.1/valid_seen/<task dir>/trial_…/game.tw-pddl`. */
  game_file: string;
  split: string;
  task_type: TaskType;
  target_obj: string;
  destination: string;
  mrecep: string;
  toggle_target: string;
  wm_system_prompt: string;
  init_admissible: string[];
}

// A row that is not one of the paper's rows: env-core's PaperRowError (`where` names the line and field).
export { PaperRowError };

const STRING_FIELDS = ['game_file', 'split', 'task_type', 'target_obj', 'destination', 'mrecep', 'toggle_target', 'wm_system_prompt'] as const;

/** Validates one parsed JSON value as a paper row. */
export function parsePaperRow(value: unknown, where: string): PaperRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PaperRowError(where, 'expected a JSON object');
  const r = value as Record<string, unknown>;
  for (const f of STRING_FIELDS) if (typeof r[f] !== 'string') throw new PaperRowError(`${where}: ${f}`, 'expected a string');
  if (!isTaskType(r.task_type as string)) throw new PaperRowError(`${where}: task_type`, `unknown task type ${JSON.stringify(r.task_type)}`);
  const strings = (f: string) => {
    const v = r[f];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new PaperRowError(`${where}: ${f}`, 'expected an array of strings');
    return v as string[];
  };
  const messages = r.messages;
  if (!Array.isArray(messages) || !messages.every((m) => typeof m?.role === 'string' && typeof m?.content === 'string')) {
    throw new PaperRowError(`${where}: messages`, 'expected an array of {role, content}');
  }
  return { ...(r as unknown as PaperRow), messages: messages as ChatMessage[], init_admissible: strings('init_admissible') };
}

/** Every row of a JSONL file of paper rows, validated. */
export async function readPaperRows(path: string): Promise<PaperRow[]> {
  const rows: PaperRow[] = [];
  for await (const { line, value } of readJsonlValues(path)) rows.push(parsePaperRow(value, `${path}:${line}`));
  return rows;
}
