// Values that go in and out of sessions: host tensors (typed arrays, wrapped by ORT without a
// copy) and device tensors (WebGPU buffers that never leave the GPU unless read back explicitly).
import { Tensor } from 'onnxruntime-node';
import type { DType } from '../dtype.js';
import { RuntimeError } from './errors.js';
import type { ProviderName } from './providers.js';

/** The typed array that carries each dtype (float16 as raw bits, bool as 0/1 bytes). */
export interface DataOf {
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array;
  /** Graph-internal only (mixed-precision casts): onnxruntime-node has no bfloat16 tensors. */
  bfloat16: Uint16Array;
  int64: BigInt64Array;
  int32: Int32Array;
  bool: Uint8Array;
}

const ARRAY_OF: { readonly [D in DType]: new (n: number) => DataOf[D] } = {
  float32: Float32Array,
  float64: Float64Array,
  float16: Uint16Array,
  bfloat16: Uint16Array,
  int64: BigInt64Array,
  int32: Int32Array,
  bool: Uint8Array,
};

/** A typed view (no copy) of `length` elements of a dtype over raw bytes. */
export function typedView<D extends DType>(dtype: D, bytes: Uint8Array, length: number): DataOf[D] {
  const Ctor = ARRAY_OF[dtype] as unknown as new (buffer: ArrayBufferLike, offset: number, length: number) => DataOf[D];
  return new Ctor(bytes.buffer, bytes.byteOffset, length);
}

/** A tensor in host memory. `data` is used as-is by ORT (no copy). */
export interface HostTensor<D extends DType = DType> {
  readonly kind: 'host';
  readonly dtype: D;
  readonly dims: readonly number[];
  readonly data: DataOf[D];
}

/** Number of elements of a shape. */
export function sizeOf(dims: readonly number[]): number {
  return dims.reduce((a, b) => a * b, 1);
}

/**
 * Wraps typed data as a host tensor after checking that the array type and length fit.
 * @example hostTensor('float32', Float32Array.from([1, 2, 3, 4]), [2, 2])
 */
export function hostTensor<D extends DType>(dtype: D, data: DataOf[D], dims: readonly number[], name = 'tensor'): HostTensor<D> {
  const Expected = ARRAY_OF[dtype];
  if (!(data instanceof Expected)) {
    throw new RuntimeError({ code: 'bad_feed', input: name, reason: `dtype ${dtype} needs a ${Expected.name}, got ${data?.constructor?.name ?? typeof data}` });
  }
  if (!dims.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new RuntimeError({ code: 'bad_feed', input: name, reason: `dims must be non-negative integers, got [${dims.join(', ')}]` });
  }
  if (data.length !== sizeOf(dims)) {
    throw new RuntimeError({ code: 'bad_feed', input: name, reason: `dims [${dims.join(', ')}] need ${sizeOf(dims)} elements, the ${dtype} data has ${data.length}` });
  }
  return { kind: 'host', dtype, data, dims: [...dims] };
}

/** A zero-filled host tensor. */
export function zeros<D extends DType>(dtype: D, dims: readonly number[]): HostTensor<D> {
  return hostTensor(dtype, new ARRAY_OF[dtype](sizeOf(dims)), dims);
}

/**
 * A tensor that lives in a provider's device memory (WebGPU buffer). It can be fed to any session
 * of the same provider; its values are reachable only through `toHost()` (a copy through a small
 * Identity session), never through ORT's `getData()`, which aborts the process in onnxruntime-node.
 */
export class DeviceTensor<D extends DType = DType> {
  readonly kind = 'device';
  #ort: Tensor | undefined;

  /** @internal made by sessions only */
  constructor(
    readonly dtype: D,
    readonly dims: readonly number[],
    readonly provider: ProviderName,
    ortTensor: Tensor,
  ) {
    this.#ort = ortTensor;
    DEVICE_HANDLES.set(this, () => {
      if (!this.#ort) throw new RuntimeError({ code: 'device_tensor_disposed', what: `device tensor ${dtype}[${dims.join(', ')}]` });
      return this.#ort;
    });
  }

  get disposed(): boolean {
    return this.#ort === undefined;
  }

  /** Frees the GPU buffer now (otherwise it is freed when garbage-collected). Idempotent. */
  dispose(): void {
    this.#ort?.dispose();
    this.#ort = undefined;
  }
}

/** Module-private access to the ORT tensor inside a DeviceTensor (not exported from index.ts). */
const DEVICE_HANDLES = new WeakMap<DeviceTensor, () => Tensor>();

export function ortTensorOfDevice(t: DeviceTensor): Tensor {
  const get = DEVICE_HANDLES.get(t);
  if (!get) throw new RuntimeError({ code: 'bad_feed', input: 'device tensor', reason: 'not made by a runtime Session' });
  return get();
}

export type SessionValue = HostTensor | DeviceTensor;

/** Wraps a host tensor for ORT without copying its data. */
export function toOrt(t: SessionValue): Tensor {
  if (t.kind === 'device') return ortTensorOfDevice(t);
  if (t.dtype === 'bfloat16') throw new RuntimeError({ code: 'bad_feed', input: 'tensor', reason: 'bfloat16 tensors cannot cross into onnxruntime-node; feed float32 and cast inside the graph' });
  return new Tensor(t.dtype, t.data as DataOf[Exclude<DType, 'bfloat16'>], t.dims);
}

const DTYPE_OF_ORT: Readonly<Record<string, DType>> = {
  float32: 'float32',
  float64: 'float64',
  float16: 'float16',
  int64: 'int64',
  int32: 'int32',
  bool: 'bool',
};

/** Turns an ORT output into a SessionValue; device-located outputs are never read here. */
export function fromOrt(t: Tensor, provider: ProviderName, output: string): SessionValue {
  const dtype = DTYPE_OF_ORT[t.type];
  if (dtype === undefined) throw new RuntimeError({ code: 'bad_feed', input: output, reason: `output dtype ${t.type} is not supported by the runtime` });
  if (t.location !== 'cpu' && t.location !== 'cpu-pinned') return new DeviceTensor(dtype, [...t.dims], provider, t);
  const data = t.data as DataOf[DType];
  // float16 may come back as Float16Array where the platform has one; keep raw bits as the contract.
  const raw = dtype === 'float16' && !(data instanceof Uint16Array) ? new Uint16Array((data as ArrayBufferView).buffer, (data as ArrayBufferView).byteOffset, t.size) : data;
  return { kind: 'host', dtype, dims: [...t.dims], data: raw } as HostTensor;
}
