// Training-run metrics for report curves: JSONL of objects with a numeric `step` and any numeric
// fields (loss, lr, reward, …). Non-numeric fields are ignored; Python's NaN/Infinity values (as
// json.dumps writes them) are accepted and left out of the curves.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { EvalError } from '../errors.js';

export interface MetricsRun {
  /** Shown in legends: the file name unless given. */
  name: string;
  /** field → [step, value] points in file order. */
  series: Record<string, [number, number][]>;
}

const NON_FINITE_VALUE = /([:,[]\s*)(-?Infinity|NaN)(?=\s*[,}\]])/g;

export function parseMetricsJsonl(text: string, name: string): MetricsRun {
  const series: Record<string, [number, number][]> = {};
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let row: unknown;
    try {
      row = JSON.parse(line.replace(NON_FINITE_VALUE, '$1null'));
    } catch (e) {
      throw new EvalError('invalid_json', (e as Error).message, `${name}:${i + 1}`);
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new EvalError('bad_row', 'each line must be a JSON object', `${name}:${i + 1}`);
    const step = (row as Record<string, unknown>).step;
    if (typeof step !== 'number' || !Number.isFinite(step)) throw new EvalError('bad_row', `expected a numeric "step", got ${JSON.stringify(step)}`, `${name}:${i + 1}`);
    for (const [key, value] of Object.entries(row)) {
      if (key === 'step' || typeof value !== 'number' || !Number.isFinite(value)) continue;
      (series[key] ??= []).push([step, value]);
    }
  });
  return { name, series };
}

export async function readMetricsJsonl(path: string, name = basename(path)): Promise<MetricsRun> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new EvalError('bad_row', `cannot read metrics file: ${(e as Error).message}`, path);
  }
  return parseMetricsJsonl(text, name);
}
