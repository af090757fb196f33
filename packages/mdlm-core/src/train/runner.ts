// Runs training steps repeatedly: parameters and AdamW moments are fed in, the updated.* outputs
// become the next step's inputs (no copies; on WebGPU they never leave the GPU), and the learning
// rate comes from a host-side schedule. One micro-batch per step runs the fused graph; several run
// the grad graph per micro-batch, sum gradients with the accumulate graph and update once with the
// apply graph (the engine shape of shared/DESIGN.md). With `stepsPerCall` > 1 a Loop graph runs
// several steps per ORT call so that the state stays on the device in between (loop-step.ts); that
// is what keeps CUDA training off the host bus. A forward-only graph evaluates held-out loss.
import { type Autocast, DEFAULT_OPSET, emitOnnx } from '../graph/index.js';
import { encodeModel } from '../onnx/model.js';
import { type Schedule, constant } from '../optim/index.js';
import { type HostTensor, type ProviderName, type Session, type SessionValue, createSession, hostTensor, selectProvider, toHost } from '../runtime/index.js';
import { loadCApi } from '../runtime/capi/index.js';
import { BoundStep } from './bound-step.js';
import { buildLoopStepModel, loopNames, stateNames } from './loop-step.js';
import {
  LOSS_SCALING_DEFAULTS,
  type StepGraphSpec,
  buildAccumulateStep,
  buildApplyStep,
  buildFusedStep,
  buildGradStep,
  buildLossGraph,
  momentStacks,
  scalerNames,
  stackMoments,
  stepNames,
  unstackMoments,
} from './step.js';

export interface StepRunnerOptions {
  provider?: ProviderName;
  schedule?: Schedule;
  /** First step number (1-based), for resuming. */
  startStep?: number;
  /** Micro-batches per optimizer step (default 1: the fused graph). */
  gradAccum?: number;
  /** AdamW moments to resume from, named `adam_m.<param>` / `adam_v.<param>` (zeros when absent). */
  moments?: Readonly<Record<string, Float32Array | Float64Array>>;
  /**
   * Most optimizer steps per ORT call (default 1). Above 1, `steps()` runs up to this many steps in
   * one Loop graph and the state crosses host memory once per call instead of once per step (the
   * CUDA provider's fast path). Needs gradAccum 1.
   */
  stepsPerCall?: number;
  /**
   * 'bfloat16': mixed precision — MatMuls (forward and backward), the SwiGLU activation and the
   * attention block in bfloat16; parameters, moments, norms and loss in float32. Real bfloat16 on CUDA; on
   * other providers the same roundings around float32 MatMuls (no speed-up; for tests). Default float32.
   */
  precision?: Precision;
  /** float16's dynamic loss scaling: initial scale (default 2^16) and growth interval (default 2000). */
  lossScaling?: { initScale?: number; growthInterval?: number };
  /** The scaler's state to resume from (float16; see `scalerState()`). */
  scaler?: ScalerState;
  /**
   * Run the fused step through ORT's C API with IO binding (train/bound-step.ts): the state stays in
   * two sets of session-owned buffers (GPU memory on CUDA) and, on CUDA, each step replays a CUDA
   * graph. Default: on for CUDA with gradAccum 1 and stepsPerCall 1 when the C API loads (see
   * `boundStepSupport()`), off elsewhere. `true` on another provider than the CPU or CUDA, or with
   * gradient accumulation or a Loop, is an error.
   */
  ioBinding?: boolean;
  /** With ioBinding on CUDA: capture and replay CUDA graphs (default true). */
  cudaGraph?: boolean;
  /** With ioBinding: keep AdamW's moments joined per optimizer group (StepGraphSpec.stackedMoments; default true with the 'by-shape' layout). */
  stackedMoments?: boolean;
}

/** Whether the IO-bound step can run here: the C API's loading error, or undefined when it can. */
export function boundStepSupport(): string | undefined {
  return loadCApi().error;
}

