// One batched forward pass of the decoder (src/nn) through ONNX Runtime, for rows that each bring
// their own cached keys/values, new tokens, positions and attention pattern. Rows are padded to
// the longest past and the longest new span; padded keys are masked out (exp(−1e9) is exactly 0),
// so a row's result does not depend on the rest of the batch. The graph has named dims (batch,
// past, new), so one compiled session serves every call.
import { Graph, add, cast, emitOnnx, equal, exp, gather, mul, reduceMax, reduceSum, sub, sumDims, type Tensor } from '../graph/index.js';
import { attentionLayerCount, convLayerCount, decoderForward, headDimOf, transformerParams, type TransformerConfig } from '../nn/transformer.js';
import { createSession, hostTensor, toDevice, type HostTensor, type ProviderName, type Session, type SessionOptions, type SessionValue } from '../runtime/index.js';
import { SamplingError } from './errors.js';
import { prefillPassCost, splitByLength } from './length-groups.js';
import { RopeRows } from './rope-rows.js';
import { chooseToken, GREEDY } from './token.js';

export type FloatDtype = 'float32' | 'float64';
type FloatArray = Float32Array | Float64Array;

const NEG = -1e9;

export interface DecoderOptions {
  /** Compute type of the inference graph (default float32; float64 for bit-stable comparisons). */
  dtype?: FloatDtype;
  provider?: ProviderName;
  intraOpThreads?: number;
  /** ONNX Runtime's intra-op spinning (default on); see runtime's SessionOptions.spinning. */
  spinning?: boolean;
}

/** LFM2's convolution state: per conv layer the gated inputs of a row's last `width` committed tokens. */
export interface ConvShape {
  layers: number;
  /** conv_L_cache − 1. */
  width: number;
  /** hidden_size. */
  channels: number;
}

/**
 * A row's cached keys/values, head-major per attention layer: [nKvHeads, capacity, headDim], so
 * that one head's span is contiguous both in the batch's past tensor and in the fresh output; and,
 * for LFM2, each conv layer's last `width` gated inputs, time-major [width, channels] (zeros
 * before the first token).
 */
export class RowCache {
  length = 0;
  private capacity = 0;
  readonly keys: FloatArray[];
  readonly values: FloatArray[];
  readonly conv: FloatArray[];
  constructor(
    private readonly layers: number,
    readonly heads: number,
    readonly headDim: number,
    private readonly Arr: Float32ArrayConstructor | Float64ArrayConstructor,
    readonly convShape: ConvShape = { layers: 0, width: 0, channels: 0 },
  ) {
    this.keys = Array.from({ length: layers }, () => new Arr(0));
    this.values = Array.from({ length: layers }, () => new Arr(0));
    this.conv = Array.from({ length: convShape.layers }, () => new Arr(convShape.width * convShape.channels));
  }

  /**
   * Shifts the first `count` tokens of a fresh gated-input tensor [.., S, channels] (row offset
   * `rowBase`) into each conv layer's state: the state becomes the last `width` of state ++ them.
   */
  keepConv(count: number, fresh: (layer: number) => FloatArray, rowBase: number): void {
    const { width: W, channels: D } = this.convShape;
    if (W === 0 || count === 0) return;
    this.conv.forEach((state, l) => {
      const src = fresh(l);
      const take = Math.min(count, W);
      if (take < W) state.copyWithin(0, take * D);
      state.set(src.subarray(rowBase + (count - take) * D, rowBase + count * D), (W - take) * D);
    });
  }

  get stride(): number {
    return this.capacity * this.headDim;
  }

  /** Appends `count` tokens copied from a fresh-keys tensor [.., heads, S, hd] at row offset `rowBase` and token `from`. */
  append(count: number, presentKeys: (layer: number) => FloatArray, presentValues: (layer: number) => FloatArray, rowBase: number, seq: number, from: number): void {
    if (this.length + count > this.capacity) {
      // Room for a few more commits past a prefill, so that decoding rarely regrows.
      const cap = Math.max(2 * this.capacity, this.length + count + 32, 16);
      for (let l = 0; l < this.layers; l++) {
        this.keys[l] = this.regrow(this.keys[l]!, cap);
        this.values[l] = this.regrow(this.values[l]!, cap);
      }
      this.capacity = cap;
    }
    for (let l = 0; l < this.layers; l++) {
      this.copyIn(this.keys[l]!, presentKeys(l), rowBase, seq, from, count);
      this.copyIn(this.values[l]!, presentValues(l), rowBase, seq, from, count);
    }
    this.length += count;
  }

