// MAUVE's last steps on two histograms: the divergence frontier, its area, the frontier integral.
// Direct ports of the formulas of krishnap25/mauve `compute_mauve.py` (numpy semantics noted inline).

/** np.linspace(start, stop, num): start + i·step, the last point exactly `stop`. */
export function linspace(start: number, stop: number, num: number): number[] {
  const step = (stop - start) / (num - 1);
  return Array.from({ length: num }, (_, i) => (i === num - 1 ? stop : start + i * step));
}

/** KL(p‖q) = Σ_{p>0,q>0} p·log(p/q); ∞ if p > 0 anywhere q = 0. */
export function klMultinomial(p: ArrayLike<number>, q: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const pi = p[i]!;
    const qi = q[i]!;
    if (pi !== 0 && qi === 0) return Infinity;
    if (pi !== 0 && qi !== 0) s += pi * Math.log(pi / qi);
  }
  return s;
}

/** Points (exp(−c·KL(Q‖R_λ)), exp(−c·KL(P‖R_λ))) for R_λ = λP + (1−λ)Q, with the two end points. */
export function divergenceCurve(p: ArrayLike<number>, q: ArrayLike<number>, weights: readonly number[], scaling: number): [number, number][] {
  const raw: [number, number][] = [[0, Infinity]];
  for (const w of [...weights].sort((a, b) => a - b)) {
    const r = Array.from({ length: p.length }, (_, i) => w * p[i]! + (1 - w) * q[i]!);
    raw.push([klMultinomial(q, r), klMultinomial(p, r)]);
  }
  raw.push([Infinity, 0]);
  return raw.map(([a, b]) => [Math.exp(-scaling * a), Math.exp(-scaling * b)]);
}

/**
 * sklearn.metrics.auc on the points sorted by x (trapezoidal rule). Equal x values only occur where
 * the frontier touches an axis end (KL = 0, e.g. P = Q); numpy's unstable argsort leaves their order
 * to chance, so ties are ordered by y descending, which traces the monotone frontier (P = Q gives 1).
 */
export function areaUnderCurve(x: readonly number[], y: readonly number[]): number {
  const idx = x.map((_, i) => i).sort((a, b) => x[a]! - x[b]! || y[b]! - y[a]! || a - b);
  let area = 0;
  for (let t = 1; t < idx.length; t++) {
    const i0 = idx[t - 1]!;
    const i1 = idx[t]!;
    area += ((x[i1]! - x[i0]!) * (y[i1]! + y[i0]!)) / 2;
  }
  return area;
}

/** MAUVE = ½(AUC of y over x + AUC of x over y) of the divergence curve. */
export function mauveFromCurve(curve: readonly [number, number][]): number {
  const x = curve.map((pt) => pt[0]);
  const y = curve.map((pt) => pt[1]);
  return 0.5 * (areaUnderCurve(x, y) + areaUnderCurve(y, x));
}

/** `get_fronter_integral(p, q)` with its scaling factor 2. */
export function frontierIntegral(p: ArrayLike<number>, q: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < p.length; i++) {
    const p1 = p[i]!;
    const q1 = q[i]!;
    if (p1 === 0 && q1 === 0) continue;
    if (p1 === 0) total += q1 / 4;
    else if (q1 === 0) total += p1 / 4;
    else if (Math.abs(p1 - q1) > 1e-8) total += 0.25 * (p1 + q1) - (0.5 * (p1 * q1 * (Math.log(p1) - Math.log(q1)))) / (p1 - q1);
  }
  return total * 2;
}

/** Python `round` (half to even), as in `int(round(min(n_p, n_q) / 10))`. */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** MAUVE's 'auto' bucket count: max(2, round(min(n_p, n_q) / 10)). */
export function autoBuckets(nP: number, nQ: number): number {
  return Math.max(2, roundHalfEven(Math.min(nP, nQ) / 10));
}
