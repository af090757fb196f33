// Every differentiable primitive of the op table, checked the same way: forward through ORT in
// float64, then the VJP against central finite differences along random directions
// (⟨∇L, t⟩ ≈ (L(x+εt) − L(x−εt)) / 2ε with L = Σ y⊙c for a random cotangent c), and the float32
// forward against the float64 one on the CPU and the WebGPU providers.
import { describe, expect, it } from 'vitest';
import { Graph, type Tensor } from '../tensor.js';
import { NONDIFF } from '../op.js';
import { grad } from '../autodiff.js';
import { compile, randn, rng } from '../../testing/index.js';
import * as G from '../index.js';
import { probeProvider } from '../../runtime/index.js';

type InputKind = 'normal' | 'positive' | 'bool' | { index: number } | { fixed: number[] };
interface Case {
  op: keyof typeof G.OPS;
  name?: string;
  inputs: { shape: number[]; kind?: InputKind }[];
  build: (xs: Tensor[]) => Tensor;
}

const C = (op: Case['op'], inputs: Case['inputs'], build: Case['build'], name?: string): Case => ({ op, inputs, build, ...(name ? { name } : {}) });
const n = (...shape: number[]) => ({ shape });
const pos = (...shape: number[]) => ({ shape, kind: 'positive' as const });

const CASES: Case[] = [
  C('Add', [n(2, 3), n(3)], ([a, b]) => G.add(a!, b!)),
  C('Sub', [n(2, 1, 3), n(4, 3)], ([a, b]) => G.sub(a!, b!)),
  C('Mul', [n(2, 3), n(2, 1)], ([a, b]) => G.mul(a!, b!)),
  C('Div', [n(3, 4), pos(4)], ([a, b]) => G.div(a!, b!)),
  C('Pow', [pos(2, 3), n(3)], ([a, b]) => G.pow(a!, b!)),
  C('Max', [n(2, 3), n(2, 3)], ([a, b]) => G.maximum(a!, b!)),
  C('Min', [n(2, 3), n(3)], ([a, b]) => G.minimum(a!, b!)),
  C('Neg', [n(5)], ([a]) => G.neg(a!)),
  C('Exp', [n(5)], ([a]) => G.exp(a!)),
  C('Log', [pos(5)], ([a]) => G.log(a!)),
  C('Sqrt', [pos(5)], ([a]) => G.sqrt(a!)),
  C('Reciprocal', [pos(5)], ([a]) => G.reciprocal(a!)),
  C('Tanh', [n(5)], ([a]) => G.tanh(a!)),
  C('Sigmoid', [n(5)], ([a]) => G.sigmoid(a!)),
  C('Relu', [n(7)], ([a]) => G.relu(a!)),
  C('Abs', [n(7)], ([a]) => G.abs(a!)),
  C('Identity', [n(2, 2)], ([a]) => G.identity(a!)),
  C('Where', [{ shape: [2, 3], kind: 'bool' }, n(2, 3), n(3)], ([c, a, b]) => G.where(c!, a!, b!)),
  C('MatMul', [n(2, 3, 4), n(4, 5)], ([a, b]) => G.matmul(a!, b!), 'shared weight'),
  C('MatMul', [n(2, 3, 4), n(2, 4, 5)], ([a, b]) => G.matmul(a!, b!), 'batched'),
  C('MatMul', [n(3, 4), n(2, 4, 2)], ([a, b]) => G.matmul(a!, b!), 'broadcast lhs'),
  C('ReduceSum', [n(2, 3, 4)], ([a]) => G.reduceSum(a!, [1])),
  C('ReduceMean', [n(2, 3, 4)], ([a]) => G.reduceMean(a!, [0, 2], true)),
  C('ReduceMax', [n(2, 3, 4)], ([a]) => G.reduceMax(a!, [-1])),
  C('Softmax', [n(2, 3, 4)], ([a]) => G.softmax(a!, 1)),
  C('LogSoftmax', [n(2, 5)], ([a]) => G.logSoftmax(a!, -1)),
  C('Reshape', [n(2, 3, 4)], ([a]) => G.reshape(a!, [6, -1])),
  C('Transpose', [n(2, 3, 4)], ([a]) => G.transpose(a!, [2, 0, 1])),
  C('Concat', [n(2, 1), n(2, 3), n(2, 2)], (xs) => G.concat(xs, 1)),
  C('Slice', [n(4, 5)], ([a]) => G.slice(a!, [1, -3], [3, 100], [0, 1])),
  C('Pad', [n(2, 3)], ([a]) => G.pad(a!, [1, 0, 0, 2])),
  C('Expand', [n(3, 1)], ([a]) => G.expand(a!, [2, 3, 4])),
  C('Squeeze', [n(2, 1, 3)], ([a]) => G.squeeze(a!, [1])),
  C('Unsqueeze', [n(2, 3)], ([a]) => G.unsqueeze(a!, [0, -1])),
  C('Gather', [n(5, 3), { shape: [2, 4], kind: { index: 5 } }], ([t, i]) => G.gather(t!, i!, 0)),
  C('GatherElements', [n(3, 4), { shape: [3, 2], kind: { index: 4 } }], ([t, i]) => G.gatherElements(t!, i!, 1)),
  C('GatherND', [n(4, 3), { shape: [5, 1], kind: { index: 4 } }], ([t, i]) => G.gatherND(t!, i!)),
  C('ScatterElements', [n(4, 3), { shape: [2, 3], kind: { fixed: [0, 3, 1, 2, 1, 0] } }, n(2, 3)], ([d, i, u]) => G.scatterElements(d!, i!, u!, 0, 'none'), 'none'),
  C('ScatterElements', [n(4, 3), { shape: [3, 3], kind: { index: 4 } }, n(3, 3)], ([d, i, u]) => G.scatterElements(d!, i!, u!, 0, 'add'), 'add'),
  C('ScatterND', [n(4, 3), { shape: [2, 1], kind: { fixed: [3, 1] } }, n(2, 3)], ([d, i, u]) => G.scatterND(d!, i!, u!, 'none'), 'none'),
  C('ScatterND', [n(4, 3), { shape: [5, 1], kind: { index: 4 } }, n(5, 3)], ([d, i, u]) => G.scatterND(d!, i!, u!, 'add'), 'add'),
  C('CumSum', [n(3, 4)], ([a]) => G.cumsum(a!, 1)),
  C('CumSum', [n(3, 4)], ([a]) => G.cumsum(a!, 0, { exclusive: true, reverse: true }), 'exclusive reverse'),
  C('Trilu', [n(2, 4, 4)], ([a]) => G.triu(a!, 1)),
  C('Trilu', [n(4, 3)], ([a]) => G.tril(a!, -1), 'lower'),
];

