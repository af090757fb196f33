// A session of ORT's C API with IO binding: inputs and outputs bound to buffers that the caller
// owns and that stay where they are between runs (GPU memory on CUDA), so that nothing crosses the
// host bus unless asked, and — with CUDA graphs — the same kernels replay on the same addresses.
import { BYTES_PER_ELEMENT, type DType, ONNX_DTYPE } from '../../dtype.js';
import { ORT_CONFIG_ENTRIES, intraOpThreads } from '../session.js';
import { type DataOf, sizeOf, typedView } from '../tensor.js';
import { type CApi, loadCApi } from './library.js';

/** ORT's ONNXTensorElementDataType codes are ONNX's TensorProto.DataType codes. */
const ELEMENT_TYPE = ONNX_DTYPE;
const ORT_DEVICE_ALLOCATOR = 0;
const ORT_MEM_TYPE_DEFAULT = 0;
const ORT_ENABLE_ALL = 99;

/** The providers a bound session runs on: the CPU (CI, tests) and CUDA (the reason it exists). */
export type BoundProvider = 'cpu' | 'cuda';

export interface BoundSessionOptions {
  provider: BoundProvider;
  /** CUDA device (default 0). */
  deviceId?: number;
  /**
   * Capture the run into a CUDA graph and replay it (CUDA provider's `enable_cuda_graph`): the
   * whole step becomes one launch. Needs every node on the GPU, no control flow, and inputs and
   * outputs bound to the same buffers on every run of one graph id.
   */
  cudaGraph?: boolean;
  /** Intra-op threads (CPU); default DIFFWORLD_ORT_THREADS, else every core. */
  intraOpThreads?: number;
  /** Write ORT's profile to `<prefix>_<time>.json` (ended by `endProfiling()`). */
  profilePrefix?: string;
}

function api(): CApi {
  const { api, error } = loadCApi();
  if (!api) throw new Error(error);
  return api;
}

/**
 * A tensor in memory that ORT allocated and keeps at one address until released: device memory of
 * a CUDA session, or host memory (a CPU session's buffers, and host staging buffers).
 */
export class BoundTensor {
  #value: unknown;

  /** @internal made by BoundSession / hostStaging only */
  constructor(
    readonly dtype: DType,
    readonly dims: readonly number[],
    value: unknown,
    /** A view of the bytes, for host memory only. */
    readonly hostBytes?: Uint8Array,
  ) {
    this.#value = value;
  }

