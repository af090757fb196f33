// The sampler interfaces (model.ts) on a trained decoder (src/nn) through ONNX Runtime.
//   cache 'kv'    committed tokens' keys/values are kept per row and attended to; only new tokens
//                 run (the prompt once, then each block / token).
//   cache 'none'  every call re-runs the row's whole committed sequence plus the new tokens —
//                 the uncached reference the cached decoders must equal token for token.
// Positions count from each row's first token; block alignment (block diffusion) likewise.
import { isHalf } from '../dtype.js';
import type { TransformerConfig } from '../nn/transformer.js';
import { SamplingError } from './errors.js';
import type { BidirectionalModel, BlockDecoder, BlockDiffusionModel, BlockItem, CausalDecoder, CausalItem, CausalModel } from './model.js';
import { type BatchPass, type CachedDecoder, type DecoderBatch, hostBatches, residentBatches } from './decoder-batch.js';
import { type DecoderOptions, type GreedyBans, OnnxDecoder, type RowPass } from './onnx-decoder.js';
import { ResidentDecoder, type ResidentDtype } from './resident-decoder.js';

export type Weights = Readonly<Record<string, Float32Array | Float64Array>>;

export interface OnnxModelOptions extends Omit<DecoderOptions, 'dtype'> {
  /**
   * Compute type of the inference graph (default float32; float64 for bit-stable comparisons);
   * float16 and bfloat16 are the resident decoder's only (ResidentDtype).
   */
  dtype?: ResidentDtype;
  /** Default 'kv'. */
  cache?: 'kv' | 'none';
  /** Which decoder keeps the caches (default: resident on CUDA, host elsewhere); see DecoderKind. */
  decoder?: DecoderKind;
  /** Resident decoder: decode steps replayed as CUDA graphs (ResidentDecoderOptions.cudaGraph; default false; the host decoder ignores it). */
  cudaGraph?: boolean;
}

const range = (start: number, count: number): number[] => {
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = start + i;
  return out;
};

const shift = (xs: readonly number[], by: number): number[] => xs.map((x) => x + by);

/** LFM2's convolutions are causal along the sequence, so only left-to-right decoding matches how it computes. */
function causalOnly(config: TransformerConfig, what: string): void {
  if (config.lfm2) throw new SamplingError('bad_option', `${what}: LFM2 models mix tokens with causal convolutions and decode left to right only (objective ar)`);
}

/** The item's banned-list index per result row, when it gives them (checked against its row count). */
function banOf(it: BlockItem, rows: number): { banOf?: readonly number[] } {
  if (it.banOf === undefined) return {};
  if (it.banOf.length !== rows) throw new SamplingError('bad_input', `block model: row ${it.row} gives ${it.banOf.length} banned-list indices for ${rows} result rows`);
  return { banOf: it.banOf };
}

const ALL_POSITIONS = new Map<number, readonly number[]>();

/** A query item's wanted block positions, checked: ascending, inside the block (default all). */
function queryLogits(it: BlockItem, B: number): readonly number[] {
  if (it.logitsOf === undefined) {
    let all = ALL_POSITIONS.get(B);
    if (!all) ALL_POSITIONS.set(B, (all = range(0, B)));
    return all;
  }
  it.logitsOf.forEach((p, k) => {
    if (!(Number.isInteger(p) && p >= 0 && p < B && (k === 0 || p > it.logitsOf![k - 1]!)))
      throw new SamplingError('bad_input', `block model: row ${it.row} asks logits of positions [${it.logitsOf!.join(', ')}], not ascending positions of a block of ${B}`);
  });
  return it.logitsOf;
}

/**
 * Which decoder runs a cached model: 'resident' keeps the caches in the session's memory (the
 * default on CUDA, where the host-cache decoder would ship every past to the device and back each
 * pass); 'host' keeps them in JS memory (the default elsewhere; LFM2 and WebGPU have only it).
 */
export type DecoderKind = 'host' | 'resident';

