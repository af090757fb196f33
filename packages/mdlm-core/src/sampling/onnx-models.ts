// The sampler interfaces (model.ts) on a trained decoder (src/nn) through ONNX Runtime.
//   cache 'kv'    committed tokens' keys/values are kept per row and attended to; only new tokens
//                 run (the prompt once, then each block / token).
//   cache 'none'  every call re-runs the row's whole committed sequence plus the new tokens —
//                 the uncached reference the cached decoders must equal token for token.
// Positions count from each row's first token; block alignment (block diffusion) likewise.
import type { TransformerConfig } from '../nn/transformer.js';
import { SamplingError } from './errors.js';
import type { BidirectionalModel, BlockDecoder, BlockDiffusionModel, BlockItem, CausalDecoder, CausalItem, CausalModel } from './model.js';
import { type DecoderOptions, type GreedyBans, OnnxDecoder, PastSlot, type RowCache, type RowPass } from './onnx-decoder.js';

export type Weights = Readonly<Record<string, Float32Array | Float64Array>>;

export interface OnnxModelOptions extends DecoderOptions {
  /** Default 'kv'. */
  cache?: 'kv' | 'none';
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

/** The item's banned-list index per wanted position, when it gives them (checked against its wanted count). */
function banOf(it: BlockItem, wanted: readonly number[]): { banOf?: readonly number[] } {
  if (it.banOf === undefined) return {};
  if (it.banOf.length !== wanted.length) throw new SamplingError('bad_input', `block model: row ${it.row} gives ${it.banOf.length} banned-list indices for ${wanted.length} wanted positions`);
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

/** Per-row state of either cache mode: the K/V cache, or the committed tokens to re-run. */
class Rows {
  readonly caches: (RowCache | null)[];
  readonly history: number[][];
  readonly slot = new PastSlot();
  /** Passes that only commit (some rows, no queries) assemble their own past, leaving the batch's in place. */
  readonly commitSlot = new PastSlot();
  constructor(
    readonly decoder: OnnxDecoder,
    n: number,
    readonly mode: 'kv' | 'none',
  ) {
    this.caches = Array.from({ length: n }, () => (mode === 'kv' ? decoder.newCache() : null));
    this.history = Array.from({ length: n }, () => []);
  }
  checkRow(row: number): void {
    if (!(Number.isInteger(row) && row >= 0 && row < this.history.length)) throw new SamplingError('bad_input', `model: row ${row} is not one of the ${this.history.length} opened`);
  }
}

export class OnnxBlockDiffusionModel implements BlockDiffusionModel {
  readonly vocabSize: number;
  private constructor(
    readonly decoder: OnnxDecoder,
    readonly blockLength: number,
    readonly cache: 'kv' | 'none',
  ) {
    this.vocabSize = decoder.config.vocabSize;
  }

  static async create(config: TransformerConfig, weights: Weights, blockLength: number, opts: OnnxModelOptions = {}): Promise<OnnxBlockDiffusionModel> {
    if (!(Number.isInteger(blockLength) && blockLength >= 1)) throw new SamplingError('bad_option', `block model: blockLength must be an integer ≥ 1, got ${blockLength}`);
    causalOnly(config, 'block model');
    return new OnnxBlockDiffusionModel(await OnnxDecoder.create(config, weights, opts), blockLength, opts.cache ?? 'kv');
  }

  open(n: number): BlockDecoder {
    const rows = new Rows(this.decoder, n, this.cache);
    const B = this.blockLength;
    // Block-causal over the new tokens; they start on a block boundary because caches hold whole blocks.
    const blockCausal = (i: number, j: number) => Math.floor(j / B) <= Math.floor(i / B);
    const throughBlock = (i: number) => (Math.floor(i / B) + 1) * B;
    const toPasses = (items: readonly BlockItem[]) => {
      const passes: RowPass[] = [];
      const queried: boolean[] = [];
      for (const it of items) {
        rows.checkRow(it.row);
        const commit = it.commit ?? [];
        if (commit.length % B !== 0) throw new SamplingError('bad_input', `block model: row ${it.row} commits ${commit.length} tokens, not whole blocks of ${B}`);
        if (it.query && it.query.length !== B) throw new SamplingError('bad_input', `block model: row ${it.row} queries ${it.query.length} tokens, a block is ${B}`);
        const query = it.query ?? [];
        const wanted = it.query ? queryLogits(it, B) : [];
        queried.push(it.query !== undefined);
        if (this.cache === 'kv') {
          const cache = rows.caches[it.row]!;
          const tokens = commit.length ? [...commit, ...query] : query;
          passes.push({
            cache,
            tokens,
            positions: range(cache.length, tokens.length),
            allowed: blockCausal,
            visible: throughBlock,
            keep: commit.length,
            logitsOf: shift(wanted, commit.length),
            ...banOf(it, wanted),
          });
        } else {
          const h = rows.history[it.row]!;
          h.push(...commit);
          if (!it.query) continue;
          const tokens = [...h, ...query];
          passes.push({ cache: null, tokens, positions: range(0, tokens.length), allowed: blockCausal, visible: throughBlock, keep: 0, logitsOf: shift(wanted, h.length), ...banOf(it, wanted) });
        }
      }
      // Items without a query give no result (kv: their pass only commits; none: they have no pass).
      const answered = <R>(out: R[]): R[] => (this.cache === 'kv' ? out.filter((_, k) => queried[k]) : out);
      // A pass of commits alone (some rows) keeps off the batch's past tensors, which then catch up (pastFeeds).
      const slot = items.some((it) => it.query) ? rows.slot : rows.commitSlot;
      return { passes, answered, slot };
    };
    let bans: GreedyBans | undefined;
    return {
      forward: async (items: readonly BlockItem[]) => {
        const { passes, answered, slot } = toPasses(items);
        return passes.length === 0 ? [] : answered(await this.decoder.run(passes, slot));
      },
      forwardGreedy: async (items: readonly BlockItem[], banned: readonly (readonly number[])[]) => {
        if (bans?.lists !== banned) bans = { lists: banned };
        const { passes, answered, slot } = toPasses(items);
        return passes.length === 0 ? [] : answered(await this.decoder.runGreedy(passes, bans, slot));
      },
      close: () => {
        rows.slot.clear();
        rows.commitSlot.clear();
      },
    };
  }
}

export class OnnxCausalModel implements CausalModel {
  readonly vocabSize: number;
  private constructor(
    readonly decoder: OnnxDecoder,
    readonly cache: 'kv' | 'none',
  ) {
    this.vocabSize = decoder.config.vocabSize;
  }

  static async create(config: TransformerConfig, weights: Weights, opts: OnnxModelOptions = {}): Promise<OnnxCausalModel> {
    return new OnnxCausalModel(await OnnxDecoder.create(config, weights, opts), opts.cache ?? 'kv');
  }

  open(n: number): CausalDecoder {
    const rows = new Rows(this.decoder, n, this.cache);
    const causal = (i: number, j: number) => j <= i;
    const throughSelf = (i: number) => i + 1;
    return {
      forward: async (items: readonly CausalItem[]) => {
        const passes = items.map((it): RowPass => {
          rows.checkRow(it.row);
          if (it.tokens.length === 0) throw new SamplingError('bad_input', `causal model: row ${it.row} brings no tokens`);
          if (this.cache === 'kv') {
            const cache = rows.caches[it.row]!;
            return { cache, tokens: it.tokens, positions: range(cache.length, it.tokens.length), allowed: causal, visible: throughSelf, keep: it.tokens.length, logitsOf: [it.tokens.length - 1] };
          }
          const h = rows.history[it.row]!;
          h.push(...it.tokens);
          return { cache: null, tokens: [...h], positions: range(0, h.length), allowed: causal, visible: throughSelf, keep: 0, logitsOf: [h.length - 1] };
        });
        return this.decoder.run(passes, rows.slot);
      },
      close: () => rows.slot.clear(),
    };
  }
}

/** Full attention over each canvas (MDLM / LLaDA); there is no exact cache for it. */
export class OnnxBidirectionalModel implements BidirectionalModel {
  readonly vocabSize: number;
  private constructor(readonly decoder: OnnxDecoder) {
    this.vocabSize = decoder.config.vocabSize;
  }

  static async create(config: TransformerConfig, weights: Weights, opts: DecoderOptions = {}): Promise<OnnxBidirectionalModel> {
    causalOnly(config, 'bidirectional model');
    return new OnnxBidirectionalModel(await OnnxDecoder.create(config, weights, opts));
  }

  forward(canvases: readonly (readonly number[])[]): Promise<Float32Array[]> {
    return this.decoder.run(canvases.map((c) => ({ cache: null, tokens: c, positions: range(0, c.length), allowed: () => true, visible: () => c.length, keep: 0, logitsOf: range(0, c.length) })));
  }
}
