// Chat rows as JSON Lines: a streaming reader (constant memory, line numbers in every error) and
// a streaming atomic writer.
import { DatasetError } from '../errors.js';
import { AtomicFile } from '../io/atomic.js';
import { readLines } from '../io/lines.js';
import { assertWritable, formatRowIssues, validateRow, type ChatRow } from '../rows.js';
import { IssueSink, type ReadOptions, type RowSource } from './source.js';

/**
 * Streams the chat rows of a JSONL file. A line may hold `{"messages": […], …}` or, as upstream's
 * prepare_data accepts, a bare messages array. Blank lines are counted, not rows.
 *
 * @example
 * const src = readJsonlRows('train.jsonl', { policy: 'skip' });
 * for await (const row of src) use(row);
 * console.log(src.report.skipped);
 */
export function readJsonlRows(path: string, options: ReadOptions = {}): RowSource {
  const sink = new IssueSink(path, options);
  return {
    report: sink.report,
    async *[Symbol.asyncIterator]() {
      for await (const line of readLines(path)) {
        if (line.text.trim() === '') {
          sink.report.blank++;
          continue;
        }
        const where = `${path}:${line.number}`;
        if (line.badUtf8 !== undefined) {
          sink.bad('malformed_line', where, `not valid UTF-8 (byte ${line.badUtf8 + 1} of the line)`);
          continue;
        }
        let value: unknown;
        try {
          value = JSON.parse(line.text);
        } catch (e) {
          sink.bad('malformed_line', where, `not valid JSON (${(e as Error).message})`);
          continue;
        }
        if (Array.isArray(value)) value = { messages: value };
        const checked = validateRow(value);
        if (!checked.ok) {
          sink.bad('invalid_row', where, formatRowIssues(checked.issues));
          continue;
        }
        sink.report.rows++;
        yield checked.value;
      }
    },
  };
}

/** Streams any JSON value per line (for files that are not chat rows), with the same policy. */
export async function* readJsonlValues(path: string, options: ReadOptions = {}): AsyncGenerator<{ line: number; value: unknown }> {
  const sink = new IssueSink(path, options);
  for await (const line of readLines(path)) {
    if (line.text.trim() === '') continue;
    if (line.badUtf8 !== undefined) {
      sink.bad('malformed_line', `${path}:${line.number}`, `not valid UTF-8 (byte ${line.badUtf8 + 1} of the line)`);
      continue;
    }
    try {
      yield { line: line.number, value: JSON.parse(line.text) };
    } catch (e) {
      sink.bad('malformed_line', `${path}:${line.number}`, `not valid JSON (${(e as Error).message})`);
    }
  }
}

/** The JSON text of one row: keys in the order messages, dataset, meta. */
export function rowToJson(row: ChatRow, where = 'row'): string {
  assertWritable(row, where);
  const out: Record<string, unknown> = { messages: row.messages.map((m) => ({ role: m.role, content: m.content })) };
  if (row.dataset !== undefined) out['dataset'] = row.dataset;
  if (row.meta !== undefined) out['meta'] = row.meta;
  return JSON.stringify(out);
}

export interface RowWriter {
  readonly path: string;
  /** Rows written so far. */
  readonly rows: number;
  write(row: ChatRow): Promise<void>;
  /** Finishes the file and moves it into place. */
  close(): Promise<void>;
  /** Drops everything written; the target is untouched. */
  abort(): Promise<void>;
}

const FLUSH_BYTES = 1 << 20;

/** A JSONL writer that buffers about 1 MiB and commits atomically on close. */
export function createJsonlWriter(path: string): RowWriter {
  const file = new AtomicFile(path);
  let buf: string[] = [];
  let size = 0;
  let rows = 0;
  const flush = () => {
    if (buf.length > 0) file.write(buf.join(''));
    buf = [];
    size = 0;
  };
  return {
    path,
    get rows() {
      return rows;
    },
    async write(row) {
      const text = rowToJson(row, `${path}: row ${rows + 1}`) + '\n';
      buf.push(text);
      size += text.length;
      rows++;
      if (size >= FLUSH_BYTES) flush();
    },
    async close() {
      try {
        flush();
        file.commit();
      } catch (e) {
        file.abort();
        throw e instanceof DatasetError ? e : new DatasetError({ code: 'io', where: path, message: (e as Error).message });
      }
    },
    async abort() {
      file.abort();
    },
  };
}
