// MAUVE (Pillutla et al. 2021) with the reference algorithm's defaults: stack [Q; P], L2-normalise
// rows, PCA to 90% explained variance, cast to float32, k-means into round(min(n_p, n_q)/10)
// buckets (5 restarts, 500 iterations, seed 25 + 2), histograms, divergence curve over 25 mixture
// weights with scaling 5, area. Every result carries the settings and the featurizer that made it.
import { EvalError } from '../errors.js';
import { autoBuckets, divergenceCurve, frontierIntegral, linspace, mauveFromCurve } from './curve.js';
import type { Featurizer } from './featurizer.js';
import { bestRun, kmeansOnce, restartSeeds, type KMeansRun } from './kmeans.js';
import { pcaReduce } from './pca.js';
import { kmeansInPool } from './pool.js';

export interface MauveOptions {
  numBuckets?: number | 'auto';
  explainedVariance?: number; // 0.9
  restarts?: number; // 5
  maxIter?: number; // 500
  discretization?: number; // 25
  scaling?: number; // 5
  seed?: number; // 25
  /**
   * Worker threads for the k-means restarts: 0 runs inline; undefined decides by size (a pool when
   * n·k·d ≥ 2·10⁷ and there is more than one restart).
   */
  workers?: number;
}

export interface MauveSignature {
  featurizer: string;
  n_p: number;
  n_q: number;
  dims: number;
  pca_dims: number;
  explained_variance: number;
  buckets: number;
  restarts: number;
  max_iter: number;
  seed: number;
  scaling: number;
  discretization: number;
  kmeans: string;
}

export interface MauveResult {
  mauve: number;
  /** Same computation on Krichevsky–Trofimov smoothed histograms (counts + 0.5). */
  mauveStar: number;
  frontierIntegral: number;
  pHist: number[];
  qHist: number[];
  divergenceCurve: [number, number][];
  kmeansInertia: number;
  signature: MauveSignature;
}

/** MAUVE of two feature sets (rows are vectors). `featurizerId` is recorded in the signature. */
export async function mauveFromFeatures(p: readonly ArrayLike<number>[], q: readonly ArrayLike<number>[], options: MauveOptions = {}, featurizerId = 'given-features'): Promise<MauveResult> {
  const nP = p.length;
  const nQ = q.length;
  if (nP === 0 || nQ === 0) throw new EvalError('bad_features', `MAUVE needs at least one vector on each side (got n_p=${nP}, n_q=${nQ})`);
  const d = p[0]!.length;
  const ev = options.explainedVariance ?? 0.9;
  if (!(ev > 0 && ev < 1)) throw new EvalError('bad_option', `explainedVariance must be in (0, 1), got ${ev}`);
  const k = options.numBuckets === undefined || options.numBuckets === 'auto' ? autoBuckets(nP, nQ) : options.numBuckets;
  const n = nP + nQ;
  if (!Number.isInteger(k) || k < 2 || k > n) throw new EvalError('bad_option', `numBuckets must be an integer in [2, ${n}], got ${k}`);

  // Stack [Q; P] and L2-normalise each row (zero rows stay zero, as sklearn's normalize leaves them).
  const x = new Float64Array(n * d);
  [...q, ...p].forEach((row, i) => {
    if (row.length !== d) throw new EvalError('bad_features', `every vector must have ${d} dims; ${i < nQ ? `q[${i}]` : `p[${i - nQ}]`} has ${row.length}`);
    let norm = 0;
    for (let j = 0; j < d; j++) {
      const v = row[j]!;
      if (!Number.isFinite(v)) throw new EvalError('bad_features', `non-finite value at ${i < nQ ? `q[${i}]` : `p[${i - nQ}]`}[${j}]`);
      norm += v * v;
    }
    const s = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < d; j++) x[i * d + j] = row[j]! * s;
  });

  const pca = pcaReduce(x, n, d, ev);
  const data = pca.projected.map(Math.fround); // `.astype(np.float32)` before faiss

  const seed = (options.seed ?? 25) + 2;
  const restarts = options.restarts ?? 5;
  const maxIter = options.maxIter ?? 500;
  const seeds = restartSeeds(seed, restarts);
  const base = { data, n, d: pca.k, k, maxIter };
  const useWorkers = options.workers === undefined ? restarts > 1 && n * k * pca.k >= 2e7 : options.workers > 0;
  const runs: KMeansRun[] = useWorkers ? await kmeansInPool(base, seeds, options.workers) : seeds.map((s) => kmeansOnce({ ...base, seed: s }));
  const best = bestRun(runs);

  const qCounts = new Float64Array(k);
  const pCounts = new Float64Array(k);
  for (let i = 0; i < n; i++) (i < nQ ? qCounts : pCounts)[best.labels[i]!]! += 1;
  const pHist = Array.from(pCounts, (c) => c / nP);
  const qHist = Array.from(qCounts, (c) => c / nQ);
  const weights = linspace(1e-6, 1 - 1e-6, options.discretization ?? 25);
  const scaling = options.scaling ?? 5;
  const curve = divergenceCurve(pHist, qHist, weights, scaling);
  const kt = (counts: Float64Array): number[] => {
    const total = counts.reduce((a, c) => a + c + 0.5, 0);
    return Array.from(counts, (c) => (c + 0.5) / total);
  };
  return {
    mauve: mauveFromCurve(curve),
    mauveStar: mauveFromCurve(divergenceCurve(kt(pCounts), kt(qCounts), weights, scaling)),
    frontierIntegral: frontierIntegral(pHist, qHist),
    pHist,
    qHist,
    divergenceCurve: curve,
    kmeansInertia: best.inertia,
    signature: {
      featurizer: featurizerId,
      n_p: nP,
      n_q: nQ,
      dims: d,
      pca_dims: pca.k,
      explained_variance: ev,
      buckets: k,
      restarts,
      max_iter: maxIter,
      seed: options.seed ?? 25,
      scaling,
      discretization: options.discretization ?? 25,
      kmeans: 'lloyd+hamerly, random distinct-point init (seededUniform), faiss-style empty-cluster split; not faiss-identical cluster ids',
    },
  };
}

/** MAUVE of two text sets through a featurizer (its id goes into the signature). */
export async function mauve(pTexts: readonly string[], qTexts: readonly string[], featurizer: Featurizer, options: MauveOptions = {}): Promise<MauveResult> {
  const [p, q] = [await featurizer.featurize(pTexts), await featurizer.featurize(qTexts)];
  return mauveFromFeatures(p, q, options, featurizer.id);
}
