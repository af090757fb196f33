// java.util.Random port: pinned values computed from the Javadoc's LCG constants (0x5DEECE66D, 0xB,
// 48-bit state) — the first two are the widely quoted outputs of new Random(0) and new Random(42) —
// and a cross-check against a direct BigInt transcription of the Javadoc formulas.
import { describe, expect, it } from 'vitest';
import { JavaRandom, scalaShuffle } from './java-random.js';

/** The Javadoc's definitions, transcribed with bigints (slow, obviously right). */
class JavadocRandom {
  private s: bigint;
  constructor(seed: bigint) {
    this.s = (seed ^ 0x5deece66dn) & ((1n << 48n) - 1n);
  }
  next(bits: number): number {
    this.s = (this.s * 0x5deece66dn + 0xbn) & ((1n << 48n) - 1n);
    return Number(BigInt.asIntN(32, this.s >> BigInt(48 - bits)));
  }
  nextInt(bound: number): number {
    if ((bound & -bound) === bound) return Number((BigInt(bound) * BigInt(this.next(31))) >> 31n);
    for (;;) {
      const bits = this.next(31);
      const val = bits % bound;
      if (BigInt.asIntN(32, BigInt(bits - val + bound - 1)) >= 0n) return val;
    }
  }
}

describe('JavaRandom', () => {
  it('matches known Java outputs', () => {
    expect(new JavaRandom(0).nextInt()).toBe(-1155484576);
    expect(new JavaRandom(42).nextInt()).toBe(-1170105035);
    const r0 = new JavaRandom(0);
    expect(Array.from({ length: 10 }, () => r0.nextInt(10))).toEqual([0, 8, 9, 7, 5, 3, 1, 1, 9, 4]);
    const r42 = new JavaRandom(42);
    expect(Array.from({ length: 10 }, () => r42.nextInt(10))).toEqual([0, 3, 8, 4, 0, 5, 5, 8, 9, 3]);
    const d = new JavaRandom(0);
    expect(d.nextDouble()).toBe(0.730967787376657);
    expect(d.nextDouble()).toBe(0.24053641567148587);
    const p2 = new JavaRandom(7);
    expect(Array.from({ length: 6 }, () => p2.nextInt(16))).toEqual([11, 10, 11, 0, 5, 7]);
    const neg = new JavaRandom(-1);
    expect([neg.nextInt(), neg.nextInt(), neg.nextInt()]).toEqual([1155099827, 1887904451, 52699159]);
    const big = new JavaRandom(123456789);
    expect(Array.from({ length: 5 }, () => big.nextInt(2 ** 30 + 1))).toEqual([981296483, 547328344, 838606290, 465137554, 913732807]);
  });

  it('agrees with the Javadoc formulas over many seeds, bounds and bit counts', () => {
    for (const seed of [0n, 1n, 5n, 42n, 1000n, -7n, 9007199254740993n, -9223372036854775808n]) {
      const a = new JavaRandom(seed);
      const b = new JavadocRandom(seed);
      for (let i = 0; i < 2000; i++) {
        const bound = [1, 2, 3, 6, 7, 10, 64, 100, 1 << 30, 0x7fffffff, 1_500_000_001][i % 11]!;
        expect(a.nextInt(bound)).toBe(b.nextInt(bound));
        const bits = 1 + (i % 32);
        expect(a.next(bits)).toBe(b.next(bits));
      }
    }
  });

  it('rejects bad bounds and seeds', () => {
    expect(() => new JavaRandom(0).nextInt(0)).toThrow(RangeError);
    expect(() => new JavaRandom(0).nextInt(-3)).toThrow(RangeError);
    expect(() => new JavaRandom(0.5)).toThrow(RangeError);
  });

  it('nextBoolean, nextLong, setSeed', () => {
    const r = new JavaRandom(0);
    const j = new JavadocRandom(0n);
    for (let i = 0; i < 50; i++) expect(r.nextBoolean()).toBe(j.next(1) !== 0);
    const l = new JavaRandom(0);
    expect(l.nextLong()).toBe(-4962768465676381896n);
    l.setSeed(0);
    expect(l.nextInt()).toBe(-1155484576);
  });

  it('scalaShuffle swaps from the end with nextInt(n)', () => {
    const r = new JavaRandom(3);
    const j = new JavadocRandom(3n);
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    const expected = [...items];
    for (let n = expected.length; n >= 2; n--) {
      const k = j.nextInt(n);
      [expected[n - 1], expected[k]] = [expected[k]!, expected[n - 1]!];
    }
    expect(scalaShuffle(r, items)).toEqual(expected);
    expect(items).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});
