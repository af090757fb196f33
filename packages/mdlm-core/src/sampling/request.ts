// Requests, anchors, results and per-sample stats shared by the samplers.
import { Rng } from '@diffworld/dataset';
import { badOption, SamplingError } from './errors.js';

/** A span of the output fixed by the caller: `tokens` at generated positions at, at+1, …. */
export interface Anchor {
  /** Index into the generated region (0 = first generated token). */
  at: number;
  tokens: readonly number[];
}

export interface SampleRequest {
  prompt: readonly number[];
  /** Seeds this request's own Rng, so its result does not depend on the rest of the batch. */
  seed: number;
  /** Spans that are never changed (diffusion samplers only). */
  anchors?: readonly Anchor[];
}

export interface SampleStats {
  /** Forward passes this request took part in (prefill and cache commits included). */
  forwards: number;
  /** Generated tokens / forwards. */
  tokensPerForward: number;
  /** Wall time from the start of the batch until this request finished. */
  ms: number;
}

export interface SampleResult {
  /** Generated tokens, cut before the first stop id and at maxNewTokens. */
  tokens: number[];
  /** 'stop': a stop id ended it; 'length': maxNewTokens (or the canvas) did. */
  finish: 'stop' | 'length';
  stats: SampleStats;
}

/** Anchors as a map from generated index to token; rejects overlaps and out-of-range spans. */
export function anchorMap(anchors: readonly Anchor[] | undefined, length: number, where: string, vocabSize: number): Map<number, number> {
  const map = new Map<number, number>();
  for (const [n, a] of (anchors ?? []).entries()) {
    if (!(Number.isInteger(a.at) && a.at >= 0) || a.tokens.length === 0 || a.at + a.tokens.length > length) {
      throw new SamplingError('bad_input', `${where}: anchor ${n} (at ${a.at}, ${a.tokens.length} tokens) must be non-empty and lie inside the ${length} generated positions`);
    }
    a.tokens.forEach((t, i) => {
      if (!(Number.isInteger(t) && t >= 0 && t < vocabSize)) throw new SamplingError('bad_input', `${where}: anchor ${n} token ${i} = ${t} is outside the vocabulary [0, ${vocabSize})`);
      if (map.has(a.at + i)) throw new SamplingError('bad_input', `${where}: anchor ${n} overlaps another anchor at generated position ${a.at + i}`);
      map.set(a.at + i, t);
    });
  }
  return map;
}

export function checkPrompt(prompt: readonly number[], where: string, vocabSize: number): void {
  prompt.forEach((t, i) => {
    if (!(Number.isInteger(t) && t >= 0 && t < vocabSize)) throw new SamplingError('bad_input', `${where}: prompt token ${i} = ${t} is outside the vocabulary [0, ${vocabSize})`);
  });
}

export function checkPositiveInt(value: number, name: string, where: string): void {
  if (!(Number.isInteger(value) && value >= 1)) throw badOption(where, `${name} must be an integer ≥ 1, got ${value}`);
}

/** Per-request bookkeeping common to every sampler. */
export class RowClock {
  forwards = 0;
  ms = 0;
  constructor(readonly rng: Rng) {}
  static for(req: SampleRequest): RowClock {
    if (!Number.isInteger(req.seed)) throw badOption('request', `seed must be an integer, got ${req.seed}`);
    return new RowClock(new Rng(req.seed));
  }
  stats(generated: number): SampleStats {
    return { forwards: this.forwards, tokensPerForward: this.forwards ? generated / this.forwards : 0, ms: this.ms };
  }
}

/** Cuts a token list before the first stop id; says whether it did. */
export function cutAtStop(tokens: readonly number[], stopIds: ReadonlySet<number>): { tokens: number[]; stopped: boolean } {
  const i = tokens.findIndex((t) => stopIds.has(t));
  return i < 0 ? { tokens: [...tokens], stopped: false } : { tokens: tokens.slice(0, i), stopped: true };
}

/**
 * The paper's batched eval_generate.py prompt layout for one request: the prompt left-padded with
 * `padId` to a multiple of the block length (pads are visible to attention and positions start at
 * the first pad there). Feed the result as the prompt to reproduce it for a batch of one.
 */
export function leftPadToBlock(prompt: readonly number[], blockLength: number, padId: number): number[] {
  checkPositiveInt(blockLength, 'blockLength', 'leftPadToBlock');
  const pad = (blockLength - (prompt.length % blockLength)) % blockLength;
  return [...new Array<number>(pad).fill(padId), ...prompt];
}
