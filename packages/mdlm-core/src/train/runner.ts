// Runs a fused training step repeatedly: parameters and AdamW moments are fed in, the updated.*
// outputs become the next step's inputs (no copies; on WebGPU they never leave the GPU), and the
// learning rate comes from a host-side schedule.
import { emitOnnx } from '../graph/index.js';
import { type Schedule, constant } from '../optim/index.js';
import { type HostTensor, type ProviderName, type Session, type SessionValue, createSession, hostTensor, toHost } from '../runtime/index.js';
import { type StepGraphSpec, buildFusedStep, stepNames } from './step.js';

export interface StepRunnerOptions {
  provider?: ProviderName;
  schedule?: Schedule;
  /** First step number (1-based), for resuming. */
  startStep?: number;
}

export interface StepResult {
  step: number;
  loss: number;
  gradNorm: number;
  lr: number;
  /** Milliseconds inside ORT's run call, and in the whole step() call. */
  runMs: number;
  totalMs: number;
}

export class StepRunner {
  private stepNo: number;

  private constructor(
    readonly spec: StepGraphSpec,
    readonly session: Session,
    private state: Record<string, SessionValue>,
    private readonly schedule: Schedule,
    startStep: number,
    /** Milliseconds to build + emit the graph and to create the session. */
    readonly buildMs: number,
    readonly sessionMs: number,
  ) {
    this.stepNo = startStep;
  }

  static async create(spec: StepGraphSpec, init: Readonly<Record<string, Float32Array | Float64Array>>, opts: StepRunnerOptions = {}): Promise<StepRunner> {
    const dtype = spec.dtype ?? 'float32';
    const t0 = performance.now();
    const { bytes } = emitOnnx(buildFusedStep(spec), { name: 'train_step' });
    const t1 = performance.now();
    const stateNames = spec.params.flatMap((p) => [p.name, stepNames.m(p.name), stepNames.v(p.name)]);
    const outputs = Object.fromEntries(stateNames.map((n) => [stepNames.updated(n), 'device' as const]));
    const session = await createSession(bytes, { ...(opts.provider ? { provider: opts.provider } : {}), outputs });
    const t2 = performance.now();
    const Array_ = dtype === 'float64' ? Float64Array : Float32Array;
    const state: Record<string, SessionValue> = {};
    for (const p of spec.params) {
      const data = init[p.name];
      if (!data) throw new RangeError(`StepRunner: no initial value for parameter "${p.name}"`);
      const size = p.shape.reduce((a, b) => a * b, 1);
      if (data.length !== size) throw new RangeError(`StepRunner: parameter "${p.name}" has ${data.length} values, its shape [${p.shape.join(', ')}] needs ${size}`);
      state[p.name] = hostTensor(dtype, data instanceof Array_ ? data : Array_.from(data), p.shape, p.name);
      state[stepNames.m(p.name)] = hostTensor(dtype, new Array_(size), p.shape);
      state[stepNames.v(p.name)] = hostTensor(dtype, new Array_(size), p.shape);
    }
    return new StepRunner(spec, session, state, opts.schedule ?? constant(1e-3), opts.startStep ?? 1, t1 - t0, t2 - t1);
  }

  get nextStep(): number {
    return this.stepNo;
  }

  /** Whether every parameter and moment currently lives in device memory (WebGPU after a step). */
  get stateOnDevice(): boolean {
    return Object.values(this.state).every((v) => v.kind === 'device');
  }

  async step(batch: Readonly<Record<string, HostTensor>>): Promise<StepResult> {
    const t0 = performance.now();
    const dtype = this.spec.dtype ?? 'float32';
    const lr = this.schedule(this.stepNo);
    const scalar = (v: number) => hostTensor(dtype, dtype === 'float64' ? Float64Array.of(v) : Float32Array.of(v), []);
    const feeds = { ...this.state, ...batch, [stepNames.lr]: scalar(lr), [stepNames.step]: scalar(this.stepNo) };
    const r0 = performance.now();
    const out = await this.session.run(feeds);
    const r1 = performance.now();
    for (const name of Object.keys(this.state)) this.state[name] = out[stepNames.updated(name)]!;
    const loss = Number((out[stepNames.loss] as HostTensor).data[0]);
    const gradNorm = Number((out[stepNames.gradNorm] as HostTensor).data[0]);
    const step = this.stepNo++;
    return { step, loss, gradNorm, lr, runMs: r1 - r0, totalMs: performance.now() - t0 };
  }

  /** Current parameters (and moments) in host memory, e.g. for a checkpoint. */
  async snapshot(): Promise<Record<string, HostTensor>> {
    const out: Record<string, HostTensor> = {};
    for (const [k, v] of Object.entries(this.state)) out[k] = await toHost(v);
    return out;
  }
}
