// Elementwise primitives: binary arithmetic with broadcasting, unary math, comparisons.
// Broadcast gradients are returned at the output's shape; the autodiff engine sums them down.
import type { DType } from '../../dtype.js';
import { type OpDef, type VjpRule, NONDIFF, defineOp } from '../op.js';
import { GraphError, broadcastShapes } from '../shape.js';
import { type Tensor, type TensorLike, assertFloat, dtypeOf, graphOf } from '../tensor.js';
import { foldElementwise } from './fold.js';

type NoAttrs = Record<string, never>;

function binaryOp(name: string, onnxType: string, out: 'same' | 'bool', vjp: VjpRule<NoAttrs> | typeof NONDIFF, fn?: (a: number, b: number) => number): OpDef<NoAttrs> {
  return defineOp<NoAttrs>({
    name,
    arity: [2, 2],
    infer: ([a, b]) => {
      if (a!.dtype !== b!.dtype) throw new GraphError(name, `dtypes differ: ${a!.dtype} and ${b!.dtype}`);
      return { dtype: out === 'bool' ? 'bool' : a!.dtype, shape: broadcastShapes(name, a!.shape, b!.shape) };
    },
    onnx: () => ({ opType: onnxType }),
    vjp,
    ...(fn ? { fold: (inputs, _a, dtype, shape) => foldElementwise(inputs, dtype, shape, fn) } : {}),
  });
}

function unaryOp(name: string, onnxType: string, vjp: VjpRule<NoAttrs> | typeof NONDIFF, fn?: (x: number) => number, floatOnly = true): OpDef<NoAttrs> {
  return defineOp<NoAttrs>({
    name,
    arity: [1, 1],
    infer: ([x]) => {
      if (floatOnly) assertFloat(name, x!);
      return { dtype: x!.dtype, shape: x!.shape };
    },
    onnx: () => ({ opType: onnxType }),
    vjp,
    ...(fn ? { fold: (inputs, _a, dtype, shape) => foldElementwise(inputs, dtype, shape, fn) } : {}),
  });
}

export const Add = binaryOp(
  'Add',
  'Add',
  'same',
  ({ dy }) => [dy, dy],
  (a, b) => a + b,
);
export const Sub = binaryOp(
  'Sub',
  'Sub',
  'same',
  ({ dy, needed }) => [dy, needed[1] ? neg(dy) : null],
  (a, b) => a - b,
);
export const Mul = binaryOp(
  'Mul',
  'Mul',
  'same',
  ({ dy, inputs: [a, b], needed }) => [needed[0] ? mul(dy, b!) : null, needed[1] ? mul(dy, a!) : null],
  (a, b) => a * b,
);
// d(a/b)/db = -a/b² = -out/b: reuses the forward output.
export const Div = binaryOp(
  'Div',
  'Div',
  'same',
  ({ dy, inputs: [, b], out, needed }) => [needed[0] ? div(dy, b!) : null, needed[1] ? neg(div(mul(dy, out), b!)) : null],
  (a, b) => a / b,
);
export const Pow = binaryOp(
  'Pow',
  'Pow',
  'same',
  ({ dy, inputs: [a, b], out, needed }) => [needed[0] ? mul(dy, mul(b!, pow(a!, sub(b!, 1)))) : null, needed[1] ? mul(dy, mul(out, log(a!))) : null],
  (a, b) => a ** b,
);
// Ties send the gradient to the first operand (a ≥ b picks a for Max), as a subgradient.
export const Max = binaryOp(
  'Max',
  'Max',
  'same',
  ({ dy, inputs: [a, b], needed }) => {
    const takeA = greaterOrEqual(a!, b!);
    return [needed[0] ? where(takeA, dy, 0) : null, needed[1] ? where(takeA, 0, dy) : null];
  },
  Math.max,
);
export const Min = binaryOp(
  'Min',
  'Min',
  'same',
  ({ dy, inputs: [a, b], needed }) => {
    const takeA = lessOrEqual(a!, b!);
    return [needed[0] ? where(takeA, dy, 0) : null, needed[1] ? where(takeA, 0, dy) : null];
  },
  Math.min,
);

