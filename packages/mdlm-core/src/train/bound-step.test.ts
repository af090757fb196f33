// The IO-bound step (ORT's C API, state in session-owned buffers) against the onnxruntime-node
// path on the CPU: the same graph, so the same numbers, step for step, through resume, evaluation
// and loss scaling. On CUDA the same code adds device memory and CUDA
// graphs (checked on the GPU host: tools/gpu, the gpu-train benchmark's --compare).
import { describe, expect, it } from 'vitest';
import { randn, rng, tinyBd3Problem } from '../testing/index.js';
import { crossEntropy, linear } from '../nn/functional.js';
import { cosineWithWarmup } from '../optim/index.js';
import { type HostTensor, hostTensor } from '../runtime/index.js';
import { StepRunner, type StepResult, type StepRunnerOptions, boundStepSupport } from './runner.js';
import { add, emitOnnx, matmul, reduceSum, transposeLast } from '../graph/index.js';
import { MAX_STACK } from '../optim/index.js';
import { type StepGraphSpec, buildFusedStep } from './step.js';

type Batch = Readonly<Record<string, HostTensor>>;

const support = boundStepSupport();
if (support) console.warn(`skipping the IO-bound step tests: ${support}`);
const describeBound = support && !process.env['CI'] ? describe.skip : describe;

const linearSpec: StepGraphSpec = {
  params: [
    { name: 'w', shape: [4, 8] },
    { name: 'b', shape: [4], decay: false },
  ],
  batch: [
    { name: 'x', dtype: 'float64', shape: [16, 8] },
    { name: 'y', dtype: 'int64', shape: [16] },
    { name: 'm', dtype: 'float64', shape: [16] },
  ],
  loss: (p, b) => ({ loss: crossEntropy(linear(b.x!, p.w!, p.b!), b.y!, b.m!).loss }),
  dtype: 'float64',
  clipNorm: 0.5,
};

function linearBatches(count: number, seed = 3, rows = 16): Batch[] {
  const next = rng(seed);
  return Array.from({ length: count }, () => {
    const n = rows;
    return {
      x: hostTensor('float64', Float64Array.from(randn(next, n * 8)), [n, 8]),
      y: hostTensor(
        'int64',
        BigInt64Array.from({ length: n }, () => BigInt(Math.floor(next() * 4))),
        [n],
      ),
      m: hostTensor(
        'float64',
        Float64Array.from({ length: n }, () => (next() < 0.8 ? 1 : 0)),
        [n],
      ),
    };
  });
}

const linearInit = () => {
  const next = rng(5);
  return { w: Float64Array.from(randn(next, 32), (v) => v * 0.3), b: new Float64Array(4) };
};

async function train(spec: StepGraphSpec, init: Record<string, Float32Array | Float64Array>, batches: Batch[], opts: StepRunnerOptions) {
  const runner = await StepRunner.create(spec, init, { provider: 'cpu', ...opts });
  const results: StepResult[] = [];
  for (const b of batches) results.push(await runner.step(b));
  return { runner, results, snap: await runner.snapshot() };
}

function expectSameState(a: Record<string, HostTensor>, b: Record<string, HostTensor>, tol: number): void {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  for (const [name, t] of Object.entries(b)) {
    expect(a[name]!.dims, name).toEqual(t.dims);
    const x = a[name]!.data as Float32Array | Float64Array;
    (t.data as Float32Array | Float64Array).forEach((v, i) => expect(Math.abs(v - x[i]!), name).toBeLessThanOrEqual(tol));
  }
}

