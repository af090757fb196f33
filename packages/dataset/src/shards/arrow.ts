// Tokenized shards as Arrow IPC files — what later stages train from. One row per example:
//   input_ids: list<int32>   token ids
//   loss_mask: list<uint8>   1 where the token is a training target, else 0 (same length)
//   length:    int32         number of tokens (= list lengths; lets batchers bucket without decoding)
// Rows are written in record batches (default 1,024 rows), so writing and reading stream, and
// the IPC *file* format gives random access to any batch (readers can shuffle by batch).
import { open } from 'node:fs/promises';
import { Field, Int32, List, makeData, RecordBatch, RecordBatchFileWriter, RecordBatchReader, Schema, Struct, Uint8 } from 'apache-arrow';
import { DatasetError } from '../errors.js';
import { AtomicFile } from '../io/atomic.js';

export interface TokenizedExample {
  inputIds: Int32Array | readonly number[];
  lossMask: Uint8Array | readonly number[];
}

export const SHARD_SCHEMA = new Schema(
  [
    new Field('input_ids', new List(new Field('item', new Int32(), false)), false),
    new Field('loss_mask', new List(new Field('item', new Uint8(), false)), false),
    new Field('length', new Int32(), false),
  ],
  new Map([['diffworld.shard.version', '1']]),
);

function toBatch(examples: readonly TokenizedExample[]): RecordBatch {
  const n = examples.length;
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + examples[i]!.inputIds.length;
  const total = offsets[n]!;
  const ids = new Int32Array(total);
  const mask = new Uint8Array(total);
  const lengths = new Int32Array(n);
  examples.forEach((e, i) => {
    ids.set(e.inputIds, offsets[i]);
    mask.set(e.lossMask, offsets[i]);
    lengths[i] = e.inputIds.length;
  });
  const [idsField, maskField] = SHARD_SCHEMA.fields as [Field<List<Int32>>, Field<List<Uint8>>, Field<Int32>];
  const children = [
    makeData({ type: idsField.type, length: n, nullCount: 0, valueOffsets: offsets, child: makeData({ type: new Int32(), length: total, nullCount: 0, data: ids }) }),
    makeData({ type: maskField.type, length: n, nullCount: 0, valueOffsets: offsets, child: makeData({ type: new Uint8(), length: total, nullCount: 0, data: mask }) }),
    makeData({ type: new Int32(), length: n, nullCount: 0, data: lengths }),
  ];
  return new RecordBatch(SHARD_SCHEMA, makeData({ type: new Struct(SHARD_SCHEMA.fields), length: n, nullCount: 0, children }));
}

export class ShardWriter {
  private readonly file: AtomicFile;
  private readonly writer = new RecordBatchFileWriter();
  private readonly drained: Promise<void>;
  private pending: TokenizedExample[] = [];
  rows = 0;

  constructor(
    readonly path: string,
    private readonly batchRows = 1024,
  ) {
    const file = new AtomicFile(path);
    this.file = file;
    // The writer hands out IPC bytes as an async stream; drain it into the file as it goes.
    const writer = this.writer;
    this.drained = (async () => {
      for await (const chunk of writer) file.write(chunk);
    })();
    this.drained.catch(() => undefined); // surfaced by close()
  }

  /** Adds one example; every `batchRows` examples a record batch goes to disk. */
  async write(example: TokenizedExample): Promise<void> {
    if (example.inputIds.length !== example.lossMask.length) {
      throw new DatasetError({
        code: 'invalid_row',
        where: `${this.path}: example ${this.rows + 1}`,
        message: `loss_mask has ${example.lossMask.length} entries for ${example.inputIds.length} token ids`,
      });
    }
    this.pending.push(example);
    this.rows++;
    if (this.pending.length >= this.batchRows) {
      this.flush();
      await new Promise((resolve) => setImmediate(resolve)); // let the drain write the batch out
    }
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.writer.write(toBatch(this.pending));
    this.pending = [];
  }

  async close(): Promise<void> {
    try {
      this.flush();
      if (this.rows === 0) this.writer.reset(undefined, SHARD_SCHEMA); // an empty shard still has its schema
      this.writer.finish();
      await this.drained;
      this.file.commit();
    } catch (e) {
      this.file.abort();
      throw e;
    }
  }
}

export interface ShardRow {
  inputIds: Int32Array;
  lossMask: Uint8Array;
}

/** Streams the examples of a shard, one record batch in memory at a time. */
export async function* readShard(path: string): AsyncGenerator<ShardRow> {
  const handle = await open(path).catch((e: Error) => {
    throw new DatasetError({ code: 'io', where: path, message: `cannot open shard: ${e.message}` });
  });
  try {
    let reader;
    try {
      reader = await RecordBatchReader.from(handle);
      await reader.open();
    } catch (e) {
      throw new DatasetError({ code: 'bad_format', where: path, message: `not an Arrow IPC file (${(e as Error).message})` });
    }
    if (!reader.schema) throw new DatasetError({ code: 'bad_format', where: path, message: 'not an Arrow IPC file (no schema found)' });
    const names = reader.schema.fields.map((f) => f.name).join(',');
    if (names !== 'input_ids,loss_mask,length') {
      throw new DatasetError({ code: 'bad_format', where: path, message: `columns are ${names}, expected input_ids,loss_mask,length` });
    }
    for await (const batch of reader) {
      if (batch.numRows === 0) continue; // an empty shard's only batch has no buffers
      const ids = batch.getChildAt(0)!.data[0]!;
      const mask = batch.getChildAt(1)!.data[0]!;
      const idValues = ids.children[0]!.values as Int32Array;
      const maskValues = mask.children[0]!.values as Uint8Array;
      const offsets = ids.valueOffsets as Int32Array;
      for (let i = 0; i < batch.numRows; i++) {
        const a = offsets[ids.offset + i]!;
        const b = offsets[ids.offset + i + 1]!;
        // Copies, so a caller keeping a row does not pin the whole batch.
        yield { inputIds: idValues.slice(a, b), lossMask: maskValues.slice(a, b) };
      }
    }
  } finally {
    await handle.close();
  }
}
