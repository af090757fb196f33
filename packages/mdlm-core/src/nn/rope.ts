// RoPE frequencies and cos/sin tables for every `rope_type` the decoder supports, computed as
// transformers computes them: inverse frequencies in float32 (each operation rounded to float32),
// angle = float32(inv_freq · position), cos/sin of that angle rounded to float32, times the
// attention factor (yarn). Facts: transformers' modeling_rope_utils (the formulas are the papers':
// NTK-aware scaling, Llama 3.1's frequency bands, YaRN).
import { GraphError, type Tensor, gather, unsqueeze } from '../graph/index.js';
import type { RopeCache } from './functional.js';
import type { RopeScaling } from './config.js';
import { type TransformerConfig, headDimOf } from './transformer.js';

const f32 = Math.fround;

export interface RopeFrequencies {
  /** headDim/2 inverse frequencies, float32 values. */
  invFreq: Float64Array;
  /** Multiplies cos and sin (1 except for yarn). */
  attentionScaling: number;
}

/**
 * θ^(−2i/d) for i < d/2 with torch's float32 rounding at each step. torch's vectorised float32 pow
 * is not always correctly rounded, so an entry can differ from it by an ulp or two (measured: at most
 * one entry in 64 per config, relative 2.4e-7; see the transformers golden test).
 */
function baseInvFreq(base: number, dim: number): Float64Array {
  const out = new Float64Array(dim / 2);
  const b = f32(base);
  for (let i = 0; i < dim / 2; i++) out[i] = f32(1 / f32(b ** f32((2 * i) / dim)));
  return out;
}

function scalingOf(c: TransformerConfig): RopeScaling {
  return c.ropeScaling ?? { type: 'default' };
}

/**
 * Inverse frequencies for a config. `seqLen` (max position + 1 of the current call) matters only for
 * `dynamic`, where the base grows once it exceeds `maxPositions` — transformers remembers the largest
 * length seen; pass that here to reproduce a long-running session.
 */
export function ropeFrequencies(c: TransformerConfig, seqLen?: number): RopeFrequencies {
  const dim = headDimOf(c);
  if (dim % 2 !== 0) throw new GraphError('rope', `head dimension must be even, got ${dim}`);
  const s = scalingOf(c);
  const base = c.ropeTheta;
  switch (s.type) {
    case 'default':
      return { invFreq: baseInvFreq(base, dim), attentionScaling: 1 };
    case 'linear':
      return { invFreq: baseInvFreq(base, dim).map((v) => f32(v / f32(s.factor))), attentionScaling: 1 };
    case 'dynamic': {
      const maxPos = c.maxPositions;
      if (maxPos === undefined) throw new GraphError('rope', 'dynamic RoPE needs maxPositions (max_position_embeddings)');
      if (seqLen === undefined || seqLen <= maxPos) return { invFreq: baseInvFreq(base, dim), attentionScaling: 1 };
      // transformers evaluates this on a float32 tensor (the sequence length is a tensor there);
      // torch raises a float32 tensor to a python-float power in double precision, then rounds.
      const ratio = f32(f32(f32(f32(s.factor) * seqLen) / maxPos) - f32(s.factor - 1));
      const grown = f32(f32(base) * f32(ratio ** (dim / (dim - 2))));
      const out = new Float64Array(dim / 2);
      for (let i = 0; i < dim / 2; i++) out[i] = f32(1 / f32(grown ** f32((2 * i) / dim)));
      return { invFreq: out, attentionScaling: 1 };
    }
    case 'llama3': {
      const inv = baseInvFreq(base, dim);
      const lowWavelen = s.originalMaxPositions / s.lowFreqFactor;
      const highWavelen = s.originalMaxPositions / s.highFreqFactor;
      const lo = f32(lowWavelen);
      const hi = f32(highWavelen);
      const factor = f32(s.factor); // python scalars meet float32 tensors as float32
      const out = new Float64Array(inv.length);
      for (let i = 0; i < inv.length; i++) {
        const wavelen = f32(f32(2 * Math.PI) / inv[i]!);
        const scaled = wavelen > lo ? f32(inv[i]! / factor) : inv[i]!;
        const smooth = f32(f32(f32(s.originalMaxPositions / wavelen) - s.lowFreqFactor) / f32(s.highFreqFactor - s.lowFreqFactor));
        const smoothed = f32(f32(f32(f32(1 - smooth) * scaled) / factor) + f32(smooth * scaled));
        const medium = !(wavelen < hi) && !(wavelen > lo);
        out[i] = medium ? smoothed : scaled;
      }
      return { invFreq: out, attentionScaling: 1 };
    }
    case 'yarn':
      return yarn(s, base, dim);
  }
}