/** How training steps run by default on a provider (one micro-batch per step), and why. */
export function defaultTrainingPath(provider: ProviderName): { path: 'io-binding+cuda-graph' | 'loop' | 'session'; detail: string } {
  if (provider === 'cuda') {
    const error = boundStepSupport();
    return error
      ? { path: 'loop', detail: `16 steps per Loop graph, state on the GPU within a call (the IO-bound path is unavailable: ${error})` }
      : { path: 'io-binding+cuda-graph', detail: 'state on the GPU, each step one CUDA graph replay (ORT C API through koffi)' };
  }
  return provider === 'webgpu' ? { path: 'session', detail: 'state in WebGPU buffers, one session run per step' } : { path: 'session', detail: 'one session run per step' };
}

/**
 * 'float16' is 'bfloat16' with float16 MatMuls and dynamic loss scaling (float16's range is too
 * small for unscaled gradients): see StepGraphSpec.lossScaling.
 */
export type Precision = 'float32' | 'bfloat16' | 'float16';

/** Loss scaler state: the scale, finite steps in a row since it changed, and the AdamW step counter (steps applied + 1). */
export interface ScalerState {
  scale: number;
  goodSteps: number;
  optimizerStep: number;
}

/** The autocast a precision gets on a provider: emulated where the provider has no half-precision GEMM. */
export function autocastFor(precision: Precision, provider: ProviderName): Autocast | undefined {
  if (precision === 'float32') return undefined;
  return provider === 'cuda' ? { dtype: precision } : { dtype: precision, emulate: true };
}

/**
 * The opset a provider's step graphs are emitted at: 23 where RotaryEmbedding has kernels (CUDA,
 * in float32, float16 and bfloat16; the CPU), 18 for WebGPU, whose kernels for the newer opsets
 * are not all there.
 */
export function opsetFor(provider: ProviderName): number {
  return provider === 'webgpu' ? DEFAULT_OPSET : 23;
}

export interface StepResult {
  step: number;
  /** Mean loss over the step's micro-batches. */
  loss: number;
  gradNorm: number;
  lr: number;
  /** Milliseconds inside ORT's run calls, and in the whole step() call. */
  runMs: number;
  totalMs: number;
  /** Under loss scaling (float16): the scale the step used, and whether it was skipped (gradients not finite). */
  lossScale?: number;
  skipped?: boolean;
}

type Batch = Readonly<Record<string, HostTensor>>;

interface Sessions {
  fused?: Session;
  loop?: Session;
  grad?: Session;
  accumulate?: Session;
  apply?: Session;
}

export class StepRunner {
  private stepNo: number;
  /** AdamW's step counter: equals stepNo unless loss scaling skipped steps. */
  private optimizerStep: number;
  private evalSession: Session | undefined;

  private constructor(
    readonly spec: StepGraphSpec,
    private readonly sessions: Sessions,
    private state: Record<string, SessionValue>,
    private readonly schedule: Schedule,
    startStep: number,
    optimizerStep: number,
    readonly gradAccum: number,
    readonly stepsPerCall: number,
    private readonly provider: ProviderName | undefined,
    /** Milliseconds to build + emit the graphs and to create the sessions. */
    readonly buildMs: number,
    readonly sessionMs: number,
    /** The IO-bound step (state in session-owned buffers), when `ioBinding` is on. */
    private readonly bound?: BoundStep,
  ) {
    this.stepNo = startStep;
    this.optimizerStep = optimizerStep;
  }

