// Whole-array conversions between float32 and the two 16-bit float formats checkpoints store.
// Scalar half-precision rounding lives in graph/dtype.ts; this file adds bfloat16 and the
// array forms, written over Uint32 views so a multi-million-element tensor converts in one pass.
import { float16BitsToNumber, float32BitsToBfloat16Bits as bitsToBfloat16, float32BitsToFloat16Bits, float32ToBfloat16Bits } from '../dtype.js';

export { float32ToBfloat16Bits };

/** bfloat16 bits → number (exact: a bfloat16 is the top half of a float32). */
export function bfloat16BitsToNumber(bits: number): number {
  SCALAR_U32[0] = (bits & 0xffff) << 16;
  return SCALAR_F32[0]!;
}

const SCALAR_F32 = new Float32Array(1);
const SCALAR_U32 = new Uint32Array(SCALAR_F32.buffer);

/** Encodes float32 values as bfloat16 bits (round to nearest even). */
export function encodeBfloat16(src: Float32Array, out = new Uint16Array(src.length)): Uint16Array {
  const bits = new Uint32Array(src.buffer, src.byteOffset, src.length);
  for (let i = 0; i < bits.length; i++) out[i] = bitsToBfloat16(bits[i]!);
  return out;
}

/** Decodes bfloat16 bits to float32 (bits << 16, exact). */
export function decodeBfloat16(src: Uint16Array, out = new Float32Array(src.length)): Float32Array {
  const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
  for (let i = 0; i < src.length; i++) bits[i] = src[i]! << 16;
  return out;
}

/** Encodes float32 values as IEEE half bits (round to nearest even, overflow → ±Inf). */
export function encodeFloat16(src: Float32Array, out = new Uint16Array(src.length)): Uint16Array {
  const bits = new Uint32Array(src.buffer, src.byteOffset, src.length);
  for (let i = 0; i < bits.length; i++) out[i] = float32BitsToFloat16Bits(bits[i]!);
  return out;
}

let halfTable: Float32Array | undefined;

/** Decodes IEEE half bits to float32 (exact: every half is a float32) through a 65,536-entry table. */
export function decodeFloat16(src: Uint16Array, out = new Float32Array(src.length)): Float32Array {
  if (halfTable === undefined) {
    halfTable = new Float32Array(0x10000);
    for (let b = 0; b < 0x10000; b++) halfTable[b] = float16BitsToNumber(b);
  }
  const table = halfTable;
  for (let i = 0; i < src.length; i++) out[i] = table[src[i]!]!;
  return out;
}
