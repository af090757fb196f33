// RoPE as one ONNX node: RotaryEmbedding (opset 23), the rotate-half form (LLaMA, NeoX). One pass
// over x where the composite (two slices, a negation, a concatenation, two products and a sum)
// reads and writes it seven times.
import { type OpDef, defineOp, int } from '../op.js';
import { GraphError, formatShape } from '../shape.js';
import { type Tensor, assertFloat } from '../tensor.js';
import { neg } from './elementwise.js';
import { Cast, cast } from './misc.js';

type RotaryAttrs = { numHeads: number };

export const RotaryEmbedding: OpDef<RotaryAttrs> = defineOp<RotaryAttrs>({
  name: 'RotaryEmbedding',
  arity: [4, 4],
  minOpset: 23,
  infer: ([x, cos, sin, positions], { numHeads }) => {
    assertFloat('RotaryEmbedding', x!);
    if (x!.rank !== 3) throw new GraphError('RotaryEmbedding', `x must be [B, S, heads·hd], got ${formatShape(x!.shape)}`);
    const width = x!.shape[2];
    if (typeof width !== 'number' || width % numHeads !== 0) throw new GraphError('RotaryEmbedding', `width ${String(width)} is not ${numHeads} heads`);
    const hd = width / numHeads;
    for (const [name, t] of [
      ['cos', cos!],
      ['sin', sin!],
    ] as const) {
      if (t.dtype !== x!.dtype) throw new GraphError('RotaryEmbedding', `${name} is ${t.dtype}, x ${x!.dtype}`);
      if (t.rank !== 2 || t.shape[1] !== hd / 2) throw new GraphError('RotaryEmbedding', `${name} must be [rows, ${hd / 2}], got ${formatShape(t.shape)}`);
    }
    if (positions!.dtype !== 'int64' || positions!.rank !== 2) throw new GraphError('RotaryEmbedding', `positions must be int64 [B, S], got ${positions!.dtype}${formatShape(positions!.shape)}`);
    return { dtype: x!.dtype, shape: x!.shape };
  },
  onnx: ({ numHeads }) => ({ opType: 'RotaryEmbedding', attributes: { num_heads: int(numHeads) } }),
  // The rotation by −θ: the same op with the sine negated.
  vjp: ({ inputs: [, cos, sin, positions], dy, attrs: { numHeads } }) => [rotaryEmbedding(dy, cos!, negatedTable(sin!), positions!, numHeads), null, null, null],
});

// One negated table per sine table, however many layers rotate back with it.
const negatedTables = new WeakMap<Tensor, Tensor>();

/**
 * −sin. Through a Cast (a half-precision table) the negation is taken on the cast's source, exact
 * in any float format, so a constant float32 table folds at build time and is cast once.
 */
function negatedTable(sin: Tensor): Tensor {
  let t = negatedTables.get(sin);
  if (!t) {
    const s = sin.source;
    t = s.kind === 'op' && s.op === Cast ? cast(negatedTable(s.inputs[0]!), sin.dtype) : neg(sin);
    negatedTables.set(sin, t);
  }
  return t;
}

/**
 * x [B, S, heads·hd] with each head's halves (x₁, x₂) rotated to (x₁·cos − x₂·sin, x₂·cos + x₁·sin)
 * by the rows of cos/sin [rows, hd/2] (x's dtype) that int64 `positions` [B, S] pick. Needs a graph
 * emitted at opset 23 or later (`graph.opset`).
 */
export function rotaryEmbedding(x: Tensor, cos: Tensor, sin: Tensor, positions: Tensor, numHeads: number): Tensor {
  if (x.graph.opset < 23) throw new GraphError('RotaryEmbedding', `needs opset 23; the graph targets ${x.graph.opset}`);
  return x.graph.apply(RotaryEmbedding, [x, cos, sin, positions], { numHeads });
}
