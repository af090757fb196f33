// Where tests find the paper's published rows: ../shared/data/paper/alfworld relative to the repo
// root (never copied into the repo). Absent, a test skips with one printed reason; under CI=true a
// missing file fails instead.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PAPER_ALFWORLD_DIR = fileURLToPath(new URL('../../../../../../shared/data/paper/alfworld/', import.meta.url));
export const PAPER_ROW_FILES = ['alfworld_eval_id.jsonl', 'alfworld_rl.jsonl'] as const;

/** The paths of the paper's row files, or undefined (after saying why) when they are not here. */
export function paperRowFiles(): string[] | undefined {
  const paths = PAPER_ROW_FILES.map((f) => PAPER_ALFWORLD_DIR + f);
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length === 0) return paths;
  const reason = `the paper's ALFWorld rows are not at ${PAPER_ALFWORLD_DIR} (missing ${missing.join(', ')})`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI must have them`);
  console.log(`skipping: ${reason}`);
  return undefined;
}
