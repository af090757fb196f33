// The skip-reason summary end to end: vitest with the workspace's reporter on two throwaway test
// files (in a child process, as nx runs each project), then .ci/run's awk over two such outputs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { projectConfig } from '../../vitest.shared.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const dir = mkdtempSync(join(tmpdir(), 'dw-skip-reasons-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Globals, so that the files need no import of vitest from the temporary directory.
writeFileSync(
  join(dir, 'data.test.ts'),
  `const files = undefined;
console.log('skipping: the recordings are not at /data (missing rows.jsonl)');
it.skipIf(!files)('needs the recordings', () => {});
describe.skipIf(!files)('a block that needs them', () => { it('one', () => {}); it('two', () => {}); });
it('notes its own reason', (ctx) => { ctx.skip('no GPU here'); });
it('runs', () => {});
it.todo('later');
`,
);
writeFileSync(join(dir, 'plain.test.ts'), `it.skip('skipped without a word', () => {});\nit('notes its own reason', (ctx) => { ctx.skip('no GPU here'); });\n`);

function runWithReporter(): string {
  const r = spawnSync(process.execPath, [vitestBin, 'run', '--root', dir, '--globals', '--reporter=default', `--reporter=${join(root, 'vitest.skip-reasons.ts')}`], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('skip reasons', () => {
  const out = runWithReporter();

  it("is a reporter of every project's configuration", () => {
    expect(projectConfig().test?.reporters).toEqual(['default', join(root, 'vitest.skip-reasons.ts')]);
  });

  it('a project run ends with one line per reason: ctx.skip notes, else the lines its file printed', () => {
    const tail = out.slice(out.lastIndexOf(' Skipped '));
    expect(tail.trim().split('\n')).toEqual([
      'Skipped 6 tests, by reason:',
      '  skipped 3: the recordings are not at /data (missing rows.jsonl)',
      '  skipped 2: no GPU here',
      '  skipped 1: no reason printed (it.skip or skipIf in plain.test.ts)',
    ]);
    expect(out).toMatch(/Tests\s+1 passed \| 6 skipped \| 1 todo/); // the same count as vitest's own
  });

  it(".ci/run's awk sums the reasons of several projects", () => {
    const r = spawnSync('awk', ['-f', join(root, '.ci/skip-reasons.awk')], { input: out + out, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'skipped tests by reason (12):',
      '      6  the recordings are not at /data (missing rows.jsonl)',
      '      4  no GPU here',
      '      2  no reason printed (it.skip or skipIf in plain.test.ts)',
      '',
    ]);
  });
});
