// k-means as MAUVE runs it through faiss: initial centroids are k distinct data points drawn from a
// seeded generator, Lloyd iterations (at most maxIter), empty clusters re-seeded by splitting a
// large one, best objective over `restarts` runs. Elkan's (or, for huge n·k, Hamerly's) bounds skip
// distance computations that cannot change an assignment, so results are those of plain Lloyd;
// iterations stop at the fixed point (no assignment changes), where more Lloyd steps change nothing.
import { seededUniform, sampleWithoutReplacement, type Rng } from './rng.js';

export interface KMeansRun {
  labels: Int32Array;
  centroids: Float64Array; // k × d
  inertia: number; // sum of squared distances to the assigned centroid
  iterations: number;
  /** Point-to-centroid distances computed (n·k·iterations without pruning). */
  distanceEvaluations: number;
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
  /** Which bounds prune distance computations (default: Elkan unless n·k is huge). Same result. */
  bounds?: 'elkan' | 'hamerly';
}

const SPLIT_EPS = 1 / 1024; // faiss's relative perturbation when splitting a cluster

// Elkan keeps a lower bound per (point, centroid): 4·n·k bytes. Above this many pairs, Hamerly's
// single lower bound per point is used instead (less pruning, O(n) memory). Both give Lloyd's result.
const ELKAN_MAX_BOUNDS = 64_000_000;

/** One k-means run (exact Lloyd, accelerated by Elkan's or Hamerly's bounds) from a seeded or given start. */
export function kmeansOnce(task: KMeansTask): KMeansRun {
  const { data, n, d, k } = task;
  const rng = seededUniform(task.seed);
  const c = new Float64Array(k * d);
  if (task.init) c.set(task.init);
  else sampleWithoutReplacement(n, k, rng).forEach((p, j) => c.set(data.subarray(p * d, (p + 1) * d), j * d));
  const labels = new Int32Array(n).fill(-1);
  const useElkan = (task.bounds ?? (n * k <= ELKAN_MAX_BOUNDS ? 'elkan' : 'hamerly')) === 'elkan';
  const counter = { evaluations: 0 };
  const iterations = useElkan ? elkan(task, c, labels, rng, counter) : hamerly(task, c, labels, rng, counter);
  let inertia = 0;
  for (let i = 0; i < n; i++) inertia += dist2(data, i * d, c, labels[i]! * d, d);
  return { labels, centroids: c, inertia, iterations, distanceEvaluations: counter.evaluations, seed: task.seed };
}

/**
 * Update step shared by both variants: centroids become the means of their points, empty clusters are
 * re-seeded; returns how far each centroid moved (in `moved`) and whether a split happened.
 */
function updateCentroids(task: KMeansTask, c: Float64Array, labels: Int32Array, moved: Float64Array, rng: Rng): boolean {
  const { data, n, d, k } = task;
  const prev = c.slice();
  const sums = new Float64Array(k * d);
  const counts = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    const a = labels[i]!;
    counts[a]!++;
    for (let t = 0; t < d; t++) sums[a * d + t]! += data[i * d + t]!;
  }
  for (let j = 0; j < k; j++) if (counts[j]! > 0) for (let t = 0; t < d; t++) c[j * d + t] = sums[j * d + t]! / counts[j]!;
  const split = splitEmptyClusters(c, counts, k, d, n, rng);
  for (let j = 0; j < k; j++) moved[j] = Math.sqrt(dist2(c, j * d, prev, j * d, d));
  return split;
}

// A lower bound stored in float32 must not round up past the true distance.
const down = (v: number): number => Math.fround(v * (1 - 1e-6));

/**
 * Elkan (2003): d(x, c) is computed only when u(x) ≥ l(x, c) and the triangle inequality through the
 * current centroid a cannot rule c out. Each centroid keeps the list of other centroids within twice
 * the largest upper bound among its points, so a point scans only those. Strict comparisons plus an explicit
 * lowest-index rule keep Lloyd's tie-breaking. Returns the iteration count.
 */
