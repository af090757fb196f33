// The decoder with its KV cache resident in the session's memory (GPU memory on CUDA), through
// the C API's IO binding. A batch of rows is a pool: per attention layer one key and one value
// buffer [rows, Hkv, capacity, hd], allocated once (zeroed) and grown by doubling. A pass runs over
// the whole pool — rows without work that pass take a placeholder token — and writes every new
// token's keys/values into the pool in place (ScatterND with its output bound to the buffer it
// reads); the mask is built in the graph from each row's cached length and its new tokens' `visible`
// counts, so only token ids, positions, a few counts and the wanted logits (or greedy choices)
// cross the host bus. A long prefill runs in chunks of committed tokens, so that a pass's attention
// scores stay within a memory budget. Same results as OnnxDecoder (onnx-decoder.ts) row for row:
// a row's logits depend only on its own cache and tokens. Opt-in: half-precision weights, pool and
// GEMMs (`dtype`), and decode steps replayed as CUDA graphs (`cudaGraph`, resident-graph-step.ts).
import { encodeBfloat16, encodeFloat16 } from '../checkpoint/float-bits.js';
import { cast, emitOnnx, Graph, less, sub, where } from '../graph/index.js';
import { isHalf, ONNX_DTYPE } from '../dtype.js';
import { encodeModel } from '../onnx/model.js';
import { attentionLayerCount, decoderForward, headDimOf, type KvPair, transformerParams, type TransformerConfig } from '../nn/transformer.js';
import { type BoundProvider, BoundSession, type BoundTensor, Copier, hostStaging } from '../runtime/capi/index.js';
import { SamplingError } from './errors.js';
import { addGreedyHead, type FloatDtype, type GreedyBans, type GreedyPicks, picksFromHead, picksFromLogits } from './onnx-decoder.js';
import { bucketKey, bucketRows, Copiers, GRAPH_MAX_NEW, GraphStep, GraphSteps, type StepTensor } from './resident-graph-step.js';
import { RopeRows } from './rope-rows.js';

const NEG = -1e9;

/**
 * The resident decoder's compute, weight and cache type: FloatDtype, or half precision — weights
 * converted once on upload, the KV pool and the GEMMs in the half type, RMSNorm, RoPE and the
 * attention softmax in float32 (functional.ts), logits handed out as float32.
 */
export type ResidentDtype = FloatDtype | 'float16' | 'bfloat16';

/** The host-side float type of a decoder dtype: RoPE tables in, logits out (float32 for half graphs). */
const hostFloat = (d: ResidentDtype): FloatDtype => (d === 'float64' ? 'float64' : 'float32');

export interface ResidentDecoderOptions {
  provider: BoundProvider;
  /**
   * Compute and cache dtype (default float32; float64 for bit-stable tests on the CPU). float16 runs
   * on the CPU provider (tested) and CUDA; bfloat16 needs CUDA (ORT's CPU provider lacks bfloat16
   * MatMul). On the H200 bf16 gave 1.17× float32's tokens/s at batch 64 (README, "Decoders").
   */
  dtype?: ResidentDtype;
  deviceId?: number;
  intraOpThreads?: number;
  /**
   * Upper bound on one pass's attention scores in bytes (pool rows × heads × new tokens × capacity ×
   * 4); a longer prefill runs in chunks under it (default 1 GiB on CUDA, 256 MiB on the CPU, where
   * ONNX Runtime keeps several tensors of that size alive at once).
   */
  maxScoreBytes?: number;
  /**
   * Decode steps over a pool (at most GRAPH_MAX_NEW new tokens a row) as CUDA graphs: each shape
   * (pool rows × capacity × new tokens × logits rows) captured once on its own graph id and
   * replayed, its inputs copied into buffers bound once (resident-graph-step.ts). Prefill and pool
   * growth stay uncaptured. A released pool is kept (one per row count) for the next pool of as
   * many rows, so that batch after batch replays the same graphs. On the CPU the same fixed-buffer
   * path runs without capture. Default false: on the H200 it halved the batch-1 step, and crashed at a 16-row pool (README, "Decoders").
   */
  cudaGraph?: boolean;
}

/** One row of a pool: its index there and how many positions of its cache are committed. */
export class ResidentRow {
  length = 0;
  constructor(
    readonly pool: ResidentPool,
    readonly index: number,
  ) {}
}

