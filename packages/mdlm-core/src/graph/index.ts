// The graph layer's public API: build symbolic tensors, apply ops, differentiate, emit ONNX.
export { Graph, Tensor, type Autocast, type TensorLike } from './tensor.js';
export { type DType, type TypedData, isFloat, typedFrom, float32ToFloat16Bits, float16BitsToNumber, BYTES_PER_ELEMENT } from '../dtype.js';
export { type Dim, type Shape, GraphError, numel, isStatic, formatShape, sumDims } from './shape.js';
export { type OpDef, type VjpRule, NONDIFF, defineOp } from './op.js';
export { OPS, type OpName } from './ops/index.js';
export {
  add,
  sub,
  mul,
  div,
  pow,
  maximum,
  minimum,
  equal,
  less,
  greater,
  lessOrEqual,
  greaterOrEqual,
  and,
  or,
  not,
  neg,
  exp,
  log,
  sqrt,
  reciprocal,
  tanh,
  sigmoid,
  relu,
  abs,
  identity,
  stopGradient,
  where,
} from './ops/elementwise.js';
export { matmul, matmulHalf, toHalf, fromHalf, transposeLast } from './ops/matmul.js';
export { withVjp, type CustomVjp } from './custom-vjp.js';
export { reduceSum, reduceMean, reduceMax } from './ops/reduce.js';
export { softmax, logSoftmax } from './ops/softmax.js';
export { rotaryEmbedding } from './ops/rotary.js';
export { reshape, transpose, concat, slice, pad, expand, squeeze, unsqueeze } from './ops/shape-ops.js';
export { gather, gatherElements, gatherND, scatterElements, scatterND } from './ops/indexing.js';
export { cast, fill, zerosLike, cumsum, trilu, triu, tril } from './ops/misc.js';
export { grad, topoOrder, unbroadcast, type GradOptions } from './autodiff.js';
export { emitOnnx, DEFAULT_OPSET, type EmitOptions, type EmittedModel } from './emit.js';
