// Hand-written gradients for composites (JAX's custom_vjp): the forward is built from primitive
// ops as usual, and its result is wrapped so that the backward pass uses a given rule instead of
// differentiating op by op. Why: a composite's derived backward can take many more passes over
// large tensors than its closed form — softmax attention's derived backward multiplies and sums
// the [B, H, T, S] probabilities once more than needed, RMSNorm's and SiLU's take 8–9 passes where
// 4–6 do — and on a GPU those passes, not the matrix products, set the step time.
import { type OpDef, defineOp } from './op.js';
import type { Tensor } from './tensor.js';

/** Gradients of the objective with respect to each input, from `dy` (null where none is needed). */
export type CustomVjp = (dy: Tensor, needed: readonly boolean[]) => readonly (Tensor | null)[];

/**
 * `y` (already computed from `inputs` by primitive ops) whose gradient reaches `inputs` through
 * `vjp` rather than through the ops that built it. It emits as one ONNX Identity (which ONNX
 * Runtime removes), so inference graphs are unchanged. The rule may use any forward tensor, e.g.
 * saved activations, by closure.
 * @example
 *   const s = sigmoid(x), y = mul(x, s);
 *   const silu = withVjp(y, [x], (dy) => [mul(dy, mul(s, add(sub(x, y), 1)))]);
 */
export function withVjp(y: Tensor, inputs: readonly Tensor[], vjp: CustomVjp): Tensor {
  const op: OpDef<Record<string, never>> = defineOp<Record<string, never>>({
    name: 'Identity',
    arity: [1 + inputs.length, 1 + inputs.length],
    infer: ([x]) => ({ dtype: x!.dtype, shape: x!.shape }),
    onnx: (_attrs, names) => ({ opType: 'Identity', inputs: [names[0]!] }),
    // No gradient into y's own ops: the rule stands for them.
    vjp: ({ dy, needed }) => [null, ...vjp(dy, needed.slice(1))],
  });
  return y.graph.apply(op, [y, ...inputs], {});
}
