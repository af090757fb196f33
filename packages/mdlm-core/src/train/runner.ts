// Runs training steps repeatedly: parameters and AdamW moments are fed in, the updated.* outputs
// become the next step's inputs (no copies; on WebGPU they never leave the GPU), and the learning
// rate comes from a host-side schedule. One micro-batch per step runs the fused graph; several run
// the grad graph per micro-batch, sum gradients with the accumulate graph and update once with the
// apply graph (the engine shape of shared/DESIGN.md). A forward-only graph evaluates held-out loss.
import { Graph, emitOnnx } from '../graph/index.js';
import { type Schedule, constant } from '../optim/index.js';
import { type HostTensor, type ProviderName, type Session, type SessionValue, createSession, hostTensor, toHost } from '../runtime/index.js';
import { type StepGraphSpec, buildAccumulateStep, buildApplyStep, buildFusedStep, buildGradStep, stepNames } from './step.js';

export interface StepRunnerOptions {
  provider?: ProviderName;
  schedule?: Schedule;
  /** First step number (1-based), for resuming. */
  startStep?: number;
  /** Micro-batches per optimizer step (default 1: the fused graph). */
  gradAccum?: number;
  /** AdamW moments to resume from, named `adam_m.<param>` / `adam_v.<param>` (zeros when absent). */
  moments?: Readonly<Record<string, Float32Array | Float64Array>>;
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
}

type Batch = Readonly<Record<string, HostTensor>>;

interface Sessions {
  fused?: Session;
  grad?: Session;
  accumulate?: Session;
  apply?: Session;
}

export class StepRunner {
  private stepNo: number;
  private evalSession: Session | undefined;

  private constructor(
    readonly spec: StepGraphSpec,
    private readonly sessions: Sessions,
    private state: Record<string, SessionValue>,
    private readonly schedule: Schedule,
    startStep: number,
    readonly gradAccum: number,
    private readonly provider: ProviderName | undefined,
    /** Milliseconds to build + emit the graphs and to create the sessions. */
    readonly buildMs: number,
    readonly sessionMs: number,
  ) {
    this.stepNo = startStep;
  }

  static async create(spec: StepGraphSpec, init: Readonly<Record<string, Float32Array | Float64Array>>, opts: StepRunnerOptions = {}): Promise<StepRunner> {
    const dtype = spec.dtype ?? 'float32';
    const accum = opts.gradAccum ?? 1;
    if (!Number.isInteger(accum) || accum < 1) throw new RangeError(`StepRunner: gradAccum must be a positive integer, got ${accum}`);
    const t0 = performance.now();
    const stateNames = spec.params.flatMap((p) => [p.name, stepNames.m(p.name), stepNames.v(p.name)]);
    const device = (names: string[]) => Object.fromEntries(names.map((n) => [n, 'device' as const]));
    const providerOpt = opts.provider ? { provider: opts.provider } : {};
    const graphs =
      accum === 1
        ? { fused: { g: buildFusedStep(spec), outputs: device(stateNames.map(stepNames.updated)) } }
        : {
            grad: { g: buildGradStep(spec), outputs: device(spec.params.map((p) => stepNames.grad(p.name))) },
            accumulate: { g: buildAccumulateStep(spec), outputs: device(spec.params.map((p) => stepNames.updated(stepNames.grad(p.name)))) },
            apply: { g: buildApplyStep(spec), outputs: device(stateNames.map(stepNames.updated)) },
          };
    const emitted = Object.entries(graphs).map(([k, v]) => [k, emitOnnx(v.g, { name: `train_${k}` }).bytes, v.outputs] as const);
    const t1 = performance.now();
    const sessions: Sessions = {};
    for (const [k, bytes, outputs] of emitted) sessions[k as keyof Sessions] = await createSession(bytes, { ...providerOpt, outputs });
    const t2 = performance.now();
    const Array_ = dtype === 'float64' ? Float64Array : Float32Array;
    const state: Record<string, SessionValue> = {};
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
      state[p.name] = hostTensor(dtype, check(p.name, init[p.name], true), p.shape, p.name);
      for (const slot of [stepNames.m(p.name), stepNames.v(p.name)]) state[slot] = hostTensor(dtype, check(slot, opts.moments?.[slot], false), p.shape);
    }
    return new StepRunner(spec, sessions, state, opts.schedule ?? constant(1e-3), opts.startStep ?? 1, accum, opts.provider, t1 - t0, t2 - t1);
  }

  get nextStep(): number {
    return this.stepNo;
  }

  /** The provider the training sessions run on. */
  get providerName(): ProviderName {
    return (this.sessions.fused ?? this.sessions.grad)!.provider;
  }

  /** Whether every parameter and moment currently lives in device memory (WebGPU after a step). */
  get stateOnDevice(): boolean {
    return Object.values(this.state).every((v) => v.kind === 'device');
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
    const lr = this.schedule(this.stepNo);
    const hyper = { [stepNames.lr]: this.scalar(lr), [stepNames.step]: this.scalar(this.stepNo) };
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
        const g = await timed(grad, { ...this.params(), ...b });
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
    return { step, loss: lossSum / micro.length, gradNorm, lr, runMs, totalMs: performance.now() - t0 };
  }

  /** The loss of the current parameters on one batch (forward only, no update). */
  async evaluate(batch: Batch): Promise<number> {
    if (!this.evalSession) {
      const g = new Graph();
      const dtype = this.spec.dtype ?? 'float32';
      const params = Object.fromEntries(this.spec.params.map((p) => [p.name, g.input(p.name, dtype, p.shape)]));
      const inputs = Object.fromEntries(this.spec.batch.map((b) => [b.name, g.input(b.name, b.dtype, b.shape)]));
      g.output(stepNames.loss, this.spec.loss(params, inputs).loss);
      this.evalSession = await createSession(emitOnnx(g, { name: 'eval_loss' }).bytes, { provider: this.provider ?? this.providerName });
    }
    const out = await this.evalSession.run({ ...this.params(), ...batch });
    return readScalar(out[stepNames.loss]!);
  }

  /** Current parameters (and moments) in host memory, e.g. for a checkpoint. */
  async snapshot(): Promise<Record<string, HostTensor>> {
    const out: Record<string, HostTensor> = {};
    for (const [k, v] of Object.entries(this.state)) out[k] = await toHost(v);
    return out;
  }
}

function readScalar(v: SessionValue): number {
  if (v.kind !== 'host') throw new RangeError('StepRunner: a scalar output stayed on the device');
  return Number(v.data[0]);
}
