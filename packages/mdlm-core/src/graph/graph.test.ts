// Graph construction, autodiff plumbing and emission: errors, DCE, folding, dynamic dims.
import { describe, expect, it } from 'vitest';
import * as G from './index.js';
import { compile, decodeModelSummary } from '../testing/index.js';

describe('graph construction', () => {
  it('infers shapes through broadcasting and names the op in shape errors', () => {
    const g = new G.Graph();
    const a = g.input('a', 'float32', [2, 1, 3]);
    const b = g.input('b', 'float32', [4, 3]);
    expect(G.add(a, b).shape).toEqual([2, 4, 3]);
    expect(() => G.matmul(a, b)).toThrow('[MatMul] inner dimensions differ: [2, 1, 3] @ [4, 3]');
    expect(() => G.add(a, g.input('c', 'float32', [5]))).toThrow('[Add] cannot broadcast [2, 1, 3] with [5]');
    expect(() => G.add(a, g.input('i', 'int64', [3]))).toThrow('[Add] dtypes differ: float32 and int64');
    expect(() => g.input('a', 'float32', [1])).toThrow('duplicate input name "a"');
    expect(() => G.reshape(a, [5, -1])).toThrow('[Reshape] cannot reshape [2, 1, 3] to [5, -1]');
  });

  it('refuses to mix graphs', () => {
    const g1 = new G.Graph();
    const g2 = new G.Graph();
    expect(() => G.add(g1.input('x', 'float32', [1]), g2.input('y', 'float32', [1]))).toThrow('operands belong to different graphs');
  });

  it('folds constant subexpressions at build time', () => {
    const g = new G.Graph();
    const c = G.mul(G.add(g.constant([1, 2, 3], 'float32'), 1), g.scalar(2, 'float32'));
    expect(c.source.kind).toBe('constant');
    expect(Array.from((c.source as { data: Float32Array }).data)).toEqual([4, 6, 8]);
    const x = g.input('x', 'float32', [3]);
    expect(G.add(x, c).source.kind).toBe('op');
  });
});

describe('autodiff', () => {
  it('accumulates gradients over several paths and stops at stopGradient', async () => {
    const g = new G.Graph();
    const x = g.input('x', 'float64', [3]);
    // y = Σ (x·x + stop(x)·x) → dy/dx = 2x + x = 3x  (the stopped branch contributes x only once)
    const y = G.reduceSum(G.add(G.mul(x, x), G.mul(G.stopGradient(x), x)));
    const [dx] = G.grad(y, [x]);
    g.output('dx', dx!);
    const run = await compile(g);
    const out = await run({ x: Float64Array.from([1, -2, 0.5]) });
    expect(Array.from(out.dx!.data as Float64Array)).toEqual([3, -6, 1.5]);
  });

  it('gives zeros for inputs the objective does not depend on and rejects non-scalar objectives', async () => {
    const g = new G.Graph();
    const x = g.input('x', 'float32', [2]);
    const unused = g.input('u', 'float32', [2, 2]);
    const [du] = G.grad(G.reduceSum(x), [unused]);
    expect(du!.shape).toEqual([2, 2]);
    expect(() => G.grad(x, [x])).toThrow('objective must be a scalar');
    g.output('du', du!);
    const out = await (await compile(g))({ x: Float32Array.from([1, 2]), u: new Float32Array(4) });
    expect(Array.from(out.du!.data as Float32Array)).toEqual([0, 0, 0, 0]);
  });

  it('differentiates with respect to an intermediate tensor and accepts a seed', async () => {
    const g = new G.Graph();
    const x = g.input('x', 'float64', [2]);
    const h = G.exp(x);
    const y = G.mul(h, 3);
    const [dh] = G.grad(y, [h], { seed: g.constant([1, 10], 'float64', [2]) });
    g.output('dh', dh!);
    const out = await (await compile(g))({ x: Float64Array.from([0, 1]) });
    expect(Array.from(out.dh!.data as Float64Array)).toEqual([3, 30]);
  });
});

