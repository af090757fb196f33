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

/** What the moments of one AdamW step give: the new moments and the step δ (the parameter moves by −δ after its decay). */
export interface AdamWMoved {
  m: Tensor;
  v: Tensor;
  delta: Tensor;
}

/**
 * The moment half of one AdamW step, for slots without their parameter: m′, v′ and
 * δ = stepSize · m′ / (√v′ + eps′). Parameters may then be updated elsewhere (per tensor, from slices
 * of a stacked δ): p′ = p·(1 − lr·wd) − δ.
 */
export function adamwMoments(slots: readonly Omit<AdamWSlot, 'param' | 'decay'>[], lr: Tensor, step: Tensor, cfg: AdamWConfig = ADAMW_DEFAULTS): AdamWMoved[] {
  const bc1 = sub(1, pow(lr.graph.scalar(cfg.beta1, lr.dtype), step));
  const bc2 = sub(1, pow(lr.graph.scalar(cfg.beta2, lr.dtype), step));
  const sqrtBc2 = sqrt(bc2);
  // lr/bc1 · m / (√v/√bc2 + eps) = (lr·√bc2/bc1) · m / (√v + eps·√bc2): the scalars meet once, and
  // the parameter-sized chain is one pass shorter.
  const stepSize = div(mul(lr, sqrtBc2), bc1);
  const eps = mul(sqrtBc2, cfg.eps);
  return slots.map(({ grad, m, v, gradScale, gradSquared }) => {
    // (s·g)·(1 − β) = g·(s·(1 − β)): the scale joins the scalar instead of costing a pass.
    const mCoef = gradScale ? mul(gradScale, 1 - cfg.beta1) : 1 - cfg.beta1;
    const vCoef = gradScale ? mul(mul(gradScale, gradScale), 1 - cfg.beta2) : 1 - cfg.beta2;
    const m1 = add(mul(m, cfg.beta1), mul(grad, mCoef));
    const v1 = add(mul(v, cfg.beta2), mul(gradSquared ?? mul(grad, grad), vCoef));
    return { m: m1, v: v1, delta: mul(div(m1, add(sqrt(v1), eps)), stepSize) };
  });
}

/** Decoupled weight decay, p·(1 − lr·wd), or p itself where the parameter does not decay. */
function decayed(param: Tensor, decay: boolean, lr: Tensor, cfg: AdamWConfig): Tensor {
  return decay && cfg.weightDecay !== 0 ? mul(param, sub(1, mul(lr, cfg.weightDecay))) : param;
}

/**
 * One AdamW step. `lr` and `step` (1-based, as a float) are scalar graph inputs, so schedules live
 * on the host and the graph does not change from step to step.
 */
