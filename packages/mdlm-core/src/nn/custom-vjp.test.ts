// The hand-written gradients of the transformer's composites (graph/custom-vjp.ts) against the
// gradients autodiff derives from the plain formulas, in float64 on ONNX Runtime's CPU provider.
import { describe, expect, it } from 'vitest';
import { Graph, type Tensor, add, concat, grad, matmul, mul, neg, reduceMean, reduceSum, reciprocal, sigmoid, slice, softmax, sqrt, transposeLast, withVjp } from '../graph/index.js';
import { compile, randn, rng } from '../testing/index.js';
import { applyRope, attention, causalMask, repeatKv, rmsNorm, silu } from './index.js';

type Build = (g: Graph, xs: Tensor[]) => Tensor;

/** Gradients of Σ y·c with respect to every input, for the given builder. */
async function gradients(build: Build, shapes: number[][], outShape: number[], seed: number): Promise<Float64Array[]> {
  const g = new Graph();
  const xs = shapes.map((s, i) => g.input(`x${i}`, 'float64', s));
  const c = g.input('c', 'float64', outShape);
  const y = build(g, xs);
  expect(y.shape).toEqual(outShape);
  grad(reduceSum(mul(y, c)), xs).forEach((t, i) => g.output(`d${i}`, t));
  const next = rng(seed);
  const size = (s: number[]) => s.reduce((a, b) => a * b, 1);
  const feeds = Object.fromEntries([...shapes.map((s, i) => [`x${i}`, randn(next, size(s))] as const), ['c', randn(next, size(outShape))] as const]);
  const out = await (await compile(g))(feeds);
  return shapes.map((_, i) => out[`d${i}`]!.data as Float64Array);
}

async function expectSameGradients(custom: Build, derived: Build, shapes: number[][], outShape: number[]) {
  const a = await gradients(custom, shapes, outShape, 7);
  const b = await gradients(derived, shapes, outShape, 7);
  a.forEach((ga, i) => {
    const scale = Math.max(...b[i]!.map(Math.abs));
    expect(scale, `gradient ${i} is not all zero`).toBeGreaterThan(1e-6);
    ga.forEach((v, j) => expect(Math.abs(v - b[i]![j]!) / scale, `input ${i} element ${j}`).toBeLessThan(1e-12));
  });
}

describe('hand-written gradients equal the derived ones', () => {
  it('withVjp replaces the rule of the ops under it', async () => {
    // x·x with the rule of 3·x: the gradient is 3·c, not 2·x·c.
    const [custom] = await gradients((_, [x]) => withVjp(mul(x!, x!), [x!], (dy) => [mul(dy, 3)]), [[5]], [5], 1);
    const [plain] = await gradients((_, [x]) => mul(x!, 3), [[5]], [5], 1);
    expect([...custom!]).toEqual([...plain!]);
  });

  it('SiLU', () =>
    expectSameGradients(
      (_, [x]) => silu(x!),
      (_, [x]) => mul(x!, sigmoid(x!)),
      [[3, 7]],
      [3, 7],
    ));

  it('RMSNorm (input and weight)', () =>
    expectSameGradients(
      (_, [x, w]) => rmsNorm(x!, w!, 1e-6),
      (_, [x, w]) => mul(mul(x!, reciprocal(sqrt(add(reduceMean(mul(x!, x!), [-1], true), 1e-6)))), w!),
      [[2, 3, 8], [8]],
      [2, 3, 8],
    ));

  it('rotary embeddings (the tables are constants and get no gradient)', () => {
    const [cos, sin] = [randn(rng(3), 40), randn(rng(4), 40)];
    const table = (g: Graph, data: Float64Array) => g.constant(data, 'float64', [5, 8]);
    return expectSameGradients(
      (g, [x]) => applyRope(x!, table(g, cos), table(g, sin)),
      (g, [x]) => add(mul(x!, table(g, cos)), mul(concat([neg(slice(x!, [4], [8], [3])), slice(x!, [0], [4], [3])], 3), table(g, sin))),
      [[2, 3, 5, 8]],
      [2, 3, 5, 8],
    );
  });

  it('attention with a causal mask and grouped KV heads (q, k and v)', async () => {
    const mask = (g: Graph) => g.constant(causalMask(5), 'float64', [5, 5]);
    await expectSameGradients(
      (g, [q, k, v]) => attention(q!, k!, v!, mask(g)),
      (g, [q, k, v]) => {
        const scores = matmul(mul(q!, 1 / Math.sqrt(4)), transposeLast(repeatKv(k!, 2)));
        return matmul(softmax(add(scores, mask(g)), -1), repeatKv(v!, 2));
      },
      [
        [2, 4, 5, 4],
        [2, 2, 5, 4],
        [2, 2, 5, 4],
      ],
      [2, 4, 5, 4],
    );
  });
});
