// A training run's directory holds `checkpoint-000100`, `checkpoint-000200`, … (each written whole
// by saveCheckpoint). These helpers find the latest one to resume from, keep the last K, and sweep
// what a killed writer left behind.
import { existsSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CONFIG_FILE } from './directory.js';
import { CheckpointError } from './errors.js';
import { REPLACED_DIR_PREFIX, TEMP_DIR_PREFIX, parseTempName, processAlive, tempName } from './fs-utils.js';
import { indexFileName, singleFileName } from './shards.js';

const CHECKPOINT_NAME = /^checkpoint-(\d+)$/;

/** `checkpoint-000100`: six digits at least, so names sort like steps up to a million. */
export function checkpointDirName(step: number): string {
  if (!Number.isSafeInteger(step) || step < 0) {
    throw new CheckpointError({ code: 'bad_option', file: '(checkpoint name)', message: `step must be a non-negative integer, got ${step}` });
  }
  return `checkpoint-${String(step).padStart(6, '0')}`;
}

export interface CheckpointEntry {
  readonly step: number;
  readonly path: string;
}

/** A checkpoint directory with its config and weights (saveCheckpoint renames only complete ones into place). */
function isComplete(path: string): boolean {
  return existsSync(join(path, CONFIG_FILE)) && (existsSync(join(path, singleFileName())) || existsSync(join(path, indexFileName())));
}

/** Complete `checkpoint-N` directories of a run, by ascending step (none when the run dir does not exist). */
export async function listCheckpoints(runDir: string): Promise<CheckpointEntry[]> {
  const names = await readdir(runDir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  const out: CheckpointEntry[] = [];
  for (const name of names) {
    const m = CHECKPOINT_NAME.exec(name);
    if (!m) continue;
    const path = join(runDir, name);
    // A concurrent prune may remove an entry between readdir and stat: it is simply not listed.
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory() && isComplete(path)) out.push({ step: Number(m[1]), path });
  }
  return out.sort((a, b) => a.step - b.step);
}

/** The complete checkpoint with the highest step, if any. */
export async function latestCheckpoint(runDir: string): Promise<CheckpointEntry | undefined> {
  return (await listCheckpoints(runDir)).at(-1);
}

/**
 * Deletes all but the last `keepLast` complete checkpoints; returns the deleted paths. Each is first
 * renamed to a temp name (atomic), so a prune killed half way never leaves a partial checkpoint
 * that looks complete — only a temp directory the sweeper removes.
 */
export async function pruneCheckpoints(runDir: string, keepLast: number): Promise<string[]> {
  if (!Number.isSafeInteger(keepLast) || keepLast < 1) {
    throw new CheckpointError({ code: 'bad_option', file: runDir, message: `keepLast must be an integer ≥ 1, got ${keepLast}` });
  }
  const all = await listCheckpoints(runDir);
  const doomed = all.slice(0, Math.max(0, all.length - keepLast));
  for (const { path } of doomed) {
    const trash = join(runDir, tempName(TEMP_DIR_PREFIX, `deleted-${basename(path)}`));
    await rename(path, trash);
    await rm(trash, { recursive: true, force: true });
  }
  return doomed.map((d) => d.path);
}

export interface SweepReport {
  /** Temp directories and files removed. */
  readonly removed: readonly string[];
  /** Directories put back under their own name (a replace killed between its two renames). */
  readonly restored: readonly string[];
}

/** `.<file>.<pid>.<8 hex>.tmp`: the temp files of @diffworld/dataset's AtomicFile. */
const ATOMIC_FILE_TEMP = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/**
 * Cleans what killed writers left in `dir` (a run directory, or any directory checkpoints or
 * safetensors files are written into): `.tmp-…` directories, AtomicFile temp files, and `.old-X-…`
 * directories — removed when X exists, renamed back to X when it does not (the writer died after
 * moving the old X aside and before the new one took its place). Entries whose writer process is
 * still alive are left alone.
 */
export async function sweepStaleTemp(dir: string): Promise<SweepReport> {
  const removed: string[] = [];
  const restored: string[] = [];
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(dir, name);
    const temp = parseTempName(TEMP_DIR_PREFIX, name);
    const old = parseTempName(REPLACED_DIR_PREFIX, name);
    const atomic = ATOMIC_FILE_TEMP.exec(name);
    const pid = temp?.pid ?? old?.pid ?? (atomic ? Number(atomic[1]) : undefined);
    if (pid === undefined || processAlive(pid)) continue;
    if (old && !existsSync(join(dir, old.base))) {
      await rename(path, join(dir, old.base));
      restored.push(join(dir, old.base));
      continue;
    }
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return { removed, restored };
}
