// Sessions from emitted ONNX bytes, cached by a hash of (bytes, provider, options) so that a graph
// built twice compiles once; a typed run(feeds) → outputs; host ↔ device copies for WebGPU.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { InferenceSession, type Tensor } from 'onnxruntime-node';
import type { DType } from '../dtype.js';
import { encodeModel } from '../onnx/model.js';
import { RuntimeError } from './errors.js';
import { selectProvider, type ProviderChoice, type ProviderName } from './providers.js';
import { fromOrt, toOrt, type DeviceTensor, type HostTensor, type SessionValue } from './tensor.js';

/** Where outputs go: 'host' (typed arrays) or 'device' (stay on the GPU with webgpu; host elsewhere). */
export type OutputPlacement = 'host' | 'device';

export interface SessionOptions extends ProviderChoice {
  /** Run on this provider (no fallback); otherwise the selected provider of the process. */
  provider?: ProviderName;
  /** Per session, or per output name (others default to 'host'). */
  outputs?: OutputPlacement | Readonly<Record<string, OutputPlacement>>;
  /** CPU threads inside one op; default: DIFFWORLD_ORT_THREADS, else every core. */
  intraOpThreads?: number;
  /**
   * Write ONNX Runtime's profile (Chrome trace JSON: every node's kernel time and provider) to a
   * file starting with this prefix; `Session.endProfiling()` closes it. Default:
   * the DIFFWORLD_ORT_PROFILE environment variable, else off.
   */
  profilePrefix?: string;
  /**
   * Whether idle intra-op threads spin waiting for work (ONNX Runtime's default, true). Off, a
   * session on a shared or oversubscribed CPU leaves the cycles to others between and inside runs
   * (a server between batches; wm-server's default).
   */
  spinning?: boolean;
}

export type Feeds = Readonly<Record<string, SessionValue>>;
export type Outputs = Record<string, SessionValue>;

/** A compiled model on one provider. Shared through the cache: do not dispose it yourself. */
export class Session {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];

  constructor(
    readonly provider: ProviderName,
    readonly key: string,
    private readonly ort: InferenceSession,
  ) {
    this.inputNames = ort.inputNames;
    this.outputNames = ort.outputNames;
  }

  /** Runs the model; host feeds are wrapped without copying, device feeds stay on the device. */
  async run(feeds: Feeds): Promise<Outputs> {
    const missing = this.inputNames.filter((n) => !(n in feeds));
    if (missing.length) throw new RuntimeError({ code: 'missing_input', inputs: missing, expected: this.inputNames });
    const unknown = Object.keys(feeds).filter((n) => !this.inputNames.includes(n));
    if (unknown.length) throw new RuntimeError({ code: 'unknown_input', inputs: unknown, expected: this.inputNames });
    const ortFeeds: Record<string, Tensor> = {};
    for (const name of this.inputNames) {
      const v = feeds[name]!;
      if (v.kind === 'device' && v.provider !== this.provider) {
        throw new RuntimeError({ code: 'bad_feed', input: name, reason: `a ${v.provider} device tensor cannot feed a ${this.provider} session; read it with toHost() first` });
      }
      ortFeeds[name] = toOrt(v);
    }
    const out = await this.ort.run(ortFeeds);
    const result: Outputs = {};
    for (const name of this.outputNames) result[name] = fromOrt(out[name] as Tensor, this.provider, name);
    return result;
  }

  /** Stops profiling (see SessionOptions.profilePrefix); ORT writes `<prefix>_<timestamp>.json`. */
  endProfiling(): void {
    this.ort.endProfiling();
  }

  /** @internal used by the cache */
  release(): Promise<void> {
    return this.ort.release();
  }
}

const cache = new Map<string, Promise<Session>>();
const stats = { hits: 0, misses: 0 };

/** Hash of the model bytes: the first half of the cache key. */
export function modelHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function placementOf(outputs: SessionOptions['outputs'], provider: ProviderName): InferenceSession.SessionOptions['preferredOutputLocation'] {
  if (provider !== 'webgpu' || outputs === undefined) return 'cpu';
  const loc = (p: OutputPlacement) => (p === 'device' ? 'gpu-buffer' : 'cpu');
  if (typeof outputs === 'string') return loc(outputs);
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, loc(v)]));
}

/**
 * Graph rewrites of ONNX Runtime that we switch off. QuickGeluFusion turns x·sigmoid(x) (our SiLU)
 * into com.microsoft.QuickGelu, which has only a float32 kernel on the CPU provider, so a float64
 * inference graph would fail to load. Cost in float32 inference: SiLU over 1.5 M values takes 17 ms
 * instead of 13 ms on the 2-core dev machine, a few percent of the SwiGLU block around it. Training
 * graphs never get the fusion (sigmoid(x) has a second consumer in the backward pass).
 */