  static async create(baseSpec: StepGraphSpec, init: Readonly<Record<string, Float32Array | Float64Array>>, opts: StepRunnerOptions = {}): Promise<StepRunner> {
    const precision = opts.precision ?? 'float32';
    if (precision !== 'float32' && (baseSpec.dtype ?? 'float32') !== 'float32') throw new RangeError(`StepRunner: precision ${precision} needs float32 state, the spec's dtype is ${baseSpec.dtype}`);
    const provider = opts.provider ?? (await selectProvider());
    const autocast = autocastFor(precision, provider);
    const scaling = precision === 'float16' ? { ...LOSS_SCALING_DEFAULTS, ...opts.lossScaling } : undefined;
    if (scaling && !(Number.isInteger(scaling.growthInterval) && scaling.growthInterval >= 1))
      throw new RangeError(`StepRunner: lossScaling.growthInterval must be a positive integer, got ${scaling.growthInterval}`);
    if (scaling && !(scaling.initScale > 0 && Number.isFinite(scaling.initScale))) throw new RangeError(`StepRunner: lossScaling.initScale must be a finite positive number, got ${scaling.initScale}`);
    if (opts.scaler && !scaling) throw new RangeError(`StepRunner: a loss scaler state was given, but precision ${precision} does not scale the loss`);
    let spec: StepGraphSpec = {
      ...baseSpec,
      opset: baseSpec.opset ?? opsetFor(provider),
      ...(autocast ? { autocast } : {}),
      ...(scaling ? { lossScaling: { growthInterval: scaling.growthInterval } } : {}),
    };
    const dtype = spec.dtype ?? 'float32';
    const accum = opts.gradAccum ?? 1;
    if (!Number.isInteger(accum) || accum < 1) throw new RangeError(`StepRunner: gradAccum must be a positive integer, got ${accum}`);
    const perCall = opts.stepsPerCall ?? 1;
    if (!Number.isInteger(perCall) || perCall < 1) throw new RangeError(`StepRunner: stepsPerCall must be a positive integer, got ${perCall}`);
    if (perCall > 1 && accum > 1) throw new RangeError(`StepRunner: stepsPerCall ${perCall} needs gradAccum 1 (got ${accum}); use one or the other`);
    const bound = opts.ioBinding ?? (provider === 'cuda' && accum === 1 && perCall === 1 && boundStepSupport() === undefined);
    if (bound) {
      if (provider !== 'cuda' && provider !== 'cpu') throw new RangeError(`StepRunner: ioBinding runs on the CUDA provider or the CPU, not ${provider}`);
      if (accum > 1 || perCall > 1) throw new RangeError(`StepRunner: ioBinding runs the fused one-step graph; gradAccum ${accum} and stepsPerCall ${perCall} need it off`);
      const error = boundStepSupport();
      if (error) throw new RangeError(`StepRunner: ioBinding is not available: ${error}`);
      if (provider === 'cuda' && opts.cudaGraph !== false && baseSpec.optimizerLayout === 'flat')
        throw new RangeError(
          "StepRunner: CUDA graphs cannot replay the 'flat' optimizer layout (its Concats of unequal sizes read pointer tables from host memory); use 'by-shape' or cudaGraph: false",
        );
      if ((spec.optimizerLayout ?? 'by-shape') === 'by-shape' && opts.stackedMoments !== false) spec = { ...spec, stackedMoments: true };
    }
    const t0 = performance.now();
    const state = stateNames(spec);
    const device = (names: string[]) => Object.fromEntries(names.map((n) => [n, 'device' as const]));
    const providerOpt = { provider };
    const emitted: (readonly [string, Uint8Array, Record<string, 'device'>])[] = bound
      ? []
      : perCall > 1
        ? [['loop', encodeModel(buildLoopStepModel(spec)), device(state.map(stepNames.updated))]]
        : Object.entries(
            accum === 1
              ? { fused: { g: buildFusedStep(spec), outputs: device(state.map(stepNames.updated)) } }
              : {
                  grad: { g: buildGradStep(spec), outputs: device(spec.params.map((p) => stepNames.grad(p.name))) },
                  accumulate: { g: buildAccumulateStep(spec), outputs: device(spec.params.map((p) => stepNames.updated(stepNames.grad(p.name)))) },
                  apply: { g: buildApplyStep(spec), outputs: device(state.map(stepNames.updated)) },
                },
          ).map(([k, v]) => [k, emitOnnx(v.g, { name: `train_${k}` }).bytes, v.outputs] as const);
    const t1 = performance.now();
    const sessions: Sessions = {};
    for (const [k, bytes, outputs] of emitted) sessions[k as keyof Sessions] = await createSession(bytes, { ...providerOpt, outputs });
    const t2 = performance.now();
    const Array_ = dtype === 'float64' ? Float64Array : Float32Array;
    const values: Record<string, SessionValue> = {};
    const asDtype = (d: Float32Array | Float64Array) => (d instanceof Array_ ? d : Array_.from(d));
    for (const p of spec.params) {
      const size = p.shape.reduce((a, b) => a * b, 1);
      const check = (name: string, data: Float32Array | Float64Array | undefined, required: boolean) => {
        if (!data) {
          if (required) throw new RangeError(`StepRunner: no initial value for parameter "${name}"`);
          return new Array_(size);
        }
        if (data.length !== size) throw new RangeError(`StepRunner: "${name}" has ${data.length} values, its shape [${p.shape.join(', ')}] needs ${size}`);
        return asDtype(data);
      };
      values[p.name] = hostTensor(dtype, check(p.name, init[p.name], true), p.shape, p.name);
      for (const slot of [stepNames.m(p.name), stepNames.v(p.name)]) values[slot] = hostTensor(dtype, check(slot, opts.moments?.[slot], false), p.shape);
    }
    if (spec.stackedMoments) {
      // The graph takes each optimizer group's moments as one tensor: join the per-parameter ones.
      const stacks = momentStacks(spec);
      const joined = stackMoments(stacks, (name) => (values[name] as HostTensor).data as Float32Array | Float64Array);
      for (const p of spec.params) for (const n of [stepNames.m(p.name), stepNames.v(p.name)]) delete values[n];
      for (const st of stacks) for (const n of [st.m, st.v]) values[n] = hostTensor(dtype, joined[n]!, st.shape);
    }
    const startStep = opts.startStep ?? 1;
    if (scaling) {
      values[stepNames.lossScale] = hostTensor(dtype, Float32Array.of(opts.scaler?.scale ?? scaling.initScale), []);
      values[stepNames.goodSteps] = hostTensor(dtype, Float32Array.of(opts.scaler?.goodSteps ?? 0), []);
    }
    if (bound) {
      const b0 = performance.now();
      const graph = buildFusedStep(spec);
      const bytes = emitOnnx(graph, { name: 'train_fused' }).bytes;
      const b1 = performance.now();
      const lossBytes = () => emitOnnx(buildLossGraph(spec), { name: 'eval_loss' }).bytes;
      const profilePrefix = process.env['DIFFWORLD_ORT_PROFILE'];
      const boundStep = BoundStep.create(spec, graph, bytes, lossBytes, state, values as Record<string, HostTensor>, {
        provider: provider as 'cpu' | 'cuda',
        ...(opts.cudaGraph === undefined ? {} : { cudaGraph: opts.cudaGraph }),
        ...(profilePrefix ? { profilePrefix } : {}),
      });
      const sessionMs = performance.now() - b1;
      return new StepRunner(
        spec,
        sessions,
        {},
        opts.schedule ?? constant(1e-3),
        startStep,
        opts.scaler?.optimizerStep ?? startStep,
        accum,
        perCall,
        provider,
        t1 - t0 + (b1 - b0),
        sessionMs,
        boundStep,
      );
    }
    return new StepRunner(spec, sessions, values, opts.schedule ?? constant(1e-3), startStep, opts.scaler?.optimizerStep ?? startStep, accum, perCall, provider, t1 - t0, t2 - t1);
  }

