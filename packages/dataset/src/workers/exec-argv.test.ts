import { describe, expect, it } from 'vitest';
import { SOURCE_CONDITION, workerEntry, workerExecArgv } from './exec-argv.js';

describe('workerExecArgv', () => {
  it('adds the source condition once for a pool started from TypeScript sources', () => {
    expect(workerExecArgv('file:///w/packages/eval/src/mauve/pool.ts', ['--enable-source-maps'])).toEqual(['--enable-source-maps', SOURCE_CONDITION]);
    expect(workerExecArgv('file:///w/pool.mts', [SOURCE_CONDITION, '--x'])).toEqual(['--x', SOURCE_CONDITION]);
  });

  it('keeps the parent flags only for built code, so its workers load the built packages', () => {
    expect(workerExecArgv('file:///w/packages/eval/dist/mauve/pool.js', [SOURCE_CONDITION, '--x'])).toEqual(['--x']);
  });
});

describe('workerEntry', () => {
  const entries = { source: './worker.mjs', built: './task.js' };

  it('picks the tsx shim beside a TypeScript source', () => {
    expect(workerEntry('file:///w/packages/tokenizer/src/pool/pool.ts', entries)).toBe('file:///w/packages/tokenizer/src/pool/worker.mjs');
  });

  it('picks the compiled task module beside built code, which has no shim', () => {
    expect(workerEntry('file:///w/node_modules/@diffworld/tokenizer/dist/pool/pool.js', entries)).toBe('file:///w/node_modules/@diffworld/tokenizer/dist/pool/task.js');
  });
});