/** What a pass asks of one row (RowPass of onnx-decoder.ts, with a pool row as its cache). */
export interface ResidentPass {
  cache: ResidentRow;
  tokens: readonly number[];
  positions: readonly number[];
  /** New token i attends to new tokens [0, visible(i)) (a prefix pattern: causal, block-causal). */
  visible: (i: number) => number;
  keep: number;
  logitsOf: readonly number[];
  banOf?: readonly number[];
}

/** The key/value buffers of a batch of rows. */
export class ResidentPool {
  readonly rows: ResidentRow[];
  keys: BoundTensor[] = [];
  values: BoundTensor[] = [];
  capacity = 0;
  /** @internal the graph steps bound to these buffers (cudaGraph) */
  readonly graphSteps = new GraphSteps();

  /** @internal made by ResidentDecoder.openPool */
  constructor(
    readonly decoder: ResidentDecoder,
    size: number,
  ) {
    this.rows = Array.from({ length: size }, (_, i) => new ResidentRow(this, i));
  }

  /**
   * Done with the pool. With `cudaGraph` the decoder keeps it (one per row count), buffers and
   * captured steps included, for the next `openPool` of as many rows; otherwise its buffers are freed.
   */
  release(): void {
    if (!this.decoder.keepPool(this)) this.free();
  }

  /** @internal frees the buffers and graph steps */
  free(): void {
    this.graphSteps.release();
    for (const t of [...this.keys, ...this.values]) t.release();
    this.keys = [];
    this.values = [];
    this.capacity = 0;
  }
}

/** One segment of a row's tokens that runs in one pass: [from, to), keeping `keep` of them. */
interface Segment {
  pass: ResidentPass;
  from: number;
  to: number;
  keep: number;
  /** The row's answer comes from this segment (its last). */
  last: boolean;
}

type FloatArray = Float32Array | Float64Array;

export class ResidentDecoder {
  readonly dtype: ResidentDtype;
  /** Forward passes run (chunks of a prefill count one each). */
  passes = 0;
  greedyHeadPasses = 0;
  /** Passes that ran as graph steps (cudaGraph: captured or replayed on CUDA, fixed buffers on the CPU). */
  graphPasses = 0;
  private nextGraphId = 1;
  /** Released pools kept for reuse, by row count (cudaGraph only; see keepPool). */
  private readonly keptPools = new Map<number, ResidentPool>();
  private released = false;
  private stepCopiers: Copiers | undefined;
  private readonly hd: number;
  private readonly layers: number;
  private readonly ropeRows: RopeRows;
  /** Sessions by attention mode and head ('cache.logits' is the one made at creation). */
  private readonly sessions = new Map<string, BoundSession>();
  private grower: BoundSession | undefined;
  private banFeed: { bans: GreedyBans; tensor: BoundTensor } | undefined;
  /** A pass's host inputs and outputs, kept from pass to pass while their shapes stay (decode steps). */
  private readonly staging = new Staging();
  /** The staged `columns` tensor last filled with 0..C−1 (the same tensor while C stays). */
  private readonly columnsFilled = new WeakSet<BoundTensor>();
  /**
   * Where a step's time goes: prefill passes (into empty rows) and steps (passes over cached rows:
   * a token, a block and its commit, a prefill chunk), host work apart.
   */
  readonly timing = { prefillPasses: 0, prefillMs: 0, stepPasses: 0, stepMs: 0, hostMs: 0 };

  private constructor(
    readonly config: TransformerConfig,
    private readonly session: BoundSession,
    private readonly params: Record<string, BoundTensor>,
    private readonly opts: ResidentDecoderOptions,
  ) {
    this.dtype = opts.dtype ?? 'float32';
    this.hd = headDimOf(config);
    this.layers = attentionLayerCount(config);
    this.sessions.set('cache.logits', session);
    this.ropeRows = new RopeRows(config, hostFloat(this.dtype) === 'float64' ? Float64Array : Float32Array);
  }