  /** The OrtValue* (throws once released). */
  get handle(): unknown {
    if (!this.#value) throw new Error(`bound tensor ${this.dtype}[${this.dims.join(', ')}] was released`);
    return this.#value;
  }

  /** The values of a host buffer, as a typed view over its memory (no copy). */
  hostData(): DataOf[DType] {
    if (!this.hostBytes) throw new RangeError(`${this.dtype}[${this.dims.join(', ')}] is device memory; copy it to a host buffer first`);
    return typedView(this.dtype, this.hostBytes, sizeOf(this.dims));
  }

  release(): void {
    if (this.#value) api().fn.ReleaseValue(this.#value);
    this.#value = undefined;
  }
}

/** A host buffer ORT allocated (default CPU allocator), readable and writable from JS through `hostBytes`. */
export function hostStaging(dtype: DType, dims: readonly number[]): BoundTensor {
  const { fn, check, koffi, defaultAllocator } = api();
  const out = [null];
  check(fn.CreateTensorAsOrtValue(defaultAllocator, BigInt64Array.from(dims, BigInt), dims.length, ELEMENT_TYPE[dtype], out), `allocating a host ${dtype}[${dims.join(', ')}]`);
  const data = [null];
  check(fn.GetTensorMutableData(out[0], data), 'GetTensorMutableData');
  const bytes = sizeOf(dims) * BYTES_PER_ELEMENT[dtype];
  const view = bytes === 0 ? new Uint8Array(0) : new Uint8Array(koffi.view(data[0], bytes));
  return new BoundTensor(dtype, dims, out[0], view);
}

/** One set of bindings of a session: inputs and outputs fixed until released. */
export class Binding {
  #handle: unknown;

  /** @internal made by BoundSession.bind */
  constructor(handle: unknown) {
    this.#handle = handle;
  }

  get handle(): unknown {
    if (!this.#handle) throw new Error('IO binding was released');
    return this.#handle;
  }

  release(): void {
    if (this.#handle) api().fn.ReleaseIoBinding(this.#handle);
    this.#handle = undefined;
  }
}

export class BoundSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  #session: unknown;
  #allocator: unknown;
  #memInfo: unknown;
  #runOptions = new Map<number, unknown>();

  private constructor(
    readonly provider: BoundProvider,
    readonly cudaGraph: boolean,
    session: unknown,
    memInfo: unknown,
    allocator: unknown,
  ) {
    this.#session = session;
    this.#memInfo = memInfo;
    this.#allocator = allocator;
    const { fn, check, koffi, defaultAllocator } = api();
    const names = (count: typeof fn.SessionGetInputCount, get: typeof fn.SessionGetInputName, what: string) => {
      const n = [0];
      check(count(session, n), `${what} count`);
      return Array.from({ length: Number(n[0]) }, (_, i) => {
        const out = [null];
        check(get(session, i, defaultAllocator, out), `${what} name ${i}`);
        const name = koffi.decode(out[0], 'char', -1) as string;
        fn.AllocatorFree(defaultAllocator, out[0]);
        return name;
      });
    };
    this.inputNames = names(fn.SessionGetInputCount, fn.SessionGetInputName, 'input');
    this.outputNames = names(fn.SessionGetOutputCount, fn.SessionGetOutputName, 'output');
  }

  /** Compiles ONNX bytes on the provider (throws with ORT's message when it cannot). */
  static create(bytes: Uint8Array, opts: BoundSessionOptions): BoundSession {
    const { fn, check, env } = api();
    const so = [null];
    check(fn.CreateSessionOptions(so), 'CreateSessionOptions');
    const options = so[0];
    try {
      check(fn.SetSessionGraphOptimizationLevel(options, ORT_ENABLE_ALL), 'SetSessionGraphOptimizationLevel');
      check(fn.SetInterOpNumThreads(options, 1), 'SetInterOpNumThreads');
      // Threads and config entries as onnxruntime-node sessions get them (../session.ts).
      check(fn.SetIntraOpNumThreads(options, intraOpThreads(opts.intraOpThreads)), 'SetIntraOpNumThreads');
      for (const [key, value] of Object.entries(ORT_CONFIG_ENTRIES)) check(fn.AddSessionConfigEntry(options, key, value), `AddSessionConfigEntry(${key})`);
      if (opts.profilePrefix) check(fn.EnableProfiling(options, opts.profilePrefix), 'EnableProfiling');
      if (opts.provider === 'cuda') {
        const co = [null];
        check(fn.CreateCUDAProviderOptions(co), 'CreateCUDAProviderOptions');
        try {
          const entries: Record<string, string> = { device_id: String(opts.deviceId ?? 0), enable_cuda_graph: opts.cudaGraph ? '1' : '0' };
          const keys = Object.keys(entries);
          check(
            fn.UpdateCUDAProviderOptions(
              co[0],
              keys,
              keys.map((k) => entries[k]!),
              keys.length,
            ),
            'UpdateCUDAProviderOptions',
          );
          check(fn.SessionOptionsAppendExecutionProvider_CUDA_V2(options, co[0]), 'appending the CUDA provider');
        } finally {
          fn.ReleaseCUDAProviderOptions(co[0]);
        }
      }
      const s = [null];
      check(fn.CreateSessionFromArray(env, bytes, bytes.byteLength, options, s), `creating a ${opts.provider} session`);
      if (opts.provider === 'cpu') return new BoundSession('cpu', false, s[0], undefined, undefined);
      // The session's own CUDA allocator: its buffers come from the arena the kernels use.
      const mi = [null];
      check(fn.CreateMemoryInfo('Cuda', ORT_DEVICE_ALLOCATOR, opts.deviceId ?? 0, ORT_MEM_TYPE_DEFAULT, mi), 'CreateMemoryInfo(Cuda)');
      const al = [null];
      check(fn.CreateAllocator(s[0], mi[0], al), 'CreateAllocator(Cuda)');
      return new BoundSession('cuda', opts.cudaGraph ?? false, s[0], mi[0], al[0]);
    } finally {
      fn.ReleaseSessionOptions(options);
    }
  }

  private get session(): unknown {
    if (!this.#session) throw new Error('bound session was released');
    return this.#session;
  }

  /** A buffer in the session's memory, uninitialised: GPU memory on CUDA, host memory on the CPU. */
  allocate(dtype: DType, dims: readonly number[]): BoundTensor {
    if (this.provider === 'cpu') return hostStaging(dtype, dims);
    const { fn, check } = api();
    const out = [null];
    check(fn.CreateTensorAsOrtValue(this.#allocator, BigInt64Array.from(dims, BigInt), dims.length, ELEMENT_TYPE[dtype], out), `allocating ${this.provider} ${dtype}[${dims.join(', ')}]`);
    return new BoundTensor(dtype, dims, out[0]);
  }

  /** Binds every input and output of the session to a tensor (names checked both ways). */
  bind(inputs: Readonly<Record<string, BoundTensor>>, outputs: Readonly<Record<string, BoundTensor>>): Binding {
    const { fn, check } = api();
    const missingIn = this.inputNames.filter((n) => !inputs[n]);
    const missingOut = this.outputNames.filter((n) => !outputs[n]);
    if (missingIn.length || missingOut.length) throw new RangeError(`bind: unbound ${[...missingIn.map((n) => `input "${n}"`), ...missingOut.map((n) => `output "${n}"`)].join(', ')}`);
    const extra = [...Object.keys(inputs).filter((n) => !this.inputNames.includes(n)), ...Object.keys(outputs).filter((n) => !this.outputNames.includes(n))];
    if (extra.length) throw new RangeError(`bind: the session has no ${extra.map((n) => `"${n}"`).join(', ')}`);
    const b = [null];
    check(fn.CreateIoBinding(this.session, b), 'CreateIoBinding');
    const binding = new Binding(b[0]);
    try {
      for (const n of this.inputNames) check(fn.BindInput(b[0], n, inputs[n]!.handle), `binding input "${n}"`);
      for (const n of this.outputNames) check(fn.BindOutput(b[0], n, outputs[n]!.handle), `binding output "${n}"`);
    } catch (e) {
      binding.release();
      throw e;
    }
    return binding;
  }

  /**
   * Runs with a binding, off the JS thread. `graphId` names the CUDA graph this binding is captured
   * as and replayed from (each binding of a graph-captured session needs its own id).
   *
   * On CUDA the bound inputs are synchronized first: ORT copies a host input to the device when
   * it is bound, with a cudaMemcpy from pageable memory, which may return before the DMA lands,
   * while the kernels run on ORT's own non-blocking stream. A kernel can then read the block the
   * arena handed out with the previous pass's values in it. That is the likeliest cause of what the
   * H200 showed on 3 Dec with the GPU shared with a training job: greedy policy decoding wrote every
   * token twice ("go go to to desk desk"), as if each step ran on the previous step's token, in two
   * of six evaluation chunks (not yet rerun with this synchronization).
   */
  async run(binding: Binding, graphId = 0): Promise<void> {
    const { fn } = api();
    if (this.provider === 'cuda') await this.callAsync(fn.SynchronizeBoundInputs, [binding.handle], 'SynchronizeBoundInputs');
    await this.callAsync(fn.RunWithBinding, [this.session, this.runOptions(graphId), binding.handle], 'RunWithBinding');
    // A replayed CUDA graph is launched, not waited for: without this, the next copy (on another
    // session's stream) would read results, or overwrite inputs, while the step still runs.
    if (this.provider === 'cuda') await this.callAsync(fn.SynchronizeBoundOutputs, [binding.handle], 'SynchronizeBoundOutputs');
  }

  /** An ORT call on koffi's worker thread, its status checked. */
  private callAsync(f: CApi['fn'][keyof CApi['fn']], args: unknown[], what: string): Promise<void> {
    const { check } = api();
    return new Promise((resolve, reject) => {
      f.async(...args, (err: Error | null, status: unknown) => {
        if (err) return reject(err);
        try {
          check(status, what);
          resolve();
        } catch (e) {
          reject(e);
        }
      });
    });
  }

  /** The same, on the JS thread (short runs: copies of a few small tensors). */
  runSync(binding: Binding, graphId = 0): void {
    const { fn, check } = api();
    if (this.provider === 'cuda') check(fn.SynchronizeBoundInputs(binding.handle), 'SynchronizeBoundInputs');
    check(fn.RunWithBinding(this.session, this.runOptions(graphId), binding.handle), 'RunWithBinding');
    if (this.provider === 'cuda') check(fn.SynchronizeBoundOutputs(binding.handle), 'SynchronizeBoundOutputs');
  }

  private runOptions(graphId: number): unknown {
    let o = this.#runOptions.get(graphId);
    if (!o) {
      const { fn, check } = api();
      const out = [null];
      check(fn.CreateRunOptions(out), 'CreateRunOptions');
      o = out[0];
      if (this.cudaGraph) check(fn.AddRunConfigEntry(o, 'gpu_graph_id', String(graphId)), 'AddRunConfigEntry(gpu_graph_id)');
      this.#runOptions.set(graphId, o);
    }
    return o;
  }

  /** Ends profiling; returns the profile's path. */
  endProfiling(): string {
    const { fn, check, koffi, defaultAllocator } = api();
    const out = [null];
    check(fn.SessionEndProfiling(this.session, defaultAllocator, out), 'SessionEndProfiling');
    const path = koffi.decode(out[0], 'char', -1) as string;
    fn.AllocatorFree(defaultAllocator, out[0]);
    return path;
  }

  /** Frees the session (buffers it allocated must be released first). */
  release(): void {
    if (!this.#session) return;
    const { fn } = api();
    for (const o of this.#runOptions.values()) fn.ReleaseRunOptions(o);
    this.#runOptions.clear();
    if (this.#allocator) fn.ReleaseAllocator(this.#allocator);
    if (this.#memInfo) fn.ReleaseMemoryInfo(this.#memInfo);
    fn.ReleaseSession(this.#session);
    this.#session = undefined;
  }
}
