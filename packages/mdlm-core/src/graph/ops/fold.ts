// Constant-folding helpers: evaluate elementwise ops on constant operands in JS (float64
// arithmetic, stored back into the op's dtype).
import { type DType, isHalf, type TypedData, typedFrom } from '../../dtype.js';
import type { ConstOperand } from '../op.js';
import { type Shape, numel } from '../shape.js';

function toNumbers(data: TypedData): number[] {
  return data instanceof BigInt64Array ? Array.from(data, Number) : Array.from(data as ArrayLike<number>);
}

/** Strides that broadcast `shape` to `outShape` (0 on broadcast axes). */
function broadcastStrides(shape: readonly number[], outShape: readonly number[]): number[] {
  const strides = new Array<number>(outShape.length).fill(0);
  let stride = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    const j = outShape.length - shape.length + i;
    strides[j] = shape[i] === 1 ? 0 : stride;
    stride *= shape[i]!;
  }
  return strides;
}

export function foldElementwise(inputs: readonly ConstOperand[], dtype: DType, shape: Shape, fn: (...xs: number[]) => number): TypedData | undefined {
  if (isHalf(dtype)) return undefined; // no JS half-precision arithmetic that matches the runtime
  const outShape = shape as number[];
  const n = numel(outShape);
  if (n > 1 << 16) return undefined; // big constants are cheaper to compute at run time than to store
  const values = inputs.map((x) => toNumbers(x.data));
  const strides = inputs.map((x) => broadcastStrides(x.shape, outShape));
  const out = new Array<number>(n);
  const idx = new Array<number>(outShape.length).fill(0);
  for (let k = 0; k < n; k++) {
    const args = values.map((v, i) => {
      let off = 0;
      for (let d = 0; d < idx.length; d++) off += idx[d]! * strides[i]![d]!;
      return v[off]!;
    });
    out[k] = fn(...args);
    for (let d = idx.length - 1; d >= 0; d--) {
      if (++idx[d]! < outShape[d]!) break;
      idx[d] = 0;
    }
  }
  return typedFrom(dtype, out);
}

/** Ops that only reinterpret the shape keep the data as it is. */
export function foldSameData(inputs: readonly ConstOperand[]): TypedData {
  return inputs[0]!.data;
}
