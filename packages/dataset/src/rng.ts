// The one seeded PRNG of the workspace (datasets, engines, samplers), so that a (seed, code) pair
// replays exactly on any machine. sfc32 seeded through splitmix32: fast, 128-bit state, good
// statistical quality.
import { createHash } from 'node:crypto';

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly seed: number) {
    if (!Number.isInteger(seed)) throw new RangeError(`Rng: seed must be an integer, got ${seed}`);
    const next = splitmix32(seed);
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.nextUint32(); // let the state mix before first use
  }

  /** Uniform in [0, 2^32). */
  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A generator whose stream depends only on this seed and the key (e.g. a row's content hash). */
  static forKey(seed: number, key: string): Rng {
    return new Rng(createHash('sha256').update(`${seed}:${key}`).digest().readUInt32LE(0));
  }

  /** Uniform in [0, 1) with 53 random bits. */
  float(): number {
    const hi = this.nextUint32() >>> 5;
    const lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [lo, hi] (both inclusive), without modulo bias. */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) throw new RangeError(`Rng.int: bad range [${lo}, ${hi}]`);
    const span = hi - lo + 1;
    if (span > 2 ** 32) return lo + Math.floor(this.float() * span);
    const limit = 2 ** 32 - (2 ** 32 % span);
    let x = this.nextUint32();
    while (x >= limit) x = this.nextUint32();
    return lo + (x % span);
  }

  /** Same as float(). */
  next(): number {
    return this.float();
  }

  bool(p = 0.5): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Rng.pick: empty list');
    return items[this.int(0, items.length - 1)]!;
  }

  /** Fisher–Yates on a copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** k distinct items, in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    if (k > items.length) throw new RangeError(`Rng.sample: k=${k} exceeds ${items.length} items`);
    return this.shuffle(items).slice(0, k);
  }

  /** An independent stream derived from this seed and a label (e.g. a task id). */
  fork(label: string | number): Rng {
    return new Rng(hashSeed(`${this.seed}:${label}`));
  }
}

/** FNV-1a over UTF-16 code units → a 32-bit seed; for deriving seeds from names. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