export function adamwStep(slots: readonly AdamWSlot[], lr: Tensor, step: Tensor, cfg: AdamWConfig = ADAMW_DEFAULTS): AdamWResult[] {
  const moved = adamwMoments(slots, lr, step, cfg);
  // Decoupled decay first (p ← p·(1 − lr·wd)), then the Adam step.
  return slots.map(({ param, decay = true }, i) => ({ param: sub(decayed(param, decay, lr, cfg), moved[i]!.delta), m: moved[i]!.m, v: moved[i]!.v }));
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

/** One multi-tensor group: the slots it stacks (in order), whether they decay, and how they join. */
export interface StackGroup {
  members: readonly number[];
  decay: boolean;
  /** Same-shaped tensors stacked along axis 0 as they are (by-shape); otherwise each is flattened. */
  stacked: boolean;
}

/**
 * The groups `clippedAdamwMultiTensor` joins tensors into: by decay and (by-shape) shape, decaying
 * groups first, then in order of first appearance (the norm's summation order); by-shape stacks of
 * at most MAX_STACK tensors. A group's joined tensor holds its members' values one after another.
 */
export function multiTensorGroups(params: readonly { shape: readonly (number | string)[]; decay?: boolean }[], grouping: MultiTensorGrouping = 'by-shape'): StackGroup[] {
  const stacks = (shape: readonly unknown[]) => grouping === 'by-shape' && shape.length >= 1; // scalars are flattened in either grouping
  const keyOf = (p: (typeof params)[number]) => `${p.decay ?? true}|${stacks(p.shape) ? p.shape.join('x') : ''}`;
  const byKey = new Map<string, number[]>();
  params.forEach((p, i) => byKey.set(keyOf(p), [...(byKey.get(keyOf(p)) ?? []), i]));
  return [...byKey.values()]
    .sort((a, b) => Number(params[b[0]!]!.decay ?? true) - Number(params[a[0]!]!.decay ?? true))
    .flatMap((members) => (grouping === 'by-shape' ? chunks(members, MAX_STACK) : [members]))
    .map((members) => ({ members, decay: params[members[0]!]!.decay ?? true, stacked: stacks(params[members[0]!]!.shape) }));
}

/** The shape of a group's joined tensor. */
export function joinedShape(group: StackGroup, shapes: readonly (readonly number[])[]): number[] {
  const first = shapes[group.members[0]!]!;
  if (group.stacked) return [group.members.reduce((n, i) => n + shapes[i]![0]!, 0), ...first.slice(1)];
  return [group.members.reduce((n, i) => n + shapes[i]!.reduce((a, b) => a * b, 1), 0)];
}

/** Joins a group's tensors (stacked along axis 0, or flattened and concatenated). */
function joinGroup(group: StackGroup, ts: readonly Tensor[]): Tensor {
  const rows = (t: Tensor) => (group.stacked || t.rank === 1 ? t : reshape(t, [-1]));
  return ts.length === 1 ? rows(ts[0]!) : concat(ts.map(rows), 0);
}

/** The member tensors back out of a group's joined tensor, in their shapes. */
function splitGroup(group: StackGroup, joined: Tensor, shapes: readonly (readonly (number | string)[])[]): Tensor[] {
  let offset = 0;
  return group.members.map((i) => {
    const shape = shapes[i]!;
    const n = group.stacked ? Number(shape[0]) : shape.reduce((a: number, b) => a * Number(b), 1);
    const part = group.members.length === 1 ? joined : slice(joined, [offset], [offset + n], [0]);
    offset += n;
    return group.stacked || shape.length === 1 ? part : reshape(part, shape);
  });
}

/** The groups of the slots, their joined gradients and the global-norm clip over them. */
function clippedGroups(slots: readonly { param: Tensor; grad: Tensor; decay?: boolean }[], maxNorm: number, grouping: MultiTensorGrouping) {
  const groups = multiTensorGroups(
    slots.map((s) => ({ shape: s.param.shape, decay: s.decay ?? true })),
    grouping,
  );
  const grads = groups.map((g) =>
    joinGroup(
      g,
      g.members.map((i) => slots[i]!.grad),
    ),
  );
  return { groups, grads, ...globalNormClip(grads, maxNorm) };
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
  const { groups, grads, norm, coef, squares } = clippedGroups(slots, maxNorm, grouping);
  const join = (g: StackGroup, pick: (s: AdamWSlot) => Tensor) =>
    joinGroup(
      g,
      g.members.map((i) => pick(slots[i]!)),
    );
  // One adamwStep over the joined groups: the bias corrections are computed once for all of them.
  const joined = adamwStep(
    groups.map((g, k) => ({
      param: join(g, (s) => s.param),
      grad: grads[k]!,
      gradSquared: squares[k]!,
      ...(coef ? { gradScale: coef } : {}),
      m: join(g, (s) => s.m),
      v: join(g, (s) => s.v),
      decay: g.decay,
    })),
    lr,
    step,
    cfg,
  );
  const results: AdamWResult[] = new Array(slots.length);
  const shapes = slots.map((s) => s.param.shape);
  groups.forEach((g, k) => {
    const r = joined[k]!;
    const [params, ms, vs] = [r.param, r.m, r.v].map((t) => splitGroup(g, t, shapes));
    g.members.forEach((i, j) => (results[i] = { param: params![j]!, m: ms![j]!, v: vs![j]! }));
  });
  return { results, norm };
}

/**
 * The same clipping and AdamW with the moments kept joined: `moments[k]` is group k's m and v as
 * one tensor each (shape `joinedShape`), and they come back that way. Only the gradients are joined
 * and only the step δ split, so no pass copies a parameter, m or v into a stack or out of one
 * (the state of the IO-bound step lives stacked).
 */
export function clippedAdamwStacked(
  slots: readonly { param: Tensor; grad: Tensor; decay?: boolean }[],
  moments: readonly { m: Tensor; v: Tensor }[],
  lr: Tensor,
  step: Tensor,
  cfg: AdamWConfig,
  maxNorm: number,
): { params: Tensor[]; moments: { m: Tensor; v: Tensor }[]; norm: Tensor } {
  const { groups, grads, norm, coef, squares } = clippedGroups(slots, maxNorm, 'by-shape');
  if (moments.length !== groups.length) throw new RangeError(`clippedAdamwStacked: ${groups.length} groups, ${moments.length} stacked moments`);
  const moved = adamwMoments(
    groups.map((_, k) => ({ grad: grads[k]!, gradSquared: squares[k]!, ...(coef ? { gradScale: coef } : {}), m: moments[k]!.m, v: moments[k]!.v })),
    lr,
    step,
    cfg,
  );
  const params: Tensor[] = new Array(slots.length);
  const shapes = slots.map((s) => s.param.shape);
  groups.forEach((g, k) => {
    const deltas = splitGroup(g, moved[k]!.delta, shapes);
    g.members.forEach((i, j) => (params[i] = sub(decayed(slots[i]!.param, g.decay, lr, cfg), deltas[j]!)));
  });
  return { params, moments: moved.map(({ m, v }) => ({ m, v })), norm };
}
