// Test helpers shared by this package's tests: locating committed fixtures.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Reads a committed golden file; a missing one fails loudly with the command that makes it. */
export function readGolden<T>(relative: string, generator: string): T {
  const path = join(REPO_ROOT, 'test-data', 'golden', relative);
  if (!existsSync(path)) throw new Error(`golden file ${path} is missing: generate it with \`${generator}\` and commit it`);
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
