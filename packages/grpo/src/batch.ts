// Episodes → right-padded [B, T] feeds for the loss graphs. Padding rows and padding positions
// have mask 0, so they add nothing to any sum; the GRPO normaliser counts real rows only.
import { type HostTensor, type InputSpec, type LossFn, type TransformerConfig, hostTensor, nextTokenLoss } from '@diffworld/mdlm-core';
import { GrpoError } from './errors.js';
import { grpoInputs } from './loss.js';
import { policyLogits } from './policy.js';

export interface SequenceRow {
  ids: readonly number[];
  lossMask: readonly number[];
}

export interface GrpoRow extends SequenceRow {
  advantage: number;
  /** Token-aligned log-probs under the rollout policy (entry 0 unused). */
  oldLogp: ArrayLike<number>;
  /** Token-aligned log-probs under the reference policy, when β > 0. */
  refLogp?: ArrayLike<number>;
}

function floats(dtype: 'float32' | 'float64', n: number): Float32Array | Float64Array {
  return dtype === 'float64' ? new Float64Array(n) : new Float32Array(n);
}

const scalar = (dtype: 'float32' | 'float64', v: number): HostTensor => hostTensor(dtype, dtype === 'float64' ? Float64Array.of(v) : Float32Array.of(v), []);

/** input_ids and loss_mask for `rows` (≤ b of them) in a [b, t] window. */
export function packSequences(rows: readonly SequenceRow[], b: number, t: number, dtype: 'float32' | 'float64'): Record<string, HostTensor> {
  if (rows.length > b) throw new GrpoError('bad_batch', `packSequences: ${rows.length} rows exceed the micro-batch of ${b}`);
  const ids = new BigInt64Array(b * t);
  const mask = floats(dtype, b * t);
  rows.forEach((r, i) => {
    if (r.ids.length !== r.lossMask.length) throw new GrpoError('bad_batch', `packSequences: row ${i} has ${r.ids.length} ids but ${r.lossMask.length} mask entries`);
    if (r.ids.length > t) throw new GrpoError('bad_batch', `packSequences: row ${i} has ${r.ids.length} tokens, the window is ${t}`);
    if (r.lossMask[0]) throw new GrpoError('bad_batch', `packSequences: row ${i} has mask 1 on its first token, which nothing predicts`);
    r.ids.forEach((id, j) => {
      ids[i * t + j] = BigInt(id);
      mask[i * t + j] = r.lossMask[j]!;
    });
  });
  return { [grpoInputs.ids]: hostTensor('int64', ids, [b, t]), [grpoInputs.mask]: hostTensor(dtype, mask, [b, t]) };
}

/** Feeds of the GRPO loss graph for one micro-batch; `norm` is the whole update batch's normaliser. */
export function packGrpo(rows: readonly GrpoRow[], b: number, t: number, opts: { dtype: 'float32' | 'float64'; norm: number; temperature: number; withRef: boolean }): Record<string, HostTensor> {
  const { dtype } = opts;
  const feeds = packSequences(rows, b, t, dtype);
  const old = floats(dtype, b * t);
  const ref = floats(dtype, b * t);
  const adv = floats(dtype, b);
  rows.forEach((r, i) => {
    if (!Number.isFinite(r.advantage)) throw new GrpoError('non_finite', `packGrpo: row ${i} has advantage ${r.advantage}`);
    adv[i] = r.advantage;
    for (let j = 1; j < r.ids.length; j++) {
      if (!r.lossMask[j]) continue;
      const o = r.oldLogp[j]!;
      if (!Number.isFinite(o)) throw new GrpoError('non_finite', `packGrpo: row ${i} token ${j} has old log-prob ${o}`);
      old[i * t + j] = o;
      if (opts.withRef) {
        if (!r.refLogp) throw new GrpoError('bad_batch', `packGrpo: row ${i} has no reference log-probs but β > 0`);
        const v = r.refLogp[j]!;
        if (!Number.isFinite(v)) throw new GrpoError('non_finite', `packGrpo: row ${i} token ${j} has reference log-prob ${v}`);
        ref[i * t + j] = v;
      }
    }
  });
  feeds[grpoInputs.oldLogp] = hostTensor(dtype, old, [b, t]);
  feeds[grpoInputs.advantages] = hostTensor(dtype, adv, [b]);
  feeds[grpoInputs.norm] = scalar(dtype, opts.norm);
  feeds[grpoInputs.temperature] = scalar(dtype, opts.temperature);
  if (opts.withRef) feeds[grpoInputs.refLogp] = hostTensor(dtype, ref, [b, t]);
  return feeds;
}

/** SFT batch inputs: ids and the token-aligned loss mask (policy tokens only). */
export function sftBatchSpec(b: number, t: number, dtype: 'float32' | 'float64'): InputSpec[] {
  return [
    { name: grpoInputs.ids, dtype: 'int64', shape: [b, t] },
    { name: grpoInputs.mask, dtype, shape: [b, t] },
  ];
}

/** SFT loss: the AR next-token objective on masked (policy) tokens, mean over them. */
export function sftLoss(cfg: TransformerConfig): LossFn {
  return (params, batch) => {
    const ids = batch[grpoInputs.ids]!;
    return { loss: nextTokenLoss(policyLogits(cfg, params, ids), ids, batch[grpoInputs.mask]!) };
  };
}