  static create(config: TransformerConfig, weights: Readonly<Record<string, Float32Array | Float64Array>>, opts: ResidentDecoderOptions): ResidentDecoder {
    if (config.lfm2) throw new SamplingError('bad_option', 'resident decoder: LFM2 models keep convolution state; use the host-cache decoder (OnnxDecoder)');
    if (config.ropeScaling?.type === 'dynamic') throw new SamplingError('bad_option', 'resident decoder: dynamic RoPE scaling is not supported by the cached decoder');
    const dtype = opts.dtype ?? 'float32';
    if (dtype === 'bfloat16' && opts.provider === 'cpu')
      throw new SamplingError('bad_option', "resident decoder: bfloat16 runs on CUDA only (ONNX Runtime's CPU provider has no bfloat16 MatMul); use float16 on the CPU");
    const session = BoundSession.create(residentGraph(config, dtype, 'logits', 'cache'), sessionOptions(opts));
    // The weights cross to the device once, here; every pass binds the same buffers.
    const specs = transformerParams(config);
    const host: BoundTensor[] = [];
    const params: Record<string, BoundTensor> = {};
    for (const s of specs) {
      const w = weights[s.name];
      const size = s.shape.reduce((a, b) => a * b, 1);
      if (!w || w.length !== size)
        throw new SamplingError('bad_input', `resident decoder: parameter "${s.name}" ${w ? `has ${w.length} values, its shape [${s.shape.join(', ')}] needs ${size}` : 'is missing'}`);
      const staged = hostStaging(dtype, s.shape);
      writeWeights(staged, w);
      host.push(staged);
      params[s.name] = session.provider === 'cpu' ? staged : session.allocate(dtype, s.shape);
    }
    if (session.provider !== 'cpu') {
      const copier = Copier.create(session.provider, Copier.slotsOf(host));
      try {
        copier.copy(
          host,
          specs.map((s) => params[s.name]!),
        );
      } finally {
        copier.release();
        for (const t of host) t.release();
      }
    }
    return new ResidentDecoder(config, session, params, opts);
  }

  get provider(): BoundProvider {
    return this.session.provider;
  }

  /** A pool for `rows` rows, empty (its buffers are allocated at the first pass). */
  openPool(rows: number): ResidentPool {
    if (!(Number.isInteger(rows) && rows >= 1)) throw new SamplingError('bad_input', `resident decoder: a pool needs at least one row, got ${rows}`);
    const kept = this.keptPools.get(rows);
    if (!kept) return new ResidentPool(this, rows);
    // A kept pool's buffers and graph steps serve again: what lies past a row's length is never read.
    this.keptPools.delete(rows);
    for (const r of kept.rows) r.length = 0;
    return kept;
  }

  /**
   * @internal a released pool, kept when graph steps are on: each batch would otherwise allocate
   * new buffers and capture its steps anew (captured graphs are tied to buffer addresses, and ORT
   * keeps every captured graph until its session goes). One pool per row count; false: free it.
   */
  keepPool(pool: ResidentPool): boolean {
    if (this.opts.cudaGraph !== true || this.keptPools.has(pool.rows.length) || this.released) return false;
    this.keptPools.set(pool.rows.length, pool);
    return true;
  }

  /** One batched step; per pass, the logits of its `logitsOf` tokens ([count × V]). */
  run(passes: readonly ResidentPass[]): Promise<Float32Array[]> {
    return this.step(passes, undefined) as Promise<Float32Array[]>;
  }

  /** The same step, returning per pass only the greedy choice of each `logitsOf` token. */
  runGreedy(passes: readonly ResidentPass[], bans: GreedyBans): Promise<GreedyPicks[]> {
    return this.step(passes, bans) as Promise<GreedyPicks[]>;
  }

  release(): void {
    this.released = true;
    for (const p of this.keptPools.values()) p.free();
    this.keptPools.clear();
    // On the CPU the parameters are the host staging tensors themselves; on CUDA those were released after the copy.
    for (const t of Object.values(this.params)) t.release();
    this.banFeed?.tensor.release();
    this.staging.release();
    this.stepCopiers?.release();
    for (const session of this.sessions.values()) session.release(); // 'cache.logits' is this.session
    this.grower?.release();
  }

  private async step(passes: readonly ResidentPass[], bans: GreedyBans | undefined): Promise<Float32Array[] | GreedyPicks[]> {
    if (passes.length === 0) return [];
    const pool = passes[0]!.cache.pool;
    const seen = new Set<number>();
    for (const p of passes) {
      if (p.cache.pool !== pool) throw new SamplingError('bad_input', 'resident decoder: the rows of one step must belong to one pool');
      if (seen.has(p.cache.index)) throw new SamplingError('bad_input', `resident decoder: pool row ${p.cache.index} appears twice in one step`);
      seen.add(p.cache.index);
      checkPass(p);
    }
    const results: (Float32Array | GreedyPicks)[] = new Array(passes.length);
    const order = new Map(passes.map((p, i) => [p, i]));
    const collect = (round: readonly Segment[], answered: readonly (Float32Array | GreedyPicks)[]) =>
      round.forEach((seg, k) => {
        if (seg.last) results[order.get(seg.pass)!] = answered[k]!;
      });
    // Rows with nothing cached yet (a prefill) run apart, in groups of similar length. Split before
    // any pass runs: a prefill gives its row a cache length.
    const isFresh = (p: ResidentPass) => p.cache.length === 0 && p.tokens.length > 1;
    const fresh = passes.filter(isFresh);
    const rest = passes.filter((p) => !isFresh(p));
    for (const group of this.freshGroups(fresh, pool)) {
      const round = group.map((p): Segment => ({ pass: p, from: 0, to: p.tokens.length, keep: p.keep, last: true }));
      collect(round, await this.pass(pool, round, bans, true));
    }
    for (const round of rest.length ? this.segments(rest, pool) : []) collect(round, await this.pass(pool, round, bans));
    return results as Float32Array[] | GreedyPicks[];
  }

