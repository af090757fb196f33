// What the samplers need from a model, and nothing more, so the decode loops can be tested with
// a fake model and run unchanged on the ONNX Runtime models (onnx-models.ts). Every method takes
// a list of items, one per request row that has work; a call is one batched forward pass.
// Logits come back per item as a float32 row-major [positions × vocab] array.

/**
 * A block-causal (SDAR / BD3) model. Rows own a cache of committed clean blocks; positions and
 * block alignment count from each row's first token, so rows never see each other.
 */
export interface BlockDiffusionModel {
  readonly vocabSize: number;
  readonly blockLength: number;
  /** A fresh batch of `rows` empty caches. */
  open(rows: number): Promise<BlockDecoder> | BlockDecoder;
  /** Frees what the model holds (sessions, GPU memory); its batches must be closed first. */
  release?(): Promise<void>;
}

export interface BlockItem {
  row: number;
  /**
   * Clean tokens appended to the row's cache first (a multiple of blockLength): the prompt's full
   * blocks at prefill, then each finished block. They attend to the cache and, block-causally, to
   * themselves — exactly the training clean stream.
   */
  commit?: readonly number[];
  /**
   * One noisy block (blockLength tokens, masks included) at the positions after the cache; it
   * attends to the whole cache and to itself. It is not added to the cache.
   */
  query?: readonly number[];
  /**
   * The query positions (ascending, within the block) whose logits the sampler reads — its masked
   * ones; default every position. Fewer rows through the LM head and out of the model per step.
   */
  logitsOf?: readonly number[];
  /**
   * Also the output of the last token of `commit` (a token-shifted model's prediction of the next
   * block's first token), as the first row of the item's result, ahead of the `logitsOf` rows. An
   * item with `commitEnd` and no query is answered too (its one row).
   */
  commitEnd?: boolean;
  /** forwardGreedy: per result row (the commitEnd row first, then the `logitsOf` positions), the index of its banned list (default 0). */
  banOf?: readonly number[];
}

/** Greedy choices of one item's wanted positions: argmax id (lowest on ties) and its softmax probability. */
export interface GreedyChoices {
  tokens: Int32Array;
  probs: Float64Array;
}

export interface BlockDecoder {
  /**
   * One forward pass; for each item that has a query, in item order, the logits of its `logitsOf`
   * positions (default all blockLength of them) as [positions × V].
   */
  forward(items: readonly BlockItem[]): Promise<Float32Array[]>;
  /**
   * Optional: the same pass, returning for each item that has a query only the greedy choice at
   * each wanted position over the ids not in `banned[banOf[k]]` — what chooseToken returns at
   * temperature 0 without a penalty, found inside the model instead of over copied-out logits.
   * Samplers use it for greedy decoding when the model offers it.
   */
  forwardGreedy?(items: readonly BlockItem[], banned: readonly (readonly number[])[]): Promise<GreedyChoices[]>;
  close(): Promise<void> | void;
}

/** A causal (AR) model with a per-row cache. */
export interface CausalModel {
  readonly vocabSize: number;
  open(rows: number): Promise<CausalDecoder> | CausalDecoder;
  /** Frees what the model holds (sessions, GPU memory); its batches must be closed first. */
  release?(): Promise<void>;
}

export interface CausalItem {
  row: number;
  /** Tokens appended to the row's sequence (the prompt, then one sampled token per step). */
  tokens: readonly number[];
}

export interface CausalDecoder {
  /** One forward pass; logits [V] of each item's last token, in item order. */
  forward(items: readonly CausalItem[]): Promise<Float32Array[]>;
  /**
   * Optional: the same pass, returning per item only the greedy choice of its last token over the
   * ids not in `banned` (one entry each) — chooseToken at temperature 0 without a penalty, found
   * inside the model, so the [V] logits never leave it (on a GPU, the copy that bounds a step).
   */
  forwardGreedy?(items: readonly CausalItem[], banned: readonly number[]): Promise<GreedyChoices[]>;
  /** Optional: empties a row's cache, so that a new sequence can use the row (continuous batching). */
  reset?(row: number): void;
  close(): Promise<void> | void;
}

/** A bidirectional (MDLM / LLaDA) model: logits for every position of each canvas; no cache. */
export interface BidirectionalModel {
  readonly vocabSize: number;
  /** One forward pass; logits [canvas length × V] per canvas. */
  forward(canvases: readonly (readonly number[])[]): Promise<Float32Array[]>;
}
