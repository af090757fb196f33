// A user's view of the packages: tarballs from `npm pack`, installed into a fresh project outside
// the workspace (so nothing resolves through the workspace's node_modules or its sources).
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CommandResult, cleanEnv, failure, registryUnreachable, runCommand } from './npm.js';
import { type Library, type Manifest, readManifest } from './workspace.js';

export interface PackedFile {
  path: string;
}
export interface Packed {
  name: string;
  version: string;
  filename: string;
  files: PackedFile[];
}

/** `npm pack` of every library in one npm run; the tarballs land in `dest`. */
export function packLibraries(root: string, libs: readonly Library[], dest: string): { packed: Packed[]; run: CommandResult } {
  const args = ['pack', '--json', '--pack-destination', dest, ...libs.flatMap((l) => ['--workspace', l.dir])];
  const run = runCommand('npm', args, { cwd: root, env: cleanEnv(process.env), timeoutMs: 120_000 });
  if (run.status !== 0) throw new Error(failure(run, root));
  const packed = JSON.parse(run.stdout) as Packed[];
  return { packed, run };
}

export type InstallOutcome = { ok: true; run: CommandResult } | { ok: false; unreachable: string; run: CommandResult };

/**
 * Creates the scratch project at `dir` and installs the tarballs there as a user would. First from
 * the machine's npm cache alone (`--offline`: no network at all when an earlier install fetched
 * everything); when the cache lacks something (`npm ci` of the workspace fetches tarballs but not
 * the package documents that resolving a version range needs), again with the registry for what is
 * missing (`--prefer-offline`), retrying a failed request `fetchRetries` times. Install scripts stay
 * off; see `buildNativeAddons` for the ones that the workspace runs.
 */
export function installTarballs(dir: string, tarballs: readonly string[], fetchRetries: number): InstallOutcome {
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'diffworld-pack-consumer', version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`);
  // onnxruntime-node's install script would download the CUDA provider; scripts are off anyway, and the variable keeps it off for any npm that runs it.
  const env = cleanEnv(process.env, { ONNXRUNTIME_NODE_INSTALL: 'skip' });
  const install = (mode: string[]) =>
    runCommand('npm', ['install', ...mode, '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', '--loglevel=error', ...tarballs], { cwd: dir, env, timeoutMs: 300_000 });
  const offline = install(['--offline']);
  if (offline.status === 0) return { ok: true, run: offline };
  if (!/\bENOTCACHED\b/.test(offline.stderr)) throw new Error(failure(offline, dir));
  const run = install(['--prefer-offline', `--fetch-retries=${fetchRetries}`]);
  if (run.status === 0) return { ok: true, run };
  const unreachable = registryUnreachable(run);
  if (unreachable === undefined) throw new Error(failure(run, dir));
  return { ok: false, unreachable, run };
}

/** Every installed package under `nodeModules` (nested node_modules included): its folder and manifest. */
export function installedPackages(nodeModules: string): { dir: string; manifest: Manifest & { scripts?: Record<string, string> } }[] {
  const out: { dir: string; manifest: Manifest & { scripts?: Record<string, string> } }[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => join(modules, entry, n)) : [join(modules, entry)];
      for (const dir of dirs) {
        if (!existsSync(join(dir, 'package.json'))) continue;
        out.push({ dir, manifest: readManifest(join(dir, 'package.json')) });
        visit(join(dir, 'node_modules'));
      }
    }
  };
  visit(nodeModules);
  return out;
}

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'] as const;

/**
 * The install scripts skipped in the scratch project, settled the way the workspace settles them
 * (the root package.json's `allowScripts`): a package the workspace denies stays as installed (the
 * workspace runs without its script too); a package it allows gets the `build/` folder that its
 * script produced in the workspace, the same version for the same Node (compiling better-sqlite3's
 * SQLite again takes minutes on 2 cores and tests nothing of ours). A package with a script that
 * `allowScripts` does not mention is an error naming it. Returns what was copied, as lines.
 */
export function buildNativeAddons(root: string, scratchModules: string): string[] {
  const allow = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
  const copied: string[] = [];
  for (const { dir, manifest } of installedPackages(scratchModules)) {
    if (!INSTALL_SCRIPTS.some((s) => manifest.scripts?.[s] !== undefined)) continue;
    const allowed = allow[manifest.name];
    if (allowed === undefined)
      throw new Error(`${manifest.name}@${manifest.version} (${dir}) has an install script that the root package.json's allowScripts does not mention: decide there whether it runs`);
    if (!allowed) continue;
    const built = join(root, 'node_modules', manifest.name);
    const version = existsSync(join(built, 'package.json')) ? readManifest(join(built, 'package.json')).version : undefined;
    if (version !== manifest.version)
      throw new Error(`${manifest.name}@${manifest.version} needs its install script, and the workspace has ${version ?? 'no copy'} built to stand in for it (run npm ci)`);
    if (!existsSync(join(built, 'build'))) throw new Error(`${manifest.name}: the workspace's copy has no build/ folder (its install script did not run: npm ci)`);
    cpSync(join(built, 'build'), join(dir, 'build'), { recursive: true });
    copied.push(`${manifest.name}@${manifest.version}: build/ from the workspace`);
  }
  return copied;
}
