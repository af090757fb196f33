// Reproducers found by the Parquet mutation fuzzer (src/bench/parquet-fuzz.ts), one per distinct
// failure of the reader before it decoded in a sandbox: raw hyparquet/decompressor errors with a
// stack (exit 1), an unhandled rejection that killed the process, a decoder loop that never ended,
// a heap overrun that aborted the process, a row group whose row count is not a number (9 of 10
// rows read, exit 0). Each must now be a
// DatasetError with badInput that names the file and, for decoding, the row group and column.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../errors.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createParquetWriter, readParquetRows } from './parquet.js';

const dir = fileURLToPath(new URL('../../../../test-data/dataset/parquet-fuzz/', import.meta.url));
const BUDGET = { msPerRowGroup: 2_000 };

/** file → what the reader says now (the old behaviour in the comment). */
const CASES: [string, string, number?][] = [
  ['row-group-rows-nan.parquet', 'row group 4: claims NaN rows'], // read 9 of 10 rows, exit 0
  // a worker thread decoding it aborted the whole process (V8 heap limit inside a runtime call)
  ['heap-overrun.parquet', 'row group 4 (rows 10–10): decoding needed more than 128 MiB, the memory budget', 128],
  ['decoder-loops.parquet', 'row group 3 (rows 7–9): decoding took longer than 2 s, the budget for one row group'], // never returned
  ['unhandled-rejection.parquet', 'row group 4 (rows 10–10): decoding failed: the decoder stopped (exit 1): Error: thrift unhandled type: 15'], // process killed
  ['schema-element-not-found.parquet', 'row group 1 (rows 1–3), column messages.list.element.role, messages.list.element.content: cannot be decoded (parquet schema element not found'],
  ['snappy-missing-eof.parquet', 'row group 2 (rows 4–6), column messages.list.element.role, messages.list.element.content: cannot be decoded'],
  ['bitpack-offset-nan.parquet', 'row group 2 (rows 4–6), column messages.list.element.role, messages.list.element.content: cannot be decoded (parquet bitpack offset NaN out of range)'],
  ['schema-undefined-name.parquet', 'not a readable Parquet file (Cannot read properties of undefined'],
  ['page-header-v2-undefined.parquet', 'row group 1 (rows 1–3), column dataset: cannot be decoded (parquet data page header v2 is undefined)'],
  ['unhandled-type.parquet', 'row group 2 (rows 4–6), column messages.list.element.role, messages.list.element.content: cannot be decoded (parquet unhandled type: undefined)'],
  ['typed-array-length.parquet', 'row group 2 (rows 4–6), column messages.list.element.role, messages.list.element.content: cannot be decoded (Invalid typed array length: 32)'],
  ['zstd-invalid.parquet', 'row group 1 (rows 1–3), column messages.list.element.role, messages.list.element.content: cannot be decoded (invalid zstd data)'],
  ['gzip-invalid-block.parquet', 'row group 1 (rows 1–3), column messages.list.element.role, messages.list.element.content: cannot be decoded (invalid block type)'],
  ['bigint-mix.parquet', 'row group 2 (rows 4–6), column dataset: cannot be decoded (Cannot mix BigInt and other types'],
  ['negative-offset.parquet', 'row group 4 (rows 10–10), column dataset: cannot be decoded (The value of "start" is out of range'],
  ['dictionary-case.parquet', 'row group 2 (rows 4–6), column messages.list.element.role, messages.list.element.content: cannot be decoded (unexpected dictionary case)'],
];

describe('Parquet reader on fuzzer reproducers', () => {
  for (const [file, expected, heapMb] of CASES) {
    it(`${file}: a typed error naming where`, async () => {
      const path = join(dir, file);
      const strays: unknown[] = [];
      const onStray = (e: unknown) => strays.push(e);
      process.on('unhandledRejection', onStray);
      const t0 = performance.now();
      let error: unknown;
      try {
        for await (const _ of readParquetRows(path, { policy: 'skip', budget: { ...BUDGET, ...(heapMb ? { heapMb } : {}) } })) void _;
      } catch (e) {
        error = e;
      } finally {
        await new Promise((r) => setTimeout(r, 10));
        process.off('unhandledRejection', onStray);
      }
      expect(error).toBeInstanceOf(DatasetError);
      expect((error as DatasetError).badInput).toBe(true);
      expect((error as Error).message).toContain(`${path}: ${expected}`);
      expect(strays).toEqual([]);
      expect(performance.now() - t0).toBeLessThan(BUDGET.msPerRowGroup + 8_000);
    }, 20_000);
  }
});

describe('Parquet decoding budget', () => {
  it('a row group that needs more heap than the budget is a typed error; the process lives on', async () => {
    // V8 aborts a whole process when a worker thread overruns its heap inside some runtime calls
    // (the fuzzer hit it); decoding in a child process keeps that death away from the caller.
    const path = join(mkdtempSync(join(tmpdir(), 'dw-pq-budget-')), 'big.parquet');
    const w = createParquetWriter(path, { codec: 'UNCOMPRESSED' });
    const content = 'x'.repeat(20_000);
    for (let i = 0; i < 2_000; i++) await w.write({ messages: [{ role: 'user', content: content + i }] });
    await w.close();
    const read = async (heapMb: number) => {
      let n = 0;
      for await (const _ of readParquetRows(path, { budget: { heapMb } })) n++;
      return n;
    };
    await expect(read(24)).rejects.toThrow(`${path}: row group 1 (rows 1–2000): decoding needed more than 24 MiB, the memory budget`);
    expect(await read(1024)).toBe(2_000);
  }, 60_000);
});
