// PCA as MAUVE uses scikit-learn's: fit on all rows (centred, not whitened, not scaled), keep the
// leading components up to the first whose cumulative explained-variance ratio reaches the target,
// and project. Computed from the d×d covariance when d ≤ n, else from the n×n Gram matrix.
import { symmetricEigen } from './eigen.js';

export interface PcaResult {
  /** n × k projection, row-major. Component signs are arbitrary (k-means does not care). */
  projected: Float64Array;
  k: number;
  /** explained_variance_ratio_ over all min(n, d) components. */
  explainedVarianceRatio: Float64Array;
}

/** `PCA().fit(X)`, `idx = argmax(cumsum(ratio) >= target)`, `transform(X)[:, :idx+1]`. */
export function pcaReduce(x: Float64Array, n: number, d: number, explainedVariance: number): PcaResult {
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j]! += x[i * d + j]!;
  for (let j = 0; j < d; j++) mean[j]! /= n;
  const xc = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) xc[i * d + j] = x[i * d + j]! - mean[j]!;

  const useGram = d > n;
  const m = useGram ? n : d;
  const gram = new Float64Array(m * m);
  if (useGram) {
    for (let a = 0; a < n; a++)
      for (let b = a; b < n; b++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += xc[a * d + j]! * xc[b * d + j]!;
        gram[a * n + b] = gram[b * n + a] = s;
      }
  } else {
    for (let i = 0; i < n; i++) {
      const off = i * d;
      for (let a = 0; a < d; a++) {
        const va = xc[off + a]!;
        if (va === 0) continue;
        for (let b = a; b < d; b++) gram[a * d + b]! += va * xc[off + b]!;
      }
    }
    for (let a = 0; a < d; a++) for (let b = 0; b < a; b++) gram[a * d + b] = gram[b * d + a]!;
  }
  const { values, vectors } = symmetricEigen(gram, m);
  const lambda = values.map((v) => Math.max(v, 0));
  const total = lambda.reduce((s, v) => s + v, 0);
  const ratio = lambda.map((v) => (total > 0 ? v / total : 0));
  // np.argmax over a boolean array: the first True, or 0 when none is.
  let idx = 0;
  let cum = 0;
  for (let c = 0; c < m; c++) {
    cum += ratio[c]!;
    if (cum >= explainedVariance) {
      idx = c;
      break;
    }
  }
  const k = idx + 1;
  const projected = new Float64Array(n * k);
  if (useGram) {
    // X v_c = X Xᵀ u_c / σ_c = σ_c u_c.
    for (let c = 0; c < k; c++) {
      const sigma = Math.sqrt(lambda[c]!);
      for (let i = 0; i < n; i++) projected[i * k + c] = sigma * vectors[i * m + c]!;
    }
  } else {
    for (let i = 0; i < n; i++)
      for (let c = 0; c < k; c++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += xc[i * d + j]! * vectors[j * m + c]!;
        projected[i * k + c] = s;
      }
  }
  return { projected, k, explainedVarianceRatio: ratio };
}