  /**
   * Each pass's tokens in rounds: leading chunks of committed tokens that each fit the score budget
   * (every token of a chunk sees only earlier chunks and itself: a prefix pattern), then the rest.
   */
  private segments(passes: readonly ResidentPass[], pool: ResidentPool): Segment[][] {
    const heads = this.config.nHeads;
    let longest = 0;
    for (const p of passes) longest = Math.max(longest, p.cache.length + p.tokens.length);
    const cap = Math.max(pool.capacity, longest);
    const budget = this.scoreBudget();
    const chunk = Math.max(64, Math.floor(budget / (pool.rows.length * heads * cap * 4) / 64) * 64);
    const perPass = passes.map((p) => {
      const segs: Segment[] = [];
      const firstWanted = p.logitsOf.length ? p.logitsOf[0]! : p.tokens.length;
      let from = 0;
      while (p.tokens.length - from > chunk) {
        const to = from + chunk;
        if (to > p.keep || to > firstWanted || p.visible(to - 1) > to) break;
        segs.push({ pass: p, from, to, keep: chunk, last: false });
        from = to;
      }
      segs.push({ pass: p, from, to: p.tokens.length, keep: Math.max(0, p.keep - from), last: true });
      return segs;
    });
    const rounds = Math.max(...perPass.map((s) => s.length));
    // A pass with fewer segments runs its last one in the first round, beside others' chunks.
    return Array.from({ length: rounds }, (_, r) => perPass.filter((s) => s.length > r).map((s) => s[r]!));
  }

  /** Prefill passes in groups by length (longest first) whose attention scores fit the budget; a row over it runs alone. */
  private freshGroups(passes: readonly ResidentPass[], pool: ResidentPool): ResidentPass[][] {
    const budget = this.scoreBudget();
    const sorted = [...passes].sort((a, b) => b.tokens.length - a.tokens.length);
    const groups: ResidentPass[][] = [];
    for (const p of sorted) {
      const g = groups[groups.length - 1];
      const T = g?.[0]?.tokens.length ?? 0;
      // Rows much shorter than the group's longest would mostly compute padding: a new group.
      if (g && (g.length + 1) * this.config.nHeads * T * T * 4 <= budget && p.tokens.length * 2 > T && g.length < pool.rows.length) g.push(p);
      else groups.push([p]);
    }
    return groups;
  }

  private scoreBudget(): number {
    return this.opts.maxScoreBytes ?? (this.provider === 'cuda' ? 2 ** 30 : 2 ** 28);
  }

  /** Grows the pool's buffers (zeros past the old capacity) to hold `needed` positions per row. */
  private reserve(pool: ResidentPool, needed: number): void {
    if (needed <= pool.capacity) return;
    // A quarter more than needed (at least 128 positions): attention spans the whole capacity, so
    // doubling would double a step's cost; growing copies the cache, so not every few tokens either.
    const cap = Math.ceil(Math.max(needed + 128, 1.25 * pool.capacity) / 64) * 64;
    const dims = [pool.rows.length, this.config.nKvHeads, cap, this.hd];
    const grower = (this.grower ??= BoundSession.create(growGraph(this.dtype), sessionOptions(this.opts)));
    const pads = hostStaging('int64', [8]);
    (pads.hostData() as BigInt64Array).set([0n, 0n, 0n, 0n, 0n, 0n, BigInt(cap - pool.capacity), 0n]);
    const grow = (old: BoundTensor | undefined): BoundTensor => {
      const from = old ?? this.session.allocate(this.dtype, [pool.rows.length, this.config.nKvHeads, 0, this.hd]);
      const to = this.session.allocate(this.dtype, dims);
      const binding = grower.bind({ x: from, pads }, { y: to });
      try {
        grower.runSync(binding);
      } finally {
        binding.release();
        from.release();
      }
      return to;
    };
    // Graph steps bound the old buffers (and were captured on their addresses): dropped, and new
    // ones made on new graph ids for the grown capacity.
    pool.graphSteps.release();
    const layers = Array.from({ length: this.layers }, (_, l) => l);
    pool.keys = layers.map((l) => grow(pool.keys[l]));
    pool.values = layers.map((l) => grow(pool.values[l]));
    pool.capacity = cap;
    pads.release();
  }

