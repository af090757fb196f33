// Chat rows → training examples → packed rows → batches, for the three world-model objectives.
// The prompt stays clean; every assistant message is a target (a transition row has one, an
// episode-layout row one per observation; `targets: 'last'` keeps only the last). Each run of target
// tokens is a span: the diffusion objectives noise every span with its own mask ratio. bd3 pads each
// span with EOS to a block boundary (SDAR pads the final answer so; doing it for every answer keeps a
// noisy block from holding clean tokens of the next turn, which block-diffusion inference never has;
// ChatGenerator's bd3 prompts carry the same pads), and every diffusion example ends on a block
// boundary; the pads are targets (that is how the model learns to stop inside a block). Rows longer
// than the maximum are dropped and counted, never cut (the reference's `truncate_mode: drop`).
// Facts: shared/reference/mdlm-algorithms.md §1.5–1.7, upstream-paper-repo.md §1.2, §3.4.
import { Rng } from '@diffworld/dataset';
import { type ChatMessage, type Tokenizer, encodeChat } from '@diffworld/tokenizer';

export const OBJECTIVES = ['ar', 'mdlm', 'bd3'] as const;
export type Objective = (typeof OBJECTIVES)[number];

/** A run of consecutive tokens: a packed sample, or a target span inside one. */
export interface Span {
  start: number;
  length: number;
}

export interface TrainExample {
  ids: Int32Array;
  /** 1 where the token is trained (assistant messages, their end markers and EOS pads), else 0. */
  target: Uint8Array;
  /** The runs of target tokens, in order (one per trained assistant message); derived from `target` when absent. */
  spans?: Span[];
}

export interface ExampleOptions {
  objective: Objective;
  /** Diffusion examples are padded to a multiple of this (1 for AR). */
  blockLength: number;
  /** Examples longer than this are dropped. */
  maxLength: number;
  /** Token used to pad diffusion examples (EOS: a trained label). */
  eosId: number;
  /** Which assistant messages are targets: every one (default) or only the last. */
  targets?: 'every' | 'last';
}

export type DropReason = 'too_long' | 'no_target';

/** The EOS the trainer pads with (and bd3 prompts carry between answers): <|endoftext|>, else <|im_end|>. */
export function eosPadId(tok: Tokenizer): number | undefined {
  return tok.tokenToId('<|endoftext|>') ?? tok.tokenToId('<|im_end|>');
}

/** The runs of 1s in a 0/1 mask. */
export function targetSpans(target: ArrayLike<number>): Span[] {
  const out: Span[] = [];
  for (let i = 0; i < target.length; i++) {
    if (!target[i]) continue;
    if (i > 0 && target[i - 1]) out[out.length - 1]!.length++;
    else out.push({ start: i, length: 1 });
  }
  return out;
}

/** Tokenizes one chat row; the last message must be the assistant's (the prediction target). */
export function chatExample(tok: Tokenizer, messages: readonly ChatMessage[], opts: ExampleOptions): TrainExample | DropReason {
  const last = messages[messages.length - 1];
  if (messages.length < 2 || last?.role !== 'assistant') return 'no_target';
  const block = opts.objective === 'ar' ? 1 : opts.blockLength;
  const { ids, lossMask } = encodeChat(tok, messages, {
    lossOn: opts.targets === 'last' ? 'last' : 'assistant',
    ...(opts.objective === 'bd3' && block > 1 ? { padAssistant: { block, id: opts.eosId } } : {}),
  });
  const end = lossMask.lastIndexOf(1) + 1; // drop the template's newline after the final end marker
  if (end === 0) return 'no_target';
  const padded = Math.ceil(end / block) * block;
  if (padded > opts.maxLength) return 'too_long';
  const out = new Int32Array(padded).fill(opts.eosId);
  const target = new Uint8Array(padded).fill(1);
  for (let i = 0; i < end; i++) {
    out[i] = ids[i]!;
    target[i] = lossMask[i]!;
  }
  return { ids: out, target, spans: targetSpans(target) };
}

/**
 * The ids a generator feeds for a chat prompt (the assistant header appended), laid out as
 * chatExample lays out its rows: for bd3, every answer already in the prompt padded with EOS to a
 * block boundary. So the prompt of step k of an episode row is a prefix of the row's ids.
 */
export function promptIds(tok: Tokenizer, messages: readonly ChatMessage[], opts: { objective: Objective; blockLength?: number }): number[] {
  const block = opts.blockLength ?? 1;
  const eos = eosPadId(tok);
  const pad = opts.objective === 'bd3' && block > 1 && eos !== undefined ? { padAssistant: { block, id: eos } } : {};
  return encodeChat(tok, messages, { addGenerationPrompt: true, ...pad }).ids;
}

/** One packed row: samples laid end to end; the rest is padding that nothing attends to or trains on. */
export interface PackedRow {
  examples: number[];
}

/**
 * First-fit packing of examples (in the given order) into rows of `rowLength` tokens, keeping at
 * most `openRows` rows open so the cost stays linear. The order of rows follows the order in which
 * they were opened, so a shuffled input gives a shuffled output.
 */
export function packRows(lengths: readonly number[], order: readonly number[], rowLength: number, openRows = 64): PackedRow[] {
  const rows: { examples: number[]; used: number }[] = [];
  const open: number[] = [];
  for (const i of order) {
    const len = lengths[i]!;
    if (len > rowLength) throw new RangeError(`packRows: example ${i} has ${len} tokens, more than the row length ${rowLength}`);
    let slot = open.findIndex((r) => rows[r]!.used + len <= rowLength);
    if (slot < 0) {
      rows.push({ examples: [], used: 0 });
      open.push(rows.length - 1);
      slot = open.length - 1;
      if (open.length > openRows) open.shift(), slot--;
    }
    const row = rows[open[slot]!]!;
    row.examples.push(i);
    row.used += len;
    if (row.used === rowLength) open.splice(slot, 1);
  }
  return rows.map((r) => ({ examples: r.examples }));
}

