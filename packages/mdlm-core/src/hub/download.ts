// One file from the Hub into blobs/<etag>: streamed into blobs/<etag>.incomplete (resumed with a
// Range request when a previous run left one, as huggingface_hub does), checked against the size
// and hash the Hub's tree gives (sha256 for LFS files, the git blob id for the rest), then renamed
// into place. A cut connection leaves only the .incomplete; a file that fails its check is removed.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { processAlive } from '../checkpoint/fs-utils.js';
import { HubError } from './errors.js';
import { errorFromResponse, isNetworkError, networkReason } from './http.js';

/** What the Hub's tree says a file is. */
export interface RemoteFile {
  /** Path inside the repository. */
  path: string;
  size: number;
  /** The cache's blob name: the LFS sha256 for LFS files, else the git blob id. */
  etag: string;
  /** The LFS sha256 of the contents, when the file is in LFS. */
  sha256?: string;
  /** The git blob id (sha1 of "blob <size>\0" + contents), for files not in LFS. */
  gitOid?: string;
}

export interface DownloadProgress {
  repo: string;
  file: string;
  /** Bytes in the blob so far (a resumed download starts at its partial size). */
  received: number;
  total: number;
  /** Bytes that were already on disk from an earlier run. */
  resumedFrom: number;
  done: boolean;
}

export interface BlobDownload {
  repo: string;
  url: string;
  token: string | undefined;
  file: RemoteFile;
  blobPath: string;
  incompletePath: string;
  lockPath: string;
  timeoutMs: number;
  onProgress?: (p: DownloadProgress) => void;
  log?: (line: string) => void;
  /** Pause before resuming after a dropped connection, per attempt (ms); default 500. */
  retryDelayMs?: number;
}

/** Attempts in a row that may be resumed after a dropped connection, while each one makes progress. */
const MAX_ATTEMPTS = 5;

/** Downloads and checks one blob; returns the number of bytes fetched over the network. */
export async function downloadBlob(d: BlobDownload): Promise<number> {
  await mkdir(dirname(d.blobPath), { recursive: true });
  const release = await acquireLock(d);
  try {
    // Another process may have finished it while we waited for the lock.
    if ((await sizeOf(d.blobPath)) === d.file.size) return 0;
    let fetched = 0;
    for (let attempt = 1; ; attempt++) {
      const before = (await sizeOf(d.incompletePath)) ?? 0;
      try {
        fetched += await fetchInto(d);
        break;
      } catch (e) {
        if (!(e instanceof HubError && e.code === 'interrupted')) throw e;
        const after = (await sizeOf(d.incompletePath)) ?? 0;
        if (after <= before || attempt >= MAX_ATTEMPTS) throw e;
        fetched += after - before;
        d.log?.(`${d.repo}: ${d.file.path}: connection lost at ${after} of ${d.file.size} bytes; resuming (attempt ${attempt + 1})`);
        await new Promise((r) => setTimeout(r, (d.retryDelayMs ?? 500) * attempt));
      }
    }
    await verify(d);
    await rename(d.incompletePath, d.blobPath);
    return fetched;
  } finally {
    await release();
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

/** Appends the rest of the file to the .incomplete (from its current size). */
async function fetchInto(d: BlobDownload): Promise<number> {
  const { file } = d;
  let start = (await sizeOf(d.incompletePath)) ?? 0;
  if (start > file.size) {
    await rm(d.incompletePath, { force: true });
    start = 0;
  }
  if (start > 0 && start === file.size) return 0;
  const headers: Record<string, string> = { 'accept-encoding': 'identity', 'user-agent': 'diffworld; hf_hub/compatible' };
  if (d.token) headers['authorization'] = `Bearer ${d.token}`;
  if (start > 0) headers['range'] = `bytes=${start}-`;
  // An idle timeout, not a total one: a large file may take hours, a stalled connection may not.
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), d.timeoutMs);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), d.timeoutMs);
  };
  try {
    return await fetchBody(d, start, headers, controller.signal, alive);
  } finally {
    clearTimeout(timer);
  }
}

