// Training-step graphs. Without gradient accumulation one fused graph does forward, loss,
// backward, clipping and AdamW; with accumulation a `grad` graph runs per micro-batch and an
// `apply` graph updates once. Parameters and moments are graph inputs and outputs, named with
// Hugging Face module paths so checkpoints copy in and out without renaming.
import { type Autocast, type DType, Graph, type Shape, type Tensor, add, cast, grad, greaterOrEqual, identity, less, mul, not, reciprocal, where } from '../graph/index.js';
import { ADAMW_DEFAULTS, type AdamWConfig, adamwStep, clippedAdamwMultiTensor, clippedAdamwStacked, globalNormClip, joinedShape, multiTensorGroups } from '../optim/index.js';
import type { ParamSpec } from '../nn/params.js';

// ParamSpec lives with the model (nn/params.ts); re-exported here for the trainer's callers.
export type { ParamSpec } from '../nn/params.js';

export interface InputSpec {
  name: string;
  dtype: DType;
  shape: Shape;
}

/** Builds the scalar loss from parameter and batch tensors (and may return extra named outputs). */
export type LossFn = (params: Readonly<Record<string, Tensor>>, batch: Readonly<Record<string, Tensor>>) => { loss: Tensor; outputs?: Record<string, Tensor> };

export type OptimizerLayout = 'flat' | 'by-shape' | 'per-tensor';

export interface StepGraphSpec {
  params: readonly ParamSpec[];
  batch: readonly InputSpec[];
  loss: LossFn;
  /** Float type of parameters and optimizer state. */
  dtype?: 'float32' | 'float64';
  optimizer?: Partial<AdamWConfig>;
  /** Global gradient-norm clip; 0 or Infinity disables. */
  clipNorm?: number;
  /** Mixed precision of the loss's MatMuls (forward and backward); state stays in `dtype`. */
  autocast?: Autocast;
  /**
   * ONNX opset of the step graphs (default 18). From 23 the decoder rotates q and k with one
   * RotaryEmbedding node each when the loss passes `rope` tables (`ropeInputs`); `opsetFor` picks it
   * per provider.
   */
  opset?: number;
  /**
   * 'by-shape' (default): clipping and AdamW on the parameters of one decay group and shape
   * stacked (few ONNX nodes, no group-sized buffers: on an H200 at 100M parameters 73 ms a step
   * against 81 per-tensor); 'flat': on each decay group flattened into one vector (its 400 MB
   * concatenations grew the CUDA provider's memory past the host's at 100M parameters);
   * 'per-tensor': one chain per parameter. Same numbers up to the norm's rounding.
   */
  optimizerLayout?: OptimizerLayout;
  /**
   * Dynamic loss scaling (float16 training, as PyTorch's GradScaler): the loss is multiplied by the
   * scale S (input `loss_scale`) before the backward pass and the gradients by 1/S before clipping.
   * A step whose gradient norm is not finite changes nothing (parameters, moments and the AdamW step
   * counter stay) and halves S; `growthInterval` finite steps in a row double it.
   */
  lossScaling?: { growthInterval: number };
  /**
   * Keep AdamW's moments joined, one m and one v per by-shape group (`momentStacks`), as inputs and
   * outputs: the update then copies no parameter or moment into a stack or out of one (~4 GB a step
   * at 100M parameters). The IO-bound step's state lives this way; checkpoints stay per parameter
   * (`stackMoments` / `unstackMoments` convert on the host). Needs the 'by-shape' layout.
   */
  stackedMoments?: boolean;
}

/** GradScaler's defaults: initial scale 2^16, doubled after 2000 finite steps, halved on overflow. */
export const LOSS_SCALING_DEFAULTS = { initScale: 2 ** 16, growthInterval: 2000 } as const;