const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
let providers: Promise<('cpu' | 'webgpu')[]> | undefined;
/** CPU always; WebGPU where it initialises — and always in CI, where .ci/run installs its driver. */
function float32Providers(): Promise<('cpu' | 'webgpu')[]> {
  providers ??= probeProvider('webgpu').then((p) => {
    if (p.ok) return ['cpu', 'webgpu'];
    if (CI) throw new Error(`WebGPU did not initialise in CI: ${p.reason}`);
    return ['cpu'];
  });
  return providers;
}

const isFloatKind = (k: InputKind | undefined) => k === undefined || k === 'normal' || k === 'positive';

function sample(next: () => number, shape: number[], kind: InputKind | undefined): { data: Float64Array | BigInt64Array | Uint8Array; dtype: G.DType } {
  const size = shape.reduce((a, b) => a * b, 1);
  if (kind === 'bool') return { data: Uint8Array.from({ length: size }, () => +(next() < 0.5)), dtype: 'bool' };
  if (typeof kind === 'object' && 'index' in kind) return { data: BigInt64Array.from({ length: size }, () => BigInt(Math.floor(next() * kind.index))), dtype: 'int64' };
  if (typeof kind === 'object' && 'fixed' in kind) return { data: BigInt64Array.from(kind.fixed, BigInt), dtype: 'int64' };
  const z = randn(next, size);
  return { data: kind === 'positive' ? z.map((v) => 0.5 + Math.abs(v)) : z, dtype: 'float64' };
}