  /** A store of `cap` positions per head holding this one's first `length`. */
  private regrow(store: FloatArray, cap: number): FloatArray {
    const hd = this.headDim;
    const grown = new this.Arr(this.heads * cap * hd);
    for (let h = 0; h < this.heads; h++) grown.set(store.subarray(h * this.stride, h * this.stride + this.length * hd), h * cap * hd);
    return grown;
  }

  private copyIn(store: FloatArray, src: FloatArray, rowBase: number, seq: number, from: number, count: number): void {
    const hd = this.headDim;
    for (let h = 0; h < this.heads; h++) {
      const at = rowBase + (h * seq + from) * hd;
      store.set(src.subarray(at, at + count * hd), h * this.stride + this.length * hd);
    }
  }
}

/**
 * A pass's greedy choices, per row: for each of its `logitsOf` tokens the argmax id among those not
 * banned (the lowest on ties) and its softmax probability over them — chooseToken's greedy result
 * (same float32 logits, max and argmax; the Σ exp in float64 is summed by ONNX Runtime instead of
 * in id order, a difference of ~1e-16 relative), without copying the logits out of the model.
 */
export interface GreedyPicks {
  tokens: Int32Array;
  probs: Float64Array;
}

/** Which ids greedy choices may not take: `lists[banOf[k]]` for a row's k-th wanted token. */
export interface GreedyBans {
  lists: readonly (readonly number[])[];
}

export interface RowPass {
  /** The row's cache (its keys/values are attended to in full), or null for none. */
  cache: RowCache | null;
  tokens: readonly number[];
  /** Absolute position of each new token (RoPE). */
  positions: readonly number[];
  /** Whether new token i may attend to new token j. */
  allowed: (i: number, j: number) => boolean;
  /**
   * Optional fast form of `allowed` for prefix patterns (causal, block-causal, full): new token i
   * attends to exactly new tokens [0, visible(i)). A prefill's mask is then filled by ranges, not
   * one `allowed` call per pair of tokens.
   */
  visible?: (i: number) => number;
  /** New tokens [0, keep) are appended to the cache after the pass. */
  keep: number;
  /** Which new tokens' logits to return (ascending). */
  logitsOf: readonly number[];
  /** Greedy passes: per `logitsOf` entry, the index of its banned list (default 0). */
  banOf?: readonly number[];
}

/**
 * The assembled past tensors of one batch, kept while its rows do not change. One per open batch,
 * so concurrent batches on one model never share buffers. On the CPU the tensors have room past
 * the longest cache (masked out) and the positions the caches gained since are copied into them at
 * the next pass, so a batch whose rows commit at different steps is not re-assembled on every pass; on
 * WebGPU they are uploaded once and re-assembled when a cache changes.
 */
export class PastSlot {
  /** The rows' caches the tensors hold, in batch order (null: a row without cache). */
  caches: (RowCache | null)[] = [];
  /** How many positions of each row's cache the tensors hold (CPU: later ones are copied in at the next pass; WebGPU: re-assembled on any change). */
  lengths: number[] = [];
  feeds: Record<string, SessionValue> | null = null;
  /** Past length of the assembled tensors (≥ every row's cache length). */
  length = 0;
  /** Host buffers of `feeds` per layer (CPU only; empty when they live on a device); rows past the batch's are spare. */
  host: { key: FloatArray; value: FloatArray }[] = [];
  /** Host buffers kept by clear() for the next assembly (CPU). */
  private spare: { key: FloatArray; value: FloatArray }[] = [];
  /** Input buffers reused from pass to pass (ONNX Runtime reads them during the run only). */
  readonly scratch = new Scratch();
  /** Times the tensors were assembled from the rows' caches in full (rows that change in place do not count). */
  assemblies = 0;
  /** Frees the assembled tensors (device buffers on WebGPU). */
  clear(): void {
    for (const v of Object.values(this.feeds ?? {})) if (v.kind === 'device') v.dispose();
    if (this.host.length) this.spare = this.host;
    this.feeds = null;
    this.caches = [];
    this.lengths = [];
    this.length = 0;
    this.host = [];
  }

  /** A host buffer of `size` elements for layer l (reusing a spare one when it is large enough), zeroed. */
  buffer(l: number, kind: 'key' | 'value', size: number, Arr: Float32ArrayConstructor | Float64ArrayConstructor): FloatArray {
    const old = this.spare[l]?.[kind];
    if (old && old.length >= size && old instanceof Arr) return old.fill(0, 0, size);
    return new Arr(size);
  }
}

