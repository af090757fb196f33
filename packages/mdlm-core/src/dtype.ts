// Element types of symbolic tensors, their ONNX codes and their JS typed arrays.

export type DType = 'float32' | 'float64' | 'float16' | 'bfloat16' | 'int64' | 'int32' | 'bool';

/** TensorProto.DataType codes from onnx.proto. */
export const ONNX_DTYPE: Readonly<Record<DType, number>> = {
  float32: 1,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
  bfloat16: 16,
  float64: 11,
};

export const BYTES_PER_ELEMENT: Readonly<Record<DType, number>> = {
  float32: 4,
  float64: 8,
  float16: 2,
  bfloat16: 2,
  int64: 8,
  int32: 4,
  bool: 1,
};

export function isFloat(dtype: DType): boolean {
  return dtype === 'float32' || dtype === 'float64' || isHalf(dtype);
}

/** The 16-bit float types (carried as raw Uint16 bits; no JS arithmetic matches them). */
export function isHalf(dtype: DType): dtype is 'float16' | 'bfloat16' {
  return dtype === 'float16' || dtype === 'bfloat16';
}

/** Typed-array data for a dtype; float16 and bfloat16 are carried as raw Uint16 bits. */
export type TypedData = Float32Array | Float64Array | Uint16Array | BigInt64Array | Int32Array | Uint8Array;

/** Raw little-endian bytes of typed data (what TensorProto.raw_data holds). */
export function toBytes(data: TypedData): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Builds typed data of a dtype from plain numbers (int64 via BigInt, bool as 0/1). */
export function typedFrom(dtype: DType, values: ArrayLike<number>): TypedData {
  switch (dtype) {
    case 'float32':
      return Float32Array.from(values);
    case 'float64':
      return Float64Array.from(values);
    case 'int32':
      return Int32Array.from(values);
    case 'int64':
      return BigInt64Array.from(Array.from(values, (v) => BigInt(Math.trunc(v))));
    case 'bool':
      return Uint8Array.from(values, (v) => (v ? 1 : 0));
    case 'float16':
      return Uint16Array.from(values, float32ToFloat16Bits);
    case 'bfloat16':
      return Uint16Array.from(values, float32ToBfloat16Bits);
  }
}

const SCALAR_F32 = new Float32Array(1);
const SCALAR_U32 = new Uint32Array(SCALAR_F32.buffer);

/** Round-to-nearest-even conversion of a number to IEEE half-precision bits. */
export function float32ToFloat16Bits(value: number): number {
  SCALAR_F32[0] = value; // one shared scratch, not two arrays per call: checkpoints convert millions
  return float32BitsToFloat16Bits(SCALAR_U32[0]!);
}

/** The same conversion from float32 bits (a Uint32Array view of a Float32Array converts with no copies). */
export function float32BitsToFloat16Bits(x: number): number {
  const sign = (x >>> 16) & 0x8000;
  let exp = ((x >>> 23) & 0xff) - 127 + 15;
  let mant = x & 0x7fffff;
  if (((x >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // inf / nan
  if (exp >= 0x1f) return sign | 0x7c00; // overflow → inf
  if (exp <= 0) {
    if (exp < -10) return sign; // underflow → ±0
    mant |= 0x800000;
    const shift = 14 - exp;
    const half = 1 << (shift - 1);
    let m = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    if (rest > half || (rest === half && m & 1)) m++;
    return sign | m;
  }
  let m = mant >>> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && m & 1)) {
    m++;
    if (m === 0x400) {
      m = 0;
      exp++;
      if (exp >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (exp << 10) | m;
}

/** IEEE half-precision bits → number (exact: every float16 is a float64). */
export function float16BitsToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24; // subnormal
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** float32 → bfloat16 bits, round to nearest even; NaN stays NaN (sign kept, quiet bit set). */
export function float32ToBfloat16Bits(value: number): number {
  SCALAR_F32[0] = value;
  return float32BitsToBfloat16Bits(SCALAR_U32[0]!);
}

/** float32 bits → bfloat16 bits (round to nearest even). */
export function float32BitsToBfloat16Bits(x: number): number {
  // A NaN whose payload sits only in the low 16 bits would truncate to Inf: force the quiet bit.
  if ((x & 0x7fffffff) >>> 0 > 0x7f800000) return ((x >>> 16) | 0x0040) & 0xffff;
  // Adding 0x7fff plus the kept LSB rounds half-way cases to the even neighbour; finite values
  // past the largest bfloat16 carry into the exponent and become ±Inf, as IEEE rounding does.
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
}
