// The fused training step with its state resident where the session computes: parameters and
// AdamW moments live in two sets of buffers that ORT allocated (GPU memory on CUDA), and each step
// reads one set and writes the other through IO binding (ORT's C API; runtime/capi). Only the batch,
// the learning rate and the step counter go in, only the loss and the gradient norm come out.
// On CUDA each direction (A → B, B → A) is captured once as a CUDA graph and replayed: one launch
// per step instead of one host call per ONNX node, which is what the step time was waiting on.
import type { Graph } from '../graph/index.js';
import { type BoundProvider, BoundSession, type BoundTensor, type Binding, Copier, hostStaging } from '../runtime/capi/index.js';
import type { HostTensor } from '../runtime/index.js';
import { type StepGraphSpec, stepNames } from './step.js';

type Batch = Readonly<Record<string, HostTensor>>;

/** What one step reports (the rest of StepResult is the runner's). */
export interface BoundStepOutcome {
  loss: number;
  gradNorm: number;
  runMs: number;
  lossScale?: number;
  skipped?: boolean;
  /** Under loss scaling: the AdamW step counter after the step (it does not advance on a skipped step). */
  nextOptimizerStep?: number;
}

export interface BoundStepOptions {
  provider: BoundProvider;
  /** Capture and replay CUDA graphs (CUDA only; default true there). */
  cudaGraph?: boolean;
  profilePrefix?: string;
}

/** The per-step inputs (batch, lr, step): device buffers, their host staging twins, the copier between. */
interface StepInputs {
  device: Record<string, BoundTensor>;
  staging: Record<string, BoundTensor>;
  upload: Copier;
}

export class BoundStep {
  /** State sets: sets[k][name] (k = 0, 1); `current` is the one the next step reads. */
  private current = 0;
  /** IO bindings A → B and B → A (CUDA graph ids 1 and 2), made on first use. */
  private readonly bindings: (Binding | undefined)[] = [undefined, undefined];
  private readonly inputs: StepInputs;
  private readonly download: Copier;
  private readonly resultStaging: BoundTensor[];
  private readonly resultNames: string[];
  private evalSession: BoundSession | undefined;

  private constructor(
    readonly spec: StepGraphSpec,
    private readonly session: BoundSession,
    readonly stateNames: readonly string[],
    private readonly sets: [Record<string, BoundTensor>, Record<string, BoundTensor>],
    /** Outputs that are not next-step state (loss, grad_norm, …): device buffers and their host twins. */
    private readonly results: Record<string, BoundTensor>,
    private readonly copiers: Map<string, Copier>,
    private readonly lossGraphBytes: () => Uint8Array,
  ) {
    this.resultNames = Object.keys(results);
    const resultList = this.resultNames.map((n) => results[n]!);
    this.resultStaging = resultList.map((t) => hostStaging(t.dtype, t.dims));
    this.download = Copier.create(session.provider, Copier.slotsOf(resultList));
    const device: Record<string, BoundTensor> = {};
    const staging: Record<string, BoundTensor> = {};
    const dtype = spec.dtype ?? 'float32';
    const scalars = [stepNames.lr, stepNames.step].map((name) => ({ name, dtype, shape: [] as number[] }));
    for (const b of [...spec.batch, ...scalars]) {
      if (b.shape.some((d) => typeof d !== 'number')) throw new RangeError(`BoundStep: batch input "${b.name}" has a symbolic shape [${b.shape.join(', ')}]; bound buffers need fixed shapes`);
      device[b.name] = session.allocate(b.dtype, b.shape as number[]);
      staging[b.name] = hostStaging(b.dtype, b.shape as number[]);
    }
    const names = Object.keys(device);
    this.inputs = { device, staging, upload: Copier.create(session.provider, Copier.slotsOf(names.map((n) => device[n]!))) };
  }

