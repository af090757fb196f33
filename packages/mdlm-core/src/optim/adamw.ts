// AdamW and global-norm gradient clipping as graph ops, so the whole update runs inside the
// training-step model. Formulas follow torch.optim.AdamW and torch.nn.utils.clip_grad_norm_.
import { type Tensor, add, concat, div, minimum, mul, pow, reduceSum, reshape, slice, sqrt, sub } from '../graph/index.js';

export interface AdamWConfig {
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

export const ADAMW_DEFAULTS: AdamWConfig = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01 };

export interface AdamWSlot {
  param: Tensor;
  grad: Tensor;
  m: Tensor;
  v: Tensor;
  /** Parameters such as norms and biases are commonly excluded from weight decay. */
  decay?: boolean;
  /** A scalar the gradient is taken times (a clip coefficient): folded into the moments' scalars, no pass over the gradient. */
  gradScale?: Tensor;
  /** grad ⊙ grad when the caller has it already (the clip norm's), so the second moment does not square again. */
  gradSquared?: Tensor;
}

export interface AdamWResult {
  param: Tensor;
  m: Tensor;
  v: Tensor;
}

/**
 * One AdamW step. `lr` and `step` (1-based, as a float) are scalar graph inputs, so schedules live
 * on the host and the graph does not change from step to step.
 */
export function adamwStep(slots: readonly AdamWSlot[], lr: Tensor, step: Tensor, cfg: AdamWConfig = ADAMW_DEFAULTS): AdamWResult[] {
  const bc1 = sub(1, pow(lr.graph.scalar(cfg.beta1, lr.dtype), step));
  const bc2 = sub(1, pow(lr.graph.scalar(cfg.beta2, lr.dtype), step));
  const sqrtBc2 = sqrt(bc2);
  // lr/bc1 · m / (√v/√bc2 + eps) = (lr·√bc2/bc1) · m / (√v + eps·√bc2): the scalars meet once, and
  // the parameter-sized chain is one pass shorter.
  const stepSize = div(mul(lr, sqrtBc2), bc1);
  const eps = mul(sqrtBc2, cfg.eps);
  return slots.map(({ param, grad, m, v, decay = true, gradScale, gradSquared }) => {
    // (s·g)·(1 − β) = g·(s·(1 − β)): the scale joins the scalar instead of costing a pass.
    const mCoef = gradScale ? mul(gradScale, 1 - cfg.beta1) : 1 - cfg.beta1;
    const vCoef = gradScale ? mul(mul(gradScale, gradScale), 1 - cfg.beta2) : 1 - cfg.beta2;
    const m1 = add(mul(m, cfg.beta1), mul(grad, mCoef));
    const v1 = add(mul(v, cfg.beta2), mul(gradSquared ?? mul(grad, grad), vCoef));
    // Decoupled decay first (p ← p·(1 − lr·wd)), then the Adam step.
    const decayed = decay && cfg.weightDecay !== 0 ? mul(param, sub(1, mul(lr, cfg.weightDecay))) : param;
    return { param: sub(decayed, mul(div(m1, add(sqrt(v1), eps)), stepSize)), m: m1, v: v1 };
  });
}

/**
 * Global L2 norm of all gradients, the clip coefficient that brings it to at most maxNorm
 * (undefined when clipping is off: maxNorm 0 or infinite), and each gradient's square (the norm's
 * terms, which AdamW's second moment can reuse as `gradSquared`).
 */
export function globalNormClip(grads: readonly Tensor[], maxNorm: number): { norm: Tensor; coef: Tensor | undefined; squares: Tensor[] } {
  const squares = grads.map((g) => mul(g, g));
  const norm = sqrt(squares.map((g2) => reduceSum(g2)).reduce((a, b) => add(a, b)));
  if (!(maxNorm > 0) || !Number.isFinite(maxNorm)) return { norm, coef: undefined, squares };
  // torch: coef = max_norm / (norm + 1e-6), clamped to at most 1.
  return { norm, coef: minimum(div(maxNorm, add(norm, 1e-6)), 1), squares };
}

/** Global L2 norm of all gradients, and the gradients scaled so that norm ≤ maxNorm. */
export function clipByGlobalNorm(grads: readonly Tensor[], maxNorm: number): { grads: Tensor[]; norm: Tensor } {
  const { norm, coef } = globalNormClip(grads, maxNorm);
  return { grads: coef ? grads.map((g) => mul(g, coef)) : grads.slice(), norm };
}

