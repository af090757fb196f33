import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBoundaries, findCycle, isTestSupport, listProjects } from './boundaries.js';

const workspaceRoot = resolve(import.meta.dirname, '../..');

function fakeWorkspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'dw-boundaries-'));
  for (const dir of ['packages', 'packages/envs', 'apps', 'tools']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'tools/package.json'), JSON.stringify({ name: '@diffworld/tools', nx: { name: 'tools' } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const pkg = (name: string, deps: string[] = [], exports?: Record<string, unknown>) =>
  JSON.stringify({ name: `@diffworld/${name}`, nx: { name }, dependencies: Object.fromEntries(deps.map((d) => [`@diffworld/${d}`, '*'])), ...(exports ? { exports } : {}) });

const entry = (path: string) => ({ '@diffworld/source': `./src/${path}.ts`, types: `./dist/${path}.d.ts`, import: `./dist/${path}.js` });

describe('workspace import boundaries', () => {
  it('the real workspace follows the design', () => {
    expect(checkBoundaries(workspaceRoot)).toEqual([]);
    expect(findCycle(listProjects(workspaceRoot))).toEqual([]);
  });

  it('every project of the design exists', () => {
    const names = listProjects(workspaceRoot)
      .map((p) => p.name)
      .sort();
    expect(names).toEqual(['alfworld', 'appworld', 'cli', 'config', 'dataset', 'env-core', 'envs', 'eval', 'experiments', 'grpo', 'mdlm-core', 'sciworld', 'tokenizer', 'tools', 'wm-server']);
  });

  it('flags a package that imports an app', () => {
    const root = fakeWorkspace({
      'packages/dataset/package.json': pkg('dataset', ['cli']),
      'packages/dataset/src/index.ts': "import { main } from '@diffworld/cli';\n",
      'apps/cli/package.json': pkg('cli', ['dataset']),
    });
    const v = checkBoundaries(root);
    expect(v.map((x) => x.message)).toEqual(['depends on "cli", which the design does not allow', 'imports "@diffworld/cli", which the design does not allow']);
  });

  it('flags deep imports, undeclared imports and relative escapes', () => {
    const root = fakeWorkspace({
      'packages/dataset/package.json': pkg('dataset'),
      'packages/tokenizer/package.json': pkg('tokenizer'),
      'packages/tokenizer/src/a.ts': "import '@diffworld/dataset';\nimport '@diffworld/dataset/src/jsonl.js';\nimport '../../dataset/src/x.js';\n",
    });
    expect(checkBoundaries(root).map((x) => x.message)).toEqual([
      'imports "@diffworld/dataset" without declaring it in package.json (Nx\'s graph would miss the edge)',
      'imports "@diffworld/dataset/src/jsonl.js": use the package\'s public API (src/index.ts, or an entry its package.json "exports" declares), not its internals',
      'relative import "../../dataset/src/x.js" leaves the project',
    ]);
  });

  it('allows the subpaths a package exports, and its testing entry only from tests, benches and testing helpers', () => {
    const root = fakeWorkspace({
      'packages/dataset/package.json': pkg('dataset', [], { '.': entry('index'), './testing': entry('testing/index'), './node': entry('node') }),
      'packages/tokenizer/package.json': pkg('tokenizer', ['dataset']),
      'packages/tokenizer/src/a.test.ts': "import { fixture } from '@diffworld/dataset/testing';\n",
      'packages/tokenizer/src/bench/speed.bench.ts': "import { fixture } from '@diffworld/dataset/testing';\n",
      'packages/tokenizer/src/testing.ts': "export { fixture } from '@diffworld/dataset/testing';\n",
      'packages/tokenizer/src/b.ts': "import { fs } from '@diffworld/dataset/node';\nimport { fixture } from '@diffworld/dataset/testing';\nimport { x } from '@diffworld/dataset/other';\n",
    });
    expect(checkBoundaries(root).map((x) => `${x.file}: ${x.message}`)).toEqual([
      'packages/tokenizer/src/b.ts: imports "@diffworld/dataset/testing", a test-support entry, from production code (only tests, benches and testing helpers may)',
      'packages/tokenizer/src/b.ts: imports "@diffworld/dataset/other": use the package\'s public API (src/index.ts, or an entry its package.json "exports" declares), not its internals',
    ]);
  });

  it('tells test support from production code by the path inside the project', () => {
    expect(['src/a.test.ts', 'src/bench/load.bench.ts', 'src/bench/lm-step.ts', 'src/testing.ts', 'src/testing/fixture.ts', 'test/x.mjs'].filter(isTestSupport)).toEqual([
      'src/a.test.ts',
      'src/bench/load.bench.ts',
      'src/bench/lm-step.ts',
      'src/testing.ts',
      'src/testing/fixture.ts',
    ]);
    expect(['src/index.ts', 'src/contesting.ts', 'src/testing-report.ts', 'src/train/attest.ts'].filter(isTestSupport)).toEqual([]);
  });

  it('treats every package under packages/envs (but the contract and the registry) as an engine of the group', () => {
    const root = fakeWorkspace({
      'packages/dataset/package.json': pkg('dataset'),
      'packages/eval/package.json': pkg('eval'),
      'packages/envs/core/package.json': pkg('env-core', ['dataset']),
      // A fourth environment needs no entry of its own: the group's rule applies to it.
      'packages/envs/mars/package.json': pkg('mars', ['env-core', 'eval']),
      'packages/envs/registry/package.json': pkg('envs', ['env-core', 'mars']),
    });
    expect(checkBoundaries(root).map((x) => `${x.project}: ${x.message}`)).toEqual(['mars: depends on "eval", which the design does not allow']);
  });

  it('finds a dependency cycle', () => {
    const projects = [
      { name: 'a', packageName: 'a', root: 'a', declared: ['b'], entries: ['.'] },
      { name: 'b', packageName: 'b', root: 'b', declared: ['a'], entries: ['.'] },
      { name: 'c', packageName: 'c', root: 'c', declared: [], entries: ['.'] },
    ];
    expect(findCycle(projects).sort()).toEqual(['a', 'b']);
  });
});
