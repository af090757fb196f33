// A small seeded generator (mulberry32): k-means initialisation must replay exactly from its seed.
export type Rng = () => number; // uniform in [0, 1)

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** k distinct indices of 0..n-1 (partial Fisher–Yates), in draw order. */
export function sampleWithoutReplacement(n: number, k: number, rng: Rng): number[] {
  const perm = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng() * (n - i));
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
  return Array.from(perm.subarray(0, k));
}
