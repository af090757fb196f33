import { describe, expect, it } from 'vitest';
import { randn, rng, tinyBd3Problem } from '../testing/index.js';
import { add, reduceSum, tanh } from '../graph/index.js';
import { crossEntropy, linear } from '../nn/functional.js';
import { cosineWithWarmup } from '../optim/index.js';
import { type HostTensor, hostTensor } from '../runtime/index.js';
import { loopNames } from './loop-step.js';
import { emitOnnx } from '../graph/index.js';
import { StepRunner, type StepResult } from './runner.js';
import { type OptimizerLayout, type StepGraphSpec, buildFusedStep } from './step.js';

type Batch = Readonly<Record<string, HostTensor>>;

async function trainBoth(spec: StepGraphSpec, init: Record<string, Float32Array | Float64Array>, batches: Batch[], perCall: number) {
  const schedule = cosineWithWarmup({ lr: 0.02, warmup: 3, total: batches.length });
  const run = async (stepsPerCall: number) => {
    const runner = await StepRunner.create(spec, init, { provider: 'cpu', schedule, stepsPerCall });
    const results: StepResult[] = await runner.steps(batches);
    return { results, snap: await runner.snapshot(), next: runner.nextStep };
  };
  return { fused: await run(1), loop: await run(perCall) };
}

const linearSpec = (dtype: 'float32' | 'float64'): StepGraphSpec => ({
  params: [
    { name: 'w', shape: [4, 8] },
    { name: 'b', shape: [4], decay: false },
  ],
  batch: [
    { name: 'x', dtype, shape: [16, 8] },
    { name: 'y', dtype: 'int64', shape: [16] },
    { name: 'm', dtype, shape: [16] },
  ],
  loss: (p, b) => ({ loss: crossEntropy(linear(b.x!, p.w!, p.b!), b.y!, b.m!).loss }),
  dtype,
});

describe('the K-step Loop graph', () => {
  it('gives the same 20 steps as 20 fused steps (float64: to rounding; chunks of 8, 8, 4)', async () => {
    const next = rng(3);
    const batches = Array.from({ length: 20 }, () => ({
      x: hostTensor('float64', Float64Array.from(randn(next, 128)), [16, 8]),
      y: hostTensor(
        'int64',
        BigInt64Array.from({ length: 16 }, () => BigInt(Math.floor(next() * 4))),
        [16],
      ),
      m: hostTensor(
        'float64',
        Float64Array.from({ length: 16 }, () => (next() < 0.8 ? 1 : 0)),
        [16],
      ),
    }));
    const init = { w: Float64Array.from(randn(next, 32), (v) => v * 0.1), b: new Float64Array(4) };
    const { fused, loop } = await trainBoth(linearSpec('float64'), init, batches, 8);
    expect(loop.results.map((r) => r.step)).toEqual(fused.results.map((r) => r.step));
    expect(loop.next).toBe(21);
    loop.results.forEach((r, i) => {
      expect(r.loss).toBeCloseTo(fused.results[i]!.loss, 12);
      expect(r.gradNorm).toBeCloseTo(fused.results[i]!.gradNorm, 12);
      expect(r.lr).toBe(fused.results[i]!.lr);
    });
    for (const name of ['w', 'b', 'adam_m.w', 'adam_v.b']) {
      const a = loop.snap[name]!.data as Float64Array,
        b = fused.snap[name]!.data as Float64Array;
      a.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThan(1e-12));
    }
  });

  it('trains a BD3 world-model objective 20 steps with the loss curve within 1e-5 relative of the fused steps (float32)', async () => {
    const { stepSpec, batches, init } = tinyBd3Problem(20, 11, 7);
    const { fused, loop } = await trainBoth(stepSpec, init, batches, 6);
    const mean = (rs: StepResult[]) => rs.reduce((s, r) => s + r.loss, 0) / rs.length;
    expect(mean(fused.results.slice(15))).toBeLessThan(mean(fused.results.slice(0, 5))); // it does train
    loop.results.forEach((r, i) => expect(Math.abs(r.loss - fused.results[i]!.loss) / fused.results[i]!.loss).toBeLessThan(1e-5));
    const a = loop.snap['model.embed_tokens.weight']!.data as Float32Array,
      b = fused.snap['model.embed_tokens.weight']!.data as Float32Array;
    a.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThan(1e-5));
  });

  it('trains the same at opset 23 (RoPE as RotaryEmbedding nodes) as at opset 18 (the composite rotation)', async () => {
    const { stepSpec, batches, init } = tinyBd3Problem(12, 3, 5);
    const schedule = cosineWithWarmup({ lr: 0.02, warmup: 3, total: batches.length });
    const curve = async (opset: number) => {
      const runner = await StepRunner.create({ ...stepSpec, opset }, init, { provider: 'cpu', schedule, stepsPerCall: 4 });
      return (await runner.steps(batches)).map((r) => r.loss);
    };
    const [op18, op23] = [await curve(18), await curve(23)];
    op23.forEach((l, i) => expect(Math.abs(l - op18[i]!) / op18[i]!).toBeLessThan(1e-5));
    const nodes = (opset: number) => emitOnnx(buildFusedStep({ ...stepSpec, opset })).model.nodes.filter((n) => n.opType === 'RotaryEmbedding').length;
    expect([nodes(18), nodes(23)]).toEqual([0, 4 * 2]); // q and k of 2 layers, forward and backward
  });

  it('refuses batches of different shapes in one call, and gradient accumulation with it, naming what differs', async () => {
    const spec = linearSpec('float32');
    const runner = await StepRunner.create(spec, { w: new Float32Array(32), b: new Float32Array(4) }, { provider: 'cpu', stepsPerCall: 4 });
    const batch = (n: number) => ({
      x: hostTensor('float32', new Float32Array(n * 8), [n, 8]),
      y: hostTensor('int64', new BigInt64Array(n), [n]),
      m: hostTensor('float32', new Float32Array(n).fill(1), [n]),
    });
    await expect(runner.steps([batch(16), batch(5)])).rejects.toThrow('"x" of batch 1 is float32[5, 8], batch 0\'s is float32[16, 8]');
    await expect(StepRunner.create(spec, { w: new Float32Array(32), b: new Float32Array(4) }, { provider: 'cpu', stepsPerCall: 4, gradAccum: 2 })).rejects.toThrow('stepsPerCall 4 needs gradAccum 1');
    expect(loopNames.stacked('x')).toBe('x.steps');
  });
});

