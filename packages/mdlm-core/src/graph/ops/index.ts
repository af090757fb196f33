// The op table: every primitive the engine knows. Composites (nn/) are built from these and need
// no gradient rule of their own.
import type { OpDef } from '../op.js';
import * as E from './elementwise.js';
import { CumSum, Cast, ConstantOfShape, Trilu } from './misc.js';
import { Gather, GatherElements, GatherND, ScatterElements, ScatterND } from './indexing.js';
import { MatMul } from './matmul.js';
import { ReduceMax, ReduceMean, ReduceSum } from './reduce.js';
import { Concat, Expand, Pad, Reshape, Slice, Squeeze, Transpose, Unsqueeze } from './shape-ops.js';
import { RotaryEmbedding } from './rotary.js';
import { LogSoftmax, Softmax } from './softmax.js';

export const OPS = {
  Add: E.Add,
  Sub: E.Sub,
  Mul: E.Mul,
  Div: E.Div,
  Pow: E.Pow,
  Max: E.Max,
  Min: E.Min,
  Equal: E.Equal,
  Less: E.Less,
  Greater: E.Greater,
  LessOrEqual: E.LessOrEqual,
  GreaterOrEqual: E.GreaterOrEqual,
  And: E.And,
  Or: E.Or,
  Not: E.Not,
  Neg: E.Neg,
  Exp: E.Exp,
  Log: E.Log,
  Sqrt: E.Sqrt,
  Reciprocal: E.Reciprocal,
  Tanh: E.Tanh,
  Sigmoid: E.Sigmoid,
  Relu: E.Relu,
  Abs: E.Abs,
  Identity: E.Identity,
  StopGradient: E.StopGradient,
  Where: E.Where,
  MatMul,
  ReduceSum,
  ReduceMean,
  ReduceMax,
  Softmax,
  LogSoftmax,
  RotaryEmbedding,
  Reshape,
  Transpose,
  Concat,
  Slice,
  Pad,
  Expand,
  Squeeze,
  Unsqueeze,
  Gather,
  GatherElements,
  GatherND,
  ScatterElements,
  ScatterND,
  Cast,
  ConstantOfShape,
  CumSum,
  Trilu,
} as const satisfies Record<string, OpDef<any>>;

export type OpName = keyof typeof OPS;
