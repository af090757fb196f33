import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DatasetError } from '../errors.js';
import type { ChatRow } from '../rows.js';
import { createRowWriter, formatOf, readRows } from './files.js';
import { readJsonlRows } from './jsonl.js';
import { parquetInfo, readParquetRows } from './parquet.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'dw-corpus-'));
});

async function collect(src: AsyncIterable<ChatRow>): Promise<ChatRow[]> {
  const out: ChatRow[] = [];
  for await (const r of src) out.push(r);
  return out;
}

const rows: ChatRow[] = Array.from({ length: 25 }, (_, i) => ({
  dataset: i % 3 === 0 ? 'coderforge' : 'webshop',
  messages: [
    { role: 'system', content: `## ENVIRONMENT STATE\nrow ${i} é 😀` },
    { role: 'user', content: i % 5 === 0 ? '' : `State: []\n\nAction: look ${i}` },
    { role: 'assistant', content: `obs ${i}` },
  ],
}));

describe('JSONL', () => {
  it('reports every malformed line as file:line under skip, and counts it', async () => {
    const p = join(dir, 'in.jsonl');
    writeFileSync(
      p,
      [
        JSON.stringify(rows[0]),
        '{"messages": [',
        '',
        JSON.stringify({ messages: [{ role: 'robot', content: 'x' }] }),
        JSON.stringify([{ role: 'user', content: 'bare array' }]),
        JSON.stringify({ messages: [], extra: 1 }),
      ].join('\r\n'),
    );
    const seen: string[] = [];
    const src = readJsonlRows(p, { policy: 'skip', onIssue: (m) => seen.push(m) });
    const got = await collect(src);
    expect(got.map((r) => r.messages[0]!.content)).toEqual([rows[0]!.messages[0]!.content, 'bare array']);
    expect(src.report).toMatchObject({ rows: 2, skipped: 3, blank: 1 });
    expect(seen).toEqual([
      `${p}:2: not valid JSON (${seen[0]!.split('(')[1]!.slice(0, -1)})`,
      `${p}:4: messages[0].role: must be one of system|user|assistant|tool, got string "robot"`,
      `${p}:6: extra: unknown key (allowed: messages, dataset, meta); messages: must hold at least one message`,
    ]);
  });

  it('stops at the first bad line under strict, with a bad-input error naming it', async () => {
    const p = join(dir, 'in.jsonl');
    writeFileSync(p, `${JSON.stringify(rows[0])}\n{"messages": [{"role": "user"}]}\n`);
    const err = await collect(readJsonlRows(p)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as DatasetError).badInput).toBe(true);
    expect((err as Error).message).toContain(`${p}:2: messages[0].content: is missing`);
  });
});

describe('round trips', () => {
  for (const ext of ['jsonl', 'parquet'] as const) {
    it(`writes and reads back ${ext} exactly`, async () => {
      const p = join(dir, `out.${ext}`);
      const w = createRowWriter(p, { rowGroupRows: 7 });
      for (const r of rows) await w.write(r);
      await w.close();
      expect(await collect(readRows(p))).toEqual(rows);
      expect(readdirSync(dir)).toEqual([`out.${ext}`]); // no temp file left behind
    });
  }

  it('cuts Parquet row groups by row count and reads them one at a time', async () => {
    const p = join(dir, 'g.parquet');
    const w = createRowWriter(p, { rowGroupRows: 10, codec: 'UNCOMPRESSED' });
    for (const r of rows) await w.write(r);
    await w.close();
    const info = await parquetInfo(p);
    expect(info).toMatchObject({ rows: 25, rowGroups: [10, 10, 5], columns: ['dataset', 'messages'] });
  });

  it('keeps meta only in an explicit meta column, never dropping it silently', async () => {
    const withMeta: ChatRow = { ...rows[1]!, meta: { id: 7, tags: ['a'] } };
    const p = join(dir, 'm.parquet');
    const plain = createRowWriter(p);
    await expect(plain.write(withMeta)).rejects.toThrowError(/has meta.*--meta-column/);
    await plain.abort();
    const w = createRowWriter(p, { metaColumn: true });
    await w.write(withMeta);
    await w.write(rows[2]!);
    await w.close();
    expect(await collect(readParquetRows(p))).toEqual([withMeta, rows[2]]);
  });

  it('leaves the target untouched when a write is aborted', async () => {
    const p = join(dir, 'keep.jsonl');
    writeFileSync(p, 'old\n');
    const w = createRowWriter(p);
    await w.write(rows[0]!);
    await w.abort();
    expect(readFileSync(p, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['keep.jsonl']);
  });
});

describe('formats', () => {
  it('refuses unknown extensions and non-Parquet files with bad-input errors', async () => {
    expect(() => formatOf('x.csv')).toThrowError(/unknown corpus file extension ".csv"/);
    const p = join(dir, 'fake.parquet');
    writeFileSync(p, 'not parquet at all');
    await expect(collect(readRows(p))).rejects.toThrowError(/not a readable Parquet file/);
  });
});