/** Names of the tensors that flow in and out of step graphs. */
export const stepNames = {
  m: (p: string) => `adam_m.${p}`,
  v: (p: string) => `adam_v.${p}`,
  /** Group k's joined moments (StepGraphSpec.stackedMoments). */
  stackedM: (k: number) => `adam_m.stack:${k}`,
  stackedV: (k: number) => `adam_v.stack:${k}`,
  grad: (p: string) => `grad.${p}`,
  updated: (name: string) => `updated.${name}`,
  lr: 'lr',
  step: 'step',
  gradScale: 'grad_scale',
  loss: 'loss',
  gradNorm: 'grad_norm',
  /** Loss scaling: the scale S, the finite steps since it last changed, the S a step used, 1 if it was skipped. */
  lossScale: 'loss_scale',
  goodSteps: 'loss_scale.good_steps',
  usedScale: 'loss_scale.used',
  skipped: 'skipped',
} as const;

/** The scaler's state tensors (inputs with updated.* outputs) when the spec scales the loss. */
export function scalerNames(spec: Pick<StepGraphSpec, 'lossScaling'>): string[] {
  return spec.lossScaling ? [stepNames.lossScale, stepNames.goodSteps] : [];
}

/** One joined moment pair of a stackedMoments spec: its names, shape, and the parameters it holds in order. */
export interface MomentStack {
  m: string;
  v: string;
  shape: number[];
  members: { name: string; size: number }[];
}

/** The joined moments of a stackedMoments spec (the by-shape groups of the optimizer, in order). */
export function momentStacks(spec: Pick<StepGraphSpec, 'params' | 'optimizerLayout'>): MomentStack[] {
  if ((spec.optimizerLayout ?? 'by-shape') !== 'by-shape') throw new RangeError(`stackedMoments needs the 'by-shape' optimizer layout, the spec has '${spec.optimizerLayout}'`);
  const shapes = spec.params.map((p) => p.shape.map(Number));
  return multiTensorGroups(spec.params).map((group, k) => ({
    m: stepNames.stackedM(k),
    v: stepNames.stackedV(k),
    shape: joinedShape(group, shapes),
    members: group.members.map((i) => ({ name: spec.params[i]!.name, size: shapes[i]!.reduce((a, b) => a * b, 1) })),
  }));
}

/** A stack's joined m and v names, each with the per-parameter name it holds. */
const momentPairs = (s: MomentStack) =>
  [
    [s.m, stepNames.m],
    [s.v, stepNames.v],
  ] as const;

/** Per-parameter moments (adam_m.<p> / adam_v.<p>) joined into a stackedMoments spec's tensors. */
export function stackMoments<A extends Float32Array | Float64Array>(stacks: readonly MomentStack[], perParam: (name: string, size: number) => A): Record<string, A> {
  const out: Record<string, A> = {};
  for (const s of stacks) {
    for (const [joined, nameOf] of momentPairs(s)) {
      const parts = s.members.map((mem) => perParam(nameOf(mem.name), mem.size));
      const data = new (parts[0]!.constructor as new (n: number) => A)(parts.reduce((n, p) => n + p.length, 0));
      let offset = 0;
      for (const p of parts) data.set(p, (offset += p.length) - p.length);
      out[joined] = data;
    }
  }
  return out;
}

/** A stackedMoments spec's joined moments split back into per-parameter arrays (views, no copy). */
export function unstackMoments<A extends Float32Array | Float64Array>(stacks: readonly MomentStack[], joined: (name: string) => A): Record<string, A> {
  const out: Record<string, A> = {};
  for (const s of stacks) {
    for (const [name, nameOf] of momentPairs(s)) {
      const data = joined(name);
      let offset = 0;
      for (const mem of s.members) {
        out[nameOf(mem.name)] = data.subarray(offset, offset + mem.size) as A;
        offset += mem.size;
      }
    }
  }
  return out;
}

/** The loss scale S as a graph input, when the spec scales the loss. */
const lossScaleInput = (g: Graph, spec: Pick<StepGraphSpec, 'lossScaling'>, dtype: DType): Tensor | undefined => (spec.lossScaling ? g.input(stepNames.lossScale, dtype, []) : undefined);

/** Gradients of the loss, or of S·loss under loss scaling (what the backward pass and its half GEMMs see): still scaled by S. */
function lossGrads(spec: StepGraphSpec, loss: Tensor, params: Record<string, Tensor>, scale: Tensor | undefined): Tensor[] {
  return grad(
    scale ? mul(loss, scale) : loss,
    spec.params.map((p) => params[p.name]!),
  );
}

