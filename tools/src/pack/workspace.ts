// The workspace's library packages: every package.json under packages/ and packages/envs/ (the
// root package.json's workspace globs that hold libraries; apps/ and tools/ are never published).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  files?: string[];
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface Library {
  /** The package's folder, relative to the workspace root (e.g. packages/envs/core). */
  readonly dir: string;
  readonly manifest: Manifest;
}

/** Folders (relative to the root) whose sub-folders are library packages. */
export const LIBRARY_FOLDERS = ['packages', 'packages/envs'] as const;

export function readManifest(path: string): Manifest {
  const m = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
  if (typeof m.name !== 'string' || typeof m.version !== 'string') throw new Error(`${path}: a package.json needs a name and a version`);
  return m as Manifest;
}

/** Every library package of the workspace at `root`, in a stable order. */
export function listLibraries(root: string): Library[] {
  return LIBRARY_FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, folder, d.name, 'package.json')))
      .map((d) => `${folder}/${d.name}`)
      .sort(),
  ).map((dir) => ({ dir, manifest: readManifest(join(root, dir, 'package.json')) }));
}