function yarn(s: Extract<RopeScaling, { type: 'yarn' }>, base: number, dim: number): RopeFrequencies {
  const mscaleOf = (scale: number, m = 1) => (scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1);
  const attentionScaling = s.attentionFactor ?? (s.mscale && s.mscaleAllDim ? mscaleOf(s.factor, s.mscale) / mscaleOf(s.factor, s.mscaleAllDim) : mscaleOf(s.factor));
  // The band of dimensions between beta_fast and beta_slow rotations over the original context.
  const correctionDim = (rotations: number) => (dim * Math.log(s.originalMaxPositions / (rotations * 2 * Math.PI))) / (2 * Math.log(base));
  let low = correctionDim(s.betaFast);
  let high = correctionDim(s.betaSlow);
  if (s.truncate) {
    low = Math.floor(low);
    high = Math.ceil(high);
  }
  low = Math.max(low, 0);
  high = Math.min(high, dim - 1);
  if (low === high) high += 0.001;
  const half = dim / 2;
  const b = f32(base);
  const f = f32(s.factor);
  const out = new Float64Array(half);
  for (let i = 0; i < half; i++) {
    const posFreq = f32(b ** f32((2 * i) / dim));
    const extrapolation = f32(1 / posFreq);
    const interpolation = f32(1 / f32(f * posFreq));
    const ramp = Math.min(Math.max(f32(f32(i - f32(low)) / f32(high - low)), 0), 1);
    const extraFactor = f32(1 - ramp);
    out[i] = f32(f32(interpolation * f32(1 - extraFactor)) + f32(extrapolation * extraFactor));
  }
  return { invFreq: out, attentionScaling };
}

export interface RopeTables {
  /** [positions.length, headDim] row-major, halves duplicated (rotate-half layout); float32 values. */
  cos: Float64Array;
  sin: Float64Array;
}

/**
 * cos/sin rows for the given positions (any order, any start — e.g. the new tokens of a KV-cached
 * step). `seqLen` defaults to max(positions) + 1 and only matters for `dynamic` RoPE.
 */
export function ropeTablesAt(c: TransformerConfig, positions: ArrayLike<number>, seqLen?: number): RopeTables {
  const hd = headDimOf(c);
  let maxPos = -1;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i]!;
    if (!Number.isInteger(p) || p < 0) throw new GraphError('rope', `positions must be non-negative integers, got ${p}`);
    maxPos = Math.max(maxPos, p);
  }
  const { invFreq, attentionScaling } = ropeFrequencies(c, seqLen ?? maxPos + 1);
  const half = hd / 2;
  const scale = f32(attentionScaling);
  const cos = new Float64Array(positions.length * hd);
  const sin = new Float64Array(positions.length * hd);
  for (let r = 0; r < positions.length; r++) {
    const p = f32(positions[r]!);
    for (let i = 0; i < half; i++) {
      const angle = f32(invFreq[i]! * p);
      cos[r * hd + i] = cos[r * hd + i + half] = f32(f32(Math.cos(angle)) * scale);
      sin[r * hd + i] = sin[r * hd + i + half] = f32(f32(Math.sin(angle)) * scale);
    }
  }
  return { cos, sin };
}

/** Tables for positions start, start+1, …, start+count−1. */
export function ropeTablesRange(c: TransformerConfig, start: number, count: number, seqLen?: number): RopeTables {
  return ropeTablesAt(
    c,
    Array.from({ length: count }, (_, i) => start + i),
    seqLen,
  );
}

/**
 * The rows of a [rows, headDim] cos or sin table picked by an int64 `positions` tensor [B, S], as
 * a float32 [B, 1, S, headDim] tensor that broadcasts over heads: one graph serves packed rows and
 * positions that restart per sample.
 */
export function ropeAtPositions(table: Float64Array, headDim: number, positions: Tensor): Tensor {
  if (table.length % headDim !== 0) throw new GraphError('rope', `a table of ${table.length} values is not a whole number of rows of ${headDim}`);
  return unsqueeze(gather(positions.graph.constant(table, 'float32', [table.length / headDim, headDim]), positions, 0), [1]);
}

/**
 * Both forms of RoPE's inputs for `decoderForward` at int64 `positions` [B, S]: the rows gathered
 * as [B, 1, S, headDim] for the composite rotation, and the tables' first halves ([rows, headDim/2])
 * with the positions for the fused one (RotaryEmbedding, on graphs at opset ≥ 23). The form a graph
 * does not use costs nothing: emission drops it.
 */
export function ropeInputs(tables: RopeTables, headDim: number, positions: Tensor): { cos: Tensor; sin: Tensor; rope: RopeCache } {
  // ORT's kernel wants at least as many rows as the sequence is long (bd3's [x_t ; x_0] rows are twice
  // the positions); the rows past the table are never picked. (A dynamic length is an inference
  // graph's, which stays at opset 18.)
  const seq = typeof positions.shape[1] === 'number' ? positions.shape[1] : 0;
  const half = (table: Float64Array) => {
    const rows = table.length / headDim;
    const out = new Float32Array((Math.max(rows, seq) * headDim) / 2);
    for (let r = 0; r < rows; r++) out.set(table.subarray(r * headDim, r * headDim + headDim / 2), (r * headDim) / 2);
    return positions.graph.constant(out, 'float32', [out.length / (headDim / 2), headDim / 2]);
  };
  return {
    cos: ropeAtPositions(tables.cos, headDim, positions),
    sin: ropeAtPositions(tables.sin, headDim, positions),
    rope: { cos: half(tables.cos), sin: half(tables.sin), positions },
  };
}
