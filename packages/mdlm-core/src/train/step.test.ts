import { describe, expect, it } from 'vitest';
import { type TypedData, typedFrom } from '../graph/index.js';
import { compile, randn, rng } from '../testing/index.js';
import { crossEntropy, linear, silu } from '../nn/functional.js';
import { type StepGraphSpec, buildAccumulateStep, buildApplyStep, buildFusedStep, buildGradStep, stepNames } from './step.js';

const spec = (rows: number): StepGraphSpec => ({
  dtype: 'float64',
  params: [
    { name: 'w1', shape: [6, 4] },
    { name: 'w2', shape: [3, 6], decay: false },
  ],
  batch: [
    { name: 'x', dtype: 'float64', shape: [rows, 4] },
    { name: 'y', dtype: 'int64', shape: [rows] },
    { name: 'mask', dtype: 'float64', shape: [rows] },
  ],
  loss: (p, b) => ({ loss: crossEntropy(linear(silu(linear(b.x!, p.w1!)), p.w2!), b.y!, b.mask!).loss }),
  optimizer: { weightDecay: 0.05 },
  clipNorm: 0.5,
});

describe('gradient accumulation', () => {
  it('grad × 2 micro-batches → accumulate → apply(scale ½) equals one fused step on the whole batch', async () => {
    const next = rng(11);
    const x = randn(next, 4 * 4);
    const y = BigInt64Array.from([0n, 2n, 1n, 2n]);
    const mask = Float64Array.from([1, 1, 1, 1]);
    const params: Record<string, TypedData> = { w1: randn(next, 24), w2: randn(next, 18) };
    const zeros = (n: number) => new Float64Array(n);
    const moments = { [stepNames.m('w1')]: zeros(24), [stepNames.v('w1')]: zeros(24), [stepNames.m('w2')]: zeros(18), [stepNames.v('w2')]: zeros(18) };
    const hyper = { lr: Float64Array.from([0.1]), step: Float64Array.from([1]) };

    const fused = await (await compile(buildFusedStep(spec(4))))({ ...params, ...moments, ...hyper, x, y, mask });

    const gradRun = await compile(buildGradStep(spec(2)));
    const half = (lo: number) => ({ x: x.slice(lo * 4, lo * 4 + 8), y: y.slice(lo, lo + 2), mask: mask.slice(lo, lo + 2) });
    const g1 = await gradRun({ ...params, ...half(0) });
    const g2 = await gradRun({ ...params, ...half(2) });
    const acc = await (await compile(buildAccumulateStep(spec(2))))({
      [stepNames.grad('w1')]: g1[stepNames.grad('w1')]!.data,
      [`acc.${stepNames.grad('w1')}`]: g2[stepNames.grad('w1')]!.data,
      [stepNames.grad('w2')]: g1[stepNames.grad('w2')]!.data,
      [`acc.${stepNames.grad('w2')}`]: g2[stepNames.grad('w2')]!.data,
    });
    const applied = await (await compile(buildApplyStep(spec(2))))({
      ...params,
      ...moments,
      ...hyper,
      grad_scale: Float64Array.from([0.5]),
      [stepNames.grad('w1')]: acc[stepNames.updated(stepNames.grad('w1'))]!.data,
      [stepNames.grad('w2')]: acc[stepNames.updated(stepNames.grad('w2'))]!.data,
    });
    for (const name of ['w1', 'w2', stepNames.m('w1'), stepNames.v('w2')]) {
      const a = applied[stepNames.updated(name)]!.data as Float64Array;
      const f = fused[stepNames.updated(name)]!.data as Float64Array;
      a.forEach((v, i) => expect(v).toBeCloseTo(f[i]!, 12));
    }
    expect(applied.grad_norm!.data[0]).toBeCloseTo(fused.grad_norm!.data[0] as number, 12);
    expect(fused.grad_norm!.data[0]).toBeGreaterThan(0.5); // so clipping was active in this check
  });

  it('weight decay skips parameters marked decay: false', async () => {
    const s = spec(2);
    const next = rng(3);
    const params = { w1: randn(next, 24), w2: randn(next, 18) };
    const zeroMask = { x: new Float64Array(8), y: new BigInt64Array(2), mask: new Float64Array(2) }; // no tokens → zero grads
    const moments = Object.fromEntries(
      ['w1', 'w2'].flatMap((p) => [
        [stepNames.m(p), new Float64Array(p === 'w1' ? 24 : 18)],
        [stepNames.v(p), new Float64Array(p === 'w1' ? 24 : 18)],
      ]),
    );
    const out = await (await compile(buildFusedStep(s)))({ ...params, ...moments, ...zeroMask, lr: typedFrom('float64', [0.1]), step: typedFrom('float64', [1]) });
    const w1 = out[stepNames.updated('w1')]!.data as Float64Array;
    const w2 = out[stepNames.updated('w2')]!.data as Float64Array;
    w1.forEach((v, i) => expect(v).toBeCloseTo(params.w1[i]! * (1 - 0.1 * 0.05), 12));
    expect(Array.from(w2)).toEqual(Array.from(params.w2));
  });
});