describe('the multi-tensor optimizer layouts (flat, by-shape)', () => {
  it('give the per-tensor AdamW + clipping results (float64, 12 steps, clipping active) with far fewer nodes', async () => {
    const base: StepGraphSpec = {
      params: [
        { name: 'w1', shape: [8, 8] },
        { name: 'b1', shape: [8], decay: false },
        { name: 'w3', shape: [8, 8] },
        { name: 'b3', shape: [8], decay: false },
        { name: 'w2', shape: [4, 8] },
        { name: 'b2', shape: [4], decay: false },
        { name: 's', shape: [1, 1, 2] },
      ],
      batch: [
        { name: 'x', dtype: 'float64', shape: [16, 8] },
        { name: 'y', dtype: 'int64', shape: [16] },
        { name: 'm', dtype: 'float64', shape: [16] },
      ],
      // s shifts the first layer's bias: a shift of all logits alike would have a gradient of zero up
      // to rounding, which Adam turns into eps-sized steps that differ with any summation order.
      loss: (p, b) => ({ loss: crossEntropy(linear(tanh(linear(tanh(linear(b.x!, p.w1!, add(p.b1!, reduceSum(p.s!)))), p.w3!, p.b3!)), p.w2!, p.b2!), b.y!, b.m!).loss }),
      dtype: 'float64',
      clipNorm: 0.5,
      optimizer: { weightDecay: 0.1 },
    };
    const next = rng(21);
    const init = {
      w1: Float64Array.from(randn(next, 64), (v) => v * 0.3),
      b1: new Float64Array(8),
      w3: Float64Array.from(randn(next, 64), (v) => v * 0.3),
      b3: Float64Array.from(randn(next, 8), (v) => v * 0.1),
      w2: Float64Array.from(randn(next, 32), (v) => v * 0.3),
      b2: new Float64Array(4),
      s: Float64Array.of(0.1, -0.2),
    };
    const batches = Array.from({ length: 12 }, () => ({
      x: hostTensor('float64', Float64Array.from(randn(next, 128)), [16, 8]),
      y: hostTensor(
        'int64',
        BigInt64Array.from({ length: 16 }, () => BigInt(Math.floor(next() * 4))),
        [16],
      ),
      m: hostTensor('float64', new Float64Array(16).fill(1), [16]),
    }));
    const run = async (optimizerLayout: OptimizerLayout) => {
      const runner = await StepRunner.create({ ...base, optimizerLayout }, init, { provider: 'cpu', schedule: () => 0.05 });
      return { results: await runner.steps(batches), snap: await runner.snapshot() };
    };
    const per = await run('per-tensor');
    expect(per.results.some((r) => r.gradNorm > 0.5)).toBe(true); // clipping did act
    for (const layout of ['flat', 'by-shape'] as const) {
      const multi = await run(layout);
      multi.results.forEach((r, i) => {
        expect(r.loss, layout).toBeCloseTo(per.results[i]!.loss, 10);
        expect(r.gradNorm, layout).toBeCloseTo(per.results[i]!.gradNorm, 10);
      });
      expect(Object.keys(multi.snap).sort()).toEqual(Object.keys(per.snap).sort());
      for (const [name, t] of Object.entries(per.snap)) {
        expect(multi.snap[name]!.dims, name).toEqual(t.dims);
        const a = multi.snap[name]!.data as Float64Array;
        (t.data as Float64Array).forEach((v, i) => expect(Math.abs(v - a[i]!), `${layout} ${name}`).toBeLessThan(1e-10));
      }
    }
    const nodes = (optimizerLayout: OptimizerLayout) => emitOnnx(buildFusedStep({ ...base, optimizerLayout })).nodeCount;
    expect(nodes('flat')).toBeLessThan(nodes('per-tensor'));
    // by-shape stacks w1 with w3 and b1 with b3 (two chains where per-tensor has four).
    const ops = (optimizerLayout: OptimizerLayout) => emitOnnx(buildFusedStep({ ...base, optimizerLayout })).model.nodes.map((n) => n.opType);
    expect(ops('per-tensor').filter((o) => o === 'Sqrt').length).toBe(2 + 7);
    expect(ops('by-shape').filter((o) => o === 'Sqrt').length).toBe(2 + 5); // the norm and √bc2, then one AdamW chain per group: [8,8]×2 [4,8] [1,1,2] / [8]×2 [4]
    expect(ops('by-shape').filter((o) => o === 'Concat').length).toBe(4 * 2); // grads, params, m, v of the two stacked groups
  });
});