function declare(g: Graph, spec: StepGraphSpec) {
  const dtype = spec.dtype ?? 'float32';
  const params = Object.fromEntries(spec.params.map((p) => [p.name, g.input(p.name, dtype, p.shape)]));
  const batch = Object.fromEntries(spec.batch.map((b) => [b.name, g.input(b.name, b.dtype, b.shape)]));
  g.autocast = spec.autocast;
  if (spec.opset !== undefined) g.opset = spec.opset;
  return { dtype, params, batch };
}

/** Clip and AdamW from unscaled gradients; under loss scaling `lossScale` is the S input the scaler updates. */
function update(g: Graph, spec: StepGraphSpec, dtype: DType, params: Record<string, Tensor>, grads: Tensor[], lossScale?: Tensor): void {
  const lr = g.input(stepNames.lr, dtype, []);
  const step = g.input(stepNames.step, dtype, []);
  const cfg = { ...ADAMW_DEFAULTS, ...spec.optimizer };
  const clipNorm = spec.clipNorm ?? 1.0;
  if (spec.stackedMoments) {
    const stacks = momentStacks(spec);
    const moments = stacks.map((s) => ({ m: g.input(s.m, dtype, s.shape), v: g.input(s.v, dtype, s.shape) }));
    const r = clippedAdamwStacked(
      spec.params.map((p, i) => ({ param: params[p.name]!, grad: grads[i]!, decay: p.decay ?? true })),
      moments,
      lr,
      step,
      cfg,
      clipNorm,
    );
    const keep = spec.lossScaling && lossScale ? scalerUpdate(g, spec.lossScaling.growthInterval, dtype, lossScale, r.norm, step) : (fresh: Tensor) => fresh;
    spec.params.forEach((p, i) => g.output(stepNames.updated(p.name), keep(r.params[i]!, params[p.name]!)));
    stacks.forEach((s, k) => {
      g.output(stepNames.updated(s.m), keep(r.moments[k]!.m, moments[k]!.m));
      g.output(stepNames.updated(s.v), keep(r.moments[k]!.v, moments[k]!.v));
    });
    g.output(stepNames.gradNorm, r.norm);
    return;
  }
  const slots = spec.params.map((p, i) => ({
    param: params[p.name]!,
    grad: grads[i]!,
    m: g.input(stepNames.m(p.name), dtype, p.shape),
    v: g.input(stepNames.v(p.name), dtype, p.shape),
    decay: p.decay ?? true,
  }));
  let results, norm;
  const layout = spec.optimizerLayout ?? 'by-shape';
  if (layout !== 'per-tensor') ({ results, norm } = clippedAdamwMultiTensor(slots, lr, step, cfg, clipNorm, layout));
  else {
    const clip = globalNormClip(grads, clipNorm);
    norm = clip.norm;
    results = adamwStep(
      slots.map((s, i) => ({ ...s, gradSquared: clip.squares[i]!, ...(clip.coef ? { gradScale: clip.coef } : {}) })),
      lr,
      step,
      cfg,
    );
  }
  const keep = spec.lossScaling && lossScale ? scalerUpdate(g, spec.lossScaling.growthInterval, dtype, lossScale, norm, step) : (fresh: Tensor) => fresh;
  spec.params.forEach((p, i) => {
    g.output(stepNames.updated(p.name), keep(results[i]!.param, slots[i]!.param));
    g.output(stepNames.updated(stepNames.m(p.name)), keep(results[i]!.m, slots[i]!.m));
    g.output(stepNames.updated(stepNames.v(p.name)), keep(results[i]!.v, slots[i]!.v));
  });
  g.output(stepNames.gradNorm, norm);
}

/**
 * GradScaler's bookkeeping inside the graph. The step is finite when the global norm is below
 * +inf: NaN < inf and inf < inf are both false, so one comparison catches either (an inf gradient
 * makes the norm inf, a NaN one NaN). Outputs the next scale, good-step count and AdamW step
 * counter (which does not advance on a skipped step), the scale used and the skip flag; returns
 * the gate that keeps a state tensor's old value on a skipped step.
 */
