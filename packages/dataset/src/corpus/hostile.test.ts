// Hostile JSONL: bytes that are not UTF-8, meta nested thousands deep, numbers beyond float64,
// lone surrogates. Each is an error naming file:line (or the row), never a silent change.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../errors.js';
import { firstInvalidUtf8 } from '../io/lines.js';
import { MAX_META_DEPTH, type ChatRow } from '../rows.js';
import { createJsonlWriter, readJsonlRows, readJsonlValues, rowToJson } from './jsonl.js';
import { createParquetWriter } from './parquet.js';

const dir = mkdtempSync(join(tmpdir(), 'dw-hostile-'));
const GOOD = '{"messages":[{"role":"user","content":"hi"}]}';
const file = (name: string, content: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
async function readAll(path: string): Promise<ChatRow[]> {
  const rows: ChatRow[] = [];
  for await (const r of readJsonlRows(path)) rows.push(r);
  return rows;
}
async function readError(path: string): Promise<DatasetError> {
  try {
    await readAll(path);
  } catch (e) {
    expect(e).toBeInstanceOf(DatasetError);
    expect((e as DatasetError).badInput).toBe(true);
    return e as DatasetError;
  }
  throw new Error(`${path} was accepted`);
}
const row = (meta: Record<string, unknown>): string => `{"messages":[{"role":"user","content":"hi"}],"meta":${JSON.stringify(meta)}}`;

describe('JSONL: invalid UTF-8', () => {
  it('is an error naming the line that holds the bad byte, under strict; counted under skip', async () => {
    const bytes = Buffer.concat([Buffer.from(GOOD + '\n'), Buffer.from('{"messages":[{"role":"user","content":"a'), Buffer.from([0xff]), Buffer.from('b"}]}\n'), Buffer.from(GOOD + '\n')]);
    const path = file('bad-utf8.jsonl', bytes);
    const e = await readError(path);
    expect(e.message).toMatch(new RegExp(`^${path}:2: not valid UTF-8 \\(byte 41 of the line\\)`));
    const src = readJsonlRows(path, { policy: 'skip' });
    const rows: ChatRow[] = [];
    for await (const r of src) rows.push(r);
    expect(rows).toHaveLength(2);
    expect(src.report.skipped).toBe(1);
    const values: unknown[] = [];
    await expect(async () => {
      for await (const v of readJsonlValues(path)) values.push(v);
    }).rejects.toThrow(`${path}:2: not valid UTF-8`);
  });

  it('a U+FFFD written as real UTF-8 is text, not an error', async () => {
    expect(await readAll(file('fffd.jsonl', '{"messages":[{"role":"user","content":"\ufffd é 😀"}]}\n'))).toHaveLength(1);
  });

  it('finds the first byte outside well-formed UTF-8 (overlong, surrogate, past U+10FFFF, truncated)', () => {
    expect(firstInvalidUtf8(Buffer.from('aé😀€'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xe0, 0x80, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2);
    expect(firstInvalidUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe2, 0x82]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x80]))).toBe(0);
  });
});

describe('JSONL: meta nesting', () => {
  const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
  it(`accepts ${MAX_META_DEPTH} levels and rejects more with one clear error (5,000 deep too)`, async () => {
    expect(await readAll(file('deep-ok.jsonl', `{"messages":[{"role":"user","content":"hi"}],"meta":${nested(MAX_META_DEPTH)}}\n`))).toHaveLength(1);
    for (const depth of [MAX_META_DEPTH + 1, 5000]) {
      const path = file(`deep-${depth}.jsonl`, `{"messages":[{"role":"user","content":"hi"}],"meta":${nested(depth)}}\n`);
      expect((await readError(path)).message).toMatch(new RegExp(`^${path}:1: meta: nests deeper than ${MAX_META_DEPTH} levels`));
    }
  });

  it('a deeply nested meta built in code is refused by both writers, not a stack overflow', async () => {
    let meta: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) meta = { a: meta };
    const r: ChatRow = { messages: [{ role: 'user', content: 'hi' }], meta };
    expect(() => rowToJson(r)).toThrow(/meta: nests deeper than/);
    const pq = createParquetWriter(join(dir, 'deep.parquet'), { metaColumn: true });
    await expect(pq.write(r)).rejects.toThrow(/row 1: meta: nests deeper than/);
    await pq.abort();
  });
});

describe('JSONL: numbers beyond float64', () => {
  it('±1e400 (Infinity to JSON.parse, inf to Python) is an error naming the value, never null', async () => {
    for (const lit of ['1e400', '-1e400']) {
      const path = file(`inf${lit}.jsonl`, `{"messages":[{"role":"user","content":"hi"}],"meta":{"x":[1,${lit}]}}\n`);
      expect((await readError(path)).message).toMatch(new RegExp(`^${path}:1: meta.x\\[1\\]: ${lit.startsWith('-') ? '-' : ''}Infinity is not a finite number`));
    }
  });

  it('writers refuse non-finite numbers instead of writing null', async () => {
    for (const x of [Infinity, -Infinity, NaN]) {
      const r: ChatRow = { messages: [{ role: 'user', content: 'hi' }], meta: { x } };
      expect(() => rowToJson(r)).toThrow(/meta.x: .* is not a finite number/);
      const w = createJsonlWriter(join(dir, 'inf-out.jsonl'));
      await expect(w.write(r)).rejects.toThrow(DatasetError);
      await w.abort();
    }
    expect(rowToJson({ messages: [{ role: 'user', content: 'hi' }], meta: { x: 1e308 } })).toContain('1e+308');
  });
});

describe('lone surrogates', () => {
  it('are rejected on read, in content, dataset, meta values and meta keys', async () => {
    const cases: [string, string][] = [
      ['{"messages":[{"role":"user","content":"a\\ud800b"}]}', 'messages[0].content: holds a lone surrogate \\ud800 (UTF-16 offset 1)'],
      ['{"messages":[{"role":"user","content":"\\udc00"}],"dataset":"x"}', 'messages[0].content: holds a lone surrogate \\udc00 (UTF-16 offset 0)'],
      ['{"messages":[{"role":"user","content":"hi"}],"dataset":"\\udbff"}', 'dataset: holds a lone surrogate \\udbff'],
      [row({ k: '\ud83d' }), 'meta.k: holds a lone surrogate \\ud83d'],
      ['{"messages":[{"role":"user","content":"hi"}],"meta":{"\\ud800":1}}', 'meta.\ud800 (key): holds a lone surrogate \\ud800'],
    ];
    for (const [i, [line, message]] of cases.entries()) {
      const path = file(`surrogate-${i}.jsonl`, line + '\n');
      expect((await readError(path)).message).toContain(`${path}:1: ${message}`);
    }
    // A well-formed pair, escaped or raw, is one character and fine.
    expect(await readAll(file('pair.jsonl', '{"messages":[{"role":"user","content":"\\ud83d\\ude00 😀"}]}\n'))).toHaveLength(1);
  });

  it('are refused by the Parquet writer (UTF-8 would turn them into U+FFFD) and the JSONL writer alike', async () => {
    const r: ChatRow = { messages: [{ role: 'user', content: 'x\ud800' }] };
    const pq = createParquetWriter(join(dir, 'surrogate.parquet'));
    await expect(pq.write(r)).rejects.toThrow(/row 1: messages\[0\].content: holds a lone surrogate/);
    await pq.abort();
    expect(() => rowToJson(r)).toThrow(/lone surrogate/);
  });
});
