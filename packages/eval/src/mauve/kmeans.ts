// k-means as MAUVE runs it through faiss: initial centroids are k distinct data points drawn from a
// seeded generator, Lloyd iterations (at most maxIter), empty clusters re-seeded by splitting a
// large one, best objective over `restarts` runs. Hamerly's bounds skip distance computations that
// cannot change an assignment, so results are those of plain Lloyd; iterations stop at the fixed
// point (no assignment changes), where further Lloyd steps would change nothing.
import { mulberry32, sampleWithoutReplacement, type Rng } from './rng.js';

export interface KMeansRun {
  labels: Int32Array;
  centroids: Float64Array; // k × d
  inertia: number; // sum of squared distances to the assigned centroid
  iterations: number;
  seed: number;
}

export interface KMeansTask {
  data: Float64Array; // n × d, row-major (may live in a SharedArrayBuffer)
  n: number;
  d: number;
  k: number;
  seed: number;
  maxIter: number;
  /** Initial centroids (k × d) instead of a random draw: lets golden tests fix the start. */
  init?: Float64Array;
}

const SPLIT_EPS = 1 / 1024; // faiss's relative perturbation when splitting a cluster

/** One k-means run (Lloyd with Hamerly's pruning) from a seeded or given start. */
export function kmeansOnce(task: KMeansTask): KMeansRun {
  const { data, n, d, k, maxIter } = task;
  const rng = mulberry32(task.seed);
  const c = new Float64Array(k * d);
  if (task.init) c.set(task.init);
  else sampleWithoutReplacement(n, k, rng).forEach((p, j) => c.set(data.subarray(p * d, (p + 1) * d), j * d));

  const labels = new Int32Array(n).fill(-1);
  const upper = new Float64Array(n); // ≥ distance to the assigned centroid
  const lower = new Float64Array(n); // ≤ distance to any other centroid
  const half = new Float64Array(k); // half the distance from a centroid to its nearest other one
  const sums = new Float64Array(k * d);
  const counts = new Int32Array(k);
  const moved = new Float64Array(k);
  const prev = new Float64Array(k * d);
  let iterations = 0;

  for (let iter = 0; iter < maxIter; iter++) {
    iterations = iter + 1;
    computeHalfDistances(c, k, d, half);
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const a = labels[i]!;
      if (a >= 0) {
        const bound = Math.max(half[a]!, lower[i]!);
        if (upper[i]! <= bound) continue;
        upper[i] = Math.sqrt(dist2(data, i * d, c, a * d, d));
        if (upper[i]! <= bound) continue;
      }
      // Full scan: nearest and second nearest (ties keep the lower index, as a linear scan does).
      let best = -1;
      let b1 = Infinity;
      let b2 = Infinity;
      for (let j = 0; j < k; j++) {
        const dd = dist2(data, i * d, c, j * d, d);
        if (dd < b1) {
          b2 = b1;
          b1 = dd;
          best = j;
        } else if (dd < b2) b2 = dd;
      }
      if (best !== a) changed++;
      labels[i] = best;
      upper[i] = Math.sqrt(b1);
      lower[i] = Math.sqrt(b2);
    }
    if (changed === 0 && iter > 0) break;

    // Update step: means of the assigned points; empty clusters are re-seeded.
    prev.set(c);
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const a = labels[i]!;
      counts[a]!++;
      for (let t = 0; t < d; t++) sums[a * d + t]! += data[i * d + t]!;
    }
    for (let j = 0; j < k; j++) if (counts[j]! > 0) for (let t = 0; t < d; t++) c[j * d + t] = sums[j * d + t]! / counts[j]!;
    const split = splitEmptyClusters(c, counts, k, d, n, rng);
    let m1 = 0;
    let m1j = -1;
    let m2 = 0;
    for (let j = 0; j < k; j++) {
      moved[j] = Math.sqrt(dist2(c, j * d, prev, j * d, d));
      if (moved[j]! > m1) {
        m2 = m1;
        m1 = moved[j]!;
        m1j = j;
      } else if (moved[j]! > m2) m2 = moved[j]!;
    }
    for (let i = 0; i < n; i++) {
      const a = labels[i]!;
      upper[i]! += moved[a]!;
      lower[i]! -= a === m1j ? m2 : m1;
    }
    if (split) changed++;
  }

  let inertia = 0;
  for (let i = 0; i < n; i++) inertia += dist2(data, i * d, c, labels[i]! * d, d);
  return { labels, centroids: c, inertia, iterations, seed: task.seed };
}

function dist2(x: Float64Array, xo: number, y: Float64Array, yo: number, d: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) {
    const diff = x[xo + t]! - y[yo + t]!;
    s += diff * diff;
  }
  return s;
}

function computeHalfDistances(c: Float64Array, k: number, d: number, half: Float64Array): void {
  half.fill(Infinity);
  for (let a = 0; a < k; a++)
    for (let b = a + 1; b < k; b++) {
      const dd = Math.sqrt(dist2(c, a * d, c, b * d, d)) / 2;
      if (dd < half[a]!) half[a] = dd;
      if (dd < half[b]!) half[b] = dd;
    }
}

// faiss `split_clusters`: an empty centroid takes a copy of a cluster picked with probability
// proportional to (size - 1), both nudged apart by ±1/1024 in alternating coordinates.
function splitEmptyClusters(c: Float64Array, counts: Int32Array, k: number, d: number, n: number, rng: Rng): boolean {
  let any = false;
  for (let ci = 0; ci < k; ci++) {
    if (counts[ci] !== 0) continue;
    any = true;
    let cj = 0;
    for (;;) {
      const p = (rng() * (n - k)) | 0;
      let acc = 0;
      for (cj = 0; cj < k; cj++) {
        acc += Math.max(0, counts[cj]! - 1);
        if (acc > p) break;
      }
      if (cj < k) break;
      if (n === k) {
        cj = counts.findIndex((x) => x > 1);
        break;
      }
    }
    if (cj < 0 || cj >= k) continue;
    for (let t = 0; t < d; t++) {
      const v = c[cj * d + t]!;
      c[ci * d + t] = t % 2 === 0 ? v * (1 + SPLIT_EPS) : v * (1 - SPLIT_EPS);
      c[cj * d + t] = t % 2 === 0 ? v * (1 - SPLIT_EPS) : v * (1 + SPLIT_EPS);
    }
    counts[ci] = counts[cj]! >> 1;
    counts[cj]! -= counts[ci]!;
  }
  return any;
}

/** Seeds of the restarts: faiss offsets each redo's seed; we use seed + 15486557·r likewise. */
export function restartSeeds(seed: number, restarts: number): number[] {
  return Array.from({ length: restarts }, (_, r) => (seed + 15486557 * r) >>> 0);
}

/** The run with the lowest objective (first one on ties). */
export function bestRun(runs: readonly KMeansRun[]): KMeansRun {
  return runs.reduce((best, r) => (r.inertia < best.inertia ? r : best));
}
