// K training steps in one ONNX Runtime call: the fused step graph becomes the body of an ONNX
// `Loop` whose loop-carried state is every parameter, both AdamW moments and the step counter. The
// batches of the K steps come in stacked along a leading `steps` axis (the body gathers row
// `iteration`), the learning rate as a [K] vector, and the per-step loss and gradient norm come back
// as [K] scan outputs. Why: onnxruntime-node has no device-resident tensors for the CUDA provider,
// so a one-step graph moves every parameter and moment through host memory on each call; inside a
// Loop the CUDA provider keeps the carried state on the GPU for all K steps (its Loop kernel runs
// the body there), and the transfer is paid once per K steps. On the CPU provider the Loop gives
// the same numbers as K fused steps, which the tests check. Under loss scaling (float16) the
// scaler's state is carried too and the step graph advances the AdamW counter only on finite steps,
// so K steps in one call skip and rescale exactly as K single steps.
import { emitOnnx } from '../graph/index.js';
import type { DType } from '../dtype.js';
import type { OnnxDim, OnnxGraph, OnnxModel, OnnxNode, OnnxValueInfo } from '../onnx/model.js';
import { type StepGraphSpec, buildFusedStep, momentStacks, scalerNames, stepNames } from './step.js';

/** Names of the loop graph's inputs and outputs that differ from the one-step graph's. */
export const loopNames = {
  /** Stacked batch input: [K, …batch shape]. */
  stacked: (name: string) => `${name}.steps`,
  /** Learning rate per step: [K]. */
  lrs: 'lr.steps',
  /** Step counter after the K steps (the next step's number). */
  nextStep: 'updated.step',
} as const;

const STEPS_DIM = 'steps';
const inBody = (name: string) => (name === '' ? '' : `body/${name}`);

/** Names of the carried state in loop order: each parameter, then its two moments, then the loss scaler's state. */
export function stateNames(spec: Pick<StepGraphSpec, 'params' | 'lossScaling' | 'optimizerLayout' | 'stackedMoments'>): string[] {
  if (spec.stackedMoments) return [...spec.params.map((p) => p.name), ...momentStacks(spec).flatMap((st) => [st.m, st.v]), ...scalerNames(spec)];
  return [...spec.params.flatMap((p) => [p.name, stepNames.m(p.name), stepNames.v(p.name)]), ...scalerNames(spec)];
}

/**
 * The K-step model. Inputs: the state tensors (same names as the fused graph), `step` (the first
 * step's number), `lr.steps` [K] and each batch input stacked as `<name>.steps`. Outputs: the
 * `updated.*` state after K steps, `updated.step`, and `loss` / `grad_norm` as [K] vectors. K is
 * read from the length of `lr.steps`, so one session serves any number of steps per call.
 */
