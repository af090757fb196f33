// Encodes an ONNX ModelProto from plain descriptions of its graph (field numbers from onnx.proto).
// Only the default domain is used, so any ONNX runtime can load what we emit.
import { ONNX_DTYPE, type DType, type TypedData, toBytes } from '../dtype.js';
import { ProtoWriter } from './protobuf.js';

export type OnnxDim = number | string; // string = named dynamic dimension (dim_param)

export interface OnnxValueInfo {
  name: string;
  dtype: DType;
  shape: readonly OnnxDim[];
}

export interface OnnxInitializer {
  name: string;
  dtype: DType;
  shape: readonly number[];
  data: TypedData;
}

export type OnnxAttribute =
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'string'; value: string }
  | { type: 'ints'; value: readonly number[] }
  | { type: 'floats'; value: readonly number[] }
  | { type: 'tensor'; value: OnnxInitializer }
  | { type: 'graph'; value: OnnxGraph };

export interface OnnxNode {
  opType: string;
  name?: string;
  inputs: readonly string[]; // "" marks an omitted optional input
  outputs: readonly string[];
  attributes?: Readonly<Record<string, OnnxAttribute>>;
}

/** A graph: the model's main graph, or a control-flow body (Loop's `body` attribute). */
export interface OnnxGraph {
  graphName: string;
  inputs: readonly OnnxValueInfo[];
  outputs: readonly OnnxValueInfo[];
  initializers: readonly OnnxInitializer[];
  nodes: readonly OnnxNode[];
  docString?: string;
}

export interface OnnxModel extends OnnxGraph {
  opset: number;
}

/** The IR version ONNX pairs with an opset: 8 for 17–18 (every ORT since 1.13), 9 from 19, 10 from 21, 11 from 23. */
export function irVersionFor(opset: number): number {
  return opset >= 23 ? 11 : opset >= 21 ? 10 : opset >= 19 ? 9 : 8;
}

const ATTR_TYPE = { float: 1, int: 2, string: 3, tensor: 4, graph: 5, floats: 6, ints: 7 } as const;

function writeTensor(w: ProtoWriter, t: OnnxInitializer): void {
  for (const d of t.shape) w.int(1, d);
  w.int(2, ONNX_DTYPE[t.dtype]);
  w.string(8, t.name);
  w.bytes(9, toBytes(t.data));
}

function writeValueInfo(w: ProtoWriter, v: OnnxValueInfo): void {
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, ONNX_DTYPE[v.dtype]);
      tensor.message(2, (shape) => {
        for (const d of v.shape) shape.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)));
      });
    }),
  );
}

function writeAttribute(w: ProtoWriter, name: string, a: OnnxAttribute): void {
  w.string(1, name);
  switch (a.type) {
    case 'int':
      w.int(3, a.value);
      break;
    case 'float':
      w.float(2, a.value);
      break;
    case 'string':
      w.string(4, a.value);
      break;
    case 'ints':
      for (const v of a.value) w.int(8, v);
      break;
    case 'floats':
      for (const v of a.value) w.float(7, v);
      break;
    case 'tensor':
      w.message(5, (t) => writeTensor(t, a.value));
      break;
    case 'graph':
      w.message(6, (g) => writeGraph(g, a.value));
      break;
  }
  w.int(20, ATTR_TYPE[a.type]);
}

function writeGraph(g: ProtoWriter, graph: OnnxGraph): void {
  for (const n of graph.nodes)
    g.message(1, (node) => {
      for (const i of n.inputs) node.string(1, i);
      for (const o of n.outputs) node.string(2, o);
      if (n.name) node.string(3, n.name);
      node.string(4, n.opType);
      for (const [k, a] of Object.entries(n.attributes ?? {})) node.message(5, (attr) => writeAttribute(attr, k, a));
    });
  g.string(2, graph.graphName);
  for (const t of graph.initializers) g.message(5, (tw) => writeTensor(tw, t));
  if (graph.docString) g.string(10, graph.docString);
  for (const v of graph.inputs) g.message(11, (vw) => writeValueInfo(vw, v));
  for (const v of graph.outputs) g.message(12, (vw) => writeValueInfo(vw, v));
}

export function encodeModel(model: OnnxModel): Uint8Array {
  const w = new ProtoWriter();
  w.int(1, irVersionFor(model.opset));
  w.string(2, 'diffworld');
  w.string(3, '0.1.0');
  w.message(7, (g) => writeGraph(g, model));
  w.message(8, (op) => op.string(1, '').int(2, model.opset));
  return w.finish();
}
