// The dependency direction of shared/DESIGN.md, as data, and a checker that reads every project's
// package.json and source imports. A wrong import fails the `tools:test` target.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The environment engines as one group: every project under packages/envs/ except the contract
 * (env-core) and the registry (envs). An entry or a list naming ENV_ENGINES means each of them, so
 * adding a fourth environment touches no line here.
 */
export const ENV_ENGINES = 'env engines';
const NOT_ENGINES = new Set(['env-core', 'envs']);

/** Which in-repo projects each project may import. Packages never import apps. */
export const ALLOWED_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = {
  dataset: [],
  config: [],
  'env-core': ['dataset'],
  tokenizer: ['dataset'],
  'mdlm-core': ['config', 'tokenizer', 'dataset'],
  [ENV_ENGINES]: ['env-core', 'dataset'],
  envs: ['env-core', ENV_ENGINES],
  eval: ['dataset', 'tokenizer', 'mdlm-core', 'env-core', 'envs', ENV_ENGINES],
  grpo: ['config', 'dataset', 'tokenizer', 'mdlm-core', 'env-core', 'envs', 'eval'],
  experiments: ['config', 'dataset', 'tokenizer', 'mdlm-core', 'env-core', 'envs', 'eval', 'grpo'],
  'wm-server': ['dataset', 'tokenizer', 'mdlm-core', 'env-core', 'envs', 'eval'],
  cli: ['config', 'dataset', 'tokenizer', 'mdlm-core', 'env-core', 'envs', ENV_ENGINES, 'eval', 'grpo', 'experiments', 'wm-server'],
  tools: [],
};

/** A project's entry: its own, or the engines' group entry for an engine. */
function allowedFor(project: Project, engines: ReadonlySet<string>): readonly string[] | undefined {
  const own = ALLOWED_DEPENDENCIES[project.name] ?? (engines.has(project.name) ? ALLOWED_DEPENDENCIES[ENV_ENGINES] : undefined);
  return own?.flatMap((d) => (d === ENV_ENGINES ? [...engines] : [d]));
}

/** The engine projects: packages/envs/<x> other than env-core and envs. */
export function envEngines(projects: readonly Project[]): Set<string> {
  return new Set(projects.filter((p) => p.root.startsWith('packages/envs/') && !NOT_ENGINES.has(p.name)).map((p) => p.name));
}

export interface Project {
  name: string; // Nx project name
  packageName: string; // npm name, @diffworld/…
  root: string; // relative to the workspace root
  declared: string[]; // in-repo projects named in package.json dependencies
  entries: string[]; // the subpaths package.json "exports" declares: '.', './testing', …
}

/**
 * Export subpaths that hold test support (fixtures, helpers): importable from tests, benches and
 * testing helpers of any project that may depend on the package, never from production code.
 */
export const TEST_ENTRIES: ReadonlySet<string> = new Set(['./testing']);

/** Tests, benches and testing helpers, by their path inside the project: what may import a test entry. */
export function isTestSupport(pathInProject: string): boolean {
  return /\.(test|bench)\.[cm]?[jt]s$/.test(pathInProject) || /(^|\/)(testing|bench)(\/|\.[cm]?[jt]s$)/.test(pathInProject);
}

/** The subpaths of a package.json "exports" field ('.' alone for a plain string or conditions object). */
function entriesOf(exports: unknown): string[] {
  if (exports === undefined) return [];
  if (typeof exports === 'string' || Array.isArray(exports)) return ['.'];
  const keys = Object.keys(exports as object);
  return keys.some((k) => k.startsWith('.')) ? keys : ['.'];
}

export interface Violation {
  project: string;
  file: string;
  message: string;
}

const PROJECT_DIRS = ['packages', 'packages/envs', 'apps'];

export function listProjects(workspaceRoot: string): Project[] {
  const roots = PROJECT_DIRS.flatMap((dir) =>
    readdirSync(join(workspaceRoot, dir))
      .map((d) => join(dir, d))
      .filter((d) => safeIsFile(join(workspaceRoot, d, 'package.json'))),
  );
  roots.push('tools');
  const raw = roots.map((root) => ({ root, pkg: JSON.parse(readFileSync(join(workspaceRoot, root, 'package.json'), 'utf8')) }));
  const byPackage = new Map(raw.map(({ pkg }) => [pkg.name as string, (pkg.nx?.name ?? pkg.name) as string]));
  return raw.map(({ root, pkg }) => ({
    name: pkg.nx?.name ?? pkg.name,
    packageName: pkg.name,
    root,
    declared: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
      .filter((d) => byPackage.has(d))
      .map((d) => byPackage.get(d)!),
    entries: entriesOf(pkg.exports),
  }));
}

function safeIsFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out = out.concat(sourceFiles(p));
    else if (/\.(ts|mts|mjs|js)$/.test(entry.name)) out.push(p);
  }
  return out;
}

// Static imports/exports (also multi-line ones), side-effect imports and dynamic imports; anchored to
// statement starts so that import-like text inside strings is not mistaken for an import.
const IMPORT_RE = /^\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Every rule of the design that the tree breaks, with the file that breaks it. */
export function checkBoundaries(workspaceRoot: string): Violation[] {
  const projects = listProjects(workspaceRoot);
  const byPackage = new Map(projects.map((p) => [p.packageName, p]));
  const engines = envEngines(projects);
  const violations: Violation[] = [];
  for (const project of projects) {
    const allowed = allowedFor(project, engines);
    if (!allowed) {
      violations.push({ project: project.name, file: join(project.root, 'package.json'), message: `project "${project.name}" has no entry in ALLOWED_DEPENDENCIES (tools/src/boundaries.ts)` });
      continue;
    }
    for (const dep of project.declared) {
      if (!allowed.includes(dep)) violations.push({ project: project.name, file: join(project.root, 'package.json'), message: `depends on "${dep}", which the design does not allow` });
    }
    for (const file of sourceFiles(join(workspaceRoot, project.root))) {
      const text = readFileSync(file, 'utf8');
      const rel = relative(workspaceRoot, file);
      for (const m of text.matchAll(IMPORT_RE)) {
        const spec = (m[1] ?? m[2] ?? m[3])!;
        if (spec.startsWith('@diffworld/')) {
          const [scope, name, ...sub] = spec.split('/');
          const target = byPackage.get(`${scope}/${name}`);
          if (!target) violations.push({ project: project.name, file: rel, message: `imports unknown package "${spec}"` });
          else if (sub.length > 0 && !target.entries.includes(`./${sub.join('/')}`))
            violations.push({
              project: project.name,
              file: rel,
              message: `imports "${spec}": use the package's public API (src/index.ts, or an entry its package.json "exports" declares), not its internals`,
            });
          else if (sub.length > 0 && TEST_ENTRIES.has(`./${sub.join('/')}`) && !isTestSupport(relative(join(workspaceRoot, project.root), file)))
            violations.push({ project: project.name, file: rel, message: `imports "${spec}", a test-support entry, from production code (only tests, benches and testing helpers may)` });
          else if (target.name !== project.name && !allowed.includes(target.name)) violations.push({ project: project.name, file: rel, message: `imports "${spec}", which the design does not allow` });
          else if (target.name !== project.name && !project.declared.includes(target.name))
            violations.push({ project: project.name, file: rel, message: `imports "${spec}" without declaring it in package.json (Nx's graph would miss the edge)` });
        } else if (spec.startsWith('.')) {
          const resolved = relative(workspaceRoot, join(file, '..', spec));
          if (!resolved.startsWith(project.root + '/') && !resolved.startsWith('vitest.shared'))
            violations.push({ project: project.name, file: rel, message: `relative import "${spec}" leaves the project` });
        }
      }
    }
  }
  return violations;
}

/** Kahn's algorithm over declared dependencies; returns the projects on a cycle, if any. */
export function findCycle(projects: Project[]): string[] {
  const indegree = new Map(projects.map((p) => [p.name, 0]));
  for (const p of projects) for (const d of p.declared) indegree.set(d, (indegree.get(d) ?? 0) + 1);
  const queue = projects.filter((p) => indegree.get(p.name) === 0).map((p) => p.name);
  const byName = new Map(projects.map((p) => [p.name, p]));
  let seen = 0;
  while (queue.length) {
    const n = queue.shift()!;
    seen++;
    for (const d of byName.get(n)?.declared ?? []) {
      indegree.set(d, indegree.get(d)! - 1);
      if (indegree.get(d) === 0) queue.push(d);
    }
  }
  return seen === projects.length ? [] : [...indegree].filter(([, v]) => v > 0).map(([k]) => k);
}
