// Cast, ConstantOfShape, CumSum and Trilu.
import { type DType, ONNX_DTYPE, isFloat, typedFrom } from '../../dtype.js';
import { type OpDef, NONDIFF, defineOp, int } from '../op.js';
import { type Dim, GraphError, normAxis, staticShape } from '../shape.js';
import type { Graph, Tensor } from '../tensor.js';
import { foldElementwise } from './fold.js';

type CastAttrs = { to: DType };

export const Cast: OpDef<CastAttrs> = defineOp<CastAttrs>({
  name: 'Cast',
  arity: [1, 1],
  infer: ([x], { to }) => ({ dtype: to, shape: x!.shape }),
  onnx: ({ to }) => ({ opType: 'Cast', attributes: { to: int(ONNX_DTYPE[to]) } }),
  // Only float → float casts carry a gradient; an integer or bool source has none.
  vjp: ({ inputs: [x], dy }) => [isFloat(x!.dtype) && isFloat(dy.dtype) ? cast(dy, x!.dtype) : null],
  fold: (inputs, { to }, dtype, shape) => foldElementwise(inputs, dtype, shape, (v) => (to === 'bool' ? +(v !== 0) : isFloat(to) ? v : Math.trunc(v))),
});

// One Cast per (tensor, type): autocast casts a shared operand (the normed input of q, k and v;
// the probabilities in attention's forward and backward) once instead of at every MatMul.
const casts = new WeakMap<Tensor, Map<DType, Tensor>>();

/** Float types whose every value the wider one holds exactly (a round trip through it is the identity). */
const WIDENS: Partial<Record<DType, readonly DType[]>> = { bfloat16: ['float32', 'float64'], float16: ['float32', 'float64'], float32: ['float64'] };

export function cast(x: Tensor, to: DType): Tensor {
  if (x.dtype === to) return x;
  // Back to the source type of a widening cast: the source itself (a half-precision activation made
  // float32 for one op and half again for the next costs no Cast pair).
  if (x.source.kind === 'op' && x.source.op === Cast && x.source.inputs[0]!.dtype === to && WIDENS[to]?.includes(x.dtype)) return x.source.inputs[0]!;
  let byType = casts.get(x);
  if (!byType) casts.set(x, (byType = new Map()));
  let y = byType.get(to);
  if (!y) byType.set(to, (y = x.graph.apply(Cast, [x], { to })));
  return y;
}

type FillAttrs = { shape: readonly Dim[]; value: number; dtype: DType };

/** A filled tensor made at run time, so large zero buffers are not stored in the model file. */
export const ConstantOfShape: OpDef<FillAttrs> = defineOp<FillAttrs>({
  name: 'ConstantOfShape',
  arity: [0, 0],
  infer: (_, { shape, dtype }) => ({ dtype, shape: staticShape(shape, 'ConstantOfShape') }),
  onnx: ({ shape, value, dtype }, _inputs, ctx) => ({
    opType: 'ConstantOfShape',
    inputs: [ctx.constInput('int64', [shape.length], shape as number[])],
    attributes: { value: { type: 'tensor', value: { name: 'value', dtype, shape: [1], data: typedFrom(dtype, [value]) } } },
  }),
  vjp: NONDIFF,
});

export const fill = (graph: Graph, shape: readonly Dim[], value: number, dtype: DType): Tensor => graph.apply(ConstantOfShape, [], { shape, value, dtype });
export const zerosLike = (x: Tensor): Tensor => fill(x.graph, x.shape, 0, x.dtype);

type CumSumAttrs = { axis: number; exclusive: boolean; reverse: boolean };

export const CumSum: OpDef<CumSumAttrs> = defineOp<CumSumAttrs>({
  name: 'CumSum',
  arity: [1, 1],
  infer: ([x], { axis }) => {
    normAxis('CumSum', axis, x!.rank);
    return { dtype: x!.dtype, shape: x!.shape };
  },
  onnx: ({ axis, exclusive, reverse }, inputs, ctx) => ({
    opType: 'CumSum',
    inputs: [inputs[0]!, ctx.constInput('int64', [], [axis])],
    attributes: { exclusive: int(+exclusive), reverse: int(+reverse) },
  }),
  // The adjoint of a running sum is the running sum in the other direction.
  vjp: ({ dy, attrs: { axis, exclusive, reverse } }) => [cumsum(dy, axis, { exclusive, reverse: !reverse })],
});

export const cumsum = (x: Tensor, axis: number, opts: { exclusive?: boolean; reverse?: boolean } = {}) =>
  x.graph.apply(CumSum, [x], { axis, exclusive: opts.exclusive ?? false, reverse: opts.reverse ?? false });

type TriluAttrs = { upper: boolean; k: number };

/** Keeps the upper (or lower) triangle of the last two axes, from diagonal k on; zeros the rest. */
export const Trilu: OpDef<TriluAttrs> = defineOp<TriluAttrs>({
  name: 'Trilu',
  arity: [1, 1],
  infer: ([x]) => {
    if (x!.rank < 2) throw new GraphError('Trilu', `needs rank ≥ 2, got ${x!.rank}`);
    return { dtype: x!.dtype, shape: x!.shape };
  },
  onnx: ({ upper, k }, inputs, ctx) => ({ opType: 'Trilu', inputs: [inputs[0]!, ctx.constInput('int64', [], [k])], attributes: { upper: int(+upper) } }),
  vjp: ({ dy, attrs: { upper, k } }) => [trilu(dy, upper, k)],
});

export const trilu = (x: Tensor, upper: boolean, k = 0): Tensor => x.graph.apply(Trilu, [x], { upper, k });
export const triu = (x: Tensor, k = 0): Tensor => trilu(x, true, k);
export const tril = (x: Tensor, k = 0): Tensor => trilu(x, false, k);
