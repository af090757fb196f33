// Gathers and scatters. The gradient of a gather is a scatter-add into zeros (made at run time
// with ConstantOfShape), and the gradient of a scatter is a gather.
import { type OpDef, defineOp, int, str } from '../op.js';
import { GraphError, formatShape, normAxis } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { fill, zerosLike } from './misc.js';
import { expand, reshape } from './shape-ops.js';

function assertIndices(op: string, t: Tensor): void {
  if (t.dtype !== 'int64' && t.dtype !== 'int32') throw new GraphError(op, `indices must be int64 or int32, got ${t.dtype}`);
}

type AxisAttrs = { axis: number };

export const Gather: OpDef<AxisAttrs> = defineOp<AxisAttrs>({
  name: 'Gather',
  arity: [2, 2],
  infer: ([data, indices], { axis }) => {
    assertIndices('Gather', indices!);
    const a = normAxis('Gather', axis, data!.rank);
    return { dtype: data!.dtype, shape: [...data!.shape.slice(0, a), ...indices!.shape, ...data!.shape.slice(a + 1)] };
  },
  onnx: ({ axis }) => ({ opType: 'Gather', attributes: { axis: int(axis) } }),
  vjp: ({ inputs: [data, indices], dy, attrs: { axis } }) => {
    if (normAxis('Gather', axis, data!.rank) !== 0) throw new GraphError('Gather', 'gradient is implemented for axis 0 (embedding lookups) only');
    // Rows of dy are added into the rows of a zero table that the indices name (repeats add up).
    // ScatterElements, not ScatterND: ORT's CPU ScatterND(add) splits the indices over intra-op
    // threads that add into the same rows unordered and unlocked, so same-seed runs drifted apart
    // (issue 31); its ScatterElements adds element by element in index order on one thread. The
    // cost is the index broadcast to dy's shape and a slower kernel (README: "Seeded runs").
    const rest = data!.shape.slice(1);
    const upd = reshape(dy, [-1, ...rest]);
    const idx = expand(reshape(indices!, [-1, ...rest.map(() => 1)]), upd.shape);
    return [scatterElements(fill(data!.graph, data!.shape, 0, data!.dtype), idx, upd, 0, 'add'), null];
  },
});

export const GatherElements: OpDef<AxisAttrs> = defineOp<AxisAttrs>({
  name: 'GatherElements',
  arity: [2, 2],
  infer: ([data, indices], { axis }) => {
    assertIndices('GatherElements', indices!);
    normAxis('GatherElements', axis, data!.rank);
    if (indices!.rank !== data!.rank) throw new GraphError('GatherElements', `indices ${formatShape(indices!.shape)} must have the rank of data ${formatShape(data!.shape)}`);
    return { dtype: data!.dtype, shape: indices!.shape };
  },
  onnx: ({ axis }) => ({ opType: 'GatherElements', attributes: { axis: int(axis) } }),
  vjp: ({ inputs: [data, indices], dy, attrs: { axis } }) => [scatterElements(zerosLike(data!), indices!, dy, axis, 'add'), null],
});

type Reduction = 'none' | 'add';
type ScatterAttrs = { axis: number; reduction: Reduction };

export const ScatterElements: OpDef<ScatterAttrs> = defineOp<ScatterAttrs>({
  name: 'ScatterElements',
  arity: [3, 3],
  infer: ([data, indices, updates], { axis }) => {
    assertIndices('ScatterElements', indices!);
    normAxis('ScatterElements', axis, data!.rank);
    if (updates!.dtype !== data!.dtype) throw new GraphError('ScatterElements', `updates dtype ${updates!.dtype} differs from data ${data!.dtype}`);
    return { dtype: data!.dtype, shape: data!.shape };
  },
  onnx: ({ axis, reduction }) => ({ opType: 'ScatterElements', attributes: { axis: int(axis), reduction: str(reduction) } }),
  vjp: ({ inputs: [, indices, updates], dy, attrs: { axis, reduction }, needed }) => [
    // With reduction "none" the overwritten positions do not depend on data.
    needed[0] ? (reduction === 'add' ? dy : scatterElements(dy, indices!, zerosLike(updates!), axis, 'none')) : null,
    null,
    needed[2] ? gatherElements(dy, indices!, axis) : null,
  ],
});

type ReductionAttrs = { reduction: Reduction };

export const GatherND: OpDef<Record<string, never>> = defineOp<Record<string, never>>({
  name: 'GatherND',
  arity: [2, 2],
  infer: ([data, indices]) => {
    assertIndices('GatherND', indices!);
    const k = indices!.shape[indices!.rank - 1];
    if (typeof k !== 'number' || k > data!.rank) throw new GraphError('GatherND', `last indices dim must be static and ≤ rank of data, got ${formatShape(indices!.shape)}`);
    return { dtype: data!.dtype, shape: [...indices!.shape.slice(0, -1), ...data!.shape.slice(k)] };
  },
  onnx: () => ({ opType: 'GatherND' }),
  // ScatterND(add) races on repeated indices (see Gather); the model gathers distinct positions (logitsAt).
  vjp: ({ inputs: [data, indices], dy }) => [scatterND(zerosLike(data!), indices!, dy, 'add'), null],
});

export const ScatterND: OpDef<ReductionAttrs> = defineOp<ReductionAttrs>({
  name: 'ScatterND',
  arity: [3, 3],
  infer: ([data, indices, updates]) => {
    assertIndices('ScatterND', indices!);
    if (updates!.dtype !== data!.dtype) throw new GraphError('ScatterND', `updates dtype ${updates!.dtype} differs from data ${data!.dtype}`);
    return { dtype: data!.dtype, shape: data!.shape };
  },
  onnx: ({ reduction }) => ({ opType: 'ScatterND', attributes: { reduction: str(reduction) } }),
  vjp: ({ inputs: [, indices, updates], dy, attrs: { reduction }, needed }) => [
    needed[0] ? (reduction === 'add' ? dy : scatterND(dy, indices!, zerosLike(updates!), 'none')) : null,
    null,
    needed[2] ? gatherND(dy, indices!) : null,
  ],
});

export const gather = (data: Tensor, indices: Tensor, axis = 0): Tensor => data.graph.apply(Gather, [data, indices], { axis });
export const gatherElements = (data: Tensor, indices: Tensor, axis: number): Tensor => data.graph.apply(GatherElements, [data, indices], { axis });
export const scatterElements = (data: Tensor, indices: Tensor, updates: Tensor, axis: number, reduction: Reduction = 'none') =>
  data.graph.apply(ScatterElements, [data, indices, updates], { axis, reduction });
export const gatherND = (data: Tensor, indices: Tensor): Tensor => data.graph.apply(GatherND, [data, indices], {});
export const scatterND = (data: Tensor, indices: Tensor, updates: Tensor, reduction: Reduction = 'none'): Tensor => data.graph.apply(ScatterND, [data, indices, updates], { reduction });
