// Untrusted Parquet bytes are decoded in a worker thread with a time and a memory budget. hyparquet
// and its decompressors trust the file: a corrupt page can make a decoder loop for minutes (an RLE
// run longer than its page), allocate gigabytes (a lying page size) or reject a promise nobody
// awaits. In a worker, each of these ends as a typed error for that file (the worker is stopped)
// instead of a hung or killed process. Every failure names the file, the row group and, where one
// column is to blame, the column.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DatasetError } from '../errors.js';

export interface DecodeBudget {
  /** Wall time for reading the footer or decoding one row group (default 60 s). */
  msPerRowGroup: number;
  /** Heap of the decoding worker in MiB (default 2,048; a 10,000-row group needs well under 512). */
  heapMb: number;
}

export const DEFAULT_DECODE_BUDGET: DecodeBudget = { msPerRowGroup: 60_000, heapMb: 2048 };

/** What the footer says, as plain numbers. */
export interface ParquetSummary {
  numRows: number;
  /** Rows of each row group. */
  rowGroups: number[];
  /** Top-level column names. */
  columns: string[];
  /** Leaf column paths (e.g. messages.list.element.content), to name the column that fails. */
  leaves: string[];
  createdBy: string | undefined;
}

type Reply =
  | { type: 'summary'; summary: ParquetSummary }
  | { type: 'rows'; id: number; rows: Record<string, unknown>[] }
  | { type: 'error'; id: number; message: string };

