// The GRPO loss as an mdlm-core graph (ms-swift / TRL, grpo-and-metrics.md A3–A5):
//
//   ρ_t   = exp(logp_θ(o_t) − logp_old(o_t))
//   pg_t  = −min(ρ_t·Â, clip(ρ_t, 1 − ε_low, 1 + ε_high)·Â)
//   kl_t  = min(exp(Δ) − Δ − 1, 10),  Δ = logp_ref − logp_θ      (k3; ms-swift clamps to [−10, 10])
//   ℓ_t   = pg_t + β·kl_t
//
// aggregated over the loss mask m (1 on policy tokens, 0 on prompt/observation/padding):
//   grpo     Σ_i [Σ_t m ℓ / max(Σ_t m, 1)] / norm     norm = sequences in the whole update batch
//   dapo     Σ_{i,t} m ℓ / norm                        norm = mask tokens in the whole update batch
//   dr_grpo  Σ_{i,t} m ℓ / norm                        norm = sequences × max completion length
//
// The normaliser is a graph input (`loss_norm`) computed on the host for the whole update batch,
// so gradients of micro-batches simply add up to the gradient of the whole batch (TRL divides by
// accumulation steps instead, which is the same for equal micro-batches).
//
// Per-token tensors are token-aligned [B, T]: entry t belongs to token t of the sequence (the
// log-prob of token t given tokens < t). Column 0 has no prediction and must have mask 0.
import {
  type InputSpec,
  type LossFn,
  type Tensor,
  type TransformerConfig,
  add,
  and,
  cast,
  div,
  exp,
  greater,
  less,
  maximum,
  minimum,
  mul,
  neg,
  reduceSum,
  reshape,
  slice,
  sub,
} from '@diffworld/mdlm-core';
import { GrpoError } from './errors.js';
import { entropyOf, policyLogits, sampledLogProbs } from './policy.js';

export type LossAggregation = 'grpo' | 'dapo' | 'dr_grpo';

export interface GrpoLossConfig {
  /** Lower clip range ε_low (ρ ≥ 1 − ε_low). ms-swift/TRL default 0.2. */
  epsilon: number;
  /** Upper clip range ε_high (ρ ≤ 1 + ε_high); defaults to ε_low. DAPO uses 0.28. */
  epsilonHigh?: number;
  /** KL coefficient β; 0 drops the reference policy from the graph. */
  beta: number;
  aggregation: LossAggregation;
  /** Sampling temperature; logits are divided by it before the log-softmax. */
  temperature: number;
  /** Upper clamp of the per-token k3 estimate (ms-swift: 10). */
  klClamp?: number;
}

export const GRPO_LOSS_DEFAULTS: GrpoLossConfig = { epsilon: 0.2, beta: 0.04, aggregation: 'grpo', temperature: 1, klClamp: 10 };

/** Names of the batch tensors the loss graph reads. */
export const grpoInputs = {
  ids: 'input_ids',
  mask: 'loss_mask',
  oldLogp: 'old_logp',
  refLogp: 'ref_logp',
  advantages: 'advantages',
  norm: 'loss_norm',
  /** Scalar sampling temperature (a graph input, see policy.ts). */
  temperature: 'temperature',
} as const;

/** Extra outputs of the loss graph, each a mean over the micro-batch's mask tokens (and their count). */
export const grpoOutputs = { clipLow: 'clip_low', clipHigh: 'clip_high', kl: 'kl', entropy: 'entropy', tokens: 'tokens', ratioMean: 'ratio_mean' } as const;

export function validateLossConfig(c: GrpoLossConfig): void {
  const bad = (what: string) => {
    throw new GrpoError('bad_config', `GRPO loss: ${what}`);
  };
  if (!(c.epsilon >= 0 && c.epsilon < 1)) bad(`epsilon must be in [0, 1), got ${c.epsilon}`);
  if (c.epsilonHigh !== undefined && !(c.epsilonHigh >= 0)) bad(`epsilonHigh must be ≥ 0, got ${c.epsilonHigh}`);
  if (!(c.beta >= 0) || !Number.isFinite(c.beta)) bad(`beta must be a finite number ≥ 0, got ${c.beta}`);
  if (!(c.temperature > 0) || !Number.isFinite(c.temperature)) bad(`temperature must be > 0, got ${c.temperature}`);
  if (!['grpo', 'dapo', 'dr_grpo'].includes(c.aggregation)) bad(`aggregation must be grpo | dapo | dr_grpo, got ${JSON.stringify(c.aggregation)}`);
  if (c.klClamp !== undefined && !(c.klClamp > 0)) bad(`klClamp must be > 0, got ${c.klClamp}`);
}