  /**
   * Compiles the fused step graph and fills state set A with `initial` (every state tensor, by
   * name). `graph` is the fused step graph the bytes were emitted from (its outputs' dtypes and shapes).
   */
  static create(
    spec: StepGraphSpec,
    graph: Graph,
    bytes: Uint8Array,
    lossGraphBytes: () => Uint8Array,
    stateNames: readonly string[],
    initial: Readonly<Record<string, HostTensor>>,
    opts: BoundStepOptions,
  ): BoundStep {
    const cudaGraph = opts.provider === 'cuda' && (opts.cudaGraph ?? true);
    const session = BoundSession.create(bytes, { provider: opts.provider, cudaGraph, ...(opts.profilePrefix ? { profilePrefix: opts.profilePrefix } : {}) });
    const sets: [Record<string, BoundTensor>, Record<string, BoundTensor>] = [{}, {}];
    for (const name of stateNames) {
      const t = initial[name];
      if (!t) throw new RangeError(`BoundStep: no initial value for state "${name}"`);
      for (const set of sets) set[name] = session.allocate(t.dtype, t.dims);
    }
    const results: Record<string, BoundTensor> = {};
    const state = new Set(stateNames.map(stepNames.updated));
    for (const [name, t] of graph.outputs) {
      if (state.has(name)) continue;
      // Per-step results are fixed-shape (scalars); an extra loss output with batch dims would need
      // per-shape buffers, which the loss functions here do not have.
      if (t.shape.some((d) => typeof d !== 'number')) throw new RangeError(`BoundStep: output "${name}" has a symbolic shape [${t.shape.join(', ')}]; only fixed-shape outputs can be bound`);
      results[name] = session.allocate(t.dtype, t.shape as number[]);
    }
    const step = new BoundStep(spec, session, stateNames, sets, results, new Map(), lossGraphBytes);
    step.upload(
      stateNames.map((n) => sets[0][n]!),
      stateNames.map((n) => initial[n]!),
    );
    return step;
  }

  get provider(): BoundProvider {
    return this.session.provider;
  }

  get cudaGraph(): boolean {
    return this.session.cudaGraph;
  }

  /** A copier for one tensor signature, cached. */
  private copierFor(tensors: readonly BoundTensor[]): Copier {
    const slots = Copier.slotsOf(tensors);
    const key = slots.map((s) => `${s.dtype}:${s.rank}`).join(',');
    let c = this.copiers.get(key);
    if (!c) this.copiers.set(key, (c = Copier.create(this.session.provider, slots)));
    return c;
  }

  /** Host values into bound buffers, one tensor at a time (a staging buffer each, released after). */
  private upload(dst: readonly BoundTensor[], src: readonly HostTensor[]): void {
    dst.forEach((d, i) => {
      const staging = hostStaging(d.dtype, d.dims);
      try {
        writeHost(staging, src[i]!);
        this.copierFor([d]).copy([staging], [d]);
      } finally {
        staging.release();
      }
    });
  }

  /** A bound buffer's values in host memory. */
  private read(t: BoundTensor): HostTensor {
    const staging = hostStaging(t.dtype, t.dims);
    try {
      this.copierFor([t]).copy([t], [staging]);
      return readHost(staging);
    } finally {
      staging.release();
    }
  }

  private bindingFor(from: number): Binding {
    let b = this.bindings[from];
    if (!b) {
      const src = this.sets[from]!,
        dst = this.sets[1 - from]!;
      const outputs: Record<string, BoundTensor> = { ...this.results };
      for (const n of this.stateNames) outputs[stepNames.updated(n)] = dst[n]!;
      b = this.session.bind({ ...src, ...this.inputs.device }, outputs);
      this.bindings[from] = b;
    }
    return b;
  }

  /** One optimizer step on one batch. */
  async step(batch: Batch, lr: number, optimizerStep: number): Promise<BoundStepOutcome> {
    checkBatch(this.spec, batch);
    const { device, staging, upload } = this.inputs;
    for (const b of this.spec.batch) writeHost(staging[b.name]!, batch[b.name]!);
    writeScalar(staging[stepNames.lr]!, lr);
    writeScalar(staging[stepNames.step]!, optimizerStep);
    const names = Object.keys(device);
    upload.copy(
      names.map((n) => staging[n]!),
      names.map((n) => device[n]!),
    );
    const from = this.current;
    const r0 = performance.now();
    await this.session.run(this.bindingFor(from), from + 1);
    const runMs = performance.now() - r0;
    this.current = 1 - from;
    this.download.copy(
      this.resultNames.map((n) => this.results[n]!),
      this.resultStaging,
    );
    const value = (name: string) => {
      const i = this.resultNames.indexOf(name);
      return i < 0 ? undefined : Number(readHost(this.resultStaging[i]!).data[0]);
    };
    const scaled = this.spec.lossScaling ? { lossScale: value(stepNames.usedScale)!, skipped: value(stepNames.skipped) !== 0, nextOptimizerStep: value(stepNames.updated(stepNames.step))! } : {};
    return { loss: value(stepNames.loss)!, gradNorm: value(stepNames.gradNorm)!, runMs, ...scaled };
  }