/** Growable typed buffers for a pass's inputs, handed out as exact-length views. */
class Scratch {
  private ids = new BigInt64Array(0);
  private at = new BigInt64Array(0);
  private banOf = new BigInt64Array(0);
  private f32: Float32Array[] = [];
  private f64: Float64Array[] = [];

  int64(which: 'ids' | 'at' | 'banOf', n: number): BigInt64Array {
    if (this[which].length < n) this[which] = new BigInt64Array(Math.max(n, 2 * this[which].length));
    return this[which].subarray(0, n);
  }

  /** Float buffer number `k` (mask, cos, sin) of `n` elements. */
  float(Arr: Float32ArrayConstructor | Float64ArrayConstructor, k: number, n: number): FloatArray {
    const pool = (Arr === Float64Array ? this.f64 : this.f32) as FloatArray[];
    const cur = pool[k];
    if (cur && cur.length >= n) return cur.subarray(0, n);
    const grown = new Arr(Math.max(n, 2 * (cur?.length ?? 0)));
    pool[k] = grown;
    return grown.subarray(0, n);
  }
}

/**
 * Past length assembled for a longest cache: 16–31 positions of room (masked out), so the next few
 * commits are copied in place; attention then spans at most 31 more keys than needed.
 */
export function pastRoom(longest: number): number {
  if (longest === 0) return 0; // a prefill attends to nothing cached
  return Math.ceil((longest + 16) / 16) * 16;
}

export class OnnxDecoder {
  readonly dtype: FloatDtype;
  private readonly hd: number;
  private readonly Arr: Float32ArrayConstructor | Float64ArrayConstructor;
  /** Forward passes run (one per `run`). */
  passes = 0;
  /** Of those, greedy passes whose choices the model's greedy head made. */
  greedyHeadPasses = 0;
  /**
   * Where a pass's time goes, as ResidentDecoder's: prefill passes (no row has a cache yet) and
   * steps (passes over cached rows: a token, a block and its commit), each including host work;
   * host work alone is assembling the inputs (past tensors included) and appending the fresh
   * keys/values to the caches.
   */
  readonly timing = { prefillPasses: 0, prefillMs: 0, stepPasses: 0, stepMs: 0, hostMs: 0 };

  private constructor(
    readonly config: TransformerConfig,
    private readonly session: Session,
    private readonly params: Record<string, HostTensor>,
    dtype: FloatDtype,
    private readonly sessionOptions: SessionOptions,
  ) {
    this.dtype = dtype;
    this.hd = headDimOf(config);
    this.Arr = dtype === 'float64' ? Float64Array : Float32Array;
    this.ropeRows = new RopeRows(config, this.Arr);
  }

  static async create(config: TransformerConfig, weights: Readonly<Record<string, Float32Array | Float64Array>>, opts: DecoderOptions = {}): Promise<OnnxDecoder> {
    const dtype = opts.dtype ?? 'float32';
    const Arr = dtype === 'float64' ? Float64Array : Float32Array;
    const sessionOptions: SessionOptions = {
      ...(opts.provider ? { provider: opts.provider } : {}),
      ...(opts.intraOpThreads ? { intraOpThreads: opts.intraOpThreads } : {}),
      ...(opts.spinning !== undefined ? { spinning: opts.spinning } : {}),
    };
    const session = await createSession(decoderGraph(config, dtype, 'logits'), sessionOptions);
    const specs = transformerParams(config);
    const params: Record<string, HostTensor> = {};
    for (const s of specs) {
      const w = weights[s.name];
      const size = s.shape.reduce((a, b) => a * b, 1);
      if (!w || w.length !== size)
        throw new SamplingError('bad_input', `decoder: parameter "${s.name}" ${w ? `has ${w.length} values, its shape [${s.shape.join(', ')}] needs ${size}` : 'is missing'}`);
      params[s.name] = hostTensor(dtype, (w instanceof Arr ? w : Arr.from(w)) as never, s.shape, s.name);
    }
    return new OnnxDecoder(config, session, params, dtype, sessionOptions);
  }

  /** The session of the graph with the greedy head, compiled on first use. */
  private greedySession: Promise<Session> | undefined;
  /** Banned lists as the graph's additive [lists, V] input, for the last `GreedyBans` seen. */
  private banFeed: { bans: GreedyBans; tensor: HostTensor } | undefined;

  private readonly ropeRows: RopeRows;

  get provider(): ProviderName {
    return this.session.provider;
  }

  newCache(): RowCache {
    const lfm2 = this.config.lfm2;
    const conv = lfm2 ? { layers: convLayerCount(this.config), width: lfm2.convKernel - 1, channels: this.config.dModel } : undefined;
    return new RowCache(attentionLayerCount(this.config), this.config.nKvHeads, this.hd, this.Arr, conv);
  }

