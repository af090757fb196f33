// Test helpers: run an emitted graph on ORT's CPU provider, and seeded random data.
import { InferenceSession, Tensor as OrtTensor } from 'onnxruntime-node';
import type { DType, TypedData } from '../dtype.js';
import { emitOnnx } from './emit.js';
import type { Graph } from './tensor.js';
import { ORT_CONFIG_ENTRIES } from '../runtime/session.js';

export interface HostTensor {
  data: TypedData;
  dims: readonly number[];
}

const ORT_TYPE: Record<DType, string> = { float32: 'float32', float64: 'float64', float16: 'float16', bfloat16: 'bfloat16', int64: 'int64', int32: 'int32', bool: 'bool' };

export type Runner = (feeds: Record<string, TypedData>) => Promise<Record<string, HostTensor>>;

/** Emits the graph once and returns a function that runs it on one ORT provider (CPU by default). */
export async function compile(graph: Graph, provider: 'cpu' | 'webgpu' = 'cpu'): Promise<Runner> {
  const { bytes } = emitOnnx(graph);
  const session = await InferenceSession.create(bytes, { executionProviders: [provider], extra: { ...ORT_CONFIG_ENTRIES } });
  const inputs = new Map(graph.inputs.map((t) => [(t.source as { name: string }).name, t]));
  return async (feeds) => {
    const ortFeeds: Record<string, OrtTensor> = {};
    for (const [name, data] of Object.entries(feeds)) {
      const t = inputs.get(name);
      if (!t) throw new Error(`no graph input named ${name}`);
      ortFeeds[name] = new OrtTensor(ORT_TYPE[t.dtype] as 'float32', data as Float32Array, t.shape as number[]);
    }
    const out = await session.run(ortFeeds);
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { data: v.data as TypedData, dims: v.dims }]));
  };
}

/** mulberry32: a tiny seeded generator for test data. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randn(next: () => number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return out;
}