async function cachedDecoder(config: TransformerConfig, weights: Weights, opts: OnnxModelOptions): Promise<{ decoder: OnnxDecoder | ResidentDecoder; batches: CachedDecoder }> {
  const kind = opts.decoder ?? (opts.provider === 'cuda' && !config.lfm2 ? 'resident' : 'host');
  if (kind === 'resident') {
    if (opts.provider !== undefined && opts.provider !== 'cpu' && opts.provider !== 'cuda')
      throw new SamplingError('bad_option', `model: the resident decoder runs on cpu or cuda, not ${opts.provider}`);
    const decoder = ResidentDecoder.create(config, weights, {
      provider: opts.provider ?? 'cpu',
      ...(opts.dtype ? { dtype: opts.dtype } : {}),
      ...(opts.intraOpThreads ? { intraOpThreads: opts.intraOpThreads } : {}),
      ...(opts.cudaGraph ? { cudaGraph: true } : {}),
    });
    return { decoder, batches: residentBatches(decoder) };
  }
  const decoder = await OnnxDecoder.create(config, weights, hostDecoderOptions(opts, opts.cache === 'none' ? 'the uncached reference (cache none)' : 'the host decoder'));
  return { decoder, batches: hostBatches(decoder) };
}

/** The host decoder's options: float32 or float64 only (half precision is the resident decoder's). */
function hostDecoderOptions({ dtype, ...rest }: Omit<DecoderOptions, 'dtype'> & { dtype?: ResidentDtype }, what: string): DecoderOptions {
  if (dtype !== undefined && isHalf(dtype))
    throw new SamplingError('bad_option', `${what} computes in float32 or float64, not ${dtype}; half precision needs the resident decoder (decoder: resident)`);
  return { ...rest, ...(dtype ? { dtype } : {}) };
}

/**
 * Frees a model's decoder. A resident decoder owns its sessions, weights and KV pools (on CUDA, GBs
 * of arena): they go. The host decoder's sessions are the process's shared session cache (weights
 * are graph inputs, so every model of a config runs on the same sessions): nothing of its own to free.
 */
async function releaseDecoder(decoder: OnnxDecoder | ResidentDecoder): Promise<void> {
  if (decoder instanceof ResidentDecoder) decoder.release();
}

/** Per-row state of either cache mode: a batch of cached rows, or the committed tokens to re-run. */
class Rows {
  readonly batch: DecoderBatch | undefined;
  history: number[][];
  constructor(
    readonly model: { readonly batches: CachedDecoder; readonly cache: 'kv' | 'none' },
    n: number,
  ) {
    this.batch = model.cache === 'kv' ? model.batches.openBatch(n) : undefined;
    this.history = Array.from({ length: n }, () => []);
  }
  checkRow(row: number): void {
    if (!(Number.isInteger(row) && row >= 0 && row < this.history.length)) throw new SamplingError('bad_input', `model: row ${row} is not one of the ${this.history.length} opened`);
  }
  close(): void {
    this.batch?.close();
  }
}

/** An uncached pass of a whole sequence (cache 'none'), as the host decoder takes it. */
function uncachedPass({ row: _, ...p }: BatchPass): RowPass {
  return { ...p, cache: null };
}

export class OnnxBlockDiffusionModel implements BlockDiffusionModel {
  readonly vocabSize: number;
  private constructor(
    readonly decoder: OnnxDecoder | ResidentDecoder,
    readonly batches: CachedDecoder,
    readonly blockLength: number,
    readonly cache: 'kv' | 'none',
  ) {
    this.vocabSize = decoder.config.vocabSize;
  }

  static async create(config: TransformerConfig, weights: Weights, blockLength: number, opts: OnnxModelOptions = {}): Promise<OnnxBlockDiffusionModel> {
    if (!(Number.isInteger(blockLength) && blockLength >= 1)) throw new SamplingError('bad_option', `block model: blockLength must be an integer ≥ 1, got ${blockLength}`);
    causalOnly(config, 'block model');
    const cache = opts.cache ?? 'kv';
    const { decoder, batches } = await cachedDecoder(config, weights, cache === 'kv' ? opts : { ...opts, decoder: 'host' });
    return new OnnxBlockDiffusionModel(decoder, batches, blockLength, cache);
  }

