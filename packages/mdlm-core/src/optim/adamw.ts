// AdamW and global-norm gradient clipping as graph ops, so the whole update runs inside the
// training-step model. Formulas follow torch.optim.AdamW and torch.nn.utils.clip_grad_norm_.
import { type Tensor, add, div, minimum, mul, pow, reduceSum, sqrt, sub } from '../graph/index.js';

export interface AdamWConfig {
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

export const ADAMW_DEFAULTS: AdamWConfig = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01 };

export interface AdamWSlot {
  param: Tensor;
  grad: Tensor;
  m: Tensor;
  v: Tensor;
  /** Parameters such as norms and biases are commonly excluded from weight decay. */
  decay?: boolean;
}

export interface AdamWResult {
  param: Tensor;
  m: Tensor;
  v: Tensor;
}

/**
 * One AdamW step. `lr` and `step` (1-based, as a float) are scalar graph inputs, so schedules live
 * on the host and the graph does not change from step to step.
 */
export function adamwStep(slots: readonly AdamWSlot[], lr: Tensor, step: Tensor, cfg: AdamWConfig = ADAMW_DEFAULTS): AdamWResult[] {
  const bc1 = sub(1, pow(lr.graph.scalar(cfg.beta1, lr.dtype), step));
  const bc2 = sub(1, pow(lr.graph.scalar(cfg.beta2, lr.dtype), step));
  const stepSize = div(lr, bc1);
  const sqrtBc2 = sqrt(bc2);
  return slots.map(({ param, grad, m, v, decay = true }) => {
    const m1 = add(mul(m, cfg.beta1), mul(grad, 1 - cfg.beta1));
    const v1 = add(mul(v, cfg.beta2), mul(mul(grad, grad), 1 - cfg.beta2));
    // Decoupled decay first (p ← p·(1 − lr·wd)), then p ← p − lr/bc1 · m / (√v/√bc2 + eps).
    const decayed = decay && cfg.weightDecay !== 0 ? mul(param, sub(1, mul(lr, cfg.weightDecay))) : param;
    const denom = add(div(sqrt(v1), sqrtBc2), cfg.eps);
    return { param: sub(decayed, mul(stepSize, div(m1, denom))), m: m1, v: v1 };
  });
}

/** Global L2 norm of all gradients, and the gradients scaled so that norm ≤ maxNorm. */
export function clipByGlobalNorm(grads: readonly Tensor[], maxNorm: number): { grads: Tensor[]; norm: Tensor } {
  const sq = grads.map((g) => reduceSum(mul(g, g)));
  const norm = sqrt(sq.reduce((a, b) => add(a, b)));
  if (!(maxNorm > 0) || !Number.isFinite(maxNorm)) return { grads: grads.slice(), norm };
  // torch: coef = max_norm / (norm + 1e-6), clamped to at most 1.
  const coef = minimum(div(maxNorm, add(norm, 1e-6)), 1);
  return { grads: grads.map((g) => mul(g, coef)), norm };
}
