// The paper's real ScienceWorld recordings, read from ../shared/data/paper/sciworld relative to the
// repo root (never copied into the repo): per task id the real task description, starting
// observation and every room's look-around (split files), and 37 real transcripts that scored 100.
// Absent, callers skip with one printed reason; under CI=true a missing file fails instead.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sharedDataFiles } from '@diffworld/env-core';

export const PAPER_SCIWORLD_DIR = fileURLToPath(new URL('../../../../../../shared/data/paper/sciworld/', import.meta.url));
export const SPLIT_FILES = ['sciworld_test_split.jsonl', 'sciworld_rl_split.jsonl'] as const;
export const TRANSCRIPT_FILE = 'sciworld_sft_gpt_perfect.jsonl';

export interface RecordedTask {
  /** "{task}_v{variation}" as the paper writes it. */
  taskId: string;
  taskType: string;
  variation: number;
  description: string;
  startObservation: string;
  /** room → the look-around text as the recording flattens it (whitespace runs → one space, no "the agent"). */
  rooms: Record<string, string>;
}

export interface RecordedTranscript {
  taskId: string;
  taskType: string;
  variation: number;
  description: string;
  startObservation: string;
  /** (action, the real observation it produced), in order. */
  steps: { action: string; observation: string }[];
  score: number;
}

export class RecordingFormatError extends Error {
  constructor(file: string, line: number, what: string) {
    super(`sciworld recordings: ${file} line ${line}: ${what}`);
    this.name = 'RecordingFormatError';
  }
}

/** The recordings' folder, or undefined (after printing why) when it is not here; throws under CI=true. */
export function recordingsDir(): string | undefined {
  return sharedDataFiles(PAPER_SCIWORLD_DIR, [...SPLIT_FILES, TRANSCRIPT_FILE], "the paper's SciWorld recordings") ? PAPER_SCIWORLD_DIR : undefined;
}

function splitTaskId(id: string, file: string, line: number): { taskType: string; variation: number } {
  const m = /^(.+)_v(\d+)$/.exec(id);
  if (!m) throw new RecordingFormatError(file, line, `task_id '${id}' is not "{task}_v{variation}"`);
  return { taskType: m[1]!, variation: Number(m[2]) };
}

function jsonLines(path: string, file: string): { row: Record<string, unknown>; line: number }[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, line: i + 1 }))
    .filter((l) => l.text.trim() !== '')
    .map(({ text, line }) => {
      try {
        return { row: JSON.parse(text) as Record<string, unknown>, line };
      } catch (e) {
        throw new RecordingFormatError(file, line, `not JSON (${(e as Error).message})`);
      }
    });
}

function str(row: Record<string, unknown>, key: string, file: string, line: number): string {
  const v = row[key];
  if (typeof v !== 'string') throw new RecordingFormatError(file, line, `field '${key}' is not a string`);
  return v;
}

const FIRST_TURN = /^Task: ([\s\S]*?)\n\nYou are in: ([\s\S]*)$/;

/** The first user turn "Task: …\n\nYou are in: …" split into description and starting observation. */
function firstTurn(content: string, file: string, line: number): { description: string; startObservation: string } {
  const m = FIRST_TURN.exec(content);
  if (!m) throw new RecordingFormatError(file, line, 'first user turn is not "Task: …\\n\\nYou are in: …"');
  return { description: m[1]!, startObservation: m[2]! };
}

/** "[room]\ntext" blocks of the world-model prompt's COMPLETE ROOM MAP section. */
function roomMap(prompt: string, file: string, line: number): Record<string, string> {
  const start = prompt.indexOf('## COMPLETE ROOM MAP\n');
  const end = prompt.indexOf('\n## ', start + 1);
  if (start < 0 || end < 0) throw new RecordingFormatError(file, line, 'wm_system_prompt has no COMPLETE ROOM MAP section');
  const rooms: Record<string, string> = {};
  for (const m of prompt.slice(start, end).matchAll(/^\[([a-z ]+)\]\n(.*)$/gm)) rooms[m[1]!] = m[2]!;
  if (Object.keys(rooms).length !== 10) throw new RecordingFormatError(file, line, `room map has ${Object.keys(rooms).length} rooms, expected 10`);
  return rooms;
}

export function readRecordedTasks(dir: string): RecordedTask[] {
  const out: RecordedTask[] = [];
  for (const file of SPLIT_FILES) {
    for (const { row, line } of jsonLines(dir + file, file)) {
      const taskId = str(row, 'task_id', file, line);
      const messages = JSON.parse(str(row, 'messages', file, line)) as { role: string; content: string }[];
      const user = messages.find((m) => m.role === 'user');
      if (!user) throw new RecordingFormatError(file, line, 'no user turn');
      out.push({ taskId, ...splitTaskId(taskId, file, line), ...firstTurn(user.content, file, line), rooms: roomMap(str(row, 'wm_system_prompt', file, line), file, line) });
    }
  }
  return out;
}

export function readRecordedTranscripts(dir: string): RecordedTranscript[] {
  const file = TRANSCRIPT_FILE;
  return jsonLines(dir + file, file).map(({ row, line }) => {
    const taskId = str(row, 'task_id', file, line);
    const messages = row['messages'] as { role: string; content: string }[];
    if (!Array.isArray(messages) || messages.length < 2) throw new RecordingFormatError(file, line, 'messages is not a list of turns');
    const [, first, ...rest] = messages;
    const steps: RecordedTranscript['steps'] = [];
    for (let i = 0; i + 1 < rest.length; i += 2) {
      if (rest[i]!.role !== 'assistant' || rest[i + 1]!.role !== 'user') throw new RecordingFormatError(file, line, `turn ${i + 2} is not an assistant/user pair`);
      steps.push({ action: rest[i]!.content, observation: rest[i + 1]!.content });
    }
    const score = row['score'];
    if (typeof score !== 'number') throw new RecordingFormatError(file, line, "field 'score' is not a number");
    return { taskId, ...splitTaskId(taskId, file, line), ...firstTurn(first!.content, file, line), steps, score };
  });
}