async function fetchBody(d: BlobDownload, startAt: number, headers: Record<string, string>, signal: AbortSignal, alive: () => void): Promise<number> {
  const { file } = d;
  let start = startAt;
  let res: Response;
  try {
    res = await fetch(d.url, { headers, signal });
  } catch (e) {
    if (isNetworkError(e)) throw start > 0 ? lost(d, start, e) : new HubError({ code: 'unreachable', repo: d.repo, file: file.path, message: `cannot fetch ${d.url} (${networkReason(e)})` });
    throw e;
  }
  if (res.status === 416 && start > 0) {
    // The partial file does not fit this blob any more: start over.
    await res.body?.cancel();
    await rm(d.incompletePath, { force: true });
    return fetchInto(d);
  }
  if (!res.ok) throw await errorFromResponse(res, d.repo, file.path);
  if (start > 0 && res.status !== 206) {
    d.log?.(`${d.repo}: ${file.path}: the server ignored the range request; downloading from the start`);
    start = 0;
  } else if (start > 0) {
    const m = /^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '');
    if (!m || Number(m[1]) !== start) {
      await res.body?.cancel();
      throw new HubError({ code: 'bad_response', repo: d.repo, file: file.path, message: `asked for bytes ${start}- and got Content-Range "${res.headers.get('content-range')}"` });
    }
  }
  const out = await open(d.incompletePath, start > 0 ? 'a' : 'w');
  let received = start;
  const report = (done: boolean) => d.onProgress?.({ repo: d.repo, file: file.path, received, total: file.size, resumedFrom: start, done });
  try {
    report(false);
    if (!res.body) throw new HubError({ code: 'bad_response', repo: d.repo, file: file.path, message: 'the response has no body' });
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        alive();
        await out.write(chunk);
        received += chunk.byteLength;
        if (received > file.size) break;
        report(false);
      }
    } catch (e) {
      if (isNetworkError(e)) throw lost(d, received, e);
      throw e;
    }
    await out.sync();
  } finally {
    await out.close();
  }
  if (received < file.size) {
    throw new HubError({
      code: 'truncated',
      repo: d.repo,
      file: file.path,
      message: `the server ended the file after ${received} of ${file.size} bytes; the partial download stays in the cache as ${d.incompletePath} and the next run resumes it`,
    });
  }
  report(true);
  return received - start;
}

function lost(d: BlobDownload, received: number, e: unknown): HubError {
  return new HubError({
    code: 'interrupted',
    repo: d.repo,
    file: d.file.path,
    message: `the connection was lost after ${received} of ${d.file.size} bytes (${networkReason(e)}); the partial download stays in the cache as ${d.incompletePath} and the next run resumes it`,
  });
}

/** Size and hash of the finished .incomplete against the tree's; a bad file is removed. */
async function verify(d: BlobDownload): Promise<void> {
  const { file } = d;
  const fail = async (message: string) => {
    await rm(d.incompletePath, { force: true });
    return new HubError({ code: 'checksum', repo: d.repo, file: file.path, message: `${message}; the file was removed from the cache` });
  };
  const size = (await sizeOf(d.incompletePath)) ?? 0;
  if (size !== file.size) throw await fail(`downloaded ${size} bytes, the Hub says the file has ${file.size}`);
  if (file.sha256) {
    const got = await hashFile(d.incompletePath, createHash('sha256'));
    if (got !== file.sha256) throw await fail(`sha256 ${got} differs from the Hub's ${file.sha256}`);
  } else if (file.gitOid) {
    const h = createHash('sha1').update(`blob ${size}\0`);
    const got = await hashFile(d.incompletePath, h);
    if (got !== file.gitOid) throw await fail(`git blob id ${got} differs from the Hub's ${file.gitOid}`);
  }
}

async function hashFile(path: string, h: Hash): Promise<string> {
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * An exclusive lock on one blob among DiffWorld processes (a file created with O_EXCL holding the
 * owner's pid; a dead owner's lock is taken over). Python's locks are separate files beside ours.
 */
async function acquireLock(d: BlobDownload): Promise<() => Promise<void>> {
  await mkdir(dirname(d.lockPath), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      await writeFile(d.lockPath, String(process.pid), { flag: 'wx' });
      return () => rm(d.lockPath, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new HubError({ code: 'cache', repo: d.repo, file: d.file.path, message: `cannot create the lock ${d.lockPath} (${(e as Error).message})` });
      }
    }
    const owner = Number((await readFile(d.lockPath, 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(owner) || owner <= 0 || owner === process.pid || !processAlive(owner)) {
      await rm(d.lockPath, { force: true });
      continue;
    }
    if (!announced) d.log?.(`${d.repo}: ${d.file.path}: waiting for process ${owner}, which is downloading it`);
    announced = true;
    await new Promise((r) => setTimeout(r, 200));
  }
}