  /** Frees the model (its batches must be closed first). */
  release(): Promise<void> {
    return releaseDecoder(this.decoder);
  }

  open(n: number): BlockDecoder {
    const rows = new Rows(this, n);
    const B = this.blockLength;
    // Block-causal over the new tokens; they start on a block boundary because caches hold whole blocks.
    const blockCausal = (i: number, j: number) => Math.floor(j / B) <= Math.floor(i / B);
    const throughBlock = (i: number) => (Math.floor(i / B) + 1) * B;
    const toPasses = (items: readonly BlockItem[]) => {
      const passes: BatchPass[] = [];
      const withResult: boolean[] = [];
      for (const it of items) {
        rows.checkRow(it.row);
        const commit = it.commit ?? [];
        if (commit.length % B !== 0) throw new SamplingError('bad_input', `block model: row ${it.row} commits ${commit.length} tokens, not whole blocks of ${B}`);
        if (it.query && it.query.length !== B) throw new SamplingError('bad_input', `block model: row ${it.row} queries ${it.query.length} tokens, a block is ${B}`);
        if (it.commitEnd && commit.length === 0) throw new SamplingError('bad_input', `block model: row ${it.row} asks for its commit's last output but commits nothing`);
        const query = it.query ?? [];
        const wanted = it.query ? queryLogits(it, B) : [];
        const hasResult = it.query !== undefined || it.commitEnd === true;
        withResult.push(hasResult);
        // The commit's last token sits just before the query (or at the end of the pass).
        const withEnd = (at: number) => (it.commitEnd ? [at - 1, ...shift(wanted, at)] : shift(wanted, at));
        const resultRows = wanted.length + (it.commitEnd ? 1 : 0);
        if (rows.batch) {
          const tokens = commit.length ? [...commit, ...query] : query;
          const length = rows.batch.length(it.row);
          passes.push({
            row: it.row,
            tokens,
            positions: range(length, tokens.length),
            allowed: blockCausal,
            visible: throughBlock,
            keep: commit.length,
            logitsOf: withEnd(commit.length),
            ...banOf(it, resultRows),
          });
        } else {
          const h = rows.history[it.row]!;
          h.push(...commit);
          if (!hasResult) continue;
          const tokens = [...h, ...query];
          passes.push({ row: it.row, tokens, positions: range(0, tokens.length), allowed: blockCausal, visible: throughBlock, keep: 0, logitsOf: withEnd(h.length), ...banOf(it, resultRows) });
        }
      }
      // Items with neither a query nor commitEnd give no result (kv: their pass only commits; none: they have no pass).
      const answered = <R>(out: R[]): R[] => (rows.batch ? out.filter((_, k) => withResult[k]) : out);
      return { passes, answered, commitOnly: !withResult.some((q) => q) };
    };
    const run = (passes: readonly BatchPass[], commitOnly: boolean) => (rows.batch ? rows.batch.run(passes, commitOnly) : (this.decoder as OnnxDecoder).run(passes.map(uncachedPass)));
    let bans: GreedyBans | undefined;
    return {
      forward: async (items: readonly BlockItem[]) => {
        const { passes, answered, commitOnly } = toPasses(items);
        return passes.length === 0 ? [] : answered(await run(passes, commitOnly));
      },
      forwardGreedy: async (items: readonly BlockItem[], banned: readonly (readonly number[])[]) => {
        if (bans?.lists !== banned) bans = { lists: banned };
        const { passes, answered, commitOnly } = toPasses(items);
        if (passes.length === 0) return [];
        return answered(await (rows.batch ? rows.batch.runGreedy(passes, bans, commitOnly) : (this.decoder as OnnxDecoder).runGreedy(passes.map(uncachedPass), bans)));
      },
      close: () => rows.close(),
    };
  }
}

