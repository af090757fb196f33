// RoPE as one RotaryEmbedding node (opset 23) against the composite rotation the golden tests
// check: same values and the same gradient, for shared and per-row positions and for sequences
// longer than the table (bd3's [x_t ; x_0] rows). ORT has no float64 kernel for the op, so these
// compare in float32; the composite's gradient is checked in float64 in custom-vjp.test.ts.
import { describe, expect, it } from 'vitest';
import { Graph, type Tensor, GraphError, grad, mul, reduceSum, reshape, rotaryEmbedding, topoOrder, transpose } from '../graph/index.js';
import { compile, randn, rng } from '../testing/index.js';
import { applyRope, applyRopeFused } from './functional.js';
import { ropeInputs, ropeTablesRange } from './rope.js';
import type { TransformerConfig } from './transformer.js';

const config: TransformerConfig = { vocabSize: 16, dModel: 24, nLayers: 1, nHeads: 3, nKvHeads: 3, ffnDim: 32, ropeTheta: 10000, rmsEps: 1e-6 };
const H = 3;
const hd = 8;

/** The rotated x [B, S, H·hd] and its gradient under a random cotangent, by either form. */
async function rotate(positions: number[][], fused: boolean, seed = 7) {
  const [B, S] = [positions.length, positions[0]!.length];
  const next = rng(seed);
  const x = Float32Array.from(randn(next, B * S * H * hd));
  const cot = Float32Array.from(randn(next, B * S * H * hd));
  const g = new Graph();
  g.opset = 23;
  const xt = g.input('x', 'float32', [B, S, H * hd]);
  const pos = g.constant(BigInt64Array.from(positions.flat(), BigInt), 'int64', [B, S]);
  const rows = Math.max(...positions.flat()) + 1;
  const inputs = ropeInputs(ropeTablesRange(config, 0, rows), hd, pos);
  let y: Tensor;
  if (fused) y = applyRopeFused(xt, inputs.rope, H);
  else {
    const heads = transpose(reshape(xt, [B, S, H, hd]), [0, 2, 1, 3]);
    y = reshape(transpose(applyRope(heads, inputs.cos, inputs.sin), [0, 2, 1, 3]), [B, S, H * hd]);
  }
  const [dx] = grad(reduceSum(mul(y, g.constant(cot, 'float32', [B, S, H * hd]))), [xt]);
  g.output('y', y);
  g.output('dx', dx!);
  const out = await (await compile(g))({ x });
  return { y: out.y!.data as Float32Array, dx: out.dx!.data as Float32Array, nodes: g };
}

function expectClose(a: Float32Array, b: Float32Array, tol: number) {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  expect(worst).toBeLessThan(tol);
}

describe('RoPE as one RotaryEmbedding node', () => {
  const cases: [string, number[][]][] = [
    [
      'positions 0…S−1 in every row',
      [
        [0, 1, 2, 3, 4],
        [0, 1, 2, 3, 4],
      ],
    ],
    [
      'packed rows whose positions restart',
      [
        [0, 1, 2, 0, 1],
        [3, 4, 0, 1, 2],
      ],
    ],
    [
      'rows longer than the table (bd3: x_t and x_0 share positions)',
      [
        [0, 1, 2, 0, 1, 2],
        [0, 1, 2, 0, 1, 2],
      ],
    ],
  ];
  for (const [name, positions] of cases)
    it(`equals the composite rotation and its gradient: ${name}`, async () => {
      const composite = await rotate(positions, false);
      const fused = await rotate(positions, true);
      expectClose(fused.y, composite.y, 2e-6);
      expectClose(fused.dx, composite.dx, 2e-6);
      // Not the identity: the rotation really happened (positions > 0 move the values).
      const x = Float32Array.from(randn(rng(7), fused.y.length));
      expect(fused.y.some((v, i) => Math.abs(v - x[i]!) > 1e-3)).toBe(true);
    });

  it('is one node each way, and the backward rotates by −θ', () => {
    const g = new Graph();
    g.opset = 23;
    const x = g.input('x', 'float32', [1, 4, H * hd]);
    const pos = g.constant(BigInt64Array.from([0n, 1n, 2n, 3n]), 'int64', [1, 4]);
    const { rope } = ropeInputs(ropeTablesRange(config, 0, 4), hd, pos);
    const y = applyRopeFused(x, rope, H);
    const [dx] = grad(reduceSum(y), [x]);
    const ropes = topoOrder([y, dx!]).filter((t) => t.source.kind === 'op' && t.source.op.name === 'RotaryEmbedding');
    expect(ropes.length).toBe(2);
    const [forward, back] = ropes.map((t) => t.source as { inputs: readonly Tensor[] }).sort((a) => (a.inputs[0] === x ? -1 : 1));
    expect(back!.inputs[1]).toBe(forward!.inputs[1]); // the same cosines
    const sinBack = back!.inputs[2]!;
    expect(sinBack.source.kind).toBe('constant'); // the negated table, folded at build time
    const data = (sinBack.source as { data: Float32Array }).data;
    const fwd = (rope.sin.source as { data: Float32Array }).data;
    expect(Array.from(data, (v) => v + 0)).toEqual(Array.from(fwd, (v) => -v + 0)); // (+ 0: −0 and 0 alike)
  });

  it('needs a graph that targets opset 23', () => {
    const g = new Graph();
    const x = g.input('x', 'float32', [1, 2, H * hd]);
    const t = g.constant(new Float32Array(2 * (hd / 2)), 'float32', [2, hd / 2]);
    const pos = g.constant(BigInt64Array.from([0n, 1n]), 'int64', [1, 2]);
    expect(() => rotaryEmbedding(x, t, t, pos, H)).toThrow(GraphError);
    expect(() => rotaryEmbedding(x, t, t, pos, H)).toThrow(/opset 23/);
    g.opset = 23;
    expect(() => rotaryEmbedding(x, t, t, pos, 5)).toThrow(/not 5 heads/);
  });
});
