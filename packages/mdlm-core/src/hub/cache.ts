// The huggingface_hub cache layout, read and written the way Python's library does, so a model
// downloaded by either is found by the other:
//   <cache>/models--org--name/blobs/<etag>            file contents, named by the Hub's etag
//                                                     (sha256 for LFS files, the git blob id otherwise)
//   <cache>/models--org--name/blobs/<etag>.incomplete a download in progress (resumed by either)
//   <cache>/models--org--name/snapshots/<commit>/<path>  relative symlink to ../../blobs/<etag>
//   <cache>/models--org--name/refs/<revision>         the commit the branch or tag resolved to
// A blob only ever appears complete (renamed from .incomplete after its checks), a snapshot link only
// to a complete blob, and a ref only once every file of its snapshot is linked.
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { writeFileAtomic } from '@diffworld/dataset';
import { tempName } from '../checkpoint/fs-utils.js';
import { COMMIT_HASH, repoFolderName } from './reference.js';

export class RepoCache {
  /** `<cache>/models--org--name`. */
  readonly root: string;
  constructor(
    readonly cacheDir: string,
    readonly repoId: string,
  ) {
    this.root = join(cacheDir, repoFolderName(repoId));
  }

  blobPath(etag: string): string {
    return join(this.root, 'blobs', etag);
  }

  incompletePath(etag: string): string {
    return `${this.blobPath(etag)}.incomplete`;
  }

  snapshotDir(commit: string): string {
    return join(this.root, 'snapshots', commit);
  }

  /** Where huggingface_hub keeps its per-blob lock files; ours sit beside them under another name. */
  lockPath(etag: string): string {
    return join(this.cacheDir, '.locks', repoFolderName(this.repoId), `${etag}.diffworld.lock`);
  }

  /** The commit `revision` stands for in this cache: itself when a commit hash, else refs/<revision>. */
  commitOf(revision: string): string | undefined {
    if (COMMIT_HASH.test(revision)) return revision;
    try {
      const commit = readFileSync(join(this.root, 'refs', revision), 'utf8').trim();
      return COMMIT_HASH.test(commit) ? commit : undefined;
    } catch {
      return undefined;
    }
  }

  /** Records that `revision` resolved to `commit` (no trailing newline, as Python writes it). */
  writeRef(revision: string, commit: string): void {
    if (revision === commit) return;
    writeFileAtomic(join(this.root, 'refs', revision), commit);
  }

  /** Whether snapshots/<commit>/<file> resolves to a file (a dangling link does not count). */
  hasFile(commit: string, file: string): boolean {
    try {
      return statSync(join(this.snapshotDir(commit), file)).isFile();
    } catch {
      return false;
    }
  }

  /** Size of a complete blob, or undefined. */
  blobSize(etag: string): number | undefined {
    try {
      return statSync(this.blobPath(etag)).size;
    } catch {
      return undefined;
    }
  }

  /**
   * Points snapshots/<commit>/<file> at blobs/<etag> with a relative link (the cache can move), made
   * under a temp name and renamed over any previous entry so a reader never sees it half made.
   */
  async linkSnapshotFile(commit: string, file: string, etag: string): Promise<void> {
    const pointer = join(this.snapshotDir(commit), file);
    await mkdir(dirname(pointer), { recursive: true });
    const target = relative(dirname(pointer), this.blobPath(etag));
    const temp = join(dirname(pointer), tempName('.tmp-', 'link'));
    await symlink(target, temp);
    try {
      // A directory in the way is not ours to remove; rename fails on it and says so.
      if (existsSync(pointer) && !lstatSync(pointer).isSymbolicLink() && lstatSync(pointer).isDirectory()) throw new Error(`${pointer} is a directory`);
      await rename(temp, pointer);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
  }
}
