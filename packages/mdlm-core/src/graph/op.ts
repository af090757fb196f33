// The contract every primitive op fulfils: shape/dtype inference, ONNX emission, and its
// vector-Jacobian product written in terms of other ops (so gradients are graphs too).
import type { DType, TypedData } from '../dtype.js';
import type { OnnxAttribute } from '../onnx/model.js';
import type { Shape } from './shape.js';
import type { Tensor } from './tensor.js';

export type AttrValue = number | string | boolean | readonly number[] | readonly (number | string)[] | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;

export interface VjpArgs<A extends Attrs> {
  inputs: readonly Tensor[];
  out: Tensor;
  attrs: A;
  /** Gradient of the objective with respect to `out`. */
  dy: Tensor;
  /** Which inputs need a gradient; rules may skip work for the others. */
  needed: readonly boolean[];
}

/** Gradients per input, `null` where none flows. Shapes may be broadcast: the engine reduces them. */
export type VjpRule<A extends Attrs> = (args: VjpArgs<A>) => readonly (Tensor | null)[];

/** Marks ops through which no gradient flows (comparisons, integer ops, shapes). */
export const NONDIFF = 'nondiff' as const;

export interface EmitContext {
  /** An int64 (or other) constant input such as axes or a target shape; returns its name. */
  constInput(dtype: DType, shape: readonly number[], values: readonly number[]): string;
}

export interface OnnxEmission {
  opType: string;
  /** Defaults to the op's tensor inputs in order. */
  inputs?: readonly string[];
  attributes?: Readonly<Record<string, OnnxAttribute>>;
}

export interface ConstOperand {
  data: TypedData;
  shape: readonly number[];
}

export interface OpDef<A extends Attrs = Attrs> {
  readonly name: string;
  /** [min, max] number of tensor inputs. */
  readonly arity: readonly [number, number];
  infer(inputs: readonly Tensor[], attrs: A): { dtype: DType; shape: Shape };
  onnx(attrs: A, inputs: readonly string[], ctx: EmitContext, node: { inputs: readonly Tensor[]; out: Tensor }): OnnxEmission;
  vjp: VjpRule<A> | typeof NONDIFF;
  /** The first ONNX opset with this op (default 17): emission at an older one is an error. */
  readonly minOpset?: number;
  /** Optional evaluation on constants, for constant folding at build time. */
  fold?(inputs: readonly ConstOperand[], attrs: A, dtype: DType, shape: Shape): TypedData | undefined;
}

export function defineOp<A extends Attrs>(def: OpDef<A>): OpDef<A> {
  return def;
}

export const int = (value: number): OnnxAttribute => ({ type: 'int', value });
export const ints = (value: readonly number[]): OnnxAttribute => ({ type: 'ints', value });
export const float = (value: number): OnnxAttribute => ({ type: 'float', value });
export const str = (value: string): OnnxAttribute => ({ type: 'string', value });
