// float16 mixed precision with dynamic loss scaling, on the CPU with emulated float16 roundings.
// The scaler must behave as PyTorch's GradScaler: overflowing steps change nothing and halve the
// scale, finite runs of `growthInterval` steps double it, and its state survives both the K-steps
// Loop and a resume.
import { describe, expect, it } from 'vitest';
import { topoOrder } from '../graph/autodiff.js';
import { emitOnnx } from '../graph/index.js';
import { constant, cosineWithWarmup } from '../optim/index.js';
import type { HostTensor } from '../runtime/index.js';
import { TINY_BD3, tinyBd3Problem } from '../testing/index.js';
import { objectiveStepSpec } from './objective.js';
import { buildLoopStepModel } from './loop-step.js';
import { StepRunner, type StepResult, type StepRunnerOptions, autocastFor } from './runner.js';
import { buildFusedStep, stepNames } from './step.js';

const { stepSpec, batches, init } = tinyBd3Problem(20, 5, 13);
const run = async (opts: StepRunnerOptions, from = 0, to = batches.length) => {
  const runner = await StepRunner.create(stepSpec, init, { provider: 'cpu', schedule: constant(0.02), ...opts });
  const results = await runner.steps(batches.slice(from, to));
  return { runner, results };
};
const same = (a: Readonly<Record<string, HostTensor>>, b: Readonly<Record<string, HostTensor>>) => {
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
  for (const k of Object.keys(a)) expect(Buffer.from(a[k]!.data.buffer).equals(Buffer.from(b[k]!.data.buffer)), k).toBe(true);
};
/** GradScaler's rule on the host: the scale each step should use, from the steps' skip flags. */
const expectedScales = (rs: readonly StepResult[], initScale: number, growthInterval: number) => {
  let scale = initScale,
    good = 0;
  return rs.map((r) => {
    const used = scale;
    good = r.skipped ? 0 : good + 1;
    if (r.skipped) scale /= 2;
    else if (good === growthInterval) (scale *= 2), (good = 0);
    return used;
  });
};
const fields = (rs: readonly StepResult[]) => rs.map(({ step, loss, gradNorm, lr, lossScale, skipped }) => ({ step, loss, gradNorm, lr, lossScale, skipped }));