  /**
   * One batched pass; per row, the logits of `logitsOf` ([count × V]). When no row has anything
   * cached yet (a prefill), rows of very different lengths run in groups of similar length, so a
   * short prompt is not padded to the longest one (`prefillGroups`).
   */
  run(rows: readonly RowPass[], slot: PastSlot = new PastSlot()): Promise<Float32Array[]> {
    return this.grouped(rows, (g) => this.pass(g, slot, undefined) as Promise<Float32Array[]>);
  }

  /** The same pass, returning per row only the greedy choice of each `logitsOf` token (see GreedyPicks). */
  runGreedy(rows: readonly RowPass[], bans: GreedyBans, slot: PastSlot = new PastSlot()): Promise<GreedyPicks[]> {
    return this.grouped(rows, (g) => this.pass(g, slot, bans) as Promise<GreedyPicks[]>);
  }

  private async grouped<R>(rows: readonly RowPass[], pass: (rows: readonly RowPass[]) => Promise<R[]>): Promise<R[]> {
    if (rows.length > 1 && rows.every((r) => !r.cache || r.cache.length === 0)) {
      const groups = prefillGroups(rows.map((r) => r.tokens.length));
      if (groups.length > 1) {
        const out: R[] = new Array(rows.length);
        for (const g of groups) {
          const res = await pass(g.map((i) => rows[i]!));
          g.forEach((i, k) => (out[i] = res[k]!));
        }
        return out;
      }
    }
    return pass(rows);
  }

  /** The greedy head's [lists, V] float32 input: 0, or −∞ at a banned id. */
  private banTensor(bans: GreedyBans): HostTensor {
    if (this.banFeed?.bans === bans) return this.banFeed.tensor;
    const V = this.config.vocabSize;
    if (bans.lists.length === 0) throw new SamplingError('bad_input', 'decoder: a greedy pass needs at least one banned list (it may be empty)');
    const data = new Float32Array(bans.lists.length * V);
    bans.lists.forEach((list, r) => {
      for (const id of list) if (Number.isInteger(id) && id >= 0 && id < V) data[r * V + id] = -Infinity;
    });
    const tensor = hostTensor('float32', data, [bans.lists.length, V], 'ban');
    this.banFeed = { bans, tensor };
    return tensor;
  }

