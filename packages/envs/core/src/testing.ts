// Test support shared by the env packages: the paper's data under ../shared/data (read in place,
// skipped with one reason when absent) and rows written to a temporary JSONL file.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The paths of files under ../shared/data that a test reads, or undefined after printing one reason
 * when any is missing; under CI=true a missing file is an error instead.
 */
export function sharedDataFiles(dir: string, names: readonly string[], what: string): string[] | undefined {
  const paths = names.map((n) => dir + n);
  const missing = names.filter((n) => !existsSync(dir + n));
  if (missing.length === 0) return paths;
  const reason = `${what} are not at ${dir} (missing ${missing.join(', ')})`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI must have them`);
  console.log(`skipping: ${reason}`);
  return undefined;
}

/** Writes values as JSONL to a new temporary file and returns its path (tests build their own rows). */
export function tempJsonlFile(values: readonly unknown[], prefix = 'rows-'): string {
  const path = join(mkdtempSync(join(tmpdir(), prefix)), 'rows.jsonl');
  writeFileSync(path, values.map((v) => JSON.stringify(v)).join('\n') + '\n');
  return path;
}