describeBound('the IO-bound step (ORT C API) on the CPU', () => {
  it("gives the onnxruntime-node path's 20 steps (float64, clipping active), its state, evaluation and resume", async () => {
    const batches = linearBatches(20);
    const schedule = cosineWithWarmup({ lr: 0.05, warmup: 3, total: 20 });
    const plain = await train(linearSpec, linearInit(), batches, { schedule, ioBinding: false });
    const bound = await train(linearSpec, linearInit(), batches, { schedule, ioBinding: true });
    expect(plain.runner.path).toBe('session');
    expect(bound.runner.path).toBe('io-binding');
    expect(plain.results.some((r) => r.gradNorm > 0.5)).toBe(true); // clipping did act
    bound.results.forEach((r, i) => {
      const p = plain.results[i]!;
      expect([r.step, r.lr]).toEqual([p.step, p.lr]);
      expect(Math.abs(r.loss - p.loss)).toBeLessThan(1e-12);
      expect(Math.abs(r.gradNorm - p.gradNorm)).toBeLessThan(1e-12);
    });
    expectSameState(bound.snap, plain.snap, 1e-12);
    const held = linearBatches(1, 9)[0]!;
    expect(Math.abs((await bound.runner.evaluate(held)) - (await plain.runner.evaluate(held)))).toBeLessThan(1e-12);

    // Resume from the snapshot at step 11: the same last 10 steps.
    const half = await train(linearSpec, linearInit(), batches.slice(0, 10), { schedule, ioBinding: true });
    const params = Object.fromEntries(Object.entries(half.snap).map(([k, t]) => [k, t.data as Float64Array]));
    const moments = Object.fromEntries(Object.entries(params).filter(([k]) => k.startsWith('adam_')));
    const resumed = await train(linearSpec, params, batches.slice(10), { schedule, ioBinding: true, startStep: 11, moments });
    resumed.results.forEach((r, i) => expect(Math.abs(r.loss - plain.results[10 + i]!.loss)).toBeLessThan(1e-12));
    expectSameState(resumed.snap, plain.snap, 1e-12);
    for (const r of [bound, half, resumed]) r.runner.release();
  });

  it('trains a BD3 world-model objective 20 steps with the loss curve within 1e-5 relative (float32)', async () => {
    const { stepSpec, batches, init } = tinyBd3Problem(20, 11, 7);
    const schedule = cosineWithWarmup({ lr: 0.02, warmup: 3, total: 20 });
    const plain = await train(stepSpec, init, batches, { schedule, ioBinding: false });
    const bound = await train(stepSpec, init, batches, { schedule, ioBinding: true });
    const mean = (rs: StepResult[]) => rs.reduce((s, r) => s + r.loss, 0) / rs.length;
    expect(mean(bound.results.slice(15))).toBeLessThan(mean(bound.results.slice(0, 5))); // it does train
    bound.results.forEach((r, i) => expect(Math.abs(r.loss - plain.results[i]!.loss) / plain.results[i]!.loss).toBeLessThan(1e-5));
    expectSameState(bound.snap, plain.snap, 1e-5);
    bound.runner.release();
  });

  it("keeps the loss scaler's state on its side in float16 (scale, skips, the AdamW counter) as the plain path does", async () => {
    const { stepSpec, batches, init } = tinyBd3Problem(8, 4, 2);
    // A scale so large that the first steps overflow: they are skipped and the scale halves.
    const opts: StepRunnerOptions = { schedule: () => 0.01, precision: 'float16', lossScaling: { initScale: 2 ** 40, growthInterval: 3 } };
    const plain = await train(stepSpec, init, batches, { ...opts, ioBinding: false });
    const bound = await train(stepSpec, init, batches, { ...opts, ioBinding: true });
    expect(plain.results.some((r) => r.skipped)).toBe(true);
    expect(bound.results.map((r) => [r.skipped, r.lossScale])).toEqual(plain.results.map((r) => [r.skipped, r.lossScale]));
    bound.results.forEach((r, i) => expect(Math.abs(r.loss - plain.results[i]!.loss) / plain.results[i]!.loss).toBeLessThan(1e-5));
    expect(await bound.runner.scalerState()).toEqual(await plain.runner.scalerState());
    bound.runner.release();
  });

  it('stacks at most 32 same-shaped tensors per optimizer Concat (more would read a host pointer table, stale in a replayed CUDA graph)', () => {
    const params = Array.from({ length: 70 }, (_, i) => ({ name: `w${i}`, shape: [2, 3] }));
    const spec: StepGraphSpec = {
      params,
      batch: [{ name: 'x', dtype: 'float32', shape: [4, 3] }],
      loss: (p, b) => ({ loss: reduceSum(params.map((q) => matmul(b.x!, transposeLast(p[q.name]!))).reduce((a, t) => add(a, t))) }),
    };
    const concats = emitOnnx(buildFusedStep(spec)).model.nodes.filter((n) => n.opType === 'Concat');
    expect(Math.max(...concats.map((n) => n.inputs.length))).toBe(MAX_STACK);
    expect(concats.map((n) => n.inputs.length).sort((a, b) => a - b)).toEqual([...Array(4).fill(6), ...Array(8).fill(32)]); // grads, params, m, v: 70 = 32 + 32 + 6
    // With the moments kept joined (the IO-bound step's state) only the gradients are stacked.
    const stacked = emitOnnx(buildFusedStep({ ...spec, stackedMoments: true })).model;
    expect(
      stacked.nodes
        .filter((n) => n.opType === 'Concat')
        .map((n) => n.inputs.length)
        .sort((a, b) => a - b),
    ).toEqual([6, 32, 32]);
    expect(stacked.inputs.filter((i) => i.name.startsWith('adam_')).map((i) => `${i.name}:${i.shape.join('x')}`)).toEqual([
      'adam_m.stack:0:64x3',
      'adam_v.stack:0:64x3',
      'adam_m.stack:1:64x3',
      'adam_v.stack:1:64x3',
      'adam_m.stack:2:12x3',
      'adam_v.stack:2:12x3',
    ]);
  });

  it('refuses what it cannot run, naming it', async () => {
    const init = linearInit();
    await expect(StepRunner.create(linearSpec, init, { provider: 'webgpu', ioBinding: true })).rejects.toThrow('ioBinding runs on the CUDA provider or the CPU, not webgpu');
    await expect(StepRunner.create(linearSpec, init, { provider: 'cpu', ioBinding: true, gradAccum: 2 })).rejects.toThrow('gradAccum 2 and stepsPerCall 1 need it off');
    await expect(StepRunner.create({ ...linearSpec, optimizerLayout: 'flat' }, init, { provider: 'cuda', ioBinding: true })).rejects.toThrow("CUDA graphs cannot replay the 'flat' optimizer layout");
    const runner = await StepRunner.create(linearSpec, init, { provider: 'cpu', ioBinding: true });
    const [b] = linearBatches(1);
    await expect(runner.step({ x: b!.x!, y: b!.y! })).rejects.toThrow('the batch has no input "m"');
    await expect(runner.step({ ...b!, m: hostTensor('float64', new Float64Array(5), [5]) })).rejects.toThrow('batch input "m" is float64[5], the graph takes float64[16]');
    expect((await runner.step(b!)).step).toBe(1); // a refused batch changes nothing
    runner.release();
    // Off by default on the CPU: the onnxruntime-node path.
    expect((await StepRunner.create(linearSpec, init, { provider: 'cpu' })).path).toBe('session');
  });
});