describe('ONNX emission', () => {
  it('drops dead nodes, dedupes constants, uses only default-domain ops at opset 18', () => {
    const g = new G.Graph();
    const x = g.input('x', 'float32', ['batch', 4]);
    const used = G.mul(G.add(x, 1), g.scalar(1, 'float32'));
    G.exp(G.sub(x, 5)); // dead: no output depends on it
    g.output('y', G.relu(used));
    const { model, nodeCount } = G.emitOnnx(g);
    expect(nodeCount).toBe(3); // Add, Mul, Relu
    expect(model.initializers).toHaveLength(1); // the two 1.0 scalars share one initializer
    expect(model.opset).toBe(18);
    const summary = decodeModelSummary(G.emitOnnx(g).bytes);
    expect(summary.opsetDomains).toEqual(['']);
    expect(summary.opTypes.sort()).toEqual(['Add', 'Mul', 'Relu']);
  });

  it('runs a graph with a named dynamic batch dimension at several batch sizes', async () => {
    const g = new G.Graph();
    const x = g.input('x', 'float32', ['batch', 3]);
    const w = g.input('w', 'float32', [3, 2]);
    const y = G.reshape(G.softmax(G.matmul(x, w), -1), ['batch', 2]);
    g.output('y', y);
    const { model } = G.emitOnnx(g);
    expect(model.inputs[0]!.shape).toEqual(['batch', 3]);
    const { InferenceSession, Tensor } = await import('onnxruntime-node');
    const s = await InferenceSession.create(G.emitOnnx(g).bytes);
    for (const b of [1, 5]) {
      const out = await s.run({ x: new Tensor('float32', new Float32Array(b * 3).fill(1), [b, 3]), w: new Tensor('float32', Float32Array.from([1, 0, 0, 1, 0, 0]), [3, 2]) });
      expect(out.y!.dims).toEqual([b, 2]);
    }
  });

  it('names an output that is also a graph input through an Identity', async () => {
    const g = new G.Graph();
    const x = g.input('x', 'float32', [2]);
    g.output('same', x);
    g.output('twice', G.mul(x, 2));
    const out = await (await compile(g))({ x: Float32Array.from([1, 2]) });
    expect(Array.from(out.same!.data as Float32Array)).toEqual([1, 2]);
    expect(Array.from(out.twice!.data as Float32Array)).toEqual([2, 4]);
  });
});

describe('float16', () => {
  it('bit conversions round-trip and round to nearest even', () => {
    for (const v of [0, -0, 1, -2.5, 65504, 6.103515625e-5, 5.960464477539063e-8, Infinity]) expect(G.float16BitsToNumber(G.float32ToFloat16Bits(v))).toBe(v);
    expect(G.float16BitsToNumber(G.float32ToFloat16Bits(1 + 2 ** -11))).toBe(1); // tie → even
    expect(G.float16BitsToNumber(G.float32ToFloat16Bits(1e6))).toBe(Infinity);
  });

  it('a float16 graph runs on the CPU and WebGPU providers and matches float64 to half precision', async () => {
    const g = new G.Graph();
    const a = g.input('a', 'float16', [4, 8]);
    const b = g.input('b', 'float16', [8, 3]);
    g.output('y', G.softmax(G.add(G.matmul(a, b), 1), -1));
    const av = Array.from({ length: 32 }, (_, i) => Math.sin(i));
    const bv = Array.from({ length: 24 }, (_, i) => Math.cos(i));
    // Reference on the float16-rounded inputs, in float64.
    const ar = av.map((v) => G.float16BitsToNumber(G.float32ToFloat16Bits(v)));
    const br = bv.map((v) => G.float16BitsToNumber(G.float32ToFloat16Bits(v)));
    const expected: number[] = [];
    for (let i = 0; i < 4; i++) {
      const row = [0, 1, 2].map((j) => 1 + ar.slice(i * 8, i * 8 + 8).reduce((s, x, k) => s + x * br[k * 3 + j]!, 0));
      const m = Math.max(...row);
      const e = row.map((x) => Math.exp(x - m));
      expected.push(...e.map((x) => x / e.reduce((s, y) => s + y, 0)));
    }
    const { probeProvider } = await import('../runtime/index.js');
    const webgpu = (await probeProvider('webgpu')).ok || process.env['CI'] === 'true';
    for (const provider of webgpu ? (['cpu', 'webgpu'] as const) : (['cpu'] as const)) {
      const out = await (await compile(g, provider))({ a: G.typedFrom('float16', av), b: G.typedFrom('float16', bv) });
      const y = Array.from(out.y!.data as Uint16Array, G.float16BitsToNumber);
      y.forEach((v, i) => expect(Math.abs(v - expected[i]!), `${provider} element ${i}`).toBeLessThan(4e-3));
    }
  });
});
