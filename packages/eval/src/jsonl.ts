// JSONL in and out with Python's json semantics.
import { readFile } from 'node:fs/promises';
import { DatasetError } from '@diffworld/dataset';
import { EvalError } from './errors.js';
import { pyJsonDumps, pyJsonLoads, type PyDict, type PyJson } from './pyjson.js';

/** Parses JSONL text the way `json.loads(line.strip())` for non-empty lines does; objects only. */
export function parseJsonl(text: string, where: string): PyDict[] {
  const rows: PyDict[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let v: PyJson;
    try {
      v = pyJsonLoads(line.trim());
    } catch (e) {
      if (e instanceof DatasetError) throw new EvalError('invalid_json', e.message, `${where}:${i + 1}`);
      throw e;
    }
    if (!(v instanceof Map)) throw new EvalError('bad_row', 'each line must be a JSON object', `${where}:${i + 1}`);
    rows.push(v as PyDict);
  });
  return rows;
}

export async function readJsonl(path: string): Promise<PyDict[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new EvalError('bad_row', `cannot read file: ${(e as Error).message}`, path);
  }
  return parseJsonl(text, path);
}

/** Rows as the reference writes them: `json.dumps(row, ensure_ascii=False)` per line. */
export function formatJsonl(rows: readonly PyJson[]): string {
  return rows.map((r) => pyJsonDumps(r, { ensureAscii: false }) + '\n').join('');
}
