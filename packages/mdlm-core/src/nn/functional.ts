// Composite ops of the transformer, built from graph primitives (so they need no gradient rules):
// activations, RMSNorm, RoPE, grouped-query attention, SwiGLU, cross-entropy with an ignore mask.
import {
  type Tensor,
  GraphError,
  add,
  cast,
  concat,
  div,
  equal,
  expand,
  gatherElements,
  logSoftmax,
  matmul,
  maximum,
  mul,
  neg,
  reciprocal,
  reduceMean,
  reduceSum,
  reshape,
  sigmoid,
  slice,
  softmax,
  sqrt,
  sub,
  tanh,
  transpose,
  transposeLast,
  unsqueeze,
  withVjp,
  matmulHalf,
  toHalf,
  fromHalf,
  rotaryEmbedding,
} from '../graph/index.js';
import { isHalf } from '../dtype.js';

/** SiLU, x·σ(x), with its closed-form gradient σ(x)·(1 + x − y): four passes where the derived rule takes six. */
export function silu(x: Tensor): Tensor {
  const s = sigmoid(x);
  const y = mul(x, s);
  return withVjp(y, [x], (dy) => [mul(dy, mul(s, add(sub(x, y), 1)))]);
}

/** GELU, tanh approximation (ONNX's Erf is not available in float64 on every provider). */
export function geluTanh(x: Tensor): Tensor {
  const inner = mul(add(x, mul(mul(mul(x, x), x), 0.044715)), Math.sqrt(2 / Math.PI));
  return mul(mul(x, 0.5), add(tanh(inner), 1));
}

export const rsqrt = (x: Tensor): Tensor => reciprocal(sqrt(x));

/** Hugging Face `nn.Linear` layout: weight is [out, in]; y = x Wᵀ (+ b). */
export function linear(x: Tensor, weight: Tensor, bias?: Tensor): Tensor {
  const y = matmul(x, transpose(weight, [1, 0]));
  return bias ? add(y, bias) : y;
}

/**
 * Under autocast: x Wᵀ (+ b) left in half precision (emulated: rounded to it) for the half-precision
 * ops that follow, as PyTorch's autocast leaves a Linear's output.
 */
export function linearHalf(x: Tensor, weight: Tensor, bias?: Tensor): Tensor {
  const ac = x.graph.autocast;
  if (!ac) throw new GraphError('linearHalf', 'needs the graph to autocast');
  const y = matmulHalf(x, transpose(weight, [1, 0]));
  if (!bias) return y;
  const withBias = add(y, toHalf(bias, ac));
  return ac.emulate ? toHalf(withBias, ac) : withBias;
}

/**
 * LLaMA RMSNorm: x / sqrt(mean(x²) + eps) * weight, over the last axis. Backward in closed form,
 * with x̂ = x·r and g = dy·w: dx = r·(g − x̂·mean(g·x̂)), dw = Σ dy·x̂ (six passes over x's size
 * where the derived rule takes nine).
 */
export function rmsNorm(x: Tensor, weight: Tensor, eps: number): Tensor {
  // Half-precision activations (a half inference graph) are normalised in float32, as Hugging
  // Face's LlamaRMSNorm does: x² overflows float16 past |x| = 256, and a half-precision mean of
  // thousands of squares loses most of its digits.
  if (isHalf(x.dtype)) return cast(rmsNorm(cast(x, 'float32'), cast(weight, 'float32'), eps), x.dtype);
  const r = rsqrt(add(reduceMean(mul(x, x), [-1], true), eps));
  const normed = mul(x, r);
  const y = mul(normed, weight);
  return withVjp(y, [x, weight], (dy, [needX, needW]) => {
    const g = mul(dy, weight);
    return [needX ? mul(sub(g, mul(normed, reduceMean(mul(g, normed), [-1], true))), r) : null, needW ? mul(dy, normed) : null];
  });
}