  /**
   * One forward. Over the whole pool (`fresh` false): the round's segments on their rows, a
   * placeholder token on the others, attending to each row's cache. A fresh pass (a prefill into
   * empty rows) runs only the round's rows, attending to their new tokens alone, and writes them
   * into their pool rows: a long prompt's attention then spans its own length, not the pool's.
   * With `cudaGraph`, a pass over the pool of at most GRAPH_MAX_NEW new tokens runs as a graph
   * step (resident-graph-step.ts): the same inputs, filled into its fixed buffers.
   */
  private async pass(pool: ResidentPool, round: readonly Segment[], bans: GreedyBans | undefined, fresh = false): Promise<(Float32Array | GreedyPicks)[]> {
    const t0 = performance.now();
    const c = this.config,
      hd = this.hd,
      hkv = c.nKvHeads,
      V = c.vocabSize,
      n = fresh ? round.length : pool.rows.length;
    let T = 1,
      K = 0;
    for (const s of round) {
      T = Math.max(T, s.to - s.from);
      K += s.last ? s.pass.logitsOf.length : 0;
    }
    let longest = T;
    if (!fresh) for (const r of pool.rows) longest = Math.max(longest, r.length + T);
    this.reserve(pool, longest);
    const C = fresh ? T : pool.capacity;
    const greedy = bans !== undefined && K > 0;
    const graphed = this.opts.cudaGraph === true && !fresh && T <= GRAPH_MAX_NEW;
    // A graph step's logits rows come in buckets (the extra rows read row 0's first token, ignored).
    const rows = graphed ? bucketRows(K, n * T, n) : Math.max(1, K);
    const hf = hostFloat(this.dtype);
    const inputs: StepTensor[] = [
      { name: 'input_ids', dtype: 'int64', dims: [n, T] },
      { name: 'visible', dtype: 'int64', dims: [n, 1, T, 1] },
      { name: 'columns', dtype: 'int64', dims: [1, 1, 1, C] },
      { name: 'write_at', dtype: 'int64', dims: [n, hkv, T, 3] },
      { name: 'cos', dtype: hf, dims: [n, 1, T, hd] },
      { name: 'sin', dtype: hf, dims: [n, 1, T, hd] },
      { name: 'logits_at', dtype: 'int64', dims: [rows, 2] },
      ...(fresh ? [] : [{ name: 'cached', dtype: 'int64', dims: [n, 1, 1, 1] } as const]),
      ...(greedy ? [{ name: 'ban_of', dtype: 'int64', dims: [rows] } as const] : []),
      ...(greedy && graphed ? [{ name: 'ban', dtype: 'float32', dims: [bans.lists.length, V] } as const] : []),
    ];
    const outputs: StepTensor[] = greedy
      ? [
          { name: 'greedy_max', dtype: 'float32', dims: [rows] },
          { name: 'greedy_first', dtype: 'float32', dims: [rows] },
          { name: 'greedy_sum', dtype: 'float64', dims: [rows] },
        ]
      : [{ name: 'logits', dtype: hf, dims: [rows, V] }];
    const head = greedy ? 'greedy' : 'logits';
    const session = this.sessionFor(fresh ? 'fresh' : 'cache', head, graphed);
    const pooled = this.poolTensors(pool);
    const step = graphed ? pool.graphSteps.get(bucketKey(head, [...inputs, ...outputs]), () => new GraphStep(session, pooled, inputs, outputs, this.nextGraphId++, this.copiers())) : undefined;
    const mode = fresh ? 'fresh.' : '';
    const tensors = Object.fromEntries([...inputs, ...outputs].map((t) => [t.name, step ? step.tensor(t.name) : this.staging.get(mode + t.name, t.dtype, t.dims)]));
    const data = <D extends BigInt64Array | FloatArray | Float32Array | Float64Array>(name: string) => tensors[name]!.hostData() as D;
    const idsD = data<BigInt64Array>('input_ids').fill(0n);
    const cachedD = fresh ? undefined : data<BigInt64Array>('cached').fill(0n);
    const visibleD = data<BigInt64Array>('visible').fill(1n); // placeholders see their own first position
    const columns = tensors['columns']!;
    if (!this.columnsFilled.has(columns)) data<BigInt64Array>('columns').forEach((_, j, col) => (col[j] = BigInt(j)));
    this.columnsFilled.add(columns);
    const writeD = data<BigInt64Array>('write_at');
    const cosD = data<FloatArray>('cos').fill(0);
    const sinD = data<FloatArray>('sin').fill(0);
    const atD = data<BigInt64Array>('logits_at').fill(0n);
    /** Tensor row b writes into pool row `slot` from position `from` on. */
    const writes = (b: number, slot: number, from: number) => {
      for (let h = 0; h < hkv; h++)
        for (let i = 0; i < T; i++) {
          const w = ((b * hkv + h) * T + i) * 3;
          writeD[w] = BigInt(slot);
          writeD[w + 1] = BigInt(h);
          writeD[w + 2] = BigInt(from + i);
        }
    };
    if (fresh) round.forEach((s, b) => writes(b, s.pass.cache.index, 0));
    else
      for (const row of pool.rows) {
        cachedD![row.index] = BigInt(row.length);
        writes(row.index, row.index, row.length);
      }
    const banOf: number[] = [];
    let k = 0;
    for (const [at, s] of round.entries()) {
      const p = s.pass,
        b = fresh ? at : p.cache.index,
        len = s.to - s.from;
      for (let i = 0; i < len; i++) {
        idsD[b * T + i] = BigInt(p.tokens[s.from + i]!);
        this.ropeRows.write(p.positions[s.from + i]!, cosD, sinD, (b * T + i) * hd);
        visibleD[b * T + i] = BigInt(Math.min(len, p.visible(s.from + i) - s.from));
      }
      if (!s.last) continue;
      p.logitsOf.forEach((at, w) => {
        atD[2 * k] = BigInt(b);
        atD[2 * k + 1] = BigInt(at - s.from);
        banOf.push(p.banOf?.[w] ?? 0);
        k++;
      });
    }
    if (greedy) {
      const banOfD = data<BigInt64Array>('ban_of').fill(0n); // a bucket's extra rows take list 0
      banOf.forEach((x, w) => (banOfD[w] = BigInt(checkBan(x, w, bans))));
      // A graph step holds the banned lists in its own buffer; a bound pass binds the shared host tensor.
      if (step && step.filledFrom.get('ban') !== bans) {
        fillBans(data<Float32Array>('ban'), bans, V);
        step.filledFrom.set('ban', bans);
      }
    }
    const tRun = performance.now();
    this.timing.hostMs += tRun - t0;
    if (step) {
      await step.run();
      this.graphPasses++;
    } else {
      const bound: Record<string, BoundTensor> = { ...pooled.inputs, ...(greedy ? { ban: this.banTensor(bans) } : {}) };
      const out: Record<string, BoundTensor> = { ...pooled.outputs };
      for (const t of inputs) bound[t.name] = tensors[t.name]!;
      for (const t of outputs) out[t.name] = tensors[t.name]!;
      const binding = session.bind(bound, out);
      try {
        await session.run(binding);
      } finally {
        binding.release();
      }
    }
    this.passes++;
    const ms = performance.now() - t0;
    if (fresh) this.timing.prefillPasses++, (this.timing.prefillMs += ms);
    else this.timing.stepPasses++, (this.timing.stepMs += ms);
    for (const s of round) s.pass.cache.length += s.keep;
    const answered = round.filter((s) => s.last).map((s) => s.pass);
    if (greedy) {
      this.greedyHeadPasses++;
      const picks = picksFromHead(answered, data<Float32Array>('greedy_max'), data<Float32Array>('greedy_first'), data<Float64Array>('greedy_sum'), V);
      let next = 0;
      return round.map((s) => (s.last ? picks[next++]! : EMPTY_PICKS));
    }
    const logits = data<FloatArray>('logits');
    let off = 0;
    return round.map((s) => {
      if (!s.last) return EMPTY_LOGITS;
      const m = s.pass.logitsOf.length;
      const span = Float32Array.from(logits.subarray(off * V, (off + m) * V));
      off += m;
      return bans ? picksFromLogits(span, s.pass, bans, V) : span;
    });
  }