/** Batch inputs of the loss graph for B sequences of T tokens. */
export function grpoBatchSpec(b: number, t: number, c: GrpoLossConfig, dtype: 'float32' | 'float64'): InputSpec[] {
  const specs: InputSpec[] = [
    { name: grpoInputs.ids, dtype: 'int64', shape: [b, t] },
    { name: grpoInputs.mask, dtype, shape: [b, t] },
    { name: grpoInputs.oldLogp, dtype, shape: [b, t] },
    { name: grpoInputs.advantages, dtype, shape: [b] },
    { name: grpoInputs.norm, dtype, shape: [] },
    { name: grpoInputs.temperature, dtype, shape: [] },
  ];
  if (c.beta > 0) specs.push({ name: grpoInputs.refLogp, dtype, shape: [b, t] });
  return specs;
}

/**
 * Host-side normaliser for the whole update batch: `sequences` rows, `maskTokens` policy tokens,
 * `maxCompletionLength` the L of Dr. GRPO.
 */
export function lossNormalizer(aggregation: LossAggregation, sequences: number, maskTokens: number, maxCompletionLength: number): number {
  if (aggregation === 'grpo') return sequences;
  if (aggregation === 'dapo') return Math.max(maskTokens, 1);
  return sequences * maxCompletionLength;
}

const drop0 = (x: Tensor) => slice(x, [1], [x.dim(1)], [1]); // token-aligned [B, T] → prediction-aligned [B, T−1]

/** The GRPO loss (and metrics) as an mdlm-core `LossFn` over the policy decoder. */
export function grpoLoss(cfg: TransformerConfig, c: GrpoLossConfig): LossFn {
  validateLossConfig(c);
  const epsHigh = c.epsilonHigh ?? c.epsilon;
  const clampKl = c.klClamp ?? 10;
  return (params, batch) => {
    const ids = batch[grpoInputs.ids]!;
    const [b] = ids.shape as number[];
    const { logp, logProbs } = sampledLogProbs(policyLogits(cfg, params, ids), ids, batch[grpoInputs.temperature]!); // (B, T−1)
    const m = drop0(batch[grpoInputs.mask]!);
    const adv = reshape(batch[grpoInputs.advantages]!, [b!, 1]);
    const ratio = exp(sub(logp, drop0(batch[grpoInputs.oldLogp]!)));
    const clipped = minimum(maximum(ratio, 1 - c.epsilon), 1 + epsHigh);
    const pg = neg(minimum(mul(ratio, adv), mul(clipped, adv)));
    let perToken = pg;
    let kl: Tensor | undefined;
    if (c.beta > 0) {
      const delta = sub(drop0(batch[grpoInputs.refLogp]!), logp);
      kl = minimum(sub(sub(exp(delta), delta), 1), clampKl); // k3 ≥ 0, so only the upper clamp can bite
      perToken = add(pg, mul(kl, c.beta));
    }
    const masked = mul(perToken, m);
    const norm = batch[grpoInputs.norm]!;
    const loss = c.aggregation === 'grpo' ? div(reduceSum(div(reduceSum(masked, [1]), maximum(reduceSum(m, [1]), 1))), norm) : div(reduceSum(masked), norm);

    // Metrics (no gradient is taken from them): TRL's clip regions, mean KL, entropy, mean ratio.
    const tokens = reduceSum(m);
    const maskedMean = (x: Tensor) => div(reduceSum(mul(x, m)), maximum(tokens, 1));
    const f = (x: Tensor) => cast(x, m.dtype);
    const outputs: Record<string, Tensor> = {
      [grpoOutputs.clipLow]: maskedMean(f(and(less(ratio, 1 - c.epsilon), less(adv, 0)))),
      [grpoOutputs.clipHigh]: maskedMean(f(and(greater(ratio, 1 + epsHigh), greater(adv, 0)))),
      [grpoOutputs.entropy]: maskedMean(entropyOf(logProbs)),
      [grpoOutputs.ratioMean]: maskedMean(ratio),
      [grpoOutputs.tokens]: tokens,
    };
    if (kl) outputs[grpoOutputs.kl] = maskedMean(kl);
    return { loss, outputs };
  };
}