/** cos/sin tables [T, headDim] for positions 0..T-1, halves duplicated (LLaMA's rotate-half form). */
export function ropeTables(positions: number, headDim: number, theta: number): { cos: Float64Array; sin: Float64Array } {
  if (headDim % 2 !== 0) throw new GraphError('rope', `head dimension must be even, got ${headDim}`);
  const half = headDim / 2;
  const cos = new Float64Array(positions * headDim);
  const sin = new Float64Array(positions * headDim);
  for (let p = 0; p < positions; p++)
    for (let i = 0; i < half; i++) {
      // Match PyTorch: inv_freq is computed in float32 there; we keep float64 and compare within tolerance.
      const angle = p / theta ** ((2 * i) / headDim);
      cos[p * headDim + i] = cos[p * headDim + i + half] = Math.cos(angle);
      sin[p * headDim + i] = sin[p * headDim + i + half] = Math.sin(angle);
    }
  return { cos, sin };
}

/** rotate_half and its transpose: (x1, x2) → (−x2, x1), and (z1, z2) → (z2, −z1). */
function rotateHalf(x: Tensor, transposed = false): Tensor {
  const hd = x.dim(-1);
  const last = x.rank - 1;
  const x1 = slice(x, [0], [hd / 2], [last]);
  const x2 = slice(x, [hd / 2], [hd], [last]);
  return concat(transposed ? [x2, neg(x1)] : [neg(x2), x1], last);
}

/**
 * Applies rotary embeddings to x [B, H, T, hd] with tables broadcastable to [T, hd]. The rotation
 * is linear, so its gradient is the transposed rotation of dy: dx = dy·cos + Rᵀ(dy·sin), one
 * concatenation where the derived rule pads both halves to full size and adds them.
 */
export function applyRope(x: Tensor, cos: Tensor, sin: Tensor): Tensor {
  // Half-precision q/k with float32 tables (a half inference graph): rotated in float32, so that the
  // angles of far positions keep their precision; only the result is rounded.
  if (isHalf(x.dtype) && !isHalf(cos.dtype)) return cast(applyRope(cast(x, cos.dtype), cos, sin), x.dtype);
  const y = add(mul(x, cos), mul(rotateHalf(x), sin));
  return withVjp(y, [x], (dy) => [add(mul(dy, cos), rotateHalf(mul(dy, sin), true))]);
}

/** RotaryEmbedding's inputs: [rows, hd/2] float32 tables (one half of a rotate-half row) and each token's row, int64 [B, S]. */
export interface RopeCache {
  cos: Tensor;
  sin: Tensor;
  positions: Tensor;
}

/**
 * RoPE on x [B, S, heads·hd] as one RotaryEmbedding node (the graph must target opset ≥ 23; its
 * gradient is the same node with the sine negated). `half`: in the autocast's half precision,
 * tables included, as the half-precision kernel computes it (emulated: rounded there).
 */
export function applyRopeFused(x: Tensor, cache: RopeCache, numHeads: number, half = false): Tensor {
  const ac = half ? x.graph.autocast : undefined;
  if (half && !ac) throw new GraphError('rope', 'a half-precision rotation needs the graph to autocast');
  const inHalf = (t: Tensor) => (ac ? toHalf(t, ac) : t);
  const y = rotaryEmbedding(inHalf(x), inHalf(cache.cos), inHalf(cache.sin), cache.positions, numHeads);
  return ac?.emulate ? toHalf(y, ac) : y;
}

/** Repeats KV heads for grouped-query attention: [B, Hkv, T, hd] → [B, Hkv·rep, T, hd]. */
export function repeatKv(x: Tensor, rep: number): Tensor {
  if (rep === 1) return x;
  const [b, h, t, d] = x.shape;
  const x5 = unsqueeze(x, [2]); // (B, Hkv, 1, T, hd)
  return reshape(expand(x5, [b!, h!, rep, t!, d!]), [b!, (h as number) * rep, t!, d!]);
}

/**
 * Scaled dot-product attention. q [B, H, T, hd], k/v [B, Hkv, S, hd]; `mask` is additive and
 * broadcastable to [B, H, T, S] (0 where allowed, a large negative number where not).
 * `groupedHeads` (inference graphs, mask [B, 1, T, S]) lets each KV head's query heads share it
 * through a broadcasting 5-D MatMul instead of repeating K and V per query head: the same dot
 * products, without copying keys and values rep times per pass (a batched decoder's cost per row).
 */