/**
 * How `clippedAdamwMultiTensor` joins tensors: 'flat' — each weight-decay group flattened to one
 * vector; 'by-shape' — tensors of one decay group and one shape (every layer's q_proj, say) stacked
 * along their first axis, so nothing is reshaped and no single buffer holds a whole group.
 */
export type MultiTensorGrouping = 'flat' | 'by-shape';

/**
 * Most tensors stacked into one by-shape group. ORT's CUDA Concat passes up to 32 input pointers to
 * its kernel by value; above that it copies the pointer table from pinned host memory, and a
 * replayed CUDA graph copies whatever that memory holds by then: in the IO-bound step, the other
 * direction's state buffers (a 12-layer model's 48 [768, 768] weights trained wrongly from the
 * fourth step on). Equal-sized stacks of ≤ 32 keep every table in the kernel's arguments.
 */
export const MAX_STACK = 32;

function chunks<T>(xs: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(xs.length / size) }, (_, k) => xs.slice(k * size, (k + 1) * size));
}

/**
 * Clipping and AdamW over many parameters at once (multi-tensor, as PyTorch's foreach AdamW): the
 * tensors of each group are concatenated, updated by one chain of elementwise ops, and sliced back
 * to their shapes. Same formulas as clipByGlobalNorm + adamwStep (only the norm's summation order
 * differs). Why: ORT runs a graph node by node, and per-tensor clipping + AdamW is ~18 nodes per
 * parameter — 2,000 of a 12-layer model's 4,600 — while this is ~18 per group plus 3 slices per
 * parameter. 'by-shape' is the default: 'flat' concatenates ~400 MB per group at 100M parameters,
 * and on the CUDA provider those allocations grew its arena until the host ran out of memory.
 */
export function clippedAdamwMultiTensor(
  slots: readonly AdamWSlot[],
  lr: Tensor,
  step: Tensor,
  cfg: AdamWConfig,
  maxNorm: number,
  grouping: MultiTensorGrouping = 'by-shape',
): { results: AdamWResult[]; norm: Tensor } {
  const stacks = (t: Tensor) => grouping === 'by-shape' && t.rank >= 1; // scalars are flattened in either grouping
  const shapeKey = (t: Tensor) => (stacks(t) ? t.shape.join('x') : '');
  const keyOf = (s: AdamWSlot) => `${s.decay ?? true}|${shapeKey(s.param)}`;
  const byKey = new Map<string, { s: AdamWSlot; i: number }[]>();
  slots.forEach((s, i) => byKey.set(keyOf(s), [...(byKey.get(keyOf(s)) ?? []), { s, i }]));
  // Decaying groups first, then in order of first appearance (the norm's summation order); stacks
  // of at most MAX_STACK tensors.
  const groups = [...byKey.values()].sort((a, b) => Number(b[0]!.s.decay ?? true) - Number(a[0]!.s.decay ?? true)).flatMap((g) => (grouping === 'by-shape' ? chunks(g, MAX_STACK) : [g]));
  // Rows along axis 0: same-shaped tensors stack as they are; 'flat' groups become vectors.
  const rows = (t: Tensor) => (stacks(t) || t.rank === 1 ? t : reshape(t, [-1]));
  const join = (ts: readonly Tensor[]) => (ts.length === 1 ? rows(ts[0]!) : concat(ts.map(rows), 0));
  const grads = groups.map((g) => join(g.map(({ s }) => s.grad)));
  const { norm, coef, squares } = globalNormClip(grads, maxNorm);
  // One adamwStep over the joined groups: the bias corrections are computed once for all of them.
  const joined = adamwStep(
    groups.map((g, k) => ({
      param: join(g.map(({ s }) => s.param)),
      grad: grads[k]!,
      gradSquared: squares[k]!,
      ...(coef ? { gradScale: coef } : {}),
      m: join(g.map(({ s }) => s.m)),
      v: join(g.map(({ s }) => s.v)),
      decay: g[0]!.s.decay ?? true,
    })),
    lr,
    step,
    cfg,
  );
  const results: AdamWResult[] = new Array(slots.length);
  groups.forEach((g, k) => {
    const r = joined[k]!;
    let offset = 0;
    for (const { s, i } of g) {
      const shape = s.param.shape;
      const n = stacks(s.param) ? Number(shape[0]) : shape.reduce((a: number, b) => a * Number(b), 1);
      const back = (x: Tensor) => {
        const part = g.length === 1 ? x : slice(x, [offset], [offset + n], [0]);
        return stacks(s.param) || s.param.rank === 1 ? part : reshape(part, shape);
      };
      results[i] = { param: back(r.param), m: back(r.m), v: back(r.v) };
      offset += n;
    }
  });
  return { results, norm };
}
