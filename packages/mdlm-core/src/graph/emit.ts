// Graph → ONNX: dead-code elimination (only what the outputs need), constant deduplication,
// stable names, and one ONNX node per op.
import { createHash } from 'node:crypto';
import { type DType, type TypedData, toBytes, typedFrom } from '../dtype.js';
import { topoOrder } from './autodiff.js';
import type { EmitContext } from './op.js';
import { GraphError, isStatic } from './shape.js';
import { type Graph, DEFAULT_OPSET } from './tensor.js';
import { type OnnxInitializer, type OnnxModel, type OnnxNode, encodeModel } from '../onnx/model.js';

export { DEFAULT_OPSET };

export interface EmitOptions {
  name?: string;
  /** Default: the graph's own (`graph.opset`). */
  opset?: number;
}

export interface EmittedModel {
  model: OnnxModel;
  bytes: Uint8Array;
  /** Number of ONNX nodes after dead-code elimination. */
  nodeCount: number;
}

export function emitOnnx(graph: Graph, opts: EmitOptions = {}): EmittedModel {
  if (graph.outputs.size === 0) throw new GraphError('emit', 'graph has no outputs');
  const opset = opts.opset ?? graph.opset;
  if (opset < 17) throw new GraphError('emit', `opset ${opset} is below the supported minimum 17`);
  const names = new Map<number, string>();
  const initializers: OnnxInitializer[] = [];
  const nodes: OnnxNode[] = [];
  const constByContent = new Map<string, string>();

  const addConstant = (dtype: DType, shape: readonly number[], data: TypedData): string => {
    const bytes = toBytes(data);
    const key = `${dtype}|${shape.join(',')}|${createHash('sha1').update(bytes).digest('base64')}`;
    let name = constByContent.get(key);
    if (!name) {
      name = `const_${constByContent.size}`;
      constByContent.set(key, name);
      initializers.push({ name, dtype, shape, data });
    }
    return name;
  };
  const ctx: EmitContext = { constInput: (dtype, shape, values) => addConstant(dtype, shape, typedFrom(dtype, values)) };

  for (const t of graph.inputs) names.set(t.id, (t.source as { name: string }).name);

  // Outputs produced by an op take the output's name directly; the rest get an Identity below.
  const outputFor = new Map<number, string>();
  for (const [name, t] of graph.outputs) if (t.source.kind === 'op' && !outputFor.has(t.id)) outputFor.set(t.id, name);

  for (const t of topoOrder([...graph.outputs.values()])) {
    if (names.has(t.id)) continue;
    if (t.source.kind === 'constant') {
      if (!isStatic(t.shape)) throw new GraphError('emit', `constant ${t} has a dynamic shape`);
      names.set(t.id, addConstant(t.dtype, t.shape, t.source.data));
    } else if (t.source.kind === 'op') {
      const { op, inputs, attrs } = t.source;
      if (op.minOpset !== undefined && opset < op.minOpset) throw new GraphError('emit', `${op.name} needs opset ${op.minOpset}, emitting at ${opset}`);
      const name = outputFor.get(t.id) ?? `t${t.id}`;
      const inputNames = inputs.map((x) => names.get(x.id)!);
      const emission = op.onnx(attrs, inputNames, ctx, { inputs, out: t });
      nodes.push({ opType: emission.opType, name: `${op.name}_${t.id}`, inputs: emission.inputs ?? inputNames, outputs: [name], ...(emission.attributes ? { attributes: emission.attributes } : {}) });
      names.set(t.id, name);
    } else throw new GraphError('emit', `input ${t} is not an input of this graph`);
  }

  const outputs = [...graph.outputs].map(([name, t]) => {
    const produced = names.get(t.id)!;
    if (produced !== name) nodes.push({ opType: 'Identity', name: `Identity_${name}`, inputs: [produced], outputs: [name] });
    return { name, dtype: t.dtype, shape: t.shape };
  });
  const model: OnnxModel = {
    graphName: opts.name ?? 'diffworld',
    opset,
    inputs: graph.inputs.map((t) => ({ name: names.get(t.id)!, dtype: t.dtype, shape: t.shape })),
    outputs,
    initializers,
    nodes,
  };
  return { model, bytes: encodeModel(model), nodeCount: nodes.length };
}