function elkan(task: KMeansTask, c: Float64Array, labels: Int32Array, rng: Rng, counter: { evaluations: number }): number {
  const { data, n, d, k, maxIter } = task;
  // Lower bounds are stored as l(x, c) + drift(c) at the time they were set, and read back minus the
  // centroid's current cumulative drift: Elkan's per-iteration l -= δ(c) over all n·k pairs vanishes.
  const lb = new Float32Array(n * k);
  const drift = new Float64Array(k);
  const u = new Float64Array(n); // ≥ d(x, a(x))
  const stale = new Uint8Array(n); // u(x) may be above the exact distance
  const cc = new Float64Array(k * k); // half the centroid-to-centroid distances
  const s = new Float64Array(k); // min over other centroids of cc
  const radius = new Float64Array(k); // max u(x) over the points of a centroid
  const candStart = new Int32Array(k + 1);
  let cand = new Int32Array(0);
  const moved = new Float64Array(k);
  let iterations = 0;
  for (let iter = 0; iter < maxIter; iter++) {
    iterations = iter + 1;
    s.fill(Infinity);
    for (let a = 0; a < k; a++)
      for (let b = a + 1; b < k; b++) {
        const h = Math.sqrt(dist2(c, a * d, c, b * d, d)) / 2;
        cc[a * k + b] = cc[b * k + a] = h;
        if (h < s[a]!) s[a] = h;
        if (h < s[b]!) s[b] = h;
      }
    if (iter > 0) {
      // Near-centroid lists: j with ½·d(a, j) ≤ radius(a); no other centroid can win for a's points.
      radius.fill(0);
      for (let i = 0; i < n; i++) if (u[i]! > radius[labels[i]!]!) radius[labels[i]!] = u[i]!;
      let off = 0;
      for (let a = 0; a < k; a++) {
        candStart[a] = off;
        const row = a * k;
        for (let j = 0; j < k; j++) if (j !== a && cc[row + j]! <= radius[a]!) off++;
      }
      candStart[k] = off;
      if (cand.length < off) cand = new Int32Array(off);
      off = 0;
      for (let a = 0; a < k; a++) {
        const row = a * k;
        for (let j = 0; j < k; j++) if (j !== a && cc[row + j]! <= radius[a]!) cand[off++] = j;
      }
    }
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const xo = i * d;
      const lo = i * k;
      const a0 = labels[i]!;
      if (a0 < 0) {
        // First assignment: every centroid, skipping those the triangle inequality rules out.
        let a = 0;
        let ui = Math.sqrt(dist2(data, xo, c, 0, d));
        counter.evaluations++;
        lb[lo] = down(ui);
        for (let j = 1; j < k; j++) {
          const h = cc[a * k + j]!;
          if (ui < h) {
            lb[lo + j] = down(2 * h - ui); // d(x, j) ≥ d(a, j) − d(x, a)
            continue;
          }
          const dj = Math.sqrt(dist2(data, xo, c, j * d, d));
          counter.evaluations++;
          lb[lo + j] = down(dj);
          if (dj < ui) {
            a = j;
            ui = dj;
          }
        }
        labels[i] = a;
        u[i] = ui;
        changed++;
        continue;
      }
      if (u[i]! < s[a0]!) continue;
      let u0 = u[i]!;
      if (stale[i] === 1) {
        u0 = Math.sqrt(dist2(data, xo, c, a0 * d, d));
        counter.evaluations++;
        lb[lo + a0] = down(u0 + drift[a0]!);
        stale[i] = 0;
        if (u0 < s[a0]!) {
          u[i] = u0;
          continue;
        }
      }
      // d(x, j) ≥ 2·h(a0, j) − u0: a candidate with h > (u0 + ui)/2 cannot beat ui.
      let a = a0;
      let ui = u0;
      const row = a0 * k;
      for (let t = candStart[a0]!, end = candStart[a0 + 1]!; t < end; t++) {
        const j = cand[t]!;
        if (cc[row + j]! > (u0 + ui) / 2) continue;
        if (ui < lb[lo + j]! - drift[j]!) continue;
        const dj = Math.sqrt(dist2(data, xo, c, j * d, d));
        counter.evaluations++;
        lb[lo + j] = down(dj + drift[j]!);
        if (dj < ui || (dj === ui && j < a)) {
          a = j;
          ui = dj;
        }
      }
      u[i] = ui;
      if (a !== a0) {
        labels[i] = a;
        changed++;
      }
    }
    if (changed === 0) break;
    const split = updateCentroids(task, c, labels, moved, rng);
    for (let j = 0; j < k; j++) drift[j]! += moved[j]!;
    for (let i = 0; i < n; i++) {
      const m = moved[labels[i]!]!;
      if (m > 0) {
        u[i]! += m;
        stale[i] = 1;
      }
    }
    if (split) changed++;
  }
  return iterations;
}

/** Hamerly (2010): one upper and one lower bound per point. Returns the iteration count. */
function hamerly(task: KMeansTask, c: Float64Array, labels: Int32Array, rng: Rng, counter: { evaluations: number }): number {
  const { data, n, d, k, maxIter } = task;
  const upper = new Float64Array(n); // ≥ distance to the assigned centroid
  const lower = new Float64Array(n); // ≤ distance to any other centroid
  const half = new Float64Array(k); // half the distance from a centroid to its nearest other one
  const moved = new Float64Array(k);
  let iterations = 0;
  for (let iter = 0; iter < maxIter; iter++) {
    iterations = iter + 1;
    computeHalfDistances(c, k, d, half);
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const a = labels[i]!;
      if (a >= 0) {
        const bound = Math.max(half[a]!, lower[i]!);
        if (upper[i]! < bound) continue;
        upper[i] = Math.sqrt(dist2(data, i * d, c, a * d, d));
        counter.evaluations++;
        if (upper[i]! < bound) continue;
      }
      // Full scan: nearest and second nearest (ties keep the lower index, as a linear scan does).
      counter.evaluations += k;
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
    if (changed === 0) break;
    const split = updateCentroids(task, c, labels, moved, rng);
    let m1 = 0;
    let m1j = -1;
    let m2 = 0;
    for (let j = 0; j < k; j++) {
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
  return iterations;
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

// A built pool loads this module itself (see workerEntry in @diffworld/dataset), calling its default export.
export default kmeansOnce;
