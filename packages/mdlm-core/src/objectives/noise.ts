// The masked-diffusion forward process, drawn on the host from a seeded generator (so runs replay
// exactly and do not depend on the provider): a mask ratio p per segment (a sequence; the trainer
// passes each target span of its packed rows, so every observation of an episode row draws its own), each eligible token
// replaced by [MASK] with probability p, and the NELBO weight 1/p on the masked positions.
// Linear schedule α_t = 1 − t with the ε floor of LLaDA/SDAR: p = (1 − ε)·t + ε, weight 1/p.
// Reference facts: shared/reference/mdlm-algorithms.md §1.1, §1.2, §1.6.
import type { Rng } from '@diffworld/dataset';

export interface NoiseOptions {
  /** Id of the [MASK] token. */
  maskId: number;
  /** Floor of the mask ratio (default 1e-3). */
  eps?: number;
  /**
   * Upper end of the mask ratio (default 1): p = ε + (max − ε)·t. BD3-LM's clipped schedules draw
   * p from a narrower [β, ω] (ε = β, max = ω) to cut the variance of the 1/p weights.
   */
  max?: number;
  /** One stratified t per sequence of the batch (MDLM's low-discrepancy draw; default true). */
  antithetic?: boolean;
  /** Guarantee one masked token per sequence that has any eligible token (SDAR; default true). */
  atLeastOne?: boolean;
}

export interface NoisedBatch {
  /** x_t: the inputs with masked positions replaced by maskId, [B·T] row-major. */
  noised: BigInt64Array;
  /** 1/p at masked positions, 0 elsewhere, [B·T]. */
  weights: Float32Array;
  /** The mask ratio p of each sequence, [B]. */
  ratios: Float64Array;
  /** Masked positions per sequence, [B]. */
  maskedCount: Int32Array;
}

/** Mask ratios p_i = (max − ε)·t_i + ε (max = 1 by default); antithetic: t_i = (u_i + i) / n with u_i ~ U(0, 1). */
export function sampleMaskRatios(n: number, rng: Rng, opts: { eps?: number; max?: number; antithetic?: boolean } = {}): Float64Array {
  const eps = opts.eps ?? 1e-3;
  const max = opts.max ?? 1;
  if (!(eps > 0 && eps < 1)) throw new RangeError(`sampleMaskRatios: eps must lie in (0, 1), got ${eps}`);
  if (!(max > eps && max <= 1)) throw new RangeError(`sampleMaskRatios: max must lie in (eps, 1], got ${max}`);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = (opts.antithetic ?? true) ? (rng.float() + i) / n : rng.float();
    out[i] = (max - eps) * t + eps;
  }
  return out;
}

/**
 * A run of tokens that draws one mask ratio: a packed sample (SDAR's rule for packed rows) or, as
 * the trainer uses it, one target span of a sample (a transition row has one span, so both agree).
 */
export interface Segment {
  start: number;
  length: number;
}

/**
 * Noises a batch of B sequences of length T. `eligible[b·T + i]` marks the tokens that may be masked
 * (response tokens for SFT: the prompt stays clean; all real tokens for pretraining).
 */
export function noiseBatch(ids: BigInt64Array, eligible: Uint8Array, batch: number, opts: NoiseOptions & { rng: Rng }): NoisedBatch {
  if (ids.length % batch !== 0) throw new RangeError(`noiseBatch: ${ids.length} ids do not split into ${batch} sequences`);
  const T = ids.length / batch;
  return noiseSegments(
    ids,
    eligible,
    Array.from({ length: batch }, (_, b) => ({ start: b * T, length: T })),
    opts,
  );
}

/**
 * Noises packed samples: each segment of `ids` gets its own mask ratio (antithetic across the
 * segments), and only its `eligible` tokens may be masked. Tokens outside every segment stay as they are.
 * `ratios` and `maskedCount` are per segment.
 */
export function noiseSegments(ids: BigInt64Array, eligible: Uint8Array, segments: readonly Segment[], opts: NoiseOptions & { rng: Rng }): NoisedBatch {
  if (eligible.length !== ids.length) throw new RangeError(`noiseSegments: eligible has ${eligible.length} entries for ${ids.length} ids`);
  for (const s of segments)
    if (s.start < 0 || s.length < 0 || s.start + s.length > ids.length) throw new RangeError(`noiseSegments: segment [${s.start}, ${s.start + s.length}) lies outside ${ids.length} ids`);
  const ratios = sampleMaskRatios(segments.length, opts.rng, opts);
  const noised = ids.slice();
  const weights = new Float32Array(ids.length);
  const maskedCount = new Int32Array(segments.length);
  const maskId = BigInt(opts.maskId);
  segments.forEach((seg, b) => {
    const p = ratios[b]!;
    const candidates: number[] = [];
    for (let i = seg.start; i < seg.start + seg.length; i++) {
      if (!eligible[i]) continue;
      candidates.push(i);
      if (opts.rng.float() < p) {
        noised[i] = maskId;
        weights[i] = 1 / p;
        maskedCount[b]!++;
      }
    }
    if ((opts.atLeastOne ?? true) && maskedCount[b] === 0 && candidates.length > 0) {
      const i = opts.rng.pick(candidates);
      noised[i] = maskId;
      weights[i] = 1 / p;
      maskedCount[b] = 1;
    }
  });
  return { noised, weights, ratios, maskedCount };
}