  /** What every pass binds as it is: the weights, and the pool's key/value buffers as inputs and (written in place) outputs. */
  private poolTensors(pool: ResidentPool): { inputs: Record<string, BoundTensor>; outputs: Record<string, BoundTensor> } {
    const inputs: Record<string, BoundTensor> = { ...this.params };
    const outputs: Record<string, BoundTensor> = {};
    for (let l = 0; l < this.layers; l++) {
      inputs[`cache.${l}.key`] = outputs[`present.${l}.key`] = pool.keys[l]!;
      inputs[`cache.${l}.value`] = outputs[`present.${l}.value`] = pool.values[l]!;
    }
    return { inputs, outputs };
  }

  private copiers(): Copiers {
    return (this.stepCopiers ??= new Copiers(this.provider));
  }

  /**
   * The session of one attention mode and head, compiled on first use. Graph steps on CUDA get
   * sessions of their own, made with `enable_cuda_graph`: every run of such a session is captured
   * or replayed, which the prefill's changing shapes must not be.
   */
  private sessionFor(attend: 'cache' | 'fresh', head: 'logits' | 'greedy', graphed = false): BoundSession {
    const captured = graphed && this.provider === 'cuda';
    const key = `${attend}.${head}${captured ? '.graph' : ''}`;
    let s = this.sessions.get(key);
    if (!s) this.sessions.set(key, (s = BoundSession.create(residentGraph(this.config, this.dtype, head, attend), { ...sessionOptions(this.opts), cudaGraph: captured })));
    return s;
  }

