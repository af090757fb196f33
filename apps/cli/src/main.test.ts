import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nearest } from './suggest.js';
import { runCli } from './testing.js';

const tokenizerJson = fileURLToPath(new URL('../../../test-data/tokenizer/ours.tokenizer.json', import.meta.url));

describe('diffworld routing', () => {
  it('an unknown command names the word, suggests the nearest commands and exits 2', async () => {
    const r = await runCli('nonsense');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^diffworld: unknown command "nonsense"/);
    expect(r.out).toBe('');

    const typo = await runCli('dat', 'validat', 'x.jsonl');
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/^diffworld: unknown command "dat"/);
    expect(typo.err).toContain('diffworld data validate');
  });

  it('--help after an unknown word is still an error, not the general usage', async () => {
    for (const argv of [
      ['nonsense', '--help'],
      ['wm', 'nonsense', '--help'],
      ['data', 'nonsense', '--help'],
    ]) {
      const r = await runCli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain('unknown command');
    }
    const inGroup = await runCli('data', 'valdate', '--help');
    expect(inGroup.err).toMatch(/^diffworld: unknown command "valdate" under "diffworld data"/);
    expect(inGroup.err).toContain('The nearest commands:\n  diffworld data validate');
  });

  it('a command group prints its commands: exit 0 with --help, 2 without', async () => {
    const help = await runCli('data', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: diffworld data <command>/);
    expect(help.out).toContain('diffworld data validate');
    expect(help.out).not.toContain('diffworld env');
    expect((await runCli('tokenizer')).code).toBe(2);
    expect((await runCli('--help')).code).toBe(0);
    expect((await runCli()).code).toBe(0);
  });

  it('an unknown top-level option is bad input', async () => {
    const r = await runCli('--verbose');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^diffworld: unknown option "--verbose"/);
  });

  it('a missing input file is bad input (exit 2, the path, no stack)', async () => {
    const r = await runCli('data', 'validate', '/nonexistent/x.jsonl');
    expect(r.code).toBe(2);
    expect(r.err).toContain('/nonexistent/x.jsonl');
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('an output directory that is a file, or an output file that is a directory, is bad input', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-cli-paths-'));
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, '{"messages":[{"role":"user","content":"hi"}]}\n');
    const split = await runCli('data', 'split', input, '--out', input, '--ratios', 'train=1');
    expect(split).toMatchObject({ code: 2, err: `diffworld data split: ${input}/train.jsonl: cannot write here: a parent of this path is a file` });
    const shards = await runCli('data', 'tokenize', input, '--tokenizer', tokenizerJson, '--out', input);
    expect(shards).toMatchObject({ code: 2, err: `diffworld data tokenize: ${input}: is a file where a directory is needed` });
    const convert = await runCli('data', 'convert', input, dir + '/');
    expect(convert.code).toBe(2);
    const train = await runCli('tokenizer', 'train', '--data', input, '--vocab-size', '300', '--out', dir);
    expect(train).toMatchObject({ code: 2, err: `diffworld tokenizer train: ${dir}: is a directory; give a file path` });
  });

  it('an extra positional argument is bad input, not silently ignored', async () => {
    const r = await runCli('data', 'validate', '/tmp/a.jsonl', 'extra');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^diffworld data validate: unexpected argument "extra" \(takes at most 1\)/);
    const enc = await runCli('tokenizer', 'encode', '--tokenizer', tokenizerJson, '--text', 'hi', 'extra');
    expect(enc.code).toBe(2);
    expect(enc.err).toContain('unexpected argument "extra" (takes no arguments, only options)');
  });

  it('suggestions: a word matching any part of a command', () => {
    expect(nearest(['validate', 'x.jsonl'], ['data validate', 'data convert', 'doctor'])).toEqual(['data validate']);
    expect(nearest(['dat', 'validat'], ['data convert', 'data validate', 'data split'])[0]).toBe('data validate');
    expect(nearest(['tokenise'], ['tokenizer train', 'data tokenize'])).toEqual(['data tokenize', 'tokenizer train']);
    expect(nearest(['zzzzzz'], ['data validate'])).toEqual([]);
  });
});

describe('diffworld startup', () => {
  it('--help loads no command module (so a broken or heavy package cannot slow it down)', () => {
    const bin = fileURLToPath(new URL('../bin/diffworld.mjs', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'dw-cli-startup-'));
    // A module hook that reports every in-repo module the process loads.
    writeFileSync(
      join(dir, 'hook.mjs'),
      "export async function load(url, context, next) { if (url.includes('/packages/') || url.includes('/commands/')) process.stderr.write('MODULE ' + url + '\\n'); return next(url, context); }\n",
    );
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});\n`);
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, bin, '--help'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('diffworld data validate');
    const loaded = r.stderr
      .split('\n')
      .filter((l) => l.startsWith('MODULE '))
      .map((l) => l.slice(7));
    expect(loaded.filter((u) => !u.endsWith('/commands/index.ts'))).toEqual([]);
  }, 30_000);
});
