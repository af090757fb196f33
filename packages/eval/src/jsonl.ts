// JSONL in and out with Python's json semantics, and atomic writes (temp file + rename).
import { readFile, rename, writeFile, mkdir, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { EvalError } from './errors.js';
import { pyJsonDumps, pyJsonLoads, PyJsonDecodeError, type PyDict, type PyJson } from './pyjson.js';

/** Parses JSONL text the way `json.loads(line.strip())` for non-empty lines does; objects only. */
export function parseJsonl(text: string, where: string): PyDict[] {
  const rows: PyDict[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let v: PyJson;
    try {
      v = pyJsonLoads(line.trim());
    } catch (e) {
      if (e instanceof PyJsonDecodeError) throw new EvalError('invalid_json', e.message, `${where}:${i + 1}`);
      throw e;
    }
    if (!(v instanceof Map)) throw new EvalError('bad_row', 'each line must be a JSON object', `${where}:${i + 1}`);
    rows.push(v);
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

/** Writes through a temporary file in the same directory, then renames over the target. */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(tmp, data, 'utf8');
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw new EvalError('io', `cannot write: ${(e as Error).message}`, path);
  }
}