export function buildLoopStepModel(spec: StepGraphSpec): OnnxModel {
  const dtype: DType = spec.dtype ?? 'float32';
  const step = emitOnnx(buildFusedStep(spec), { name: 'train_step' }).model;
  const valueInfo = (name: string) => {
    const v = [...step.inputs, ...step.outputs].find((x) => x.name === name);
    if (!v) throw new RangeError(`buildLoopStepModel: the step graph has no tensor "${name}"`);
    return v;
  };
  const carried = stateNames(spec);
  const scanned = step.outputs.map((o) => o.name).filter((n) => !n.startsWith('updated.'));
  const stepInputs = new Set([...carried, stepNames.step]);
  const perStep = step.inputs.filter((i) => !stepInputs.has(i.name)); // batch tensors and lr
  // Under loss scaling the step graph itself advances the AdamW counter (not on a skipped step).
  const countsSteps = step.outputs.some((o) => o.name === loopNames.nextStep);

  // --- the body: (iteration, cond, state…, step) → (cond, state'…, step + 1, loss, grad_norm, …)
  const rename = (n: OnnxNode): OnnxNode => ({ ...n, ...(n.name ? { name: inBody(n.name) } : {}), inputs: n.inputs.map(inBody), outputs: n.outputs.map(inBody) });
  const gathers: OnnxNode[] = perStep.map((i) => ({
    opType: 'Gather',
    name: inBody(`gather_${i.name}`),
    inputs: [i.name === stepNames.lr ? loopNames.lrs : loopNames.stacked(i.name), inBody('iteration')],
    outputs: [inBody(i.name)],
    attributes: { axis: { type: 'int', value: 0 } },
  }));
  const one = { name: inBody('one'), dtype, shape: [], data: dtype === 'float64' ? Float64Array.of(1) : Float32Array.of(1) };
  const body: OnnxGraph = {
    graphName: 'train_step_body',
    inputs: [
      { name: inBody('iteration'), dtype: 'int64', shape: [] },
      { name: inBody('cond'), dtype: 'bool', shape: [] },
      ...carried.map((n) => ({ ...valueInfo(n), name: inBody(n) })),
      { name: inBody(stepNames.step), dtype, shape: [] },
    ],
    outputs: [
      { name: inBody('cond_out'), dtype: 'bool', shape: [] },
      ...carried.map((n) => ({ ...valueInfo(stepNames.updated(n)), name: inBody(stepNames.updated(n)) })),
      { name: inBody(loopNames.nextStep), dtype, shape: [] },
      ...scanned.map((n) => ({ ...valueInfo(n), name: inBody(n) })),
    ],
    initializers: [...step.initializers.map((t) => ({ ...t, name: inBody(t.name) })), ...(countsSteps ? [] : [one])],
    nodes: [
      ...gathers,
      ...step.nodes.map(rename),
      { opType: 'Identity', name: inBody('keep_going'), inputs: [inBody('cond')], outputs: [inBody('cond_out')] },
      ...(countsSteps ? [] : [{ opType: 'Add', name: inBody('next_step'), inputs: [inBody(stepNames.step), one.name], outputs: [inBody(loopNames.nextStep)] }]),
    ],
  };

  // --- the outer graph: K from the length of lr.steps, cond = true, one Loop node.
  const stacked = (v: OnnxValueInfo): OnnxValueInfo => ({ name: v.name === stepNames.lr ? loopNames.lrs : loopNames.stacked(v.name), dtype: v.dtype, shape: [STEPS_DIM, ...(v.shape as OnnxDim[])] });
  const scanInfo = (n: string): OnnxValueInfo => ({ ...valueInfo(n), shape: [STEPS_DIM, ...(valueInfo(n).shape as OnnxDim[])] });
  return {
    graphName: 'train_steps_loop',
    opset: step.opset,
    inputs: [...carried.map(valueInfo), { name: stepNames.step, dtype, shape: [] }, ...perStep.map(stacked)],
    outputs: [...carried.map((n) => valueInfo(stepNames.updated(n))), { name: loopNames.nextStep, dtype, shape: [] }, ...scanned.map(scanInfo)],
    initializers: [
      { name: 'loop_true', dtype: 'bool', shape: [], data: Uint8Array.of(1) },
      { name: 'loop_axis0', dtype: 'int64', shape: [1], data: BigInt64Array.of(0n) },
    ],
    nodes: [
      { opType: 'Shape', name: 'steps_shape', inputs: [loopNames.lrs], outputs: ['loop_steps_1d'] },
      { opType: 'Squeeze', name: 'steps_count', inputs: ['loop_steps_1d', 'loop_axis0'], outputs: ['loop_steps'] },
      {
        opType: 'Loop',
        name: 'train_steps',
        inputs: ['loop_steps', 'loop_true', ...carried, stepNames.step],
        outputs: [...carried.map(stepNames.updated), loopNames.nextStep, ...scanned],
        attributes: { body: { type: 'graph', value: body } },
      },
    ],
  };
}
