// Symbolic tensors and the graph that records how they are computed. Every tensor is an input, a
// constant or the single output of an op applied to other tensors of the same graph.
import { type DType, type TypedData, isFloat, typedFrom } from '../dtype.js';
import type { OpDef, Attrs } from './op.js';
import { type Shape, GraphError, formatShape, isStatic, numel } from './shape.js';

export type TensorSource = { kind: 'input'; name: string } | { kind: 'constant'; data: TypedData } | { kind: 'op'; op: OpDef<any>; inputs: readonly Tensor[]; attrs: Attrs };

export class Tensor {
  constructor(
    readonly graph: Graph,
    readonly id: number,
    readonly dtype: DType,
    readonly shape: Shape,
    readonly source: TensorSource,
  ) {}

  get rank(): number {
    return this.shape.length;
  }

  /** Static size of one dimension (negative axes count from the end). */
  dim(axis: number): number {
    const d = this.shape[axis < 0 ? this.shape.length + axis : axis];
    if (typeof d !== 'number') throw new GraphError('dim', `dimension ${axis} of ${formatShape(this.shape)} is not static`);
    return d;
  }

  toString(): string {
    const what = this.source.kind === 'op' ? this.source.op.name : this.source.kind === 'input' ? `input "${this.source.name}"` : 'constant';
    return `Tensor#${this.id}(${what}, ${this.dtype}${formatShape(this.shape)})`;
  }
}

/** Anything an op accepts where a tensor is expected: plain numbers become constants. */
export type TensorLike = Tensor | number;

/**
 * Mixed precision, as PyTorch's autocast: float32 MatMuls built on this graph take their operands
 * cast to `dtype` (and their result back to float32), so the GEMMs — forward and backward — run in
 * half precision while parameters, norms, loss and optimizer stay float32. Composites may keep
 * what lies between two GEMMs in half precision (the decoder's SwiGLU activation and attention
 * block, whose softmax kernel computes in float32 inside). `emulate`
 * keeps float32 MatMuls between bfloat16/float16 roundings instead: the same rounding points for
 * providers without half-precision GEMMs (the CPU), so the numerics can be tested anywhere.
 */
export interface Autocast {
  dtype: 'bfloat16' | 'float16';
  emulate?: boolean;
}

/** ONNX opset graphs are emitted at unless they ask for another: 18 loads in every ORT since 1.14 and on each of its providers. */
export const DEFAULT_OPSET = 18;

export class Graph {
  private nextId = 0;
  /** Mixed precision of the MatMuls built from here on (undefined: as their operands are). */
  autocast: Autocast | undefined;
  /**
   * The ONNX opset this graph will be emitted at. Composites use an op of a newer opset only where
   * the graph allows it (RoPE as one RotaryEmbedding node from 23), so a graph for a provider that
   * lacks those kernels keeps to 18.
   */
  opset = DEFAULT_OPSET;
  readonly inputs: Tensor[] = [];
  readonly outputs = new Map<string, Tensor>();
  private readonly inputNames = new Set<string>();

  /** A named graph input (parameters, batches, optimizer state, hyper-parameters). */
  input(name: string, dtype: DType, shape: Shape): Tensor {
    if (this.inputNames.has(name)) throw new GraphError('input', `duplicate input name "${name}"`);
    this.inputNames.add(name);
    const t = new Tensor(this, this.nextId++, dtype, shape, { kind: 'input', name });
    this.inputs.push(t);
    return t;
  }

  /** A constant; stored as an ONNX initializer (deduplicated by content at emission). */
  constant(values: ArrayLike<number> | TypedData, dtype: DType, shape: readonly number[] = [values.length]): Tensor {
    if (numel(shape) !== values.length) throw new GraphError('constant', `${values.length} values do not fill shape ${formatShape(shape)}`);
    const data = ArrayBuffer.isView(values) && dtypeMatches(values, dtype) ? (values as TypedData) : typedFrom(dtype, values as ArrayLike<number>);
    return new Tensor(this, this.nextId++, dtype, shape, { kind: 'constant', data });
  }

  scalar(value: number, dtype: DType): Tensor {
    return this.constant([value], dtype, []);
  }

  /** Names a tensor as a graph output. */
  output(name: string, t: Tensor): Tensor {
    if (t.graph !== this) throw new GraphError('output', `tensor ${t} belongs to another graph`);
    if (this.outputs.has(name)) throw new GraphError('output', `duplicate output name "${name}"`);
    this.outputs.set(name, t);
    return t;
  }

  /** Records an op application; folds it to a constant when every input is constant and the op can. */
  apply<A extends Attrs>(op: OpDef<A>, inputs: readonly Tensor[], attrs: A): Tensor {
    if (inputs.length < op.arity[0] || inputs.length > op.arity[1]) throw new GraphError(op.name, `takes ${op.arity.join('–')} inputs, got ${inputs.length}`);
    for (const t of inputs) if (t.graph !== this) throw new GraphError(op.name, `input ${t} belongs to another graph`);
    const { dtype, shape } = op.infer(inputs, attrs);
    if (op.fold && inputs.every((t) => t.source.kind === 'constant') && isStatic(shape)) {
      const data = op.fold(
        inputs.map((t) => ({ data: (t.source as { data: TypedData }).data, shape: t.shape as number[] })),
        attrs,
        dtype,
        shape,
      );
      if (data) return this.constant(data, dtype, shape);
    }
    return new Tensor(this, this.nextId++, dtype, shape, { kind: 'op', op, inputs, attrs });
  }

  /** Turns a TensorLike into a tensor of this graph, numbers taking the dtype of a partner tensor. */
  lift(x: TensorLike, like: DType): Tensor {
    return typeof x === 'number' ? this.scalar(x, like) : x;
  }
}

function dtypeMatches(values: ArrayBufferView, dtype: DType): boolean {
  switch (dtype) {
    case 'float32':
      return values instanceof Float32Array;
    case 'float64':
      return values instanceof Float64Array;
    case 'int64':
      return values instanceof BigInt64Array;
    case 'int32':
      return values instanceof Int32Array;
    case 'bool':
      return values instanceof Uint8Array;
    case 'float16':
    case 'bfloat16':
      return values instanceof Uint16Array;
  }
}

/** The graph shared by a set of operands (numbers have none); errors if they disagree. */
export function graphOf(op: string, xs: readonly TensorLike[]): Graph {
  let g: Graph | undefined;
  for (const x of xs) {
    if (typeof x === 'number') continue;
    if (g && x.graph !== g) throw new GraphError(op, 'operands belong to different graphs');
    g = x.graph;
  }
  if (!g) throw new GraphError(op, 'needs at least one tensor operand');
  return g;
}

/** The dtype numbers take when mixed with tensors: the first tensor's. */
export function dtypeOf(xs: readonly TensorLike[]): DType {
  for (const x of xs) if (typeof x !== 'number') return x.dtype;
  return 'float32';
}

export function assertFloat(op: string, t: Tensor): void {
  if (!isFloat(t.dtype)) throw new GraphError(op, `needs a floating-point input, got ${t.dtype}`);
}
