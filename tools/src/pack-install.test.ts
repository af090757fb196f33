// The libraries as a user gets them (issue #28): every package under packages/ is built (nx, so a
// cached build is reused), packed with `npm pack`, installed from its tarball into a scratch project
// outside the workspace, and used through its public entry by a plain node program
// (pack/consumer.mjs). Fails on a private library, a tarball without its dist/ or README or with
// tests or sources in it, an import of a package the manifest does not declare, and anything the
// program cannot do with the installed package (a worker file the build does not emit, say).
// Outside CI it skips with one printed reason when the npm registry is out of reach for a dependency
// that the npm cache does not hold; under CI=true that is a failure.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importedPackages } from './pack/imports.js';
import { cleanEnv, failure, runCommand } from './pack/npm.js';
import { buildNativeAddons, installTarballs, type Packed, packLibraries } from './pack/scratch.js';
import { type Library, listLibraries } from './pack/workspace.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONSUMER = fileURLToPath(new URL('./pack/consumer.mjs', import.meta.url));
const TOKENIZER = join(ROOT, 'test-data/wm/tokenizer.json');
const LIBS = listLibraries(ROOT);
const VERSIONS = new Map(LIBS.map((l) => [l.manifest.name, l.manifest.version]));

interface ConsumerResult {
  package: string;
  ok: boolean;
  detail?: string;
  error?: string;
}
type Prepared = { skip: string } | { packed: Map<string, Packed>; modules: string; results: Map<string, ConsumerResult> };