  get nextStep(): number {
    return this.stepNo;
  }

  /** The provider the training sessions run on. */
  get providerName(): ProviderName {
    if (this.bound) return this.bound.provider;
    return (this.sessions.fused ?? this.sessions.loop ?? this.sessions.grad)!.provider;
  }

  /** Whether every parameter and moment currently lives in device memory (WebGPU after a step; CUDA with IO binding). */
  get stateOnDevice(): boolean {
    if (this.bound) return this.bound.provider === 'cuda';
    return Object.values(this.state).every((v) => v.kind === 'device');
  }

  /** How the steps run: 'io-binding' (+ 'cuda-graph'), 'loop' or 'session'. */
  get path(): 'io-binding+cuda-graph' | 'io-binding' | 'loop' | 'session' {
    if (this.bound) return this.bound.cudaGraph ? 'io-binding+cuda-graph' : 'io-binding';
    return this.sessions.loop ? 'loop' : 'session';
  }

  private scalar(v: number): HostTensor {
    const dtype = this.spec.dtype ?? 'float32';
    return hostTensor(dtype, dtype === 'float64' ? Float64Array.of(v) : Float32Array.of(v), []);
  }

  private params(): Record<string, SessionValue> {
    return Object.fromEntries(this.spec.params.map((p) => [p.name, this.state[p.name]!]));
  }

