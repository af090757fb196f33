// Where tests find the paper's published rows: ../shared/data/paper/alfworld relative to the repo
// root (never copied into the repo). Absent, a test skips with one printed reason; under CI=true a
// missing file fails instead.
import { sharedDataFiles } from '@diffworld/env-core';
import { fileURLToPath } from 'node:url';

export const PAPER_ALFWORLD_DIR = fileURLToPath(new URL('../../../../../../shared/data/paper/alfworld/', import.meta.url));
export const PAPER_ROW_FILES = ['alfworld_eval_id.jsonl', 'alfworld_rl.jsonl'] as const;

/** The paths of the paper's row files, or undefined (after saying why) when they are not here. */
export function paperRowFiles(): string[] | undefined {
  return sharedDataFiles(PAPER_ALFWORLD_DIR, PAPER_ROW_FILES, "the paper's ALFWorld rows");
}
