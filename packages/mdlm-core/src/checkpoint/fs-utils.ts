// File-system steps shared by the checkpoint writers: durable renames and recognisable temp names.
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';

/**
 * Flushes a directory's entries (a rename or a new file in it) to disk. Without this a power
 * loss after rename() can bring back the old name even though the file data was fsynced.
 */
export async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
  } catch (e) {
    // Windows cannot open a directory; there the rename is as durable as the platform makes it.
    if (process.platform === 'win32') return;
    throw e;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Prefix of every temp directory the checkpoint writers create; stale ones are swept by it. */
export const TEMP_DIR_PREFIX = '.tmp-';
/** Prefix of a directory moved aside while its replacement is renamed into place. */
export const REPLACED_DIR_PREFIX = '.old-';

/**
 * `<prefix><base>-<pid>-<random>`: the pid lets a sweeper leave a live writer's temp alone,
 * the random part keeps two writers in one process apart.
 */
export function tempName(prefix: string, base: string): string {
  return `${prefix}${base}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Parses a name made by tempName(prefix, …) into its base and writer pid. */
export function parseTempName(prefix: string, name: string): { base: string; pid: number } | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const m = /^(.*)-(\d+)-[0-9a-f]{8}$/.exec(name.slice(prefix.length));
  return m ? { base: m[1]!, pid: Number(m[2]) } : undefined;
}

/** Whether a process with this id exists (signal 0 checks without signalling). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