export function attention(q: Tensor, k: Tensor, v: Tensor, mask?: Tensor, opts: { groupedHeads?: boolean; half?: boolean } = {}): Tensor {
  const rep = q.dim(1) / k.dim(1);
  if (!Number.isInteger(rep)) throw new GraphError('attention', `query heads ${q.dim(1)} are not a multiple of KV heads ${k.dim(1)}`);
  if (opts.groupedHeads && rep > 1) {
    if (opts.half) throw new GraphError('attention', 'grouped heads are for float32 inference graphs; half-precision attention repeats K/V');
    const [b, h, t, d] = q.shape;
    if (mask && mask.dim(1) !== 1) throw new GraphError('attention', 'grouped heads need a mask shared by the heads ([B, 1, T, S])');
    const q5 = reshape(q, [b!, k.dim(1), rep, t!, d!]); // (B, Hkv, rep, T, hd)
    const scores = mul(matmul(q5, transpose(unsqueeze(k, [2]), [0, 1, 2, 4, 3])), 1 / Math.sqrt(q.dim(-1))); // (B, Hkv, rep, T, S)
    const probs = maskedSoftmax(scores, mask && unsqueeze(mask, [2]));
    return reshape(matmul(probs, unsqueeze(v, [2])), [b!, h!, t!, d!]); // (B, H, T, hd)
  }
  const kr = repeatKv(k, rep);
  const vr = repeatKv(v, rep);
  const ac = q.graph.autocast;
  // `half` (under autocast): q, k, v, scores, probabilities and the output in half precision, as
  // the projections around them leave and take them; the backward's row term in float32.
  const half = opts.half === true && ac !== undefined;
  if (opts.half && !ac) throw new GraphError('attention', 'half-precision attention needs the graph to autocast');
  const round = (t: Tensor) => (half && ac.emulate ? toHalf(t, ac) : t);
  // 1/√hd applied to q ([B, H, T, hd]) rather than to the scores ([B, H, T, S]): a pass over T·hd
  // values instead of T·S, forward and backward (exactly the same numbers when hd is a power of 4).
  const qs = round(mul(q, 1 / Math.sqrt(q.dim(-1))));
  // A half block takes its scores and gives its probabilities in half precision: the softmax kernel
  // computes in float32 inside (ORT's, as flash attention), so the [B, H, T, S] tensors are never
  // cast, at the same rounding points as float32 scores cast up and probabilities cast down.
  const scores = half ? matmulHalf(qs, transposeLast(kr)) : matmul(qs, transposeLast(kr)); // (B, H, T, S)
  const probs = round(maskedSoftmax(scores, mask && half ? toHalf(mask, ac) : mask));
  const out = half ? matmulHalf(probs, vr) : matmul(probs, vr); // (B, H, T, hd)
  // Backward as flash attention computes it: the softmax's row term Σ_s P·dP equals dO·O (a sum
  // over hd, not over S), so the [B, H, T, S] tensors are read and written two passes fewer.
  return withVjp(out, [qs, kr, vr], (dO, [needQ, needK, needV]) => {
    // Products of half-precision values are exact in float32: the row term is summed there.
    const rowTerm = half ? reduceSum(mul(fromHalf(dO, ac), fromHalf(out, ac)), [-1], true) : reduceSum(mul(dO, out), [-1], true);
    // Under autocast dP − D stays in half precision and dS is half precision (see softmaxAttentionGrad).
    const dScores = softmaxAttentionGrad(probs, shiftedScoreGrad(dO, vr, rowTerm));
    // Gradients in their inputs' precision: half for a half block, float32 otherwise.
    const fromScores = (a: Tensor, b: Tensor) => (half ? matmulHalf(a, b) : ac ? fromHalf(matmulHalf(a, b), ac) : matmul(a, b));
    return [
      needQ ? fromScores(dScores, kr) : null,
      needK ? fromScores(transposeLast(dScores), qs) : null,
      needV ? (half ? matmulHalf(transposeLast(probs), dO) : matmul(transposeLast(probs), dO)) : null,
    ];
  });
}

/**
 * softmax(scores + mask) over the last axis. A mask of a wider type than the scores (half-precision
 * scores of a half inference graph, float32 mask) makes the sum and the softmax run in the mask's
 * type, the probabilities rounded back once: a masked entry's −1e9 is −∞ in float16, and the row's
 * normalisation accumulates in float32 on every provider, not only where the kernel does it inside.
 */
function maskedSoftmax(scores: Tensor, mask: Tensor | undefined): Tensor {
  if (!mask) return softmax(scores, -1);
  if (mask.dtype === scores.dtype) return softmax(add(scores, mask), -1);
  return cast(softmax(add(cast(scores, mask.dtype), mask), -1), scores.dtype);
}

