// Seeded uniform draws for k-means initialisation, from the workspace's one generator
// (@diffworld/dataset's Rng), so a MAUVE run replays exactly from its seed.
import { Rng as SeededRng } from '@diffworld/dataset';

export type Rng = () => number; // uniform in [0, 1)

export function seededUniform(seed: number): Rng {
  const rng = new SeededRng(seed);
  return () => rng.float();
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