function scalerUpdate(g: Graph, growthInterval: number, dtype: DType, scale: Tensor, norm: Tensor, step: Tensor): (fresh: Tensor, old: Tensor) => Tensor {
  const good = g.input(stepNames.goodSteps, dtype, []);
  const finite = less(norm, Number.POSITIVE_INFINITY);
  const goodNext = where(finite, add(good, 1), 0);
  const grow = greaterOrEqual(goodNext, growthInterval);
  g.output(stepNames.updated(stepNames.lossScale), where(finite, where(grow, mul(scale, 2), scale), mul(scale, 0.5)));
  g.output(stepNames.updated(stepNames.goodSteps), where(grow, 0, goodNext));
  g.output(stepNames.updated(stepNames.step), add(step, cast(finite, dtype)));
  g.output(stepNames.usedScale, identity(scale));
  g.output(stepNames.skipped, cast(not(finite), dtype));
  return (fresh, old) => where(finite, fresh, old);
}

/** One graph: loss → gradients → clip → AdamW. Outputs loss, grad_norm and updated.* tensors. */
export function buildFusedStep(spec: StepGraphSpec): Graph {
  const g = new Graph();
  const { dtype, params, batch } = declare(g, spec);
  const { loss, outputs } = spec.loss(params, batch);
  g.output(stepNames.loss, loss);
  for (const [k, t] of Object.entries(outputs ?? {})) g.output(k, t);
  const scale = lossScaleInput(g, spec, dtype);
  const grads = lossGrads(spec, loss, params, scale);
  const inv = scale && reciprocal(scale);
  update(g, spec, dtype, params, inv ? grads.map((t) => mul(t, inv)) : grads, scale);
  return g;
}

/** The loss alone, forward only (evaluation). */
export function buildLossGraph(spec: StepGraphSpec): Graph {
  const g = new Graph();
  const { params, batch } = declare(g, spec);
  g.output(stepNames.loss, spec.loss(params, batch).loss);
  return g;
}

/** Micro-batch graph: loss and grad.* for each parameter (no update). */
export function buildGradStep(spec: StepGraphSpec): Graph {
  const g = new Graph();
  const { dtype, params, batch } = declare(g, spec);
  const { loss, outputs } = spec.loss(params, batch);
  g.output(stepNames.loss, loss);
  for (const [k, t] of Object.entries(outputs ?? {})) g.output(k, t);
  // Under loss scaling the gradients stay scaled by S here; the apply graph unscales their sum.
  lossGrads(spec, loss, params, lossScaleInput(g, spec, dtype)).forEach((t, i) => g.output(stepNames.grad(spec.params[i]!.name), t));
  return g;
}

/** Adds two sets of gradients: grad.* + acc.grad.* → updated.grad.*. */
export function buildAccumulateStep(spec: Pick<StepGraphSpec, 'params' | 'dtype'>): Graph {
  const g = new Graph();
  const dtype = spec.dtype ?? 'float32';
  for (const p of spec.params) {
    const a = g.input(stepNames.grad(p.name), dtype, p.shape);
    const b = g.input(`acc.${stepNames.grad(p.name)}`, dtype, p.shape);
    g.output(stepNames.updated(stepNames.grad(p.name)), add(a, b));
  }
  return g;
}

/** Update from summed gradients scaled by grad_scale (1 / micro-batches, and 1/S under loss scaling): clip, AdamW. */
export function buildApplyStep(spec: Pick<StepGraphSpec, 'params' | 'dtype' | 'optimizer' | 'clipNorm' | 'lossScaling'>): Graph {
  const g = new Graph();
  const dtype = spec.dtype ?? 'float32';
  const params = Object.fromEntries(spec.params.map((p) => [p.name, g.input(p.name, dtype, p.shape)]));
  const gradScale = g.input(stepNames.gradScale, dtype, []);
  const lossScale = lossScaleInput(g, spec, dtype);
  const scale = lossScale ? mul(gradScale, reciprocal(lossScale)) : gradScale;
  const grads = spec.params.map((p) => mul(g.input(stepNames.grad(p.name), dtype, p.shape), scale));
  update(g, { ...spec, batch: [], loss: () => ({ loss: gradScale }) }, dtype, params, grads, lossScale);
  return g;
}
