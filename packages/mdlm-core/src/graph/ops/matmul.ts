// Batched matrix product with numpy broadcasting of the batch dimensions.
import { type OpDef, defineOp } from '../op.js';
import { GraphError, broadcastShapes, formatShape } from '../shape.js';
import type { Autocast, Tensor } from '../tensor.js';
import { cast } from './misc.js';
import { Transpose, reshape, transpose } from './shape-ops.js';

/** Swaps the last two axes. */
export function transposeLast(x: Tensor): Tensor {
  const perm = x.shape.map((_, i) => i);
  perm[x.rank - 1] = x.rank - 2;
  perm[x.rank - 2] = x.rank - 1;
  return transpose(x, perm);
}

export const MatMul: OpDef<Record<string, never>> = defineOp<Record<string, never>>({
  name: 'MatMul',
  arity: [2, 2],
  infer: ([a, b]) => {
    if (a!.dtype !== b!.dtype) throw new GraphError('MatMul', `dtypes differ: ${a!.dtype} and ${b!.dtype}`);
    if (a!.rank < 2 || b!.rank < 2) throw new GraphError('MatMul', `needs rank ≥ 2 operands, got ${formatShape(a!.shape)} and ${formatShape(b!.shape)}`);
    const [m, k] = a!.shape.slice(-2);
    const [k2, n] = b!.shape.slice(-2);
    if (k !== k2) throw new GraphError('MatMul', `inner dimensions differ: ${formatShape(a!.shape)} @ ${formatShape(b!.shape)}`);
    const batch = broadcastShapes('MatMul', a!.shape.slice(0, -2), b!.shape.slice(0, -2));
    return { dtype: a!.dtype, shape: [...batch, m!, n!] };
  },
  onnx: () => ({ opType: 'MatMul' }),
  vjp: ({ inputs: [a, b], dy, needed }) => {
    const da = needed[0] ? matmul(dy, transposeLast(b!)) : null;
    let db: Tensor | null = null;
    if (needed[1]) {
      if (b!.rank === 2 && a!.rank > 2) {
        // A shared weight: fold the batch into rows so the sum over the batch is part of the GEMM.
        const k = a!.shape[a!.rank - 1]!;
        const n = dy.shape[dy.rank - 1]!;
        db = matmul(transposeLast(reshape(a!, [-1, k])), reshape(dy, [-1, n]));
      } else db = matmul(transposeLast(a!), dy);
    }
    return [da, db];
  },
});

/**
 * x in the autocast's half precision (emulated: rounded to it and kept float32). A transposed
 * operand is cast before its Transpose, so a tensor that MatMuls use both plain and transposed
 * (attention's probabilities, a weight) is cast once.
 */
export function toHalf(x: Tensor, ac: Autocast): Tensor {
  if (x.source.kind === 'op' && x.source.op === Transpose) return transpose(toHalf(x.source.inputs[0]!, ac), (x.source.attrs as { perm: readonly number[] }).perm);
  return ac.emulate ? cast(cast(x, ac.dtype), 'float32') : cast(x, ac.dtype);
}

/** A half-precision result back in float32 (emulated results already are). */
export const fromHalf = (x: Tensor, ac: Autocast): Tensor => (ac.emulate ? x : cast(x, 'float32'));

/** Under autocast: a @ b in half precision, left in half precision (emulated: rounded float32) for half-precision ops that follow. */
export function matmulHalf(a: Tensor, b: Tensor): Tensor {
  const ac = a.graph.autocast;
  if (!ac) throw new GraphError('MatMul', 'matmulHalf needs the graph to autocast');
  const y = a.graph.apply(MatMul, [toHalf(a, ac), toHalf(b, ac)], {});
  return ac.emulate ? toHalf(y, ac) : y;
}

/**
 * a @ b; under the graph's autocast, float32 operands (or a float32 one with a half-precision one,
 * e.g. a half activation and a float32 weight) are multiplied in half precision into float32. Two
 * half-precision operands give a half-precision product (the backward of a half MatMul).
 */
export function matmul(a: Tensor, b: Tensor): Tensor {
  const ac = a.graph.autocast;
  const castable = (t: Tensor) => t.dtype === 'float32' || t.dtype === ac?.dtype;
  if (!ac || !castable(a) || !castable(b) || (a.dtype === ac.dtype && b.dtype === ac.dtype)) return a.graph.apply(MatMul, [a, b], {});
  return fromHalf(matmulHalf(a, b), ac);
}