export const Equal = binaryOp('Equal', 'Equal', 'bool', NONDIFF, (a, b) => +(a === b));
export const Less = binaryOp('Less', 'Less', 'bool', NONDIFF, (a, b) => +(a < b));
export const Greater = binaryOp('Greater', 'Greater', 'bool', NONDIFF, (a, b) => +(a > b));
export const LessOrEqual = binaryOp('LessOrEqual', 'LessOrEqual', 'bool', NONDIFF, (a, b) => +(a <= b));
export const GreaterOrEqual = binaryOp('GreaterOrEqual', 'GreaterOrEqual', 'bool', NONDIFF, (a, b) => +(a >= b));
export const And = binaryOp('And', 'And', 'bool', NONDIFF, (a, b) => +(a && b));
export const Or = binaryOp('Or', 'Or', 'bool', NONDIFF, (a, b) => +(a || b));

export const Neg = unaryOp(
  'Neg',
  'Neg',
  ({ dy }) => [neg(dy)],
  (x) => -x,
  false,
);
export const Exp = unaryOp('Exp', 'Exp', ({ dy, out }) => [mul(dy, out)], Math.exp);
export const Log = unaryOp('Log', 'Log', ({ dy, inputs: [x] }) => [div(dy, x!)], Math.log);
export const Sqrt = unaryOp('Sqrt', 'Sqrt', ({ dy, out }) => [div(dy, mul(out, 2))], Math.sqrt);
export const Reciprocal = unaryOp(
  'Reciprocal',
  'Reciprocal',
  ({ dy, out }) => [neg(mul(dy, mul(out, out)))],
  (x) => 1 / x,
);
export const Tanh = unaryOp('Tanh', 'Tanh', ({ dy, out }) => [mul(dy, sub(1, mul(out, out)))], Math.tanh);
export const Sigmoid = unaryOp(
  'Sigmoid',
  'Sigmoid',
  ({ dy, out }) => [mul(dy, mul(out, sub(1, out)))],
  (x) => 1 / (1 + Math.exp(-x)),
);
export const Relu = unaryOp(
  'Relu',
  'Relu',
  ({ dy, inputs: [x] }) => [where(greater(x!, 0), dy, 0)],
  (x) => Math.max(0, x),
);
export const Abs = unaryOp('Abs', 'Abs', ({ dy, inputs: [x] }) => [where(less(x!, 0), neg(dy), dy)], Math.abs, false);
export const Not: OpDef<NoAttrs> = defineOp<NoAttrs>({
  name: 'Not',
  arity: [1, 1],
  infer: ([x]) => {
    if (x!.dtype !== 'bool') throw new GraphError('Not', `needs a bool input, got ${x!.dtype}`);
    return { dtype: 'bool', shape: x!.shape };
  },
  onnx: () => ({ opType: 'Not' }),
  vjp: NONDIFF,
  fold: (inputs, _a, dtype, shape) => foldElementwise(inputs, dtype, shape, (x) => +!x),
});

/** Identity in the forward pass, a wall for gradients. */
export const StopGradient: OpDef<NoAttrs> = defineOp<NoAttrs>({
  name: 'StopGradient',
  arity: [1, 1],
  infer: ([x]) => ({ dtype: x!.dtype, shape: x!.shape }),
  onnx: () => ({ opType: 'Identity' }),
  vjp: NONDIFF,
});

export const Identity: OpDef<NoAttrs> = defineOp<NoAttrs>({
  name: 'Identity',
  arity: [1, 1],
  infer: ([x]) => ({ dtype: x!.dtype, shape: x!.shape }),
  onnx: () => ({ opType: 'Identity' }),
  vjp: ({ dy }) => [dy],
});

function binary(op: OpDef<NoAttrs>, a: TensorLike, b: TensorLike): Tensor {
  const g = graphOf(op.name, [a, b]);
  const dtype: DType = dtypeOf([a, b]);
  return g.apply(op, [g.lift(a, dtype), g.lift(b, dtype)], {});
}

