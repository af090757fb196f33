// Reductions over a set of axes (ONNX opset 18: axes are an int64 input).
import { type OpDef, defineOp, int } from '../op.js';
import { type Dim, GraphError, normAxis } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { cast } from './misc.js';
import { div, equal, mul } from './elementwise.js';
import { expand, reshape } from './shape-ops.js';

type ReduceAttrs = { axes: readonly number[]; keepdims: boolean };

function reducedShape(op: string, x: Tensor, attrs: ReduceAttrs): { kept: Dim[]; out: Dim[]; count: number } {
  const axes = new Set(attrs.axes.map((a) => normAxis(op, a, x.rank)));
  if (axes.size !== attrs.axes.length) throw new GraphError(op, `repeated axis in [${attrs.axes.join(', ')}]`);
  let count = 1;
  const kept = x.shape.map((d, i) => {
    if (!axes.has(i)) return d;
    if (typeof d !== 'number') throw new GraphError(op, `cannot reduce over dynamic dimension "${d}"`);
    count *= d;
    return 1;
  });
  return { kept, out: attrs.keepdims ? kept : x.shape.filter((_, i) => !axes.has(i)), count };
}

function reduceOp(name: string, vjp: OpDef<ReduceAttrs>['vjp']): OpDef<ReduceAttrs> {
  return defineOp<ReduceAttrs>({
    name,
    arity: [1, 1],
    infer: ([x], attrs) => ({ dtype: x!.dtype, shape: reducedShape(name, x!, attrs).out }),
    onnx: (attrs, inputs, ctx) => ({
      opType: name,
      inputs: [inputs[0]!, ctx.constInput('int64', [attrs.axes.length], attrs.axes)],
      attributes: { keepdims: int(attrs.keepdims ? 1 : 0) },
    }),
    vjp,
  });
}

/** The upstream gradient with the reduced axes kept as size-1 dims, broadcast back over x. */
function spread(x: Tensor, dy: Tensor, attrs: ReduceAttrs): Tensor {
  const { kept } = reducedShape('reduce', x, attrs);
  return expand(attrs.keepdims ? dy : reshape(dy, kept), x.shape);
}

export const ReduceSum = reduceOp('ReduceSum', ({ inputs: [x], dy, attrs }) => [spread(x!, dy, attrs)]);
// The mean's gradient is divided before it is broadcast back: the same values, one pass over the reduced size instead of x's.
export const ReduceMean = reduceOp('ReduceMean', ({ inputs: [x], dy, attrs }) => [spread(x!, div(dy, reducedShape('ReduceMean', x!, attrs).count), attrs)]);
// Ties share the gradient equally, which keeps the rule symmetric.
export const ReduceMax = reduceOp('ReduceMax', ({ inputs: [x], out, dy, attrs }) => {
  const mask = cast(equal(x!, spread(x!, out, attrs)), x!.dtype);
  const ties = reduceSum(mask, attrs.axes, true);
  return [div(mul(mask, spread(x!, dy, attrs)), expand(ties, x!.shape))];
});

const allAxes = (x: Tensor) => x.shape.map((_, i) => i);

export const reduceSum = (x: Tensor, axes: readonly number[] = allAxes(x), keepdims = false): Tensor => x.graph.apply(ReduceSum, [x], { axes, keepdims });
export const reduceMean = (x: Tensor, axes: readonly number[] = allAxes(x), keepdims = false): Tensor => x.graph.apply(ReduceMean, [x], { axes, keepdims });
export const reduceMax = (x: Tensor, axes: readonly number[] = allAxes(x), keepdims = false): Tensor => x.graph.apply(ReduceMax, [x], { axes, keepdims });
