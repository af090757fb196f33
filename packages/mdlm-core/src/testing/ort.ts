// Runs an emitted graph on one ONNX Runtime provider, so tests can check a graph's numbers.
import { InferenceSession, Tensor as OrtTensor } from 'onnxruntime-node';
import type { DType, TypedData } from '../dtype.js';
import { emitOnnx } from '../graph/emit.js';
import type { Graph } from '../graph/tensor.js';
import { ORT_CONFIG_ENTRIES } from '../runtime/session.js';

/** One output of a compiled graph: ORT's data and dims. */
export interface RunOutput {
  data: TypedData;
  dims: readonly number[];
}

const ORT_TYPE: Record<DType, string> = { float32: 'float32', float64: 'float64', float16: 'float16', bfloat16: 'bfloat16', int64: 'int64', int32: 'int32', bool: 'bool' };

export type Runner = (feeds: Record<string, TypedData>) => Promise<Record<string, RunOutput>>;

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