  /** The greedy head's [lists, V] input (0, or −∞ at a banned id), kept while the lists are the same. */
  private banTensor(bans: GreedyBans): BoundTensor {
    if (this.banFeed?.bans === bans) return this.banFeed.tensor;
    const V = this.config.vocabSize;
    if (bans.lists.length === 0) throw new SamplingError('bad_input', 'decoder: a greedy pass needs at least one banned list (it may be empty)');
    this.banFeed?.tensor.release();
    const tensor = hostStaging('float32', [bans.lists.length, V]);
    fillBans(tensor.hostData() as Float32Array, bans, V);
    this.banFeed = { bans, tensor };
    return tensor;
  }
}

/** Host staging tensors by input/output name, reallocated only when a shape changes. */
class Staging {
  private readonly byName = new Map<string, BoundTensor>();

  get(name: string, dtype: BoundTensor['dtype'], dims: readonly number[]): BoundTensor {
    const old = this.byName.get(name);
    if (old && old.dtype === dtype && old.dims.length === dims.length && old.dims.every((d, i) => d === dims[i])) return old;
    old?.release();
    const t = hostStaging(dtype, dims);
    this.byName.set(name, t);
    return t;
  }

  release(): void {
    for (const t of this.byName.values()) t.release();
    this.byName.clear();
  }
}

const EMPTY_LOGITS = new Float32Array(0);
const EMPTY_PICKS: GreedyPicks = { tokens: new Int32Array(0), probs: new Float64Array(0) };

function sessionOptions(o: ResidentDecoderOptions): { provider: BoundProvider; deviceId?: number; intraOpThreads?: number } {
  return { provider: o.provider, ...(o.deviceId !== undefined ? { deviceId: o.deviceId } : {}), ...(o.intraOpThreads ? { intraOpThreads: o.intraOpThreads } : {}) };
}

/** A parameter's values into its host staging tensor, converted to the decoder's dtype (half: rounded to nearest even). */
function writeWeights(staged: BoundTensor, w: Float32Array | Float64Array): void {
  const dtype = staged.dtype;
  if (dtype === 'float32' || dtype === 'float64') {
    const data = staged.hostData() as FloatArray;
    data.set(w);
    return;
  }
  const f32 = w instanceof Float32Array ? w : Float32Array.from(w);
  (staged.hostData() as Uint16Array).set(dtype === 'float16' ? encodeFloat16(f32) : encodeBfloat16(f32));
}

/** The greedy head's [lists, V] ban input: 0, or −∞ at a banned id. */
function fillBans(data: Float32Array, bans: GreedyBans, V: number): void {
  data.fill(0);
  bans.lists.forEach((list, r) => {
    for (const id of list) if (Number.isInteger(id) && id >= 0 && id < V) data[r * V + id] = -Infinity;
  });
}

function checkBan(list: number, w: number, bans: GreedyBans): number {
  if (!(Number.isInteger(list) && list >= 0 && list < bans.lists.length))
    throw new SamplingError('bad_input', `decoder: banned list ${list} asked (wanted token ${w}), there are ${bans.lists.length}`);
  return list;
}

