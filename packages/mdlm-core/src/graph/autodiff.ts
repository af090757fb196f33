// Reverse-mode differentiation of a graph: walk the ops that lead to the objective in reverse
// topological order, apply each op's VJP rule, sum broadcast gradients back to their input's
// shape, and add up gradients that reach a tensor along several paths.
import { NONDIFF } from './op.js';
import { add } from './ops/elementwise.js';
import { zerosLike } from './ops/misc.js';
import { reduceSum } from './ops/reduce.js';
import { reshape } from './ops/shape-ops.js';
import { GraphError, formatShape, sameShape, type Shape } from './shape.js';
import type { Tensor } from './tensor.js';
import { isFloat } from '../dtype.js';

/** Tensors that `roots` depend on, inputs before users. */
export function topoOrder(roots: readonly Tensor[]): Tensor[] {
  const order: Tensor[] = [];
  const seen = new Set<number>();
  const stack: { t: Tensor; expanded: boolean }[] = roots.map((t) => ({ t, expanded: false }));
  while (stack.length) {
    const top = stack.pop()!;
    if (top.expanded) {
      order.push(top.t);
      continue;
    }
    if (seen.has(top.t.id)) continue;
    seen.add(top.t.id);
    stack.push({ t: top.t, expanded: true });
    if (top.t.source.kind === 'op') for (const x of top.t.source.inputs) if (!seen.has(x.id)) stack.push({ t: x, expanded: false });
  }
  return order;
}

/** Sums a gradient that was computed at a broadcast shape back down to `shape`. */
export function unbroadcast(op: string, g: Tensor, shape: Shape): Tensor {
  if (sameShape(g.shape, shape)) return g;
  const lead = g.rank - shape.length;
  if (lead < 0) throw new GraphError(op, `gradient ${formatShape(g.shape)} has lower rank than its input ${formatShape(shape)}`);
  const axes: number[] = [];
  for (let i = 0; i < g.rank; i++) {
    if (i < lead) axes.push(i);
    else if (shape[i - lead] === 1 && g.shape[i] !== 1) axes.push(i);
    else if (shape[i - lead] !== g.shape[i]) throw new GraphError(op, `gradient ${formatShape(g.shape)} does not broadcast to input ${formatShape(shape)}`);
  }
  const summed = axes.length ? reduceSum(g, axes, true) : g;
  return sameShape(summed.shape, shape) ? summed : reshape(summed, shape);
}

export interface GradOptions {
  /** Gradient of the final objective with respect to `y` (default: 1 for a scalar `y`). */
  seed?: Tensor;
}

/**
 * Gradients of `y` with respect to each tensor of `wrt` (inputs or intermediate tensors), as new
 * tensors of the same graph. Tensors that `y` does not depend on get zeros.
 */
export function grad(y: Tensor, wrt: readonly Tensor[], opts: GradOptions = {}): Tensor[] {
  if (!isFloat(y.dtype)) throw new GraphError('grad', `objective must be floating point, got ${y.dtype}`);
  if (!opts.seed && y.rank !== 0) throw new GraphError('grad', `objective must be a scalar (shape []), got ${formatShape(y.shape)}; pass a seed for other shapes`);
  if (opts.seed && !sameShape(opts.seed.shape, y.shape)) throw new GraphError('grad', `seed ${formatShape(opts.seed.shape)} must match objective ${formatShape(y.shape)}`);

  const order = topoOrder([y]);
  const targets = new Set(wrt.map((t) => t.id));
  // A tensor needs a gradient when some target lies upstream of it.
  const dependsOnTarget = new Set<number>();
  for (const t of order) {
    if (targets.has(t.id) || (t.source.kind === 'op' && t.source.op.vjp !== NONDIFF && t.source.inputs.some((x) => dependsOnTarget.has(x.id)))) dependsOnTarget.add(t.id);
  }

  const grads = new Map<number, Tensor>([[y.id, opts.seed ?? y.graph.scalar(1, y.dtype)]]);
  for (let i = order.length - 1; i >= 0; i--) {
    const t = order[i]!;
    const dy = grads.get(t.id);
    if (!dy || t.source.kind !== 'op' || t.source.op.vjp === NONDIFF) continue;
    const { op, inputs, attrs } = t.source;
    const needed = inputs.map((x) => dependsOnTarget.has(x.id));
    if (!needed.some(Boolean)) continue;
    const rule = op.vjp as Exclude<typeof op.vjp, typeof NONDIFF>;
    const gs = rule({ inputs, out: t, attrs, dy, needed });
    if (gs.length !== inputs.length) throw new GraphError(op.name, `VJP returned ${gs.length} gradients for ${inputs.length} inputs`);
    gs.forEach((g, k) => {
      if (!g || !needed[k]) return;
      const x = inputs[k]!;
      const gx = unbroadcast(op.name, g, x.shape);
      if (gx.dtype !== x.dtype) throw new GraphError(op.name, `gradient dtype ${gx.dtype} differs from input dtype ${x.dtype}`);
      const prev = grads.get(x.id);
      grads.set(x.id, prev ? add(prev, gx) : gx);
    });
  }
  return wrt.map((t) => grads.get(t.id) ?? zerosLike(t));
}