  /** One optimizer step over one batch, or over `gradAccum` micro-batches. */
  async step(batches: Batch | readonly Batch[]): Promise<StepResult> {
    const t0 = performance.now();
    const micro = Array.isArray(batches) ? (batches as readonly Batch[]) : [batches as Batch];
    if (micro.length !== this.gradAccum) throw new RangeError(`StepRunner: step needs ${this.gradAccum} micro-batch(es), got ${micro.length}`);
    if (this.sessions.loop) return (await this.steps([micro[0]!]))[0]!;
    const lr = this.schedule(this.stepNo);
    if (this.bound) {
      const r = await this.bound.step(micro[0]!, lr, this.optimizerStep);
      const step = this.stepNo++;
      this.optimizerStep = r.nextOptimizerStep ?? this.optimizerStep + 1;
      const scaled = r.lossScale === undefined ? {} : { lossScale: r.lossScale, skipped: r.skipped ?? false };
      return { step, loss: r.loss, gradNorm: r.gradNorm, lr, runMs: r.runMs, totalMs: performance.now() - t0, ...scaled };
    }
    const hyper = { [stepNames.lr]: this.scalar(lr), [stepNames.step]: this.scalar(this.optimizerStep) };
    let runMs = 0;
    const timed = async (s: Session, feeds: Record<string, SessionValue>) => {
      const r0 = performance.now();
      const out = await s.run(feeds);
      runMs += performance.now() - r0;
      return out;
    };
    let out: Record<string, SessionValue>;
    let lossSum = 0;
    if (this.sessions.fused) {
      out = await timed(this.sessions.fused, { ...this.state, ...micro[0]!, ...hyper });
      lossSum = readScalar(out[stepNames.loss]!);
    } else {
      const { grad, accumulate, apply } = this.sessions as Required<Sessions>;
      let acc: Record<string, SessionValue> = {};
      for (const [i, b] of micro.entries()) {
        const g = await timed(grad, { ...this.params(), ...this.scalerFeeds(), ...b });
        lossSum += readScalar(g[stepNames.loss]!);
        const grads = Object.fromEntries(this.spec.params.map((p) => [stepNames.grad(p.name), g[stepNames.grad(p.name)]!]));
        if (i === 0) acc = grads;
        else {
          const feeds = { ...grads, ...Object.fromEntries(this.spec.params.map((p) => [`acc.${stepNames.grad(p.name)}`, acc[stepNames.grad(p.name)]!])) };
          const s = await timed(accumulate, feeds);
          acc = Object.fromEntries(this.spec.params.map((p) => [stepNames.grad(p.name), s[stepNames.updated(stepNames.grad(p.name))]!]));
        }
      }
      out = await timed(apply, { ...this.state, ...acc, ...hyper, [stepNames.gradScale]: this.scalar(1 / micro.length) });
    }
    for (const name of Object.keys(this.state)) this.state[name] = out[stepNames.updated(name)]!;
    const gradNorm = readScalar(out[stepNames.gradNorm]!);
    const step = this.stepNo++;
    const scaled = this.spec.lossScaling ? { lossScale: readScalar(out[stepNames.usedScale]!), skipped: readScalar(out[stepNames.skipped]!) !== 0 } : {};
    this.optimizerStep = this.spec.lossScaling ? readScalar(out[stepNames.updated(stepNames.step)]!) : this.optimizerStep + 1;
    return { step, loss: lossSum / micro.length, gradNorm, lr, runMs, totalMs: performance.now() - t0, ...scaled };
  }