function checkPass(p: ResidentPass): void {
  const len = p.tokens.length;
  if (len === 0) throw new SamplingError('bad_input', `resident decoder: pool row ${p.cache.index} brings no tokens`);
  if (p.positions.length !== len) throw new SamplingError('bad_input', 'decoder: one position per new token');
  if (!(Number.isInteger(p.keep) && p.keep >= 0 && p.keep <= len)) throw new SamplingError('bad_input', `decoder: keep ${p.keep} of ${len} new tokens`);
  p.logitsOf.forEach((i, w) => {
    if (!(Number.isInteger(i) && i >= 0 && i < len && (w === 0 || i > p.logitsOf[w - 1]!)))
      throw new SamplingError('bad_input', `decoder: logits of new token ${i} asked, the row has ${len} (ascending)`);
  });
}

/**
 * The pool decoder's graph: named dims pool, cap (capacity), new, rows. The mask is
 * where(column − cached < visible, 0, −1e9) per row and new token: the committed cache plus the
 * new tokens' prefix that token may see.
 */
function residentGraph(config: TransformerConfig, dtype: ResidentDtype, head: 'logits' | 'greedy', attend: 'cache' | 'fresh'): Uint8Array {
  const g = new Graph();
  const p = Object.fromEntries(transformerParams(config).map((s) => [s.name, g.input(s.name, dtype, s.shape)]));
  const hd = headDimOf(config);
  const tables = hostFloat(dtype);
  const cache: KvPair[] = Array.from({ length: attentionLayerCount(config) }, (_, i) => ({
    key: g.input(`cache.${i}.key`, dtype, ['pool', config.nKvHeads, 'cap', hd]),
    value: g.input(`cache.${i}.value`, dtype, ['pool', config.nKvHeads, 'cap', hd]),
  }));
  const visible = g.input('visible', 'int64', ['pool', 1, 'new', 1]);
  // Cached attention: columns are the cache's positions, shifted by each row's committed length;
  // fresh: columns are the new tokens themselves.
  const columns = g.input('columns', 'int64', [1, 1, 1, attend === 'fresh' ? 'new' : 'cap']);
  const mask = where(less(attend === 'fresh' ? columns : sub(columns, g.input('cached', 'int64', ['pool', 1, 1, 1])), visible), 0, NEG);
  const out = decoderForward(config, p, {
    inputIds: g.input('input_ids', 'int64', ['pool', 'new']),
    // The mask and RoPE tables in float32 for a half graph too: attention adds the mask to its
    // scores, and rotates q/k, in the wider type (functional.ts).
    mask: cast(mask, tables),
    cos: g.input('cos', tables, ['pool', 1, 'new', hd]),
    sin: g.input('sin', tables, ['pool', 1, 'new', hd]),
    cacheWrite: { cache, at: g.input('write_at', 'int64', ['pool', config.nKvHeads, 'new', 3]), attend },
    logitsAt: g.input('logits_at', 'int64', ['rows', 2]),
    groupedAttention: true,
  });
  if (head === 'logits') g.output('logits', cast(out.logits, tables));
  else addGreedyHead(g, out.logits, config.vocabSize);
  out.present.forEach((kv, i) => {
    g.output(`present.${i}.key`, kv.key);
    g.output(`present.${i}.value`, kv.value);
  });
  return emitOnnx(g, { name: `resident_decoder_${attend}_${head}` }).bytes;
}

/**
 * Pad along the capacity axis (zeros): grows a pool's buffer, or zero-fills a new one from an empty
 * one. Half-precision pools pad a float32 copy (the casts are exact both ways): ORT's CPU Pad has no
 * bfloat16 kernel (checked; CUDA's was not), and a growth is rare enough that the casts cost little.
 */
function growGraph(dtype: ResidentDtype): Uint8Array {
  const dims = ['rows', 'heads', 'cap', 'hd'];
  const half = isHalf(dtype);
  const cast = (input: string, output: string, to: ResidentDtype) => ({ opType: 'Cast', inputs: [input], outputs: [output], attributes: { to: { type: 'int' as const, value: ONNX_DTYPE[to] } } });
  const pad = { opType: 'Pad', inputs: [half ? 'x32' : 'x', 'pads'], outputs: [half ? 'y32' : 'y'], attributes: { mode: { type: 'string' as const, value: 'constant' } } };
  return encodeModel({
    graphName: 'resident_grow',
    opset: 18,
    inputs: [
      { name: 'x', dtype, shape: dims },
      { name: 'pads', dtype: 'int64', shape: [8] },
    ],
    outputs: [{ name: 'y', dtype, shape: ['rows', 'heads', 'grown', 'hd'] }],
    initializers: [],
    nodes: half ? [cast('x', 'x32', 'float32'), pad, cast('y32', 'y', dtype)] : [pad],
  });
}