/**
 * dP − D in one GEMM, [dO, −D, 0…] · [V, 1, 0…]ᵀ: the row term rides along as one more column of
 * the contraction (zeros pad it to a multiple of 8, the tensor cores' alignment), so the
 * [B, H, T, S] difference is not a pass of its own (a read and a write of that size per layer).
 * Under autocast the GEMM is half precision and its result rounded once.
 */
function shiftedScoreGrad(dO: Tensor, v: Tensor, rowTerm: Tensor): Tensor {
  const ac = dO.graph.autocast;
  const hd = dO.dim(-1);
  const pad = Math.ceil((hd + 1) / 8) * 8 - hd - 1;
  const columns = (like: Tensor, values: number[]) =>
    expand(like.graph.constant(values, like.dtype, [...like.shape.slice(0, -1).map(() => 1), values.length]), [...like.shape.slice(0, -1), values.length]);
  const zeros = Array<number>(pad).fill(0);
  const left = concat([dO, cast(neg(rowTerm), dO.dtype), ...(pad ? [columns(dO, zeros)] : [])], -1);
  const right = concat([v, columns(v, [1, ...zeros])], -1);
  return ac ? matmulHalf(left, transposeLast(right)) : matmul(left, transposeLast(right));
}

/**
 * dS = P ⊙ (dP − D), with D = Σ_s P·dP = dO·O per row. Under autocast dP − D comes out of its MatMul
 * in half precision and dS goes into two more: computing dS in half precision too (rounded there)
 * spares casting both [B, H, T, S] tensors, as a half-precision fused attention does.
 */
function softmaxAttentionGrad(probs: Tensor, shifted: Tensor): Tensor {
  const ac = probs.graph.autocast;
  if (!ac) return mul(probs, shifted);
  const round = (x: Tensor) => (ac.emulate ? toHalf(x, ac) : x);
  return round(mul(toHalf(probs, ac), shifted));
}

/**
 * SwiGLU feed-forward: down(silu(gate(x)) ⊙ up(x)), each projection with its bias when given.
 * Under autocast the activation between the projections stays in half precision, as PyTorch's
 * autocast runs it (SiLU and the product take the GEMMs' half-precision outputs): the [.., ffn]
 * tensors are read and written at half the bytes and never cast (emulated: rounded after each op).
 */
export function swiglu(x: Tensor, gate: Tensor, up: Tensor, down: Tensor, bias: { gate?: Tensor; up?: Tensor; down?: Tensor } = {}): Tensor {
  const ac = x.graph.autocast;
  if (!ac || x.dtype !== 'float32') return linear(mul(silu(linear(x, gate, bias.gate)), linear(x, up, bias.up)), down, bias.down);
  const round = (t: Tensor) => (ac.emulate ? toHalf(t, ac) : t);
  const act = round(mul(round(silu(linearHalf(x, gate, bias.gate))), linearHalf(x, up, bias.up)));
  const y = fromHalf(matmulHalf(act, transpose(down, [1, 0])), ac);
  return bias.down ? add(y, bias.down) : y;
}

/**
 * Mean token cross-entropy over positions whose weight is non-zero (PyTorch's ignore_index
 * semantics when weights are 0/1). logits [N, V], targets int64 [N], weights float [N].
 */
export function crossEntropy(logits: Tensor, targets: Tensor, weights: Tensor): { loss: Tensor; tokens: Tensor } {
  if (logits.rank !== 2) throw new GraphError('crossEntropy', 'logits must be [N, V]');
  const logp = logSoftmax(logits, -1);
  const picked = reshape(gatherElements(logp, reshape(targets, [-1, 1]), 1), [-1]); // (N)
  const tokens = reduceSum(weights);
  const loss = div(neg(reduceSum(mul(picked, weights))), maximum(tokens, 1));
  return { loss, tokens };
}

/** One-hot as a composite: equality with an index range, cast to a float type. */
export function oneHot(indices: Tensor, depth: number, dtype: 'float32' | 'float64' = 'float32'): Tensor {
  const range = indices.graph.constant(
    Array.from({ length: depth }, (_, i) => i),
    indices.dtype,
    [depth],
  );
  return cast(equal(unsqueeze(indices, [-1]), range), dtype);
}