  /**
   * Several optimizer steps, one batch each (all of the same shapes). With `stepsPerCall` > 1 they
   * run `stepsPerCall` at a time in the Loop graph; otherwise one `step()` each. Per-step results
   * are the same either way; `runMs` / `totalMs` of a Loop call are shared evenly by its steps.
   */
  async steps(batches: readonly Batch[]): Promise<StepResult[]> {
    const loop = this.sessions.loop;
    const results: StepResult[] = [];
    if (!loop) {
      for (const b of batches) results.push(await this.step(b));
      return results;
    }
    for (let start = 0; start < batches.length; start += this.stepsPerCall) {
      const t0 = performance.now();
      const chunk = batches.slice(start, start + this.stepsPerCall);
      const first = this.stepNo;
      const lrs = chunk.map((_, i) => this.schedule(first + i));
      const dtype = this.spec.dtype ?? 'float32';
      const feeds: Record<string, SessionValue> = {
        ...this.state,
        [stepNames.step]: this.scalar(this.optimizerStep),
        [loopNames.lrs]: hostTensor(dtype, dtype === 'float64' ? Float64Array.from(lrs) : Float32Array.from(lrs), [chunk.length]),
      };
      for (const b of this.spec.batch) feeds[loopNames.stacked(b.name)] = stackBatches(chunk, b.name);
      const r0 = performance.now();
      const out = await loop.run(feeds);
      const runMs = performance.now() - r0;
      for (const name of Object.keys(this.state)) this.state[name] = out[stepNames.updated(name)]!;
      const losses = hostValues(out[stepNames.loss]!),
        norms = hostValues(out[stepNames.gradNorm]!);
      const scales = this.spec.lossScaling ? hostValues(out[stepNames.usedScale]!) : undefined,
        skips = this.spec.lossScaling ? hostValues(out[stepNames.skipped]!) : undefined;
      this.stepNo += chunk.length;
      this.optimizerStep = readScalar(out[loopNames.nextStep]!);
      const totalMs = performance.now() - t0;
      chunk.forEach((_, i) =>
        results.push({
          step: first + i,
          loss: losses[i]!,
          gradNorm: norms[i]!,
          lr: lrs[i]!,
          runMs: runMs / chunk.length,
          totalMs: totalMs / chunk.length,
          ...(scales && skips ? { lossScale: scales[i]!, skipped: skips[i] !== 0 } : {}),
        }),
      );
    }
    return results;
  }

  /** The loss of the current parameters on one batch (forward only, no update). */
  async evaluate(batch: Batch): Promise<number> {
    if (this.bound) return this.bound.evaluate(batch);
    if (!this.evalSession) {
      this.evalSession = await createSession(emitOnnx(buildLossGraph(this.spec), { name: 'eval_loss' }).bytes, { provider: this.provider ?? this.providerName });
    }
    const out = await this.evalSession.run({ ...this.params(), ...batch });
    return readScalar(out[stepNames.loss]!);
  }

