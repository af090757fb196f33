// JSON files as transformers writes them (json.dumps(indent=2, sort_keys=True) + "\n"), and a
// reader that names the file when one is broken.
import { readFile } from 'node:fs/promises';
import { CheckpointError } from './errors.js';
import { compareUtf8 } from './safetensors.js';

/**
 * Serialises like Python's json.dumps(value, indent=2, sort_keys=True) + "\n": keys sorted at every
 * level by code point (a JS object would put integer-like keys first), empty containers as {} / [].
 * Non-finite numbers have no JSON form (Python would write NaN, which JSON.parse refuses): they throw.
 */
export function toHfJson(value: unknown, file: string): string {
  return `${encode(value, '', file, '$')}\n`;
}

function encode(value: unknown, indent: string, file: string, path: string): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CheckpointError({ code: 'bad_option', file, message: `${path} is ${value}, which JSON cannot hold` });
    return JSON.stringify(value);
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v, i) => inner + encode(v, inner, file, `${path}[${i}]`)).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    entries.sort(([a], [b]) => compareUtf8(a, b));
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${encode(v, inner, file, `${path}.${k}`)}`).join(',\n')}\n${indent}}`;
  }
  throw new CheckpointError({ code: 'bad_option', file, message: `${path} is a ${typeof value}, which JSON cannot hold` });
}

/** Reads a JSON file that must hold an object; errors name the file. */
export async function readJsonObject(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new CheckpointError({ code: 'bad_checkpoint', file: path, message: `cannot read: ${(e as Error).message}` });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CheckpointError({ code: 'bad_checkpoint', file: path, message: `not valid JSON: ${(e as Error).message}` });
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new CheckpointError({ code: 'bad_checkpoint', file: path, message: 'must hold a JSON object' });
  }
  return json as Record<string, unknown>;
}