export const add = (a: TensorLike, b: TensorLike): Tensor => binary(Add, a, b);
export const sub = (a: TensorLike, b: TensorLike): Tensor => binary(Sub, a, b);
export const mul = (a: TensorLike, b: TensorLike): Tensor => binary(Mul, a, b);
export const div = (a: TensorLike, b: TensorLike): Tensor => binary(Div, a, b);
export const pow = (a: TensorLike, b: TensorLike): Tensor => binary(Pow, a, b);
export const maximum = (a: TensorLike, b: TensorLike): Tensor => binary(Max, a, b);
export const minimum = (a: TensorLike, b: TensorLike): Tensor => binary(Min, a, b);
export const equal = (a: TensorLike, b: TensorLike): Tensor => binary(Equal, a, b);
export const less = (a: TensorLike, b: TensorLike): Tensor => binary(Less, a, b);
export const greater = (a: TensorLike, b: TensorLike): Tensor => binary(Greater, a, b);
export const lessOrEqual = (a: TensorLike, b: TensorLike): Tensor => binary(LessOrEqual, a, b);
export const greaterOrEqual = (a: TensorLike, b: TensorLike): Tensor => binary(GreaterOrEqual, a, b);
export const and = (a: Tensor, b: Tensor): Tensor => binary(And, a, b);
export const or = (a: Tensor, b: Tensor): Tensor => binary(Or, a, b);

export const neg = (x: Tensor): Tensor => x.graph.apply(Neg, [x], {});
export const exp = (x: Tensor): Tensor => x.graph.apply(Exp, [x], {});
export const log = (x: Tensor): Tensor => x.graph.apply(Log, [x], {});
export const sqrt = (x: Tensor): Tensor => x.graph.apply(Sqrt, [x], {});
export const reciprocal = (x: Tensor): Tensor => x.graph.apply(Reciprocal, [x], {});
export const tanh = (x: Tensor): Tensor => x.graph.apply(Tanh, [x], {});
export const sigmoid = (x: Tensor): Tensor => x.graph.apply(Sigmoid, [x], {});
export const relu = (x: Tensor): Tensor => x.graph.apply(Relu, [x], {});
export const abs = (x: Tensor): Tensor => x.graph.apply(Abs, [x], {});
export const not = (x: Tensor): Tensor => x.graph.apply(Not, [x], {});
export const stopGradient = (x: Tensor): Tensor => x.graph.apply(StopGradient, [x], {});
export const identity = (x: Tensor): Tensor => x.graph.apply(Identity, [x], {});

/** Where(cond, a, b): a where cond is true, else b. The condition gets no gradient. */
export const Where: OpDef<NoAttrs> = defineOp<NoAttrs>({
  name: 'Where',
  arity: [3, 3],
  infer: ([c, a, b]) => {
    if (c!.dtype !== 'bool') throw new GraphError('Where', `condition must be bool, got ${c!.dtype}`);
    if (a!.dtype !== b!.dtype) throw new GraphError('Where', `branch dtypes differ: ${a!.dtype} and ${b!.dtype}`);
    return { dtype: a!.dtype, shape: broadcastShapes('Where', c!.shape, broadcastShapes('Where', a!.shape, b!.shape)) };
  },
  onnx: () => ({ opType: 'Where' }),
  vjp: ({ dy, inputs: [c], needed }) => [null, needed[1] ? where(c!, dy, 0) : null, needed[2] ? where(c!, 0, dy) : null],
  fold: (inputs, _a, dtype, shape) => foldElementwise(inputs, dtype, shape, (c, a, b) => (c ? a : b)),
});

export function where(cond: Tensor, a: TensorLike, b: TensorLike): Tensor {
  const g = graphOf('Where', [cond, a, b]);
  const dtype = typeof a !== 'number' ? a.dtype : typeof b !== 'number' ? b.dtype : 'float32';
  return g.apply(Where, [cond, g.lift(a, dtype), g.lift(b, dtype)], {});
}