  /** The current state in host memory, by name. */
  snapshot(names: readonly string[] = this.stateNames): Record<string, HostTensor> {
    return Object.fromEntries(names.map((n) => [n, this.read(this.sets[this.current]![n]!)]));
  }

  /** The loss of the current parameters on one batch (forward only), in a session of its own. */
  async evaluate(batch: Batch): Promise<number> {
    this.evalSession ??= BoundSession.create(this.lossGraphBytes(), { provider: this.session.provider });
    const s = this.evalSession;
    const inputs: Record<string, BoundTensor> = {};
    const owned: BoundTensor[] = [];
    checkBatch(this.spec, batch);
    try {
      for (const p of this.spec.params) inputs[p.name] = this.sets[this.current]![p.name]!;
      for (const b of this.spec.batch) {
        const t = batch[b.name]!;
        const d = s.allocate(t.dtype, t.dims);
        owned.push(d);
        this.upload([d], [t]);
        inputs[b.name] = d;
      }
      const loss = s.allocate(this.spec.dtype ?? 'float32', []);
      owned.push(loss);
      const binding = s.bind(inputs, { [stepNames.loss]: loss });
      try {
        await s.run(binding);
      } finally {
        binding.release();
      }
      return Number(this.read(loss).data[0]);
    } finally {
      for (const t of owned) t.release();
    }
  }

  endProfiling(): string {
    return this.session.endProfiling();
  }

  /** Frees every buffer and session. */
  release(): void {
    for (const b of this.bindings) b?.release();
    for (const t of [...Object.values(this.inputs.device), ...Object.values(this.inputs.staging)]) t.release();
    this.inputs.upload.release();
    for (const set of this.sets) for (const t of Object.values(set)) t.release();
    for (const t of [...Object.values(this.results), ...this.resultStaging]) t.release();
    for (const c of this.copiers.values()) c.release();
    this.download.release();
    this.evalSession?.release();
    this.session.release();
  }
}

/** The batch against the graph's inputs: every input there, with the graph's dtype and dims. */
function checkBatch(spec: StepGraphSpec, batch: Batch): void {
  for (const b of spec.batch) {
    const t = batch[b.name];
    if (!t) throw new RangeError(`BoundStep: the batch has no input "${b.name}"`);
    if (t.dtype !== b.dtype || t.dims.join() !== b.shape.join())
      throw new RangeError(`BoundStep: batch input "${b.name}" is ${t.dtype}[${t.dims.join(', ')}], the graph takes ${b.dtype}[${b.shape.join(', ')}]`);
  }
}

function writeHost(dst: BoundTensor, src: HostTensor): void {
  if (src.dtype !== dst.dtype || src.dims.join() !== dst.dims.join())
    throw new RangeError(`BoundStep: ${src.dtype}[${src.dims.join(', ')}] does not fit a ${dst.dtype}[${dst.dims.join(', ')}] buffer`);
  (dst.hostData() as { set(a: ArrayLike<unknown>): void }).set(src.data as ArrayLike<unknown>);
}

function writeScalar(dst: BoundTensor, v: number): void {
  (dst.hostData() as Float32Array | Float64Array)[0] = v;
}

/** A copy of a host staging buffer's values (the buffer is reused). */
function readHost(t: BoundTensor): HostTensor {
  const view = t.hostData() as { slice(): HostTensor['data'] };
  return { kind: 'host', dtype: t.dtype, dims: [...t.dims], data: view.slice() } as HostTensor;
}
