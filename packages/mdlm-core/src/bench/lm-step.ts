// The training step both step benchmarks time: a LLaMA-style LM with a fixed attention mask and
// masked cross-entropy over [B, T] batches, and deterministic small random initial weights.
import { reshape, typedFrom } from '../graph/index.js';
import { crossEntropy, ropeInputs, ropeTables, transformerForward, transformerParams, type TransformerConfig } from '../nn/index.js';
import type { StepGraphSpec } from '../train/index.js';

/** A causal-LM step spec over batches of `input_ids`, `targets`, `weights` ([B, T]) with this [T, T] additive mask. */
export function lmStepSpec(c: TransformerConfig, B: number, T: number, mask: Float64Array, extra: Partial<StepGraphSpec> = {}): StepGraphSpec {
  const hd = c.dModel / c.nHeads;
  const { cos, sin } = ropeTables(T, hd, c.ropeTheta);
  return {
    params: transformerParams(c),
    batch: [
      { name: 'input_ids', dtype: 'int64', shape: [B, T] },
      { name: 'targets', dtype: 'int64', shape: [B, T] },
      { name: 'weights', dtype: 'float32', shape: [B, T] },
    ],
    loss: (p, b) => {
      const g = b.input_ids!.graph;
      const k = (data: Float64Array, shape: number[]) => g.constant(typedFrom('float32', data), 'float32', shape);
      const positions = g.constant(
        BigInt64Array.from({ length: B * T }, (_, i) => BigInt(i % T)),
        'int64',
        [B, T],
      );
      const { rope } = ropeInputs({ cos, sin }, hd, positions);
      const logits = transformerForward(c, p, { inputIds: b.input_ids!, mask: k(mask, [T, T]), cos: k(cos, [T, hd]), sin: k(sin, [T, hd]), rope });
      return { loss: crossEntropy(reshape(logits, [B * T, c.vocabSize]), reshape(b.targets!, [-1]), reshape(b.weights!, [-1])).loss };
    },
    ...extra,
  };
}

/** Norm weights 1, matrices uniform in ±0.02 from a Park–Miller stream (same weights every run). */
export function lmInitParams(c: TransformerConfig): Record<string, Float32Array> {
  let s = 1;
  const rand = () => ((s = (s * 16807) % 2147483647) / 2147483647 - 0.5) * 0.04;
  return Object.fromEntries(
    transformerParams(c).map((p) => {
      const n = p.shape.reduce((a, b) => a * b, 1);
      return [p.name, p.shape.length === 1 ? new Float32Array(n).fill(1) : Float32Array.from({ length: n }, rand)];
    }),
  );
}
