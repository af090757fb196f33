// Type tests of the op table (checked by tsc in the typecheck target; vitest runs the runtime half):
// the table's keys are the engine's op names, every entry is an OpDef whose attribute type is the
// one its builders and ONNX emission rely on, and gradient rules are rules or NONDIFF.
import { describe, expectTypeOf, it } from 'vitest';
import type { DType } from '../../dtype.js';
import type { NONDIFF, OpDef, VjpRule } from '../op.js';
import type { Dim } from '../shape.js';
import { OPS, type OpName } from './index.js';

type AttrsOf<K extends OpName> = (typeof OPS)[K] extends OpDef<infer A> ? A : never;
type NoAttrs = Record<string, never>;

const ELEMENTWISE = [
  'Add',
  'Sub',
  'Mul',
  'Div',
  'Pow',
  'Max',
  'Min',
  'Equal',
  'Less',
  'Greater',
  'LessOrEqual',
  'GreaterOrEqual',
  'And',
  'Or',
  'Not',
  'Neg',
  'Exp',
  'Log',
  'Sqrt',
  'Reciprocal',
  'Tanh',
  'Sigmoid',
  'Relu',
  'Abs',
  'Identity',
  'StopGradient',
  'Where',
] as const;
const STRUCTURAL = [
  'MatMul',
  'ReduceSum',
  'ReduceMean',
  'ReduceMax',
  'Softmax',
  'LogSoftmax',
  'RotaryEmbedding',
  'Reshape',
  'Transpose',
  'Concat',
  'Slice',
  'Pad',
  'Expand',
  'Squeeze',
  'Unsqueeze',
  'Gather',
  'GatherElements',
  'GatherND',
  'ScatterElements',
  'ScatterND',
  'Cast',
  'ConstantOfShape',
  'CumSum',
  'Trilu',
] as const;

describe('the op table (types)', () => {
  it('has exactly the engine op names as keys', () => {
    expectTypeOf<OpName>().toEqualTypeOf<(typeof ELEMENTWISE)[number] | (typeof STRUCTURAL)[number]>();
    // A name outside the table is not an OpName.
    // @ts-expect-error Conv is not an engine op
    expectTypeOf<'Conv'>().toExtend<OpName>();
    expectTypeOf(Object.keys(OPS)).toEqualTypeOf<string[]>();
  });

  it('holds an OpDef under every name, with a name, an arity and a gradient rule or NONDIFF', () => {
    expectTypeOf<(typeof OPS)[OpName]>().toExtend<OpDef<never>>();
    expectTypeOf<(typeof OPS)[OpName]['name']>().toEqualTypeOf<string>();
    expectTypeOf<(typeof OPS)[OpName]['arity']>().toEqualTypeOf<readonly [number, number]>();
    expectTypeOf<(typeof OPS)['Add']['vjp']>().toEqualTypeOf<VjpRule<NoAttrs> | typeof NONDIFF>();
  });

  it('types each op by the attributes its emission reads', () => {
    expectTypeOf<AttrsOf<'Add'>>().toEqualTypeOf<NoAttrs>();
    expectTypeOf<AttrsOf<'MatMul'>>().toEqualTypeOf<NoAttrs>();
    expectTypeOf<AttrsOf<'Transpose'>>().toEqualTypeOf<{ perm: readonly number[] }>();
    expectTypeOf<AttrsOf<'Reshape'>>().toEqualTypeOf<{ shape: readonly Dim[] }>();
    expectTypeOf<AttrsOf<'Concat'>>().toEqualTypeOf<{ axis: number }>();
    expectTypeOf<AttrsOf<'Gather'>>().toEqualTypeOf<{ axis: number }>();
    expectTypeOf<AttrsOf<'Cast'>>().toEqualTypeOf<{ to: DType }>();
    expectTypeOf<AttrsOf<'ReduceSum'>>().toEqualTypeOf<{ axes: readonly number[]; keepdims: boolean }>();
    expectTypeOf<AttrsOf<'CumSum'>>().toEqualTypeOf<{ axis: number; exclusive: boolean; reverse: boolean }>();
    expectTypeOf<AttrsOf<'Trilu'>>().toEqualTypeOf<{ upper: boolean; k: number }>();
    expectTypeOf<AttrsOf<'ConstantOfShape'>>().toEqualTypeOf<{ shape: readonly Dim[]; value: number; dtype: DType }>();
    // infer and onnx take those attributes, so a wrong attribute does not compile.
    expectTypeOf(OPS.Transpose.infer).parameter(1).toEqualTypeOf<{ perm: readonly number[] }>();
    // @ts-expect-error Transpose has no axis attribute
    expectTypeOf(OPS.Transpose.infer).parameter(1).toEqualTypeOf<{ axis: number }>();
    expectTypeOf(OPS.Cast.onnx).parameter(0).toEqualTypeOf<{ to: DType }>();
  });
});