const timings: string[] = [];
function timed<T>(what: string, f: () => T): T {
  const start = performance.now();
  const out = f();
  timings.push(`${what} ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return out;
}

function nxName(lib: Library): string {
  const name = (lib.manifest as { nx?: { name?: string } }).nx?.name;
  if (name === undefined) throw new Error(`${lib.dir}/package.json has no nx.name`);
  return name;
}

function buildAll(): void {
  const args = ['nx', 'run-many', '-t', 'build', '-p', LIBS.map(nxName).join(','), '--outputStyle=static'];
  const run = runCommand('npx', args, { cwd: ROOT, env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' }, timeoutMs: 420_000 });
  if (run.status !== 0) throw new Error(failure(run, ROOT));
}

function runConsumer(project: string): Map<string, ConsumerResult> {
  writeFileSync(join(project, 'input.json'), JSON.stringify({ packages: LIBS.map((l) => l.manifest.name), tokenizerPath: TOKENIZER }));
  copyFileSync(CONSUMER, join(project, 'consumer.mjs'));
  // A plain node: none of the test runner's NODE_OPTIONS (loaders, conditions) reach the program.
  const env = cleanEnv(process.env);
  delete env['NODE_OPTIONS'];
  const run = runCommand(process.execPath, ['consumer.mjs', 'input.json'], { cwd: project, env, timeoutMs: 180_000 });
  const results = new Map<string, ConsumerResult>();
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('pack-check ')) continue;
    const r = JSON.parse(line.slice('pack-check '.length)) as ConsumerResult;
    results.set(r.package, r);
  }
  if (run.status !== 0 || results.size !== LIBS.length) throw new Error(`the consumer program reported ${results.size} of ${LIBS.length} packages\n${failure(run, project)}`);
  return results;
}

let scratch: string | undefined;
let prepared: Prepared | undefined;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'diffworld-pack-'));
  if (!relative(ROOT, scratch).startsWith('..')) throw new Error(`the scratch project ${scratch} is inside the workspace ${ROOT}: set TMPDIR to a folder outside it`);
  const tarballs = join(scratch, 'tarballs');
  const project = join(scratch, 'project');
  mkdirSync(tarballs);
  mkdirSync(project);
  timed('build', buildAll);
  const { packed } = timed('npm pack', () => packLibraries(ROOT, LIBS, tarballs));
  // Outside CI a registry out of reach is a skip, found out without npm's minutes of retries.
  const strict = process.env['CI'] === 'true';
  const paths = packed.map((p) => join(tarballs, p.filename));
  const install = timed('npm install', () => installTarballs(project, paths, strict ? 2 : 0));
  if (!install.ok) {
    if (strict) throw new Error(`${install.unreachable}; CI must reach the npm registry\n${failure(install.run, project)}`);
    console.log(`skipping: ${install.unreachable} (installing the packed libraries into ${project})`);
    prepared = { skip: install.unreachable };
    return;
  }
  const modules = join(project, 'node_modules');
  const copied = buildNativeAddons(ROOT, modules);
  const results = timed('consumer program', () => runConsumer(project));
  console.log(`pack-install: ${timings.join(', ')}${copied.length > 0 ? `; ${copied.join('; ')}` : ''}`);
  prepared = { packed: new Map(packed.map((p) => [p.name, p])), modules, results };
}, 600_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe.each(LIBS)('$manifest.name ($dir)', (lib) => {
  const m = lib.manifest;

  it('is public and packs dist/ and its README', () => {
    expect(m.private, `${lib.dir}/package.json: a library is published, so not private`).not.toBe(true);
    expect(m.files, `${lib.dir}/package.json: files`).toEqual(expect.arrayContaining(['dist', 'README.md']));
    for (const [name, range] of Object.entries({ ...m.dependencies, ...m.peerDependencies })) {
      if (VERSIONS.has(name)) expect(range, `${lib.dir}/package.json: ${name} is at ${VERSIONS.get(name)} in the workspace`).toBe(VERSIONS.get(name));
    }
  });

  it('installs from its tarball outside the workspace and works through its public entry', (ctx) => {
    if (prepared === undefined) throw new Error('beforeAll did not finish');
    if ('skip' in prepared) return ctx.skip(prepared.skip);
    const packed = prepared.packed.get(m.name);
    if (packed === undefined) throw new Error(`npm pack did not pack ${m.name}`);
    const files = packed.files.map((f) => f.path);
    expect(files, `${m.name}'s tarball`).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']));
    expect(
      files.filter((f) => !/^(package\.json|README\.md|LICENSE)$/.test(f) && !f.startsWith('dist/')),
      `${m.name}'s tarball holds only dist/, README.md and package.json`,
    ).toEqual([]);
    expect(
      files.filter((f) => /\.(test|bench)\.|\.map$/.test(f)),
      `${m.name}'s tarball holds no tests, benchmarks or source maps`,
    ).toEqual([]);

    // Every entry of the exports map (each subpath, each condition but the workspace's own source one) points into the tarball.
    const targets = Object.entries(m.exports ?? {}).flatMap(([sub, conditions]) =>
      Object.entries(typeof conditions === 'string' ? { default: conditions } : (conditions as Record<string, string>))
        .filter(([condition]) => condition !== '@diffworld/source')
        .map(([condition, target]) => ({ entry: `${sub} (${condition})`, file: target.replace(/^\.\//, '') })),
    );
    expect(
      targets.filter((t) => !files.includes(t.file)).map((t) => `${t.entry} → ${t.file}`),
      `${m.name}: exports that point at files the tarball lacks`,
    ).toEqual([]);

    // Every package that a packed module imports is one the manifest declares.
    const declared = new Set([m.name, ...Object.keys(m.dependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})]);
    const installed = join(prepared.modules, m.name);
    const undeclared = files
      .filter((f) => /\.[cm]?js$/.test(f))
      .flatMap((f) => importedPackages(readFileSync(join(installed, f), 'utf8')).map((p) => ({ file: f, p })))
      .filter(({ p }) => !declared.has(p))
      .map(({ file, p }) => `${file} imports ${p}`);
    // (tsc never deletes a file it no longer emits, and nx caches dist/ as it finds it.)
    expect(
      undeclared,
      `${m.name}: imports of packages its package.json does not declare (a stale file of an earlier build, which nx may have cached too? delete ${lib.dir}/dist and run npx nx reset)`,
    ).toEqual([]);

    const result = prepared.results.get(m.name)!;
    expect(result.error, `${m.name}: the consumer program failed`).toBeUndefined();
    expect(result.ok).toBe(true);
  });
});