  private async pass(rows: readonly RowPass[], slot: PastSlot, bans: GreedyBans | undefined): Promise<Float32Array[] | GreedyPicks[]> {
    const c = this.config,
      hd = this.hd,
      hkv = c.nKvHeads,
      V = c.vocabSize,
      Arr = this.Arr;
    const n = rows.length;
    const t0 = performance.now();
    const { feeds: past, P } = await this.pastFeeds(rows, slot);
    let T = 1,
      K = 0;
    for (const r of rows) {
      if (r.positions.length !== r.tokens.length) throw new SamplingError('bad_input', 'decoder: one position per new token');
      T = Math.max(T, r.tokens.length);
      K += r.logitsOf.length;
    }
    const S = P + T;
    const scratch = slot.scratch;
    const ids = scratch.int64('ids', n * T).fill(0n);
    const mask = scratch.float(Arr, 0, n * T * S).fill(NEG);
    const cos = scratch.float(Arr, 1, n * T * hd).fill(0),
      sin = scratch.float(Arr, 2, n * T * hd).fill(0);
    // The graph gathers the wanted rows before the LM head; with none wanted it computes one and drops it.
    const at = scratch.int64('at', 2 * Math.max(1, K)).fill(0n);
    const banOf = bans ? scratch.int64('banOf', Math.max(1, K)).fill(0n) : undefined;
    let k = 0;
    for (let b = 0; b < n; b++) {
      const r = rows[b]!;
      const len = r.tokens.length,
        cached = r.cache?.length ?? 0;
      for (let i = 0; i < len; i++) {
        ids[b * T + i] = BigInt(r.tokens[i]!);
        this.ropeRows.write(r.positions[i]!, cos, sin, (b * T + i) * hd);
      }
      for (let i = 0; i < T; i++) {
        const row = (b * T + i) * S;
        if (i >= len) {
          mask[row + P + i] = 0; // a padded query attends to itself only (no empty softmax)
          continue;
        }
        mask.fill(0, row, row + cached);
        if (r.visible) mask.fill(0, row + P, row + P + Math.min(len, r.visible(i)));
        else for (let j = 0; j < len; j++) if (r.allowed(i, j)) mask[row + P + j] = 0;
      }
      for (let w = 0; w < r.logitsOf.length; w++) {
        const i = r.logitsOf[w]!;
        if (!(Number.isInteger(i) && i >= 0 && i < len)) throw new SamplingError('bad_input', `decoder: logits of new token ${i} asked, the row has ${len}`);
        at[2 * k] = BigInt(b);
        at[2 * k + 1] = BigInt(i);
        if (banOf) {
          const list = r.banOf?.[w] ?? 0;
          if (!(Number.isInteger(list) && list >= 0 && list < bans!.lists.length)) throw new SamplingError('bad_input', `decoder: banned list ${list} asked, there are ${bans!.lists.length}`);
          banOf[k] = BigInt(list);
        }
        k++;
      }
    }
    const feeds: Record<string, SessionValue> = {
      ...this.params,
      ...past,
      ...this.convFeeds(rows),
      input_ids: hostTensor('int64', ids, [n, T]),
      mask: hostTensor(this.dtype, mask as never, [n, 1, T, S]),
      cos: hostTensor(this.dtype, cos as never, [n, 1, T, hd]),
      sin: hostTensor(this.dtype, sin as never, [n, 1, T, hd]),
      logits_at: hostTensor('int64', at, [at.length / 2, 2]),
    };
    // Few wanted rows: the greedy head's dozen extra kernels cost more than choosing from copied-out
    // logits. CPU only: its float64 sum has no WebGPU kernel (ONNX Runtime would split the graph).
    const head = bans && K >= GREEDY_HEAD_MIN_ROWS && this.session.provider === 'cpu' ? 'greedy' : 'logits';
    if (head === 'greedy') {
      feeds['ban'] = this.banTensor(bans!);
      feeds['ban_of'] = hostTensor('int64', banOf!, [banOf!.length]);
    }
    const session = head === 'greedy' ? await (this.greedySession ??= createSession(decoderGraph(c, this.dtype, 'greedy'), this.sessionOptions)) : this.session;
    const tRun = performance.now();
    const out = await session.run(feeds);
    const tOut = performance.now();
    this.passes++;
    // Append the kept new keys/values: fresh[b, h, i, :] for i < keep.
    const fk = (l: number) => (out[`fresh.${l}.key`] as HostTensor).data as FloatArray;
    const fv = (l: number) => (out[`fresh.${l}.value`] as HostTensor).data as FloatArray;
    // The slot's host tensors take the new keys/values from the caches at its next pass (pastFeeds).
    const fc = (l: number) => (out[`fresh.${l}.conv`] as HostTensor).data as FloatArray;
    rows.forEach((r, b) => {
      if (!r.keep) return;
      if (!r.cache) throw new SamplingError('bad_input', 'decoder: keep > 0 needs a cache');
      r.cache.append(r.keep, fk, fv, b * hkv * T * hd, T, 0);
      r.cache.keepConv(r.keep, fc, b * T * c.dModel);
    });
    const tEnd = performance.now();
    this.timing.hostMs += tRun - t0 + (tEnd - tOut);
    if (P === 0) this.timing.prefillPasses++, (this.timing.prefillMs += tEnd - t0);
    else this.timing.stepPasses++, (this.timing.stepMs += tEnd - t0);
    if (head === 'greedy') {
      this.greedyHeadPasses++;
      return greedyPicks(rows, out, V);
    }
    const logits = (out['logits'] as HostTensor).data as FloatArray;
    // A row's logits are consecutive in the output: a view of it in float32, a converted copy in float64.
    let off = 0;
    const perRow = rows.map((r) => {
      const span = logits.subarray(off * V, (off + r.logitsOf.length) * V);
      off += r.logitsOf.length;
      return span instanceof Float32Array ? span : Float32Array.from(span);
    });
    return bans ? perRow.map((l, b) => picksFromLogits(l, rows[b]!, bans, V)) : perRow;
  }

  /**
   * LFM2: each conv layer's state for the batch, [n, L − 1, D] (zeros for a row without cache).
   * Small (L − 1 tokens a row), so it is assembled at every pass rather than kept in the slot.
   */
  private convFeeds(rows: readonly RowPass[]): Record<string, HostTensor> {
    const lfm2 = this.config.lfm2;
    if (!lfm2) return {};
    const W = lfm2.convKernel - 1,
      D = this.config.dModel,
      n = rows.length;
    const feeds: Record<string, HostTensor> = {};
    for (let l = 0; l < convLayerCount(this.config); l++) {
      const data = new this.Arr(n * W * D);
      rows.forEach(({ cache }, b) => cache && data.set(cache.conv[l]!, b * W * D));
      feeds[`past.${l}.conv`] = hostTensor(this.dtype, data as never, [n, W, D]);
    }
    return feeds;
  }

