import { describe, expect, it } from 'vitest';
import { javaFormatFixed0 } from './java-format.js';

describe('javaFormatFixed0 (Java String.format("%.0f"))', () => {
  it('rounds half away from zero on the exact value', () => {
    expect(javaFormatFixed0(154.5)).toBe('155');
    expect(javaFormatFixed0(154.49999999999997)).toBe('154');
    expect(javaFormatFixed0(-61.5)).toBe('-62');
    expect(javaFormatFixed0(-61.49)).toBe('-61');
    expect(javaFormatFixed0(0.5)).toBe('1');
    expect(javaFormatFixed0(2.5)).toBe('3');
    expect(javaFormatFixed0(228.09575315711163)).toBe('228');
  });
  it('keeps the sign of values that round to zero, as Java does', () => {
    expect(javaFormatFixed0(-0.3)).toBe('-0');
    expect(javaFormatFixed0(-0)).toBe('-0');
    expect(javaFormatFixed0(0.3)).toBe('0');
  });
  it('prints large values without an exponent, and the non-finite ones by name', () => {
    expect(javaFormatFixed0(1e22)).toBe('10000000000000000000000');
    expect(javaFormatFixed0(Number.NaN)).toBe('NaN');
    expect(javaFormatFixed0(-Infinity)).toBe('-Infinity');
  });
});
