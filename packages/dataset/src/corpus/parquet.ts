// Chat rows in the Hugging Face corpus layout: columns `dataset` (string) and `messages`
// (list<struct<role: string, content: string>>), read by hyparquet one row group at a time (in a
// sandboxed worker, parquet-sandbox.ts) and written by hyparquet-writer one row group at a time,
// so memory is bounded by a row group.
import type { SchemaElement } from 'hyparquet';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { DatasetError } from '../errors.js';
import { AtomicFile } from '../io/atomic.js';
import { assertWritable, formatRowIssues, validateRow, type ChatRow } from '../rows.js';
import type { RowWriter } from './jsonl.js';
import { ParquetSandbox, type DecodeBudget } from './parquet-sandbox.js';
import { IssueSink, type ReadOptions, type RowSource } from './source.js';

/** The schema pyarrow writes for this layout (nullable columns, 3-level LIST), plus our optional meta. */
export function corpusSchema(metaColumn: boolean): SchemaElement[] {
  const schema: SchemaElement[] = [
    { name: 'schema', num_children: metaColumn ? 3 : 2 },
    { name: 'dataset', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'messages', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', num_children: 2 },
    { name: 'role', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'content', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  ];
  // meta is not part of the HF layout: a JSON text column, written only when asked for.
  if (metaColumn) schema.push({ name: 'meta', type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' });
  return schema;
}

export interface ParquetInfo {
  rows: number;
  rowGroups: number[];
  columns: string[];
  createdBy: string | undefined;
}

/** Opens `path` in a decoding sandbox and checks that the footer describes a corpus file. */
async function openParquet(path: string, budget: Partial<DecodeBudget> = {}): Promise<ParquetSandbox> {
  const box = await ParquetSandbox.open(path, budget);
  try {
    const { numRows, rowGroups, columns } = box.summary;
    if (!columns.includes('messages')) {
      throw new DatasetError({
        code: 'bad_format',
        where: path,
        message: `has no "messages" column (columns: ${columns.join(', ')})`,
        hint: 'the corpus layout is dataset: string, messages: list<struct<role, content>>',
      });
    }
    // Row counts come from the footer; a file whose counts disagree would drop rows silently.
    const bad = rowGroups.findIndex((n) => !Number.isSafeInteger(n) || n < 0);
    if (bad >= 0) throw new DatasetError({ code: 'bad_format', where: `${path}: row group ${bad + 1}`, message: `claims ${rowGroups[bad]} rows` });
    const sum = rowGroups.reduce((a, n) => a + n, 0);
    if (!Number.isSafeInteger(numRows) || sum !== numRows) {
      throw new DatasetError({ code: 'bad_format', where: path, message: `the footer says ${numRows} rows but its ${rowGroups.length} row group(s) hold ${sum}` });
    }
    return box;
  } catch (e) {
    await box.close();
    throw e;
  }
}

export async function parquetInfo(path: string, budget: Partial<DecodeBudget> = {}): Promise<ParquetInfo> {
  const box = await openParquet(path, budget);
  await box.close();
  const { numRows, rowGroups, columns, createdBy } = box.summary;
  return { rows: numRows, rowGroups, columns, createdBy };
}

/**
 * Streams the chat rows of a corpus Parquet file (any codec hyparquet-compressors knows:
 * snappy, gzip, zstd, brotli, lz4). Errors name `file:row N` (1-based). Decoding runs in a worker
 * with a time and memory budget per row group (parquet-sandbox.ts), the next row group decoding
 * while the current one is handed out; every row group must yield the rows its footer claims.
 */
export function readParquetRows(path: string, options: ReadOptions = {}): RowSource {
  const sink = new IssueSink(path, options);
  return {
    report: sink.report,
    async *[Symbol.asyncIterator]() {
      const box = await openParquet(path, options.budget);
      sink.report.declared = box.summary.numRows;
      try {
        const { rowGroups, columns } = box.summary;
        const wanted = ['dataset', 'messages', 'meta'].filter((c) => columns.includes(c));
        const starts = rowGroups.map((_, g) => rowGroups.slice(0, g).reduce((a, n) => a + n, 0));
        const read = (g: number) => {
          const p = box.readRowGroup(g, starts[g]!, starts[g]! + rowGroups[g]!, wanted);
          p.catch(() => {}); // awaited below; this only keeps an early exit from leaving it unhandled
          return p;
        };
        let next = rowGroups.length > 0 ? read(0) : undefined;
        for (let g = 0; g < rowGroups.length; g++) {
          const objects = await next!;
          next = g + 1 < rowGroups.length ? read(g + 1) : undefined;
          const rowStart = starts[g]!;
          if (objects.length !== rowGroups[g]) {
            throw new DatasetError({ code: 'bad_format', where: `${path}: row group ${g + 1}`, message: `decoded ${objects.length} rows, but the footer says ${rowGroups[g]}` });
          }
          for (let i = 0; i < objects.length; i++) {
            const row = toRow(objects[i]!, `${path}:row ${rowStart + i + 1}`, sink);
            if (row) {
              sink.report.rows++;
              yield row;
            }
          }
        }
      } finally {
        await box.close();
      }
    },
  };
}

function toRow(o: Record<string, unknown>, where: string, sink: IssueSink): ChatRow | undefined {
  const value: Record<string, unknown> = { messages: o['messages'] ?? undefined };
  if (o['dataset'] !== null && o['dataset'] !== undefined) value['dataset'] = o['dataset'];
  const meta = o['meta'];
  if (meta !== null && meta !== undefined) {
    // hyparquet parses JSON-annotated columns itself; a plain string column holds the text.
    if (typeof meta === 'string') {
      try {
        value['meta'] = JSON.parse(meta);
      } catch (e) {
        sink.bad('invalid_row', where, `meta: not valid JSON (${(e as Error).message})`);
        return undefined;
      }
    } else value['meta'] = meta;
  }
  const checked = validateRow(value);
  if (!checked.ok) {
    sink.bad('invalid_row', where, formatRowIssues(checked.issues));
    return undefined;
  }
  return checked.value;
}

export type ParquetCodec = 'SNAPPY' | 'UNCOMPRESSED';

export interface ParquetWriteOptions {
  /** Default SNAPPY (what the HF files use). */
  codec?: ParquetCodec;
  /** A row group is cut at this many rows … (default 10,000) */
  rowGroupRows?: number;
  /** … or when its message text reaches this many UTF-16 units (default 64 Mi), whichever first. */
  rowGroupChars?: number;
  /** Also write a `meta` JSON column. Without it a row carrying meta is an error, never a silent drop. */
  metaColumn?: boolean;
}

/** A hyparquet-writer Writer that streams its buffer into an atomic file instead of growing it. */
class AtomicByteWriter extends ByteWriter {
  constructor(private readonly file: AtomicFile) {
    super(1 << 20);
  }
  override ensure(size: number): void {
    if (this.index > 1 << 20) this.flush();
    super.ensure(size);
  }
  flush(): void {
    this.file.write(new Uint8Array(this.buffer, 0, this.index));
    this.index = 0;
  }
  override finish(): void {
    this.flush();
  }
}

/**
 * Writes chat rows as a corpus Parquet file, one row group per `rowGroupRows` rows, and moves
 * it into place atomically on close.
 */
export function createParquetWriter(path: string, options: ParquetWriteOptions = {}): RowWriter {
  const maxRows = options.rowGroupRows ?? 10_000;
  const maxChars = options.rowGroupChars ?? 64 * 1024 * 1024;
  const metaColumn = options.metaColumn ?? false;
  const file = new AtomicFile(path);
  const writer = new AtomicByteWriter(file);
  const pq = new ParquetWriter({ writer, schema: corpusSchema(metaColumn), codec: options.codec ?? 'SNAPPY', createdBy: 'diffworld dataset' });
  let datasets: (string | null)[] = [];
  let messages: { role: string; content: string }[][] = [];
  let metas: (string | null)[] = [];
  let chars = 0;
  let rows = 0;

  const flushGroup = async () => {
    if (datasets.length === 0) return;
    const columnData = [
      { name: 'dataset', data: datasets },
      { name: 'messages', data: messages },
    ];
    if (metaColumn) columnData.push({ name: 'meta', data: metas });
    await pq.write({ columnData, rowGroupSize: datasets.length });
    datasets = [];
    messages = [];
    metas = [];
    chars = 0;
  };

  return {
    path,
    get rows() {
      return rows;
    },
    async write(row) {
      if (row.meta !== undefined && !metaColumn) {
        throw new DatasetError({
          code: 'bad_option',
          where: `${path}: row ${rows + 1}`,
          message: 'the row has meta, which the Hugging Face layout has no column for',
          hint: 'write with metaColumn: true (CLI: --meta-column) to keep it in a JSON column',
        });
      }
      assertWritable(row, `${path}: row ${rows + 1}`);
      datasets.push(row.dataset ?? null);
      messages.push(row.messages.map((m) => ({ role: m.role, content: m.content })));
      if (metaColumn) metas.push(row.meta === undefined ? null : JSON.stringify(row.meta));
      for (const m of row.messages) chars += m.content.length;
      rows++;
      if (datasets.length >= maxRows || chars >= maxChars) await flushGroup();
    },
    async close() {
      try {
        await flushGroup();
        await pq.finish();
        file.commit();
      } catch (e) {
        file.abort();
        throw e;
      }
    },
    async abort() {
      file.abort();
    },
  };
}