  /**
   * Past tensors [n, Hkv, P, hd] per attention layer, P = slot.length. They are kept until the row set
   * changes or a cache outgrows them (CPU; new cache positions are copied in, rows that left are
   * compacted out) or until
   * any cache changes (WebGPU, where they stay in device memory across the steps of a block).
   */
  private async pastFeeds(rows: readonly RowPass[], slot: PastSlot): Promise<{ feeds: Record<string, SessionValue>; P: number }> {
    const onDevice = this.session.provider === 'webgpu';
    const c = this.config,
      hd = this.hd,
      hkv = c.nKvHeads,
      n = rows.length;
    let longest = 0;
    for (const r of rows) longest = Math.max(longest, r.cache?.length ?? 0);
    if (longest === 0) {
      // A prefill attends to nothing cached: empty past tensors, and the batch's assembled past
      // stays as it is for the passes of the other rows (rows joining a continuous batch prefill
      // in a pass of their own, between the others' steps).
      const feeds: Record<string, SessionValue> = {};
      for (let l = 0; l < attentionLayerCount(c); l++) for (const kind of ['key', 'value'] as const) feeds[`past.${l}.${kind}`] = hostTensor(this.dtype, new this.Arr(0) as never, [n, hkv, 0, hd]);
      return { feeds, P: 0 };
    }
    if (slot.feeds && longest <= slot.length) {
      if (sameRows(rows, slot, onDevice)) return { feeds: onDevice ? slot.feeds : this.synced(rows, slot), P: slot.length };
      // Rows left, joined or were reset: on the CPU the kept rows move up in place and only the
      // others are written from their caches.
      if (!onDevice && this.remap(rows, slot)) return { feeds: this.synced(rows, slot), P: slot.length };
    }
    slot.clear();
    slot.assemblies++;
    const P = onDevice ? longest : pastRoom(longest);
    const feeds: Record<string, SessionValue> = {};
    for (let l = 0; l < attentionLayerCount(c); l++) {
      const size = n * hkv * P * hd;
      const pair = { key: slot.buffer(l, 'key', size, this.Arr), value: slot.buffer(l, 'value', size, this.Arr) };
      for (const kind of ['key', 'value'] as const) {
        const dst = pair[kind];
        rows.forEach(({ cache }, b) => cache && this.writeRow(dst, cache, l, kind, b, P));
        const host = hostTensor(this.dtype, dst.subarray(0, size) as never, [n, hkv, P, hd]);
        feeds[`past.${l}.${kind}`] = onDevice ? await toDevice(host) : host;
      }
      if (!onDevice) slot.host.push(pair);
    }
    slot.caches = rows.map((r) => r.cache);
    slot.lengths = rows.map((r) => r.cache?.length ?? 0);
    slot.feeds = feeds;
    slot.length = P;
    return { feeds, P };
  }

  /** Writes a row's whole cache (layer l, keys or values) into batch row b of a [.., Hkv, P, hd] buffer. */
  private writeRow(dst: FloatArray, cache: RowCache, l: number, kind: 'key' | 'value', b: number, P: number): void {
    const hd = this.hd,
      hkv = this.config.nKvHeads;
    const src = kind === 'key' ? cache.keys[l]! : cache.values[l]!;
    for (let h = 0; h < hkv; h++) dst.set(src.subarray(h * cache.stride, h * cache.stride + cache.length * hd), (b * hkv + h) * P * hd);
  }

  /** Copies into the slot's host tensors the cache positions appended since they were written (CPU). */
  private synced(rows: readonly RowPass[], slot: PastSlot): Record<string, SessionValue> {
    const hd = this.hd,
      hkv = this.config.nKvHeads,
      P = slot.length;
    rows.forEach(({ cache }, b) => {
      const from = slot.lengths[b]!;
      if (!cache || cache.length === from) return;
      slot.host.forEach((pair, l) => {
        for (const kind of ['key', 'value'] as const) {
          const src = kind === 'key' ? cache.keys[l]! : cache.values[l]!;
          for (let h = 0; h < hkv; h++) pair[kind].set(src.subarray(h * cache.stride + from * hd, h * cache.stride + cache.length * hd), ((b * hkv + h) * P + from) * hd);
        }
      });
      slot.lengths[b] = cache.length;
    });
    return slot.feeds!;
  }

