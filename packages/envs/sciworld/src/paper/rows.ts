// The paper's published ScienceWorld rows (create_sciworld_splits.py and its SFT demos): the task id
// ("{task}_v{variation}"), the task description, the agent conversation (a JSON string in the split
// files, a list in the SFT file) and `wm_system_prompt`. Read from the user's copy; the rows are the
// paper's data and never enter this repository.
import { readJsonlValues } from '@diffworld/dataset';
import { PaperRowError, chatMessagesOf, type ChatMessage } from '@diffworld/env-core';

export interface SciworldPaperRow {
  task_id: string;
  instruction: string;
  messages: ChatMessage[];
  wm_system_prompt: string;
}

/** Validates one parsed JSON value as a paper row. */
export function parseSciworldRow(value: unknown, where: string): SciworldPaperRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PaperRowError(where, 'expected a JSON object');
  const r = value as Record<string, unknown>;
  for (const f of ['task_id', 'instruction', 'wm_system_prompt'] as const) if (typeof r[f] !== 'string') throw new PaperRowError(`${where}: ${f}`, 'expected a string');
  if (!/_v\d+$/.test(r.task_id as string)) throw new PaperRowError(`${where}: task_id`, `expected "{task}_v{variation}", got ${JSON.stringify(r.task_id)}`);
  return { task_id: r.task_id as string, instruction: r.instruction as string, wm_system_prompt: r.wm_system_prompt as string, messages: messagesOf(r.messages, where) };
}

function messagesOf(v: unknown, where: string): ChatMessage[] {
  const messages = chatMessagesOf(v);
  if (!messages) throw new PaperRowError(`${where}: messages`, 'expected an array of {role, content} (or its JSON text)');
  return messages;
}

/** Every row of a JSONL file of paper rows, validated. */
export async function readSciworldRows(path: string): Promise<SciworldPaperRow[]> {
  const rows: SciworldPaperRow[] = [];
  for await (const { line, value } of readJsonlValues(path)) rows.push(parseSciworldRow(value, `${path}:${line}`));
  return rows;
}