// The worker is plain JavaScript (no TypeScript loader in worker threads) and imports hyparquet by
// absolute URL, so it runs the same from sources, a build, vitest or the CLI.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const text = (e) => (e && e.message) ? String(e.message) : String(e);
(async () => {
  const hp = await import(workerData.hyparquet);
  let file, metadata, compressors;
  try {
    file = await hp.asyncBufferFromFile(workerData.path);
    metadata = await hp.parquetMetadataAsync(file);
    // hyparquet decodes snappy itself; the other codecs' module is loaded only when a column needs it.
    const plain = (c) => c.meta_data && (c.meta_data.codec === 'UNCOMPRESSED' || c.meta_data.codec === 'SNAPPY');
    if (!metadata.row_groups.every((g) => Array.isArray(g.columns) && g.columns.every(plain))) {
      compressors = (await import(workerData.compressors)).compressors;
    }
    const schema = hp.parquetSchema(metadata);
    const leaves = [];
    const walk = (node, prefix) => {
      const name = prefix ? prefix + '.' + node.element.name : node.element.name;
      if (node.children.length === 0) leaves.push(name);
      for (const c of node.children) walk(c, name);
    };
    for (const c of schema.children) walk(c, '');
    parentPort.postMessage({ type: 'summary', summary: {
      numRows: Number(metadata.num_rows),
      rowGroups: metadata.row_groups.map((g) => Number(g.num_rows)),
      columns: schema.children.map((c) => c.element.name),
      leaves,
      createdBy: typeof metadata.created_by === 'string' ? metadata.created_by : undefined,
    } });
  } catch (e) {
    parentPort.postMessage({ type: 'error', id: -1, message: text(e) });
    return;
  }
  parentPort.on('message', async ({ id, rowStart, rowEnd, columns }) => {
    try {
      const rows = await hp.parquetReadObjects({ file, metadata, columns, rowStart, rowEnd, compressors });
      parentPort.postMessage({ type: 'rows', id, rows });
    } catch (e) {
      parentPort.postMessage({ type: 'error', id, message: text(e) });
    }
  });
})().catch((e) => parentPort.postMessage({ type: 'error', id: -1, message: text(e) }));
`;

const resolvePackage = (name: string) => pathToFileURL(createRequire(import.meta.url).resolve(name)).href;

/** One Parquet file opened in its own decoding worker. */
export class ParquetSandbox {
  private readonly pending = new Map<number, { where: string; resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private dead: Error | undefined;

  private constructor(
    readonly path: string,
    private readonly worker: Worker,
    private readonly budget: DecodeBudget,
    readonly summary: ParquetSummary,
  ) {}

  /** Starts the worker and reads the footer; a file that is not Parquet is a `bad_format` error. */
  static async open(path: string, budget: Partial<DecodeBudget> = {}): Promise<ParquetSandbox> {
    const b = { ...DEFAULT_DECODE_BUDGET, ...budget };
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, hyparquet: resolvePackage('hyparquet'), compressors: resolvePackage('hyparquet-compressors') },
      resourceLimits: { maxOldGenerationSizeMb: b.heapMb },
    });
    worker.unref();
    let box: ParquetSandbox | undefined;
    const first = new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => reject(budgetError(path, 'reading the footer', b)), b.msPerRowGroup);
      worker.once('message', (m: Reply) => {
        clearTimeout(timer);
        resolve(m);
      });
      worker.once('error', (e) => {
        clearTimeout(timer);
        reject(workerError(path, 'reading the footer', e, b));
      });
    });
    try {
      const reply = await first;
      if (reply.type !== 'summary') {
        const message = reply.type === 'error' ? reply.message : 'unexpected reply';
        throw new DatasetError({ code: 'bad_format', where: path, message: `not a readable Parquet file (${message})` });
      }
      box = new ParquetSandbox(path, worker, b, reply.summary);
      box.listen();
      return box;
    } finally {
      if (!box) await worker.terminate();
    }
  }

  private listen(): void {
    this.worker.on('message', (m: Reply) => {
      if (m.type === 'summary') return;
      const waiter = this.pending.get(m.id);
      this.pending.delete(m.id);
      waiter?.resolve(m);
    });
    // The worker died (an exception or rejection inside the decoder, or the memory budget): every
    // request in flight fails with that reason, named by its own row group.
    const fail = (reason: (where: string) => DatasetError) => {
      for (const w of this.pending.values()) w.reject(this.dead ?? reason(w.where));
      this.dead ??= reason(this.path);
      this.pending.clear();
    };
    this.worker.on('error', (e) => fail((where) => workerError(where, 'decoding', e, this.budget)));
    this.worker.on('exit', () => fail((where) => new DatasetError({ code: 'bad_format', where, message: 'the decoding worker stopped' })));
  }

  /**
   * The rows of row group `group` (0-based), `columns` only. A decoding failure is retried column by
   * column, only to name the column that fails.
   */
  async readRowGroup(group: number, rowStart: number, rowEnd: number, columns: readonly string[]): Promise<Record<string, unknown>[]> {
    const where = `${this.path}: row group ${group + 1} (rows ${rowStart + 1}–${rowEnd})`;
    const first = await this.request(rowStart, rowEnd, columns, where);
    if (first.type === 'rows') return first.rows;
    const message = first.type === 'error' ? first.message : 'unexpected reply';
    let culprit: string | undefined;
    if (columns.length > 1) {
      for (const c of columns) {
        const alone = await this.request(rowStart, rowEnd, [c], where);
        if (alone.type === 'error') {
          culprit = this.summary.leaves.filter((l) => l === c || l.startsWith(`${c}.`)).join(', ') || c;
          break;
        }
      }
    }
    throw new DatasetError({ code: 'bad_format', where: culprit ? `${where}, column ${culprit}` : where, message: `cannot be decoded (${message})` });
  }

  private request(rowStart: number, rowEnd: number, columns: readonly string[], where: string): Promise<Reply> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.dead = budgetError(where, 'decoding', this.budget);
        reject(this.dead);
        void this.worker.terminate();
      }, this.budget.msPerRowGroup);
      this.pending.set(id, {
        where,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.worker.postMessage({ id, rowStart, rowEnd, columns });
    });
  }

  async close(): Promise<void> {
    this.dead ??= new DatasetError({ code: 'io', where: this.path, message: 'read after close' });
    await this.worker.terminate();
  }
}

function budgetError(where: string, what: string, b: DecodeBudget): DatasetError {
  return new DatasetError({
    code: 'bad_format',
    where,
    message: `${what} took longer than ${b.msPerRowGroup / 1000} s, the budget for one row group; stopped (a corrupt page can make the decoder loop)`,
  });
}

function workerError(where: string, what: string, e: Error, b: DecodeBudget): DatasetError {
  if ((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new DatasetError({ code: 'bad_format', where, message: `${what} needed more than ${b.heapMb} MiB, the memory budget; stopped (a corrupt page can claim any size)` });
  }
  return new DatasetError({ code: 'bad_format', where, message: `${what} failed: ${e.message}` });
}
