import { describe, expect, it } from 'vitest';
import { bfloat16BitsToNumber, decodeBfloat16, decodeFloat16, encodeBfloat16, encodeFloat16, float32ToBfloat16Bits } from './float-bits.js';

/** float32 values given by their bit patterns, so the cases are exact. */
function f32(...bits: number[]): Float32Array {
  return new Float32Array(new Uint32Array(bits).buffer);
}

describe('bfloat16', () => {
  // [float32 bits, expected bfloat16 bits, why]
  const cases: [number, number, string][] = [
    [0x3f800000, 0x3f80, '1.0 exact'],
    [0xc0000000, 0xc000, '-2.0 exact'],
    [0x80000000, 0x8000, '-0 keeps its sign'],
    [0x3f807fff, 0x3f80, 'just below half: down'],
    [0x3f808001, 0x3f81, 'just above half: up'],
    [0x3f808000, 0x3f80, 'tie, kept LSB even: stays'],
    [0x3f818000, 0x3f82, 'tie, kept LSB odd: up to even'],
    [0x3fffffff, 0x4000, 'carry into the exponent'],
    [0x7f7fffff, 0x7f80, 'largest float32 rounds to +Inf'],
    [0x7f800000, 0x7f80, '+Inf'],
    [0xff800000, 0xff80, '-Inf'],
    [0x7fc00000, 0x7fc0, 'quiet NaN'],
    [0x7f800001, 0x7fc0, 'NaN with payload only in the low half stays NaN (not Inf)'],
    [0xffa00000, 0xffe0, 'negative signalling NaN: sign and payload kept, quiet bit set'],
    [0x00000001, 0x0000, 'smallest float32 subnormal underflows to 0'],
    [0x00008000, 0x0000, 'subnormal tie to even (0)'],
    [0x00018000, 0x0002, 'subnormal tie to even (2)'],
    [0x007fffff, 0x0080, 'largest subnormal rounds up to the smallest normal'],
    [0x80010000, 0x8001, 'negative bfloat16 subnormal exact'],
  ];
  it.each(cases)('float32 %#: 0x%s → bits', (input, expected, why) => {
    const value = f32(input)[0]!;
    expect(float32ToBfloat16Bits(value).toString(16), why).toBe(expected.toString(16));
    expect(encodeBfloat16(f32(input))[0]!.toString(16), why).toBe(expected.toString(16));
  });

  it('decodes exactly (bits << 16)', () => {
    const bits = Uint16Array.of(0x3f80, 0xc000, 0x0001, 0x8000, 0x7f80, 0xff80, 0x7fc1, 0x7f7f);
    const out = decodeBfloat16(bits);
    expect(Array.from(out.subarray(0, 6))).toEqual([1, -2, 2 ** -133, -0, Infinity, -Infinity]);
    expect(Number.isNaN(out[6])).toBe(true);
    expect(out[7]).toBe((1 + 127 / 128) * 2 ** 127);
    expect(bfloat16BitsToNumber(0x4049)).toBe(3.140625);
    expect(Object.is(out[3], -0)).toBe(true);
  });

  it('round trips every finite bfloat16 exactly', () => {
    const all = new Uint16Array(0x10000).map((_, i) => i);
    const back = encodeBfloat16(decodeBfloat16(all));
    for (let b = 0; b < 0x10000; b++) {
      const isNan = (b & 0x7f80) === 0x7f80 && (b & 0x7f) !== 0;
      if (isNan) expect((back[b]! & 0x7f80) === 0x7f80 && (back[b]! & 0x7f) !== 0).toBe(true);
      else if (back[b] !== b) throw new Error(`bfloat16 0x${b.toString(16)} came back as 0x${back[b]!.toString(16)}`);
    }
  });
});

describe('float16 arrays', () => {
  // [value, expected half bits, why] — values are exact in float32.
  const cases: [number, number, string][] = [
    [1, 0x3c00, '1.0'],
    [-0, 0x8000, '-0'],
    [65504, 0x7bff, 'largest half'],
    [65519, 0x7bff, 'below the overflow midpoint'],
    [65520, 0x7c00, 'the overflow midpoint ties to even: +Inf'],
    [-Infinity, 0xfc00, '-Inf'],
    [2 ** -24, 0x0001, 'smallest subnormal'],
    [2 ** -25, 0x0000, 'half the smallest subnormal ties to even: 0'],
    [3 * 2 ** -25, 0x0002, '1.5 × smallest subnormal ties to even: 2'],
    [Math.fround(2 ** -25 * (1 + 2 ** -20)), 0x0001, 'just above the midpoint: up'],
    [1 + 2 ** -11, 0x3c00, 'normal tie, even: stays'],
    [1 + 3 * 2 ** -11, 0x3c02, 'normal tie, odd: up'],
    [2 ** -14, 0x0400, 'smallest normal'],
  ];
  it.each(cases)('%s → bits (%#)', (value, expected, why) => {
    expect(encodeFloat16(Float32Array.of(value))[0]!.toString(16), why).toBe(expected.toString(16));
  });

  it('encodes NaN as a NaN', () => {
    const bits = encodeFloat16(Float32Array.of(NaN))[0]!;
    expect(bits & 0x7c00).toBe(0x7c00);
    expect(bits & 0x3ff).not.toBe(0);
  });

  it('decodes exactly, subnormals included', () => {
    const out = decodeFloat16(Uint16Array.of(0x0001, 0x03ff, 0x7bff, 0xfc00, 0x8000, 0x3555, 0x7e00));
    expect(Array.from(out.subarray(0, 6))).toEqual([2 ** -24, 1023 * 2 ** -24, 65504, -Infinity, -0, 0.333251953125]);
    expect(Number.isNaN(out[6])).toBe(true);
  });

  it('round trips every non-NaN half exactly', () => {
    const all = new Uint16Array(0x10000).map((_, i) => i);
    const back = encodeFloat16(decodeFloat16(all));
    for (let b = 0; b < 0x10000; b++) {
      if ((b & 0x7c00) === 0x7c00 && (b & 0x3ff) !== 0) continue;
      if (back[b] !== b) throw new Error(`half 0x${b.toString(16)} came back as 0x${back[b]!.toString(16)}`);
    }
  });
});
