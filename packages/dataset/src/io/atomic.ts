// Atomic output files: bytes go to a temp file next to the target, which is fsynced and renamed
// over the target only on commit, so a killed process never leaves a half-written corpus.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DatasetError } from '../errors.js';

export class AtomicFile {
  readonly tempPath: string;
  private fd: number | undefined;
  /** Bytes written so far. */
  bytes = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    // Same directory as the target, so the rename never crosses file systems.
    this.tempPath = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      this.fd = openSync(this.tempPath, 'wx');
    } catch (e) {
      throw new DatasetError({ code: 'io', where: path, message: `cannot create output file: ${(e as Error).message}` });
    }
  }

  write(data: Uint8Array | string): void {
    if (this.fd === undefined) throw new DatasetError({ code: 'io', where: this.path, message: 'write after commit/abort' });
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.byteLength) off += writeSync(this.fd, buf, off, buf.byteLength - off);
    this.bytes += buf.byteLength;
  }

  /** Flushes to disk and renames the temp file onto the target. */
  commit(): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
    renameSync(this.tempPath, this.path);
  }

  /** Drops the temp file; the target is left as it was. */
  abort(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    try {
      unlinkSync(this.tempPath);
    } catch {
      // already gone: nothing to clean up
    }
  }
}

/** Writes a whole file atomically. */
export function writeFileAtomic(path: string, data: Uint8Array | string): void {
  const f = new AtomicFile(path);
  try {
    f.write(data);
    f.commit();
  } catch (e) {
    f.abort();
    throw e;
  }
}