  /**
   * Fits `rows` into the slot's host tensors without re-assembling them, when their buffers have
   * room for that many rows and the rows the slot already holds come in its order: each of those
   * moves its block to its new index (up when rows before it left, down when rows joined before
   * it), and a row the slot does not hold (it joined the batch or was reset) has its cache written
   * into its block; false otherwise. What lies
   * past a row's length in its block is masked out, so blocks are not cleared.
   */
  private remap(rows: readonly RowPass[], slot: PastSlot): boolean {
    const hkv = this.config.nKvHeads,
      P = slot.length,
      n = rows.length;
    const block = hkv * P * this.hd;
    if (slot.host.some((pair) => pair.key.length < n * block || pair.value.length < n * block)) return false;
    const held = new Map<RowCache, number>();
    slot.caches.forEach((c, o) => c && held.set(c, o));
    /** Per new row its block in the slot, or −1 to write it from its cache. */
    const from: number[] = [];
    let last = -1;
    for (const [b, r] of rows.entries()) {
      const o = r.cache ? held.get(r.cache) : undefined;
      if (o === undefined) {
        from.push(-1);
        continue;
      }
      // Held rows keep their order, so moving the blocks that go up in ascending order and then
      // those that go down in descending order overwrites none before it has moved.
      if (o <= last) return false;
      from.push((last = o));
    }
    const feeds: Record<string, SessionValue> = { ...slot.feeds };
    slot.host.forEach((pair, l) => {
      for (const kind of ['key', 'value'] as const) {
        const buf = pair[kind];
        from.forEach((ob, b) => ob > b && buf.copyWithin(b * block, ob * block, (ob + 1) * block));
        for (let b = n - 1; b >= 0; b--) if (from[b]! >= 0 && from[b]! < b) buf.copyWithin(b * block, from[b]! * block, (from[b]! + 1) * block);
        rows.forEach(({ cache }, b) => from[b] === -1 && cache && this.writeRow(buf, cache, l, kind, b, P));
        feeds[`past.${l}.${kind}`] = hostTensor(this.dtype, buf.subarray(0, n * block) as never, [n, hkv, P, this.hd]);
      }
    });
    slot.lengths = rows.map((r, b) => (from[b]! >= 0 ? slot.lengths[from[b]!]! : (r.cache?.length ?? 0)));
    slot.caches = rows.map((r) => r.cache);
    slot.feeds = feeds;
    return true;
  }
}

/** Whether the slot's tensors hold exactly these rows' caches (on a device: at their current lengths too). */
function sameRows(rows: readonly RowPass[], slot: PastSlot, onDevice: boolean): boolean {
  if (rows.length !== slot.caches.length) return false;
  for (let b = 0; b < rows.length; b++) {
    const cache = rows[b]!.cache;
    if (cache !== slot.caches[b]) return false;
    if (onDevice && (cache?.length ?? 0) !== slot.lengths[b]) return false;
  }
  return true;
}

/** Rows (by index) of a prefill in groups of similar length that minimise the summed pass cost. */
export function prefillGroups(lengths: readonly number[]): number[][] {
  return splitByLength(lengths, prefillPassCost);
}

/**
 * The decoder graph (named dims batch, past, new, rows), its head either the wanted rows' logits
 * or their greedy choice. The greedy head works on the float32 logits as chooseToken reads them:
 * banned ids get −∞ (`ban` [lists, V] gathered by `ban_of` [rows]); `greedy_max` is the row max,
 * `greedy_first` V − the first id reaching it (ONNX has ArgMax, our graph engine does not: the
 * max of equal(z, max) · (V − id) finds the lowest such id), `greedy_sum` Σ exp(z − max) in float64.
 */