export const DISABLED_ORT_OPTIMIZERS: readonly string[] = ['QuickGeluFusion'];

/** Session-config entries every session gets (onnxruntime-node's `extra`, flattened to dotted keys). */
export const ORT_CONFIG_ENTRIES: Readonly<Record<string, string>> = { 'optimization.disable_specified_optimizers': DISABLED_ORT_OPTIMIZERS.join(',') };

/** DIFFWORLD_ORT_THREADS: a positive integer (several runs sharing one host's cores), else undefined. */
export function threadsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const v = env['DIFFWORLD_ORT_THREADS'];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new RuntimeError({ code: 'bad_env', variable: 'DIFFWORLD_ORT_THREADS', value: v, expected: 'a positive integer (intra-op threads per session)' });
  return n;
}

/** Intra-op threads a session gets: as asked, else DIFFWORLD_ORT_THREADS, else every core. */
export function intraOpThreads(requested?: number): number {
  return requested ?? threadsFromEnv() ?? availableParallelism();
}

function ortOptions(provider: ProviderName, opts: SessionOptions): InferenceSession.SessionOptions {
  const threads = intraOpThreads(opts.intraOpThreads);
  const profilePrefix = opts.profilePrefix ?? process.env['DIFFWORLD_ORT_PROFILE'];
  return {
    ...(profilePrefix ? { enableProfiling: true, profileFilePrefix: profilePrefix } : {}),
    extra: { ...ORT_CONFIG_ENTRIES, ...(opts.spinning === false ? { 'session.intra_op.allow_spinning': '0' } : {}) },
    executionProviders: [provider],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    enableCpuMemArena: true,
    enableMemPattern: true,
    preferredOutputLocation: placementOf(opts.outputs, provider),
    logSeverityLevel: 3,
  };
}

/**
 * A session for emitted ONNX bytes, compiled once per (bytes, provider, options) in this process.
 * @example
 *   const s = await createSession(encodeModel(model), { provider: 'cpu' });
 *   const { Y } = await s.run({ X: hostTensor('float32', x, [2, 3]) });
 */
export async function createSession(bytes: Uint8Array, opts: SessionOptions = {}): Promise<Session> {
  const provider = opts.provider ?? (await selectProvider(opts));
  const ortOpts = ortOptions(provider, opts);
  const key = `${modelHash(bytes)}|${provider}|${JSON.stringify(ortOpts)}`;
  const cached = cache.get(key);
  if (cached) {
    stats.hits++;
    return cached;
  }
  stats.misses++;
  const created = InferenceSession.create(bytes, ortOpts).then((s) => new Session(provider, key, s));
  cache.set(key, created);
  created.catch(() => cache.delete(key));
  return created;
}

export function sessionCacheStats(): { size: number; hits: number; misses: number } {
  return { size: cache.size, ...stats };
}

/** Releases every cached session (device tensors made by them become invalid). */
export async function clearSessionCache(): Promise<void> {
  const all = [...cache.values()];
  cache.clear();
  const settled = await Promise.allSettled(all);
  await Promise.all(settled.map((s) => (s.status === 'fulfilled' ? s.value.release() : undefined)));
}

/** Identity over one dtype and rank: the copy kernel for host ↔ device transfers. */
function identityModel(dtype: DType, rank: number): Uint8Array {
  const shape = Array.from({ length: rank }, (_, i) => `d${i}`);
  return encodeModel({
    graphName: `diffworld_identity_${dtype}_${rank}`,
    opset: 18,
    inputs: [{ name: 'X', dtype, shape }],
    outputs: [{ name: 'Y', dtype, shape }],
    initializers: [],
    nodes: [{ opType: 'Identity', inputs: ['X'], outputs: ['Y'] }],
  });
}

/** Copies a device tensor into host memory (an Identity session with host output). */
export async function toHost<D extends DType>(t: HostTensor<D> | DeviceTensor<D>): Promise<HostTensor<D>> {
  if (t.kind === 'host') return t;
  const s = await createSession(identityModel(t.dtype, t.dims.length), { provider: t.provider, outputs: 'host' });
  return (await s.run({ X: t }))['Y'] as HostTensor<D>;
}

/** Uploads a host tensor to a provider's device memory (webgpu only: the others have none in ORT's node binding). */
export async function toDevice<D extends DType>(t: HostTensor<D>, provider: ProviderName = 'webgpu'): Promise<DeviceTensor<D>> {
  if (provider !== 'webgpu') throw new RuntimeError({ code: 'device_not_supported', provider });
  const s = await createSession(identityModel(t.dtype, t.dims.length), { provider, outputs: 'device' });
  return (await s.run({ X: t }))['Y'] as DeviceTensor<D>;
}