describe('op table', () => {
  it('every differentiable primitive has a gradient check below', () => {
    const covered = new Set(CASES.map((c) => c.op));
    const missing = Object.entries(G.OPS)
      // Cast has its own tests; RotaryEmbedding has no float64 kernel: src/nn/rope-fused.test.ts checks
      // it and its gradient against the composite rotation in float32.
      .filter(([name, op]) => op.vjp !== NONDIFF && !covered.has(name as Case['op']) && name !== 'Cast' && name !== 'RotaryEmbedding')
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });
});

describe('VJP vs central finite differences (float64)', () => {
  const seed = Date.now() % 100000; // fresh inputs each run; the seed is in the test name to replay
  for (const [k, c] of CASES.entries()) {
    it(`${c.op}${c.name ? ` (${c.name})` : ''} [seed ${seed + k}]`, async () => {
      const next = rng(seed + k);
      const g = new Graph();
      const samples = c.inputs.map((s) => sample(next, s.shape, s.kind));
      const xs = c.inputs.map((s, i) => g.input(`x${i}`, samples[i]!.dtype, s.shape));
      const y = c.build(xs);
      const cot = g.constant(
        randn(
          next,
          y.shape.reduce<number>((a, b) => a * (b as number), 1),
        ),
        'float64',
        y.shape as number[],
      );
      const loss = G.reduceSum(G.mul(y, cot));
      const floatIdx = c.inputs.flatMap((s, i) => (isFloatKind(s.kind) ? [i] : []));
      const grads = grad(
        loss,
        floatIdx.map((i) => xs[i]!),
      );
      g.output('loss', loss);
      g.output('y', y);
      grads.forEach((t, j) => g.output(`g${j}`, t));
      const run = await compile(g);
      const feeds = Object.fromEntries(samples.map((s, i) => [`x${i}`, s.data]));
      const base = await run(feeds);

      for (let trial = 0; trial < 2; trial++) {
        const dirs = floatIdx.map((i) => randn(next, samples[i]!.data.length));
        const eps = 1e-6;
        const shifted = (sign: number) =>
          Object.fromEntries(
            samples.map((s, i) => {
              const j = floatIdx.indexOf(i);
              return [`x${i}`, j < 0 ? s.data : (s.data as Float64Array).map((v, e) => v + sign * eps * dirs[j]![e]!)];
            }),
          );
        const lp = (await run(shifted(1))).loss!.data[0] as number;
        const lm = (await run(shifted(-1))).loss!.data[0] as number;
        const numeric = (lp - lm) / (2 * eps);
        let analytic = 0;
        floatIdx.forEach((_, j) => {
          const gd = base[`g${j}`]!.data as Float64Array;
          for (let e = 0; e < gd.length; e++) analytic += gd[e]! * dirs[j]![e]!;
        });
        const rel = Math.abs(numeric - analytic) / Math.max(1, Math.abs(numeric), Math.abs(analytic));
        expect(rel, `numeric ${numeric} vs analytic ${analytic}`).toBeLessThanOrEqual(1e-6);
      }

      // The float32 path computes the same forward values as the float64 one, to float32 precision.
      const g32 = new Graph();
      const xs32 = c.inputs.map((s, i) => g32.input(`x${i}`, samples[i]!.dtype === 'float64' ? 'float32' : samples[i]!.dtype, s.shape));
      g32.output('y', c.build(xs32));
      const feeds32 = Object.fromEntries(samples.map((s, i) => [`x${i}`, s.dtype === 'float64' ? Float32Array.from(s.data as Float64Array) : s.data]));
      const y64 = base.y!.data as Float64Array;
      const scale = Math.max(1, ...Array.from(y64, Math.abs));
      for (const provider of await float32Providers()) {
        const y32 = (await (await compile(g32, provider))(feeds32)).y!.data as Float32Array;
        y64.forEach((v, e) => expect(Math.abs(y32[e]! - v) / scale, `${provider} element ${e}`).toBeLessThanOrEqual(1e-5));
      }
    }, 60_000);
  }
});