function decoderGraph(config: TransformerConfig, dtype: FloatDtype, head: 'logits' | 'greedy'): Uint8Array {
  const g = new Graph();
  const specs = transformerParams(config);
  const p = Object.fromEntries(specs.map((s) => [s.name, g.input(s.name, dtype, s.shape)]));
  const hd = headDimOf(config);
  const past = Array.from({ length: attentionLayerCount(config) }, (_, i) => ({
    key: g.input(`past.${i}.key`, dtype, ['batch', config.nKvHeads, 'past', hd]),
    value: g.input(`past.${i}.value`, dtype, ['batch', config.nKvHeads, 'past', hd]),
  }));
  // LFM2: each conv layer's last L − 1 gated inputs; the new tokens' ones come back as fresh.<l>.conv.
  const convPast = config.lfm2 ? Array.from({ length: convLayerCount(config) }, (_, i) => g.input(`past.${i}.conv`, dtype, ['batch', config.lfm2!.convKernel - 1, config.dModel])) : undefined;
  const out = decoderForward(config, p, {
    ...(convPast ? { convPast } : {}),
    inputIds: g.input('input_ids', 'int64', ['batch', 'new']),
    mask: g.input('mask', dtype, ['batch', 1, 'new', sumDims(['past', 'new'])]),
    cos: g.input('cos', dtype, ['batch', 1, 'new', hd]),
    sin: g.input('sin', dtype, ['batch', 1, 'new', hd]),
    past,
    logitsAt: g.input('logits_at', 'int64', ['rows', 2]),
    groupedAttention: true,
  });
  // Only the rows' wanted logits (or choices) and the new tokens' keys/values leave the graph: the
  // past is kept on our side, so copying it back out (present = past ++ new) would be wasted per step.
  if (head === 'logits') g.output('logits', out.logits);
  else addGreedyHead(g, out.logits, config.vocabSize);
  out.fresh.forEach((kv, i) => {
    g.output(`fresh.${i}.key`, kv.key);
    g.output(`fresh.${i}.value`, kv.value);
  });
  out.convFresh.forEach((z, i) => g.output(`fresh.${i}.conv`, z));
  return emitOnnx(g, { name: head === 'logits' ? 'decoder_kv' : 'decoder_kv_greedy' }).bytes;
}

/**
 * The greedy head over the wanted rows' logits (rows, V): `ban` [lists, V] gathered by `ban_of`
 * [rows] adds −∞ at banned ids; outputs `greedy_max`, `greedy_first` and `greedy_sum` (see decoderGraph).
 */
export function addGreedyHead(g: Graph, logits: Tensor, V: number): void {
  const ban = gather(g.input('ban', 'float32', ['lists', V]), g.input('ban_of', 'int64', ['rows']), 0);
  const z: Tensor = add(cast(logits, 'float32'), ban); // (rows, V)
  const max = reduceMax(z, [-1], true);
  const fromEnd = g.constant(
    Array.from({ length: V }, (_, i) => V - i),
    'float32',
    [V],
  );
  g.output('greedy_max', reduceMax(z, [-1]));
  g.output('greedy_first', reduceMax(mul(cast(equal(z, max), 'float32'), fromEnd), [-1]));
  g.output('greedy_sum', reduceSum(exp(sub(cast(z, 'float64'), cast(max, 'float64'))), [-1]));
}

/** Below this many wanted rows a greedy pass copies logits out and chooses in JavaScript (chooseToken). */
const GREEDY_HEAD_MIN_ROWS = 8;

/** A row's greedy choices from its copied-out logits: chooseToken itself. */
export function picksFromLogits(logits: Float32Array, r: Pick<RowPass, 'logitsOf' | 'banOf'>, bans: GreedyBans, V: number): GreedyPicks {
  const n = r.logitsOf.length;
  const picks: GreedyPicks = { tokens: new Int32Array(n), probs: new Float64Array(n) };
  for (let w = 0; w < n; w++) {
    const c = chooseToken(logits.subarray(w * V, (w + 1) * V), GREEDY, undefined, { banned: bans.lists[r.banOf?.[w] ?? 0]! });
    picks.tokens[w] = c.token;
    picks.probs[w] = c.prob;
  }
  return picks;
}

/** Per row, its greedy choices from the greedy head's outputs (chooseToken's formulas for lse and prob). */
function greedyPicks(rows: readonly RowPass[], out: Record<string, SessionValue>, V: number): GreedyPicks[] {
  const data = (name: string) => (out[name] as HostTensor).data;
  return picksFromHead(rows, data('greedy_max') as Float32Array, data('greedy_first') as Float32Array, data('greedy_sum') as Float64Array, V);
}

/** Per row (its `logitsOf` count of entries, in order), the greedy choices from the head's three outputs. */
export function picksFromHead(rows: readonly { logitsOf: readonly number[] }[], max: Float32Array, first: Float32Array, sum: Float64Array, V: number): GreedyPicks[] {
  let k = 0;
  return rows.map((r) => {
    const n = r.logitsOf.length;
    const picks: GreedyPicks = { tokens: new Int32Array(n), probs: new Float64Array(n) };
    for (let w = 0; w < n; w++, k++) {
      const m = max[k]!;
      const lse = m === -Infinity ? -Infinity : m + Math.log(sum[k]!);
      if (lse === -Infinity || Number.isNaN(lse)) throw new SamplingError('bad_input', `chooseToken: the logits row has no finite entry that may be chosen (${V} entries)`);
      picks.tokens[w] = V - first[k]!;
      picks.probs[w] = Math.exp(m - lse);
    }
    return picks;
  });
}