export class OnnxCausalModel implements CausalModel {
  readonly vocabSize: number;
  private constructor(
    readonly decoder: OnnxDecoder | ResidentDecoder,
    readonly batches: CachedDecoder,
    readonly cache: 'kv' | 'none',
  ) {
    this.vocabSize = decoder.config.vocabSize;
  }

  static async create(config: TransformerConfig, weights: Weights, opts: OnnxModelOptions = {}): Promise<OnnxCausalModel> {
    const cache = opts.cache ?? 'kv';
    const { decoder, batches } = await cachedDecoder(config, weights, cache === 'kv' ? opts : { ...opts, decoder: 'host' });
    return new OnnxCausalModel(decoder, batches, cache);
  }

  /** Frees the model (its batches must be closed first); a model made per rollout must be released. */
  release(): Promise<void> {
    return releaseDecoder(this.decoder);
  }

  open(n: number): CausalDecoder {
    const rows = new Rows(this, n);
    const causal = (i: number, j: number) => j <= i;
    const throughSelf = (i: number) => i + 1;
    const toPasses = (items: readonly CausalItem[]) =>
      items.map((it): BatchPass => {
        rows.checkRow(it.row);
        if (it.tokens.length === 0) throw new SamplingError('bad_input', `causal model: row ${it.row} brings no tokens`);
        if (rows.batch) {
          const length = rows.batch.length(it.row);
          return { row: it.row, tokens: it.tokens, positions: range(length, it.tokens.length), allowed: causal, visible: throughSelf, keep: it.tokens.length, logitsOf: [it.tokens.length - 1] };
        }
        const h = rows.history[it.row]!;
        h.push(...it.tokens);
        return { row: it.row, tokens: [...h], positions: range(0, h.length), allowed: causal, visible: throughSelf, keep: 0, logitsOf: [h.length - 1] };
      });
    const host = () => this.decoder as OnnxDecoder;
    let bans: GreedyBans | undefined;
    return {
      forward: (items: readonly CausalItem[]) => {
        const passes = toPasses(items);
        return rows.batch ? rows.batch.run(passes) : host().run(passes.map(uncachedPass));
      },
      forwardGreedy: (items: readonly CausalItem[], banned: readonly number[]) => {
        if (bans?.lists[0] !== banned) bans = { lists: [banned] };
        const passes = toPasses(items);
        return rows.batch ? rows.batch.runGreedy(passes, bans) : host().runGreedy(passes.map(uncachedPass), bans);
      },
      reset: (row: number) => {
        rows.checkRow(row);
        if (rows.batch) rows.batch.reset(row);
        else rows.history[row] = [];
      },
      close: () => rows.close(),
    };
  }
}

/** Full attention over each canvas (MDLM / LLaDA); there is no exact cache for it. */
export class OnnxBidirectionalModel implements BidirectionalModel {
  readonly vocabSize: number;
  private constructor(readonly decoder: OnnxDecoder) {
    this.vocabSize = decoder.config.vocabSize;
  }

  /** The host decoder runs it (bidirectional passes keep no cache): `decoder` and `cudaGraph` do not apply. */
  static async create(config: TransformerConfig, weights: Weights, opts: Omit<OnnxModelOptions, 'decoder' | 'cudaGraph' | 'cache'> = {}): Promise<OnnxBidirectionalModel> {
    causalOnly(config, 'bidirectional model');
    return new OnnxBidirectionalModel(await OnnxDecoder.create(config, weights, hostDecoderOptions(opts, 'bidirectional model')));
  }

  forward(canvases: readonly (readonly number[])[]): Promise<Float32Array[]> {
    return this.decoder.run(canvases.map((c) => ({ cache: null, tokens: c, positions: range(0, c.length), allowed: () => true, visible: () => c.length, keep: 0, logitsOf: range(0, c.length) })));
  }
}
