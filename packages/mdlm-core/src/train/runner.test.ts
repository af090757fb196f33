import { describe, expect, it } from 'vitest';
import { hostTensor } from '../runtime/index.js';
import { randn, rng } from '../graph/test-utils.js';
import { crossEntropy, linear } from '../nn/functional.js';
import { cosineWithWarmup } from '../optim/index.js';
import { StepRunner } from './runner.js';
import type { StepGraphSpec } from './step.js';

const spec: StepGraphSpec = {
  params: [{ name: 'w', shape: [4, 8] }],
  batch: [
    { name: 'x', dtype: 'float32', shape: [16, 8] },
    { name: 'y', dtype: 'int64', shape: [16] },
    { name: 'm', dtype: 'float32', shape: [16] },
  ],
  loss: (p, b) => ({ loss: crossEntropy(linear(b.x!, p.w!), b.y!, b.m!).loss }),
  optimizer: { weightDecay: 0 },
};

describe('StepRunner', () => {
  it('learns a linearly separable problem on the CPU and threads state between steps', async () => {
    const next = rng(5);
    const x = Float32Array.from(randn(next, 16 * 8));
    // label = argmax of the first 4 features: learnable by a linear layer
    const y = BigInt64Array.from({ length: 16 }, (_, i) => {
      const row = Array.from(x.subarray(i * 8, i * 8 + 4));
      return BigInt(row.indexOf(Math.max(...row)));
    });
    const runner = await StepRunner.create(spec, { w: new Float32Array(32) }, { provider: 'cpu', schedule: cosineWithWarmup({ lr: 0.1, warmup: 5, total: 200 }) });
    const batch = { x: hostTensor('float32', x, [16, 8]), y: hostTensor('int64', y, [16]), m: hostTensor('float32', new Float32Array(16).fill(1), [16]) };
    const first = await runner.step(batch);
    expect(first.loss).toBeCloseTo(Math.log(4), 5); // zero weights → uniform prediction
    let last = first;
    for (let i = 0; i < 150; i++) last = await runner.step(batch);
    expect(last.step).toBe(151);
    expect(last.loss).toBeLessThan(0.3 * first.loss);
    const snap = await runner.snapshot();
    expect(snap.w!.dims).toEqual([4, 8]);
    expect(Array.from(snap.w!.data as Float32Array).some((v) => v !== 0)).toBe(true);
    expect(runner.nextStep).toBe(152);
  });

  it('names a missing or mis-sized initial parameter', async () => {
    await expect(StepRunner.create(spec, {}, { provider: 'cpu' })).rejects.toThrow('no initial value for parameter "w"');
    await expect(StepRunner.create(spec, { w: new Float32Array(3) }, { provider: 'cpu' })).rejects.toThrow('"w" has 3 values, its shape [4, 8] needs 32');
  });
});
