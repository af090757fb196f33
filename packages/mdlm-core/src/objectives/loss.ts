// Training losses as graph ops: the masked-diffusion NELBO (a 1/p-weighted masked-token CE with
// MDLM's SUBS rule — the [MASK] logit is removed from the output distribution) and the AR
// next-token loss of the baselines.
import { type Tensor, add, div, gatherElements, logSoftmax, mul, neg, reduceSum, reshape, slice } from '../graph/index.js';
import { crossEntropy } from '../nn/functional.js';

/**
 * Σ_i w_i · (−log p(target_i)) / normalizer, over logits [N, V], targets int64 [N], weights [N]
 * (1/p at masked positions, 0 elsewhere). `normalizer` is the token count the codebase divides by
 * (valid tokens for pretraining, response tokens for SFT); pass it as a tensor or a number.
 */
export function maskedDiffusionLoss(logits: Tensor, targets: Tensor, weights: Tensor, normalizer: Tensor | number, maskId: number): Tensor {
  const vocab = logits.dim(-1);
  if (!Number.isInteger(maskId) || maskId < 0 || maskId >= vocab) throw new RangeError(`maskedDiffusionLoss: maskId ${maskId} is outside the vocabulary of ${vocab}`);
  // SUBS: never predict [MASK] (MDLM adds −1e6 to its logit).
  const bias = new Float64Array(vocab);
  bias[maskId] = -1e6;
  const logp = logSoftmax(add(logits, logits.graph.constant(bias, logits.dtype, [vocab])), -1);
  const picked = reshape(gatherElements(logp, reshape(targets, [-1, 1]), 1), [-1]); // (N)
  return div(neg(reduceSum(mul(picked, weights))), normalizer);
}

/**
 * AR next-token loss over logits [B, T, V] and ids int64 [B, T]: position t predicts ids[t+1];
 * `weights` [B, T] marks the target tokens that count (e.g. responses), read at t+1.
 * Mean over counted targets.
 */
export function nextTokenLoss(logits: Tensor, ids: Tensor, weights: Tensor): Tensor {
  const [b, t, v] = logits.shape as number[];
  const pred = reshape(slice(logits, [0], [t! - 1], [1]), [b! * (t! - 1), v!]);
  const tgt = reshape(slice(ids, [1], [t!], [1]), [-1]);
  const w = reshape(slice(weights, [1], [t!], [1]), [-1]);
  return crossEntropy(pred, tgt, w).loss;
}