describe('float16 mixed precision with dynamic loss scaling', () => {
  it('on CUDA every MatMul takes float16 operands, the state stays float32 and the Loop carries the scaler', () => {
    const scaled = { ...stepSpec, autocast: autocastFor('float16', 'cuda')!, lossScaling: { growthInterval: 2000 } };
    const g = buildFusedStep(scaled);
    const matmuls = topoOrder([...g.outputs.values()]).filter((t) => t.source.kind === 'op' && t.source.op.name === 'MatMul');
    expect(matmuls.length).toBeGreaterThan(40);
    for (const t of matmuls) for (const x of (t.source as { inputs: readonly { dtype: string }[] }).inputs) expect(x.dtype).toBe('float16');
    for (const [name, t] of g.outputs) expect(t.dtype, name).toBe('float32');
    expect(emitOnnx(g).model.nodes.some((n) => n.opType === 'Cast' && n.attributes?.['to']?.value === 10)).toBe(true); // FLOAT16
    const loop = buildLoopStepModel(scaled).nodes.find((n) => n.opType === 'Loop')!;
    for (const name of [stepNames.lossScale, stepNames.goodSteps]) {
      expect(loop.inputs).toContain(name);
      expect(loop.outputs).toContain(stepNames.updated(name));
    }
    expect(loop.outputs).toEqual(expect.arrayContaining([stepNames.usedScale, stepNames.skipped, 'updated.step']));
  });

  // This tiny model's gradient entries reach ~1, so 2^16 (the default) overflows float16 now and
  // then; 2^10 never does here, which keeps skipped steps out of the comparison of the roundings.
  it('20 steps stay within 2% of the float32 loss curve (measured 1.24%) and differ from it', async () => {
    const schedule = cosineWithWarmup({ lr: 0.02, warmup: 3, total: 20 });
    const f32 = (await run({ precision: 'float32', schedule })).results;
    const f16 = (await run({ precision: 'float16', schedule, lossScaling: { initScale: 2 ** 10 } })).results;
    const rel = f16.map((r, i) => Math.abs(r.loss - f32[i]!.loss) / f32[i]!.loss);
    expect(Math.max(...rel)).toBeLessThan(0.02);
    expect(Math.max(...rel)).toBeGreaterThan(1e-6); // the float16 roundings are really there
    expect(f16.every((r) => r.skipped === false && r.lossScale === 2 ** 10)).toBe(true);
    expect(f32.every((r) => r.skipped === undefined && r.lossScale === undefined)).toBe(true);
  });

  it('skips overflowing steps (parameters, moments and AdamW counter unchanged) and halves the scale until steps go through', async () => {
    const { runner, results } = await run({ precision: 'float16', lossScaling: { initScale: 2 ** 30 } }, 0, 1);
    const before = await (await StepRunner.create(stepSpec, init, { provider: 'cpu', precision: 'float16' })).snapshot();
    expect(results[0]!.skipped).toBe(true);
    expect(Number.isFinite(results[0]!.gradNorm)).toBe(false); // float16 MatMuls overflow on S·gradients
    expect(Number.isFinite(results[0]!.loss)).toBe(true);
    same(await runner.snapshot(), before); // bit-identical, moments still zero
    expect(await runner.scalerState()).toEqual({ scale: 2 ** 29, goodSteps: 0, optimizerStep: 1 });

    const all = (await run({ precision: 'float16', lossScaling: { initScale: 2 ** 30 } })).results;
    const skipped = all.findIndex((r) => !r.skipped);
    expect(skipped).toBeGreaterThan(5);
    all.slice(0, skipped + 1).forEach((r, i) => expect(r.lossScale).toBe(2 ** (30 - i)));
    expect(all.map((r) => r.lossScale)).toEqual(expectedScales(all, 2 ** 30, 2000));
    // From the first finite step on, the run is the run that started at the scale that works on
    // that batch: the skipped steps left no trace, the AdamW bias correction included.
    const fresh = (await run({ precision: 'float16', lossScaling: { initScale: 2 ** (30 - skipped) } }, skipped)).results;
    expect(fields(all.slice(skipped)).map(({ step, ...r }) => r)).toEqual(fields(fresh).map(({ step, ...r }) => r));
  });

  it('doubles the scale after growthInterval finite steps in a row', async () => {
    const { runner, results } = await run({ precision: 'float16', lossScaling: { initScale: 2 ** 8, growthInterval: 3 } }, 0, 10);
    expect(results.every((r) => !r.skipped)).toBe(true);
    expect(results.map((r) => Math.log2(r.lossScale!))).toEqual([8, 8, 8, 9, 9, 9, 10, 10, 10, 11]);
    expect(await runner.scalerState()).toEqual({ scale: 2 ** 11, goodSteps: 1, optimizerStep: 11 });
  });

  it('K steps per Loop call equal single steps, skips and growth included', async () => {
    const opts: StepRunnerOptions = { precision: 'float16', lossScaling: { initScale: 2 ** 22, growthInterval: 4 } };
    const single = await run(opts);
    const loop = await run({ ...opts, stepsPerCall: 6 });
    expect(single.results.some((r) => r.skipped)).toBe(true);
    expect(single.results.some((r, i) => i > 0 && r.lossScale! > single.results[i - 1]!.lossScale!)).toBe(true);
    expect(fields(loop.results)).toEqual(fields(single.results));
    same(await loop.runner.snapshot(), await single.runner.snapshot());
    expect(await loop.runner.scalerState()).toEqual(await single.runner.scalerState());
  });

  it('a resumed runner continues with the saved scaler state exactly', async () => {
    const opts: StepRunnerOptions = { precision: 'float16', lossScaling: { initScale: 2 ** 22, growthInterval: 4 } };
    const whole = await run(opts);
    const first = await run(opts, 0, 9);
    const saved = await first.runner.snapshot();
    const scaler = (await first.runner.scalerState())!;
    expect(scaler.optimizerStep).toBeLessThan(10); // steps were skipped before the save
    const moments = Object.fromEntries(Object.entries(saved).map(([k, t]) => [k, t.data as Float32Array]));
    const resumed = await StepRunner.create(stepSpec, moments, { provider: 'cpu', schedule: constant(0.02), ...opts, startStep: 10, moments, scaler });
    const rest = await resumed.steps(batches.slice(9));
    expect(fields(rest)).toEqual(fields(whole.results.slice(9)));
    same(await resumed.snapshot(), await whole.runner.snapshot());
    // Without the scaler state the resumed run differs (so the check above can fail).
    const forgetful = await StepRunner.create(stepSpec, moments, { provider: 'cpu', schedule: constant(0.02), ...opts, startStep: 10, moments });
    expect(fields(await forgetful.steps(batches.slice(9)))).not.toEqual(fields(whole.results.slice(9)));
  });

  it('gradient accumulation scales, skips and unscales as the fused step does', async () => {
    const runner = await StepRunner.create(stepSpec, init, { provider: 'cpu', precision: 'float16', gradAccum: 2, lossScaling: { initScale: 2 ** 24 } });
    const before = await runner.snapshot();
    const r = await runner.step([batches[0]!, batches[1]!]);
    expect(r.skipped).toBe(true);
    same(await runner.snapshot(), before);
    const rs = [r];
    for (let i = 1; i < 10; i++) {
      const prev = await runner.snapshot();
      rs.push(await runner.step([batches[2 * i]!, batches[2 * i + 1]!]));
      if (rs.at(-1)!.skipped) same(await runner.snapshot(), prev);
    }
    expect(rs.map((x) => x.lossScale)).toEqual(expectedScales(rs, 2 ** 24, 2000));
    expect(rs.filter((x) => !x.skipped).length).toBeGreaterThan(0);
    expect((await runner.scalerState())!.optimizerStep).toBe(1 + rs.filter((x) => !x.skipped).length);
  });

  it('refuses float16 with float64 state and a bad growth interval', async () => {
    await expect(StepRunner.create({ ...objectiveStepSpec(TINY_BD3), dtype: 'float64' }, {}, { provider: 'cpu', precision: 'float16' })).rejects.toThrow('precision float16 needs float32 state');
    await expect(StepRunner.create(stepSpec, init, { provider: 'cpu', precision: 'float16', lossScaling: { growthInterval: 0 } })).rejects.toThrow('growthInterval must be a positive integer');
  });
});
