// What the server needs from a model: one batched call that turns chat requests into texts. The
// server owns HTTP, validation and batching; a backend owns tokenization and sampling. Requests of
// one call share every sampling option (samplers take options per batch), only seeds and anchors
// differ per request.
import type { ChatMessage } from '@diffworld/dataset';

/** A span of the output fixed by the caller, at a generated-token index: given as text or token ids. */
export interface ChatAnchor {
  at: number;
  text?: string;
  tokens?: number[];
}

export interface BackendRequest {
  messages: ChatMessage[];
  /** Seeds this request's own generator, so its text does not depend on its batch neighbours. */
  seed: number;
  anchors?: ChatAnchor[];
}

export const UNMASKING_STRATEGIES = ['low_confidence_dynamic', 'low_confidence_static', 'sequential'] as const;
export type UnmaskingStrategyName = (typeof UNMASKING_STRATEGIES)[number];

/** Sampling options shared by a batch. Undefined dLLM fields mean "the model's default". */
export interface GenerationParams {
  maxTokens: number;
  /** 0 = greedy. */
  temperature: number;
  /** 1 = off. */
  topP: number;
  /** 0 = off. */
  topK: number;
  /** 1 = off. */
  repetitionPenalty: number;
  blockLength?: number;
  strategy?: UnmaskingStrategyName;
  threshold?: number;
  denoisingSteps?: number;
}

export interface BackendResult {
  text: string;
  /** 'stop': an end-of-turn token ended it; 'length': maxTokens did. */
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
  /** Set when this request cannot be served as asked (e.g. its prompt is too long): answered 400 naming `field`. */
  rejected?: { field: string; message: string };
}

export interface GenerationBackend {
  /** The id served by /v1/models and checked against a request's `model`. */
  readonly modelId: string;
  /** Longest generation a request may ask for. */
  readonly maxTokensLimit: number;
  /**
   * One result per request, in order. Throwing fails the call; the batcher then runs each request
   * of it alone, so one bad request never fails its neighbours.
   */
  generate(requests: readonly BackendRequest[], params: GenerationParams): Promise<BackendResult[]>;
  /** Cheap per-request checks before queueing (throw a FieldError naming the field). */
  validate?(request: BackendRequest, params: GenerationParams): void;
  /**
   * Optional: continuous batching (iteration-level scheduling) over `rows` rows, for models that
   * decode one token per step for every row (AR). When the backend has it, the server schedules
   * through it rather than the dynamic batcher (WmServerOptions.scheduling).
   */
  openContinuous?(rows: number): Promise<ContinuousGeneration>;
  close?(): Promise<void>;
}

/**
 * A backend's continuous decoding: each request takes a free row at the next step and leaves it at
 * the step it ends, with its own sampling options, so requests of different options and lengths
 * share every forward and none waits for a whole batch.
 */
export interface ContinuousGeneration {
  /** Resolves when this request ends; `signal` withdraws it (queued) or frees its row after the step in flight. */
  submit(request: BackendRequest, params: GenerationParams, signal?: AbortSignal): Promise<BackendResult>;
  /** Requests waiting for a row, and rows decoding now. */
  readonly load: { waiting: number; running: number };
  /** Rows summed over forward passes, and the passes (their ratio: mean rows per pass). */
  readonly steps: { steps: number; rowSteps: number };
  /** Waits for the requests submitted, then frees the rows. */
  close(): Promise<void>;
}

/** Cuts a text before the earliest occurrence of any stop string (OpenAI `stop`). */
export function cutAtStopStrings(text: string, stop: readonly string[]): { text: string; stopped: boolean } {
  let at = -1;
  for (const s of stop) {
    const i = text.indexOf(s);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at < 0 ? { text, stopped: false } : { text: text.slice(0, at), stopped: true };
}
