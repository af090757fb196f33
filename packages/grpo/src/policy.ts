// The policy as graph pieces: the LLaMA-style decoder of mdlm-core over a right-padded batch of
// token sequences [B, T] with a causal mask, and the per-token log-probabilities of the tokens that
// were actually sampled. Logits are divided by the sampling temperature before the softmax, as TRL
// and verl do, so the ratio to the sampler's log-probs is unbiased (grpo-and-metrics.md A3).
import {
  type Tensor,
  type TransformerConfig,
  causalMask,
  div,
  exp,
  gatherElements,
  logSoftmax,
  mul,
  neg,
  reduceSum,
  reshape,
  ropeTables,
  slice,
  transformerForward,
  typedFrom,
  headDimOf,
} from '@diffworld/mdlm-core';

/** Logits [B, T, V] of the decoder for int64 ids [B, T] (causal attention, positions 0..T−1). */
export function policyLogits(cfg: TransformerConfig, params: Readonly<Record<string, Tensor>>, inputIds: Tensor): Tensor {
  const t = inputIds.dim(1);
  const dtype = params['model.embed_tokens.weight']!.dtype as 'float32' | 'float64'; // every family has it; lm_head.weight is absent when tied
  const hd = headDimOf(cfg);
  const { cos, sin } = ropeTables(t, hd, cfg.ropeTheta);
  const k = (data: Float64Array, shape: number[]) => inputIds.graph.constant(typedFrom(dtype, data), dtype, shape);
  return transformerForward(cfg, params, { inputIds, mask: k(causalMask(t), [t, t]), cos: k(cos, [t, hd]), sin: k(sin, [t, hd]) });
}

/**
 * Shifted next-token view of a logits tensor [B, T, V] and ids [B, T]: column j holds the log-prob
 * of token j+1 given tokens 0..j, at temperature `temperature` → [B, T−1]. Also returns the
 * temperature-scaled log-softmax [B, T−1, V] for entropy.
 *
 * The temperature is a scalar graph input, not a constant: ONNX Runtime's MatMulScaleFusion would
 * fold a constant 1/T into the LM head's MatMul as a float32 `alpha`, costing float64 graphs
 * 7 digits (measured: 2e-7 instead of 3e-15 against PyTorch at T = 0.9).
 */
export function sampledLogProbs(logits: Tensor, inputIds: Tensor, temperature: Tensor): { logp: Tensor; logProbs: Tensor } {
  const [b, t] = inputIds.shape as number[];
  const scaled = div(logits, temperature);
  const logProbs = logSoftmax(slice(scaled, [0], [t! - 1], [1]), -1); // (B, T−1, V)
  const next = reshape(slice(inputIds, [1], [t!], [1]), [b!, t! - 1, 1]);
  return { logp: reshape(gatherElements(logProbs, next, 2), [b!, t! - 1]), logProbs };
}

/** Per-position entropy −Σ p log p of a log-softmax tensor [..., V] → [...]. */
export function entropyOf(logProbs: Tensor): Tensor {
  return neg(reduceSum(mul(exp(logProbs), logProbs), [-1]));
}
