// An open batch of cached rows on either decoder, so the sampler models (onnx-models.ts) are
// written once: the host-cache decoder (onnx-decoder.ts: caches in JS memory, past tensors
// assembled per batch) and the resident one (resident-decoder.ts: caches in the session's memory,
// written in place). Rows are named by their index in the batch.
import type { TransformerConfig } from '../nn/transformer.js';
import type { BoundProvider } from '../runtime/capi/index.js';
import type { ProviderName } from '../runtime/index.js';
import { type GreedyBans, type GreedyPicks, type OnnxDecoder, PastSlot, type RowCache } from './onnx-decoder.js';
import type { ResidentDecoder, ResidentPool } from './resident-decoder.js';

/** One row's work in a pass (RowPass, by batch row). */
export interface BatchPass {
  row: number;
  tokens: readonly number[];
  positions: readonly number[];
  allowed: (i: number, j: number) => boolean;
  visible: (i: number) => number;
  keep: number;
  logitsOf: readonly number[];
  banOf?: readonly number[];
}

export interface DecoderBatch {
  /** Committed positions of a row's cache. */
  length(row: number): number;
  /** `commitOnly`: a pass of commits alone (some rows, nothing asked), kept apart from the batch's past. */
  run(passes: readonly BatchPass[], commitOnly?: boolean): Promise<Float32Array[]>;
  runGreedy(passes: readonly BatchPass[], bans: GreedyBans, commitOnly?: boolean): Promise<GreedyPicks[]>;
  /** Empties a row's cache for a new sequence. */
  reset(row: number): void;
  close(): void;
}

/** A decoder that opens batches of cached rows. */
export interface CachedDecoder {
  readonly config: TransformerConfig;
  readonly provider: ProviderName | BoundProvider;
  /** Passes whose greedy choices the model's greedy head made. */
  readonly greedyHeadPasses: number;
  openBatch(rows: number): DecoderBatch;
}

/** Batches of the host-cache decoder: a RowCache per row, the batch's past tensors kept in a slot. */
export function hostBatches(decoder: OnnxDecoder): CachedDecoder {
  return {
    config: decoder.config,
    get provider() {
      return decoder.provider;
    },
    get greedyHeadPasses() {
      return decoder.greedyHeadPasses;
    },
    openBatch(n: number): DecoderBatch {
      const caches: RowCache[] = Array.from({ length: n }, () => decoder.newCache());
      // A new cache object: the slots hold caches by identity, so they re-assemble at the next pass.
      const reset = (row: number) => (caches[row] = decoder.newCache());
      const slot = new PastSlot();
      // Passes that only commit (some rows, no queries) assemble their own past, leaving the batch's in place.
      const commitSlot = new PastSlot();
      const toRows = (passes: readonly BatchPass[]) => passes.map(({ row, ...p }) => ({ ...p, cache: caches[row]! }));
      return {
        length: (row) => caches[row]!.length,
        run: (passes, commitOnly) => decoder.run(toRows(passes), commitOnly ? commitSlot : slot),
        runGreedy: (passes, bans, commitOnly) => decoder.runGreedy(toRows(passes), bans, commitOnly ? commitSlot : slot),
        reset,
        close: () => {
          slot.clear();
          commitSlot.clear();
        },
      };
    },
  };
}

/** Batches of the resident decoder: a pool per batch, released when it closes. */
export function residentBatches(decoder: ResidentDecoder): CachedDecoder {
  return {
    config: decoder.config,
    provider: decoder.provider,
    get greedyHeadPasses() {
      return decoder.greedyHeadPasses;
    },
    openBatch(n: number): DecoderBatch {
      const pool: ResidentPool = decoder.openPool(n);
      const toRows = (passes: readonly BatchPass[]) => passes.map(({ row, allowed: _, ...p }) => ({ ...p, cache: pool.rows[row]! }));
      return {
        length: (row) => pool.rows[row]!.length,
        run: (passes) => decoder.run(toRows(passes)),
        runGreedy: (passes, bans) => decoder.runGreedy(toRows(passes), bans),
        // What lies past a row's length is never attended to, so emptying it is forgetting its length.
        reset: (row) => (pool.rows[row]!.length = 0),
        close: () => pool.release(),
      };
    },
  };
}
