// A KV-cached rollout policy: mdlm-core's causal decoder keeps each episode's keys and values, so
// a generated token costs one position instead of re-running the scorer's whole [B, T] window.
// Rollouts only ever append to an episode's id array (prompt, sampled tokens, observation ids), so
// each array is bound to one cache row the first time it is seen and later calls feed only the
// ids appended since. Sampling from these logits and scoring with the PolicyScorer differ only by
// float rounding; the loss always uses the scorer's log-probs (old, reference, current).
import { OnnxCausalModel, type ProviderName, type TransformerConfig } from '@diffworld/mdlm-core';
import { GrpoError } from './errors.js';
import type { NextTokenPolicy } from './rollout.js';
import type { ParamValues } from './score.js';

export interface CachedPolicy extends NextTokenPolicy {
  close(): Promise<void>;
}

/** A policy for one rollout of at most `rows` episodes with fixed weights. */
export async function cachedPolicy(model: TransformerConfig, params: ParamValues, rows: number, opts: { provider?: ProviderName } = {}): Promise<CachedPolicy> {
  if (!Number.isInteger(rows) || rows < 1) throw new GrpoError('bad_config', `cached policy: rows must be a positive integer, got ${rows}`);
  const m = await OnnxCausalModel.create(model, params, opts.provider ? { provider: opts.provider } : {});
  const decoder = await m.open(rows);
  const bound = new Map<readonly number[], { row: number; fed: number }>();
  return {
    batch: rows,
    async nextLogits(seqs) {
      const items = seqs.map((ids) => {
        let slot = bound.get(ids);
        if (!slot) {
          if (bound.size >= rows) throw new GrpoError('bad_batch', `cached policy: more than the ${rows} episodes it was opened for`);
          slot = { row: bound.size, fed: 0 };
          bound.set(ids, slot);
        }
        if (ids.length <= slot.fed) throw new GrpoError('bad_batch', `cached policy: row ${slot.row} brings no new tokens (${ids.length} ≤ ${slot.fed} already fed); rows may only grow`);
        const tokens = ids.slice(slot.fed);
        slot.fed = ids.length;
        return { row: slot.row, tokens };
      });
      return (await decoder.forward(items)).map((a) => Float64Array.from(a));
    },
    // The model goes with the rollout: each rollout and evaluation chunk makes its own, and on CUDA
    // one left open keeps its session's arena (GBs) — GRPO ran out of the H200's memory by step 5.
    close: async () => {
      await decoder.close();
      await m.release();
    },
  };
}
