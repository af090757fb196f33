// Softmax and log-softmax along one axis (opset 13 semantics: any axis, no flattening).
import { type OpDef, defineOp, int } from '../op.js';
import { normAxis } from '../shape.js';
import { type Tensor, assertFloat } from '../tensor.js';
import { exp, mul, sub } from './elementwise.js';
import { reduceSum } from './reduce.js';

type AxisAttrs = { axis: number };

export const Softmax: OpDef<AxisAttrs> = defineOp<AxisAttrs>({
  name: 'Softmax',
  arity: [1, 1],
  infer: ([x], { axis }) => {
    assertFloat('Softmax', x!);
    normAxis('Softmax', axis, x!.rank);
    return { dtype: x!.dtype, shape: x!.shape };
  },
  onnx: ({ axis }) => ({ opType: 'Softmax', attributes: { axis: int(axis) } }),
  // dx = y ⊙ (dy − Σ dy⊙y)
  vjp: ({ out, dy, attrs: { axis } }) => [mul(out, sub(dy, reduceSum(mul(dy, out), [axis], true)))],
});

export const LogSoftmax: OpDef<AxisAttrs> = defineOp<AxisAttrs>({
  name: 'LogSoftmax',
  arity: [1, 1],
  infer: ([x], { axis }) => {
    assertFloat('LogSoftmax', x!);
    normAxis('LogSoftmax', axis, x!.rank);
    return { dtype: x!.dtype, shape: x!.shape };
  },
  onnx: ({ axis }) => ({ opType: 'LogSoftmax', attributes: { axis: int(axis) } }),
  // dx = dy − softmax ⊙ Σ dy, with softmax = exp(out)
  vjp: ({ out, dy, attrs: { axis } }) => [sub(dy, mul(exp(out), reduceSum(dy, [axis], true)))],
});

export const softmax = (x: Tensor, axis = -1): Tensor => x.graph.apply(Softmax, [x], { axis });
export const logSoftmax = (x: Tensor, axis = -1): Tensor => x.graph.apply(LogSoftmax, [x], { axis });