/** Share of token slots that are padding: packed rows vs length-bucketed batches (for the README). */
export function paddingWaste(lengths: readonly number[], rowLength: number, batchSize: number): { packed: number; bucketed: number } {
  const total = lengths.reduce((a, b) => a + b, 0);
  const order = lengths.map((_, i) => i);
  const packedSlots = packRows(lengths, order, rowLength).length * rowLength;
  // Bucketing: sort by length, batch neighbours, pad each batch to its longest example.
  const sorted = lengths.slice().sort((a, b) => a - b);
  let bucketSlots = 0;
  for (let i = 0; i < sorted.length; i += batchSize) {
    const chunk = sorted.slice(i, i + batchSize);
    bucketSlots += Math.max(...chunk) * chunk.length;
  }
  return { packed: 1 - total / packedSlots, bucketed: 1 - total / bucketSlots };
}

/** Host arrays of one packed batch, [B, T] row-major. */
export interface PackedBatch {
  batch: number;
  length: number;
  ids: BigInt64Array;
  /** Position of each token inside its own sample (restarts at 0 per sample). */
  positions: BigInt64Array;
  /** Sample index within the batch, −1 on padding. */
  sample: Int32Array;
  target: Uint8Array;
  /** Each sample's [start, start + length) in the flattened batch. */
  segments: Span[];
  /** Each target span's [start, start + length) in the flattened batch (the unit a mask ratio is drawn for). */
  spans: Span[];
  /** Trained tokens in the batch (the loss normalizer). */
  targetTokens: number;
}

export function materialize(examples: readonly TrainExample[], rows: readonly PackedRow[], length: number, padId: number): PackedBatch {
  const B = rows.length;
  const ids = new BigInt64Array(B * length).fill(BigInt(padId));
  const positions = new BigInt64Array(B * length);
  const sample = new Int32Array(B * length).fill(-1);
  const target = new Uint8Array(B * length);
  const segments: Span[] = [];
  const spans: Span[] = [];
  let targetTokens = 0;
  rows.forEach((row, b) => {
    let at = b * length;
    for (const e of row.examples) {
      const ex = examples[e]!;
      if (at + ex.ids.length > (b + 1) * length) throw new RangeError(`materialize: row ${b} overflows its ${length} tokens`);
      segments.push({ start: at, length: ex.ids.length });
      for (const sp of ex.spans ?? targetSpans(ex.target)) spans.push({ start: at + sp.start, length: sp.length });
      for (let i = 0; i < ex.ids.length; i++) {
        ids[at + i] = BigInt(ex.ids[i]!);
        positions[at + i] = BigInt(i);
        sample[at + i] = segments.length - 1;
        target[at + i] = ex.target[i]!;
        targetTokens += ex.target[i]!;
      }
      at += ex.ids.length;
    }
  });
  return { batch: B, length, ids, positions, sample, target, segments, spans, targetTokens };
}

/**
 * The deterministic stream of batches of an epoch-based run: epoch e shuffles the examples with a
 * generator derived from (seed, e), packs them, and cuts the rows into batches. Batch k of the run
 * is a pure function of (examples, seed, k), which is what makes resuming exact.
 */
export class BatchPlan {
  private cached: { epoch: number; batches: PackedRow[][] } | undefined;
  /** starts[e] = index of the first batch of epoch e (epochs pack differently, so counts vary). */
  private readonly starts: number[] = [0];

  constructor(
    private readonly lengths: readonly number[],
    private readonly rowLength: number,
    private readonly batchSize: number,
    private readonly seed: number,
  ) {
    if (lengths.length === 0) throw new RangeError('BatchPlan: no training examples');
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`BatchPlan: batch size must be a positive integer, got ${batchSize}`);
  }

  /** Batches in epoch 0 (later epochs may differ by a batch or so). */
  get batchesPerEpoch(): number {
    return this.epoch(0).length;
  }

  private epoch(e: number): PackedRow[][] {
    if (this.cached?.epoch === e) return this.cached.batches;
    const order = new Rng(this.seed).fork(`epoch:${e}`).shuffle(this.lengths.map((_, i) => i));
    const rows = packRows(this.lengths, order, this.rowLength);
    const batches: PackedRow[][] = [];
    // The last partial batch is topped up with the epoch's first rows, so every batch has B rows.
    for (let i = 0; i < rows.length; i += this.batchSize) {
      const chunk = rows.slice(i, i + this.batchSize);
      for (let j = 0; chunk.length < this.batchSize; j++) chunk.push(rows[j % rows.length]!);
      batches.push(chunk);
    }
    this.cached = { epoch: e, batches };
    return batches;
  }

  /** Which epoch batch k (0-based) of the run falls in, and its index there. */
  locate(k: number): { epoch: number; index: number } {
    if (!Number.isInteger(k) || k < 0) throw new RangeError(`BatchPlan: batch index must be a non-negative integer, got ${k}`);
    let e = 0;
    for (;;) {
      if (this.starts[e + 1] === undefined) this.starts[e + 1] = this.starts[e]! + this.epoch(e).length;
      if (k < this.starts[e + 1]!) return { epoch: e, index: k - this.starts[e]! };
      e++;
    }
  }

  /** Batch k (0-based) of the run. */
  batch(k: number): PackedRow[] {
    const { epoch, index } = this.locate(k);
    return this.epoch(epoch)[index]!;
  }
}
