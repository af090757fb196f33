// A bit-exact port of java.util.Random (the 48-bit linear congruential generator of its Javadoc:
// seed' = (seed · 0x5DEECE66D + 0xB) mod 2^48; setSeed scrambles with 0x5DEECE66D), plus
// scala.util.Random's shuffle on top of it. ScienceWorld draws every random choice of its world
// and tasks from one such generator seeded with the variation index, so reproducing its worlds
// needs the very same stream. The 48-bit state is kept as two 24-bit halves so that every product
// stays below 2^53 and is exact in a double.

const TWO24 = 0x1000000;
const MUL_HI = 0x5de; // 0x5DEECE66D = 0x5DE · 2^24 + 0xECE66D
const MUL_LO = 0xece66d;
const ADDEND = 0xb;

export class JavaRandom {
  private hi = 0;
  private lo = 0;

  /** `new java.util.Random(seed)`; the seed is a Java long (a bigint, or a safe integer). */
  constructor(seed: number | bigint) {
    this.setSeed(seed);
  }

  /** Java's setSeed: (seed XOR 0x5DEECE66D) mod 2^48. */
  setSeed(seed: number | bigint): void {
    if (typeof seed === 'number' && !Number.isSafeInteger(seed)) throw new RangeError(`JavaRandom: seed must be an integer, got ${seed}`);
    const s = (BigInt.asUintN(64, BigInt(seed)) ^ 0x5deece66dn) & 0xffffffffffffn;
    this.hi = Number(s >> 24n);
    this.lo = Number(s & 0xffffffn);
  }

  /** Java's protected next(bits), 1 ≤ bits ≤ 32: advance the LCG, return its top `bits` bits as a Java int. */
  next(bits: number): number {
    const low = this.lo * MUL_LO + ADDEND; // < 2^48
    const carry = Math.floor(low / TWO24);
    const high = this.hi * MUL_LO + this.lo * MUL_HI + carry; // < 2^53
    this.lo = low - carry * TWO24;
    this.hi = high % TWO24;
    const state = this.hi * TWO24 + this.lo;
    return Math.floor(state / 2 ** (48 - bits)) | 0;
  }

  /** nextInt(): 32 random bits as a Java int. */
  nextInt(): number;
  /** nextInt(bound): uniform in [0, bound), with Java's power-of-two shortcut and rejection loop. */
  nextInt(bound: number): number;
  nextInt(bound?: number): number {
    if (bound === undefined) return this.next(32);
    if (!Number.isInteger(bound) || bound <= 0 || bound > 0x7fffffff) throw new RangeError(`JavaRandom.nextInt: bound must be a positive Java int, got ${bound}`);
    if ((bound & -bound) === bound) return Number((BigInt(bound) * BigInt(this.next(31))) >> 31n);
    for (;;) {
      const bits = this.next(31);
      const val = bits % bound;
      // Java rejects when bits - val + (bound - 1) overflows a 32-bit int.
      if (bits - val + (bound - 1) <= 0x7fffffff) return val;
    }
  }

  /** nextLong(): (next(32) << 32) + next(32) as a Java long. */
  nextLong(): bigint {
    const a = BigInt(this.next(32));
    const b = BigInt(this.next(32));
    return BigInt.asIntN(64, (a << 32n) + b);
  }

  nextBoolean(): boolean {
    return this.next(1) !== 0;
  }

  /** nextDouble(): ((next(26) << 27) + next(27)) · 2^-53. */
  nextDouble(): number {
    const a = this.next(26);
    const b = this.next(27);
    return (a * 2 ** 27 + b) / 2 ** 53;
  }

  /** nextFloat(): next(24) · 2^-24. */
  nextFloat(): number {
    return this.next(24) / TWO24;
  }

  /** The raw 48-bit state (for tests). */
  state(): number {
    return this.hi * TWO24 + this.lo;
  }
}

/** scala.util.Random.shuffle: for n from length down to 2, swap element n−1 with element nextInt(n). */
export function scalaShuffle<T>(rng: JavaRandom, items: readonly T[]): T[] {
  const buf = [...items];
  for (let n = buf.length; n >= 2; n--) {
    const k = rng.nextInt(n);
    const t = buf[n - 1]!;
    buf[n - 1] = buf[k]!;
    buf[k] = t;
  }
  return buf;
}
