import { describe, expect, it } from 'vitest';
import { hostTensor } from '../runtime/index.js';
import { cast } from '../graph/index.js';
import { randn, rng } from '../testing/index.js';
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

describe('StepRunner on WebGPU', () => {
  const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';
  it('keeps parameters and moments on the GPU between steps and matches the CPU run', async (ctx) => {
    const { probeProvider } = await import('../runtime/index.js');
    const probe = await probeProvider('webgpu');
    if (!probe.ok) {
      if (CI) throw new Error(`WebGPU did not initialise in CI: ${probe.reason}`);
      ctx.skip(`WebGPU unavailable here: ${probe.reason}`);
    }
    const next = rng(9);
    const x = Float32Array.from(randn(next, 16 * 8));
    const y = BigInt64Array.from({ length: 16 }, (_, i) => BigInt(i % 4));
    const batch = { x: hostTensor('float32', x, [16, 8]), y: hostTensor('int64', y, [16]), m: hostTensor('float32', new Float32Array(16).fill(1), [16]) };
    const init = { w: Float32Array.from(randn(next, 32), (v) => v * 0.1) };
    const runs = await Promise.all(
      (['cpu', 'webgpu'] as const).map(async (provider) => {
        const runner = await StepRunner.create(spec, init, { provider, schedule: () => 0.05 });
        const losses: number[] = [];
        for (let i = 0; i < 5; i++) losses.push((await runner.step(batch)).loss);
        expect(runner.stateOnDevice).toBe(provider === 'webgpu');
        return { losses, snap: await runner.snapshot() };
      }),
    );
    const [cpu, gpu] = runs;
    expect(gpu!.snap.w!.kind).toBe('host'); // read back through the runtime, never getData()
    gpu!.losses.forEach((l, i) => expect(l).toBeCloseTo(cpu!.losses[i]!, 4));
    for (const name of ['w', 'adam_m.w', 'adam_v.w']) {
      const a = gpu!.snap[name]!.data as Float32Array;
      const b = cpu!.snap[name]!.data as Float32Array;
      a.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThan(1e-4));
    }
  }, 120_000);
});

describe('StepRunner with gradient accumulation and resumed moments', () => {
  const spec64: StepGraphSpec = {
    ...spec,
    dtype: 'float64',
    batch: [{ name: 'x', dtype: 'float64', shape: [16, 8] }, ...spec.batch.slice(1)],
    loss: (p, b) => ({ loss: crossEntropy(linear(b.x!, p.w!), b.y!, cast(b.m!, 'float64')).loss }),
  };
  const data = () => {
    const next = rng(11);
    const x = Float64Array.from(randn(next, 16 * 8));
    const y = BigInt64Array.from({ length: 16 }, (_, i) => BigInt(i % 4));
    return { x, y };
  };
  const batchOf = (x: Float64Array, y: BigInt64Array, from: number, to: number, f64 = false) => ({
    x: f64 ? hostTensor('float64', x.slice(from * 8, to * 8), [to - from, 8]) : hostTensor('float32', Float32Array.from(x.subarray(from * 8, to * 8)), [to - from, 8]),
    y: hostTensor('int64', y.slice(from, to), [to - from]),
    m: hostTensor('float32', new Float32Array(to - from).fill(1), [to - from]),
  });
  const halfSpec = (s: StepGraphSpec): StepGraphSpec => ({
    ...s,
    batch: [
      { name: 'x', dtype: s.batch[0]!.dtype, shape: [8, 8] },
      { name: 'y', dtype: 'int64', shape: [8] },
      { name: 'm', dtype: 'float32', shape: [8] },
    ],
  });

  it('two micro-batches of 8 update exactly like one batch of 16 (float64)', async () => {
    const { x, y } = data();
    const init = { w: Float64Array.from({ length: 32 }, (_, i) => Math.sin(i)) };
    const fused = await StepRunner.create(spec64, init, { provider: 'cpu', schedule: () => 0.05 });
    const accum = await StepRunner.create(halfSpec(spec64), init, { provider: 'cpu', schedule: () => 0.05, gradAccum: 2 });
    for (let s = 0; s < 3; s++) {
      const a = await fused.step(batchOf(x, y, 0, 16, true));
      const b = await accum.step([batchOf(x, y, 0, 8, true), batchOf(x, y, 8, 16, true)]);
      expect(b.loss).toBeCloseTo(a.loss, 12);
      expect(b.gradNorm).toBeCloseTo(a.gradNorm, 12);
    }
    const wa = (await fused.snapshot()).w!.data as Float64Array;
    const wb = (await accum.snapshot()).w!.data as Float64Array;
    for (let i = 0; i < 32; i++) expect(Math.abs(wa[i]! - wb[i]!)).toBeLessThan(1e-12);
    await expect(accum.step(batchOf(x, y, 0, 8, true))).rejects.toThrow('needs 2 micro-batch(es), got 1');
  });

  it('a run restarted from its parameters, moments and step number continues bit for bit', async () => {
    const { x, y } = data();
    const init = { w: new Float32Array(32) };
    const whole = await StepRunner.create(spec, init, { provider: 'cpu', schedule: cosineWithWarmup({ lr: 0.1, warmup: 2, total: 6 }) });
    for (let s = 0; s < 6; s++) await whole.step(batchOf(x, y, 0, 16));
    const first = await StepRunner.create(spec, init, { provider: 'cpu', schedule: cosineWithWarmup({ lr: 0.1, warmup: 2, total: 6 }) });
    for (let s = 0; s < 3; s++) await first.step(batchOf(x, y, 0, 16));
    const snap = await first.snapshot();
    const data32 = (k: string) => snap[k]!.data as Float32Array;
    const second = await StepRunner.create(
      spec,
      { w: data32('w') },
      {
        provider: 'cpu',
        schedule: cosineWithWarmup({ lr: 0.1, warmup: 2, total: 6 }),
        startStep: first.nextStep,
        moments: { 'adam_m.w': data32('adam_m.w'), 'adam_v.w': data32('adam_v.w') },
      },
    );
    for (let s = 0; s < 3; s++) await second.step(batchOf(x, y, 0, 16));
    expect(Array.from((await second.snapshot()).w!.data as Float32Array)).toEqual(Array.from((await whole.snapshot()).w!.data as Float32Array));
  });

  it('evaluates the loss of the current parameters without updating them', async () => {
    const { x, y } = data();
    const runner = await StepRunner.create(spec, { w: new Float32Array(32) }, { provider: 'cpu' });
    expect(await runner.evaluate(batchOf(x, y, 0, 16))).toBeCloseTo(Math.log(4), 5);
    expect(runner.nextStep).toBe(1);
  });
});