  /** Ends ORT profiling of the training sessions (created with DIFFWORLD_ORT_PROFILE set). */
  endProfiling(): void {
    this.bound?.endProfiling();
    for (const s of Object.values(this.sessions)) s?.endProfiling();
  }

  /** Frees the IO-bound step's buffers and sessions now (the other paths' sessions are cached and shared). */
  release(): void {
    this.bound?.release();
  }

  /** Current parameters (and moments) in host memory, e.g. for a checkpoint (the scaler's state: `scalerState()`). */
  async snapshot(): Promise<Record<string, HostTensor>> {
    const scaler = new Set(scalerNames(this.spec));
    const out: Record<string, HostTensor> = this.bound ? this.bound.snapshot(this.bound.stateNames.filter((n) => !scaler.has(n))) : {};
    if (!this.bound) for (const [k, v] of Object.entries(this.state)) if (!scaler.has(k)) out[k] = await toHost(v);
    if (!this.spec.stackedMoments) return out;
    // Checkpoints hold moments per parameter: split the joined ones.
    const stacks = momentStacks(this.spec);
    const perParam = unstackMoments(stacks, (name) => out[name]!.data as Float32Array | Float64Array);
    for (const st of stacks) for (const n of [st.m, st.v]) delete out[n];
    const dtype = this.spec.dtype ?? 'float32';
    for (const p of this.spec.params) for (const n of [stepNames.m(p.name), stepNames.v(p.name)]) out[n] = hostTensor(dtype, perParam[n]!, p.shape.map(Number), n);
    return out;
  }

  /** The loss scaler's state (float16), to save with a checkpoint and pass back as `scaler` on resume. */
  async scalerState(): Promise<ScalerState | undefined> {
    if (!this.spec.lossScaling) return undefined;
    const bound = this.bound;
    const read = async (name: string) => Number((bound ? bound.snapshot([name])[name]! : await toHost(this.state[name]!)).data[0]);
    return { scale: await read(stepNames.lossScale), goodSteps: await read(stepNames.goodSteps), optimizerStep: this.optimizerStep };
  }

  /** The scale the grad graph multiplies the loss by (gradient accumulation under loss scaling). */
  private scalerFeeds(): Record<string, SessionValue> {
    return this.spec.lossScaling ? { [stepNames.lossScale]: this.state[stepNames.lossScale]! } : {};
  }
}

/** One batch input of several steps stacked along a new leading axis: [K, …shape]. */
function stackBatches(chunk: readonly Batch[], name: string): HostTensor {
  const parts = chunk.map((b, i) => {
    const t = b[name];
    if (!t) throw new RangeError(`StepRunner: batch ${i} of the call has no input "${name}"`);
    return t;
  });
  const first = parts[0]!;
  parts.forEach((t, i) => {
    if (t.dtype !== first.dtype || t.dims.join(',') !== first.dims.join(',')) {
      throw new RangeError(`StepRunner: "${name}" of batch ${i} is ${t.dtype}[${t.dims.join(', ')}], batch 0's is ${first.dtype}[${first.dims.join(', ')}]; steps of one call need equal shapes`);
    }
  });
  const Ctor = first.data.constructor as new (n: number) => typeof first.data;
  const data = new Ctor(first.data.length * parts.length);
  parts.forEach((t, i) => (data as { set(a: ArrayLike<unknown>, o: number): void }).set(t.data as ArrayLike<unknown>, i * first.data.length));
  return hostTensor(first.dtype, data, [parts.length, ...first.dims], name);
}

function hostValues(v: SessionValue): number[] {
  if (v.kind !== 'host') throw new RangeError('StepRunner: a per-step output stayed on the device');
  return Array.from(v.data as ArrayLike<number | bigint>, Number);
}

function readScalar(v: SessionValue): number {
  if (v.kind !== 'host') throw new RangeError('StepRunner: a scalar output stayed on the device');
  return Number(v.data[0]);
}
