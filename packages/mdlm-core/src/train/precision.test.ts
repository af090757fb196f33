// Mixed precision (bfloat16 autocast): MatMuls, the SwiGLU activation between them and the
// attention block in bfloat16, the rest float32. The real
// bfloat16 GEMMs need the CUDA provider (the GPU bench compares them); here the CPU runs the same
// roundings around float32 MatMuls, and the loss curve must stay within bfloat16's band of the
// float32 run while visibly differing from it.
import { describe, expect, it } from 'vitest';
import { topoOrder } from '../graph/autodiff.js';
import { emitOnnx } from '../graph/index.js';
import { cosineWithWarmup } from '../optim/index.js';
import { objectiveStepSpec } from './objective.js';
import { TINY_BD3, TINY_BD3_MODEL, tinyBd3Problem } from '../testing/index.js';
import { StepRunner, autocastFor, opsetFor } from './runner.js';
import { buildFusedStep } from './step.js';

const model = TINY_BD3_MODEL;
const spec = TINY_BD3;

describe('bfloat16 mixed precision', () => {
  it('runs every MatMul of the step in bfloat16 on CUDA (forward and backward) and keeps the state float32', () => {
    const step = objectiveStepSpec(spec);
    const g = buildFusedStep({ ...step, autocast: autocastFor('bfloat16', 'cuda')!, opset: opsetFor('cuda') });
    const tensors = topoOrder([...g.outputs.values()]);
    const matmuls = tensors.filter((t) => t.source.kind === 'op' && t.source.op.name === 'MatMul');
    expect(matmuls.length).toBeGreaterThan(3 * model.nLayers * 7); // forward + two backward GEMMs per projection
    for (const t of matmuls) {
      expect(t.dtype, String(t)).toBe('bfloat16');
      for (const x of (t.source as { inputs: readonly { dtype: string }[] }).inputs) expect(x.dtype).toBe('bfloat16');
    }
    const plain = topoOrder([...buildFusedStep(step).outputs.values()]).filter((t) => t.source.kind === 'op' && t.source.op.name === 'MatMul');
    expect(plain.length).toBe(matmuls.length);
    expect(plain.every((t) => t.dtype === 'float32')).toBe(true);
    for (const [name, t] of g.outputs) expect(t.dtype, name).toBe('float32'); // loss, grad norm, parameters, moments
    expect(emitOnnx(g).model.nodes.some((n) => n.opType === 'Cast' && n.attributes?.['to']?.value === 16)).toBe(true);
    // Attention's [B, H, T, S] tensors never change precision: the scores leave their GEMM in
    // bfloat16, the softmax takes and gives bfloat16 (float32 inside the kernel), the backward's
    // softmax term is bfloat16. Only the additive mask is cast, once for every layer.
    const square = (t: { shape: readonly unknown[] }) => t.shape.length === 4 && t.shape[2] === t.shape[3];
    const squareCasts = tensors.filter((t) => t.source.kind === 'op' && t.source.op.name === 'Cast' && square(t));
    expect(squareCasts.map((t) => t.shape[1])).toEqual([1]);
    // RoPE is one bfloat16 RotaryEmbedding node per q and k, forward and backward.
    const ropes = tensors.filter((t) => t.source.kind === 'op' && t.source.op.name === 'RotaryEmbedding');
    expect(ropes.map((t) => t.dtype)).toEqual(Array(4 * model.nLayers).fill('bfloat16'));
    const softmaxes = tensors.filter((t) => t.source.kind === 'op' && t.source.op.name === 'Softmax');
    expect(softmaxes.map((t) => t.dtype)).toEqual(Array(model.nLayers).fill('bfloat16'));
    // q, k, v and attention's output stay bfloat16 between their projections: the [B, T, d] casts of
    // a layer are the two normed inputs down and the two projections' outputs up, and the same four
    // gradients back (16 a layer when q, k, v and the output went through float32).
    const rowCasts = tensors.filter((t) => t.source.kind === 'op' && t.source.op.name === 'Cast' && t.shape.length === 3 && t.shape[2] === model.dModel);
    expect(rowCasts.length).toBeLessThanOrEqual(8 * model.nLayers + 2);
    const castSources = tensors.filter((t) => t.source.kind === 'op' && t.source.op.name === 'Cast').map((t) => `${(t.source as { inputs: readonly { id: number }[] }).inputs[0]!.id}>${t.dtype}`);
    expect(new Set(castSources).size).toBe(castSources.length);
  });

  it('20 steps on the CPU (emulated roundings) stay within 3% of the float32 loss curve and differ from it', async () => {
    const { stepSpec: step, batches, init } = tinyBd3Problem(20, 5, 13);
    const curve = async (precision: 'float32' | 'bfloat16', stepsPerCall: number, opset?: number) => {
      const runner = await StepRunner.create(opset ? { ...step, opset } : step, init, { provider: 'cpu', precision, stepsPerCall, schedule: cosineWithWarmup({ lr: 0.02, warmup: 3, total: 20 }) });
      return (await runner.steps(batches)).map((r) => r.loss);
    };
    const f32 = await curve('float32', 1);
    const bf16 = await curve('bfloat16', 1);
    const bf16Loop = await curve('bfloat16', 5);
    // WebGPU's graphs (opset 18): RoPE as the float32 composite between the half-precision q/k and attention.
    const bf16Op18 = await curve('bfloat16', 5, 18);
    const rel = bf16.map((l, i) => Math.abs(l - f32[i]!) / f32[i]!);
    // Measured 2.3% here: besides the GEMMs, the SwiGLU activation and the attention block (q, k, v,
    // RoPE, scores, softmax, output) run in bfloat16 (the 97.5M model on the H200 stays within
    // 2.3e-5 of float32 over 20 steps).
    expect(Math.max(...rel)).toBeLessThan(0.03);
    expect(Math.max(...rel)).toBeGreaterThan(1e-5); // the roundings are really there
    bf16Loop.forEach((l, i) => expect(Math.abs(l - bf16[i]!) / bf16[i]!).toBeLessThan(1e-5)); // and the Loop path has them too
    const relOp18 = bf16Op18.map((l, i) => Math.abs(l - f32[i]!) / f32[i]!);
    expect(Math.max(...relOp18)).toBeLessThan(0.03);
    expect(bf16Op18.some((l, i) => l !== bf16[i])).toBe(true); // a different graph, not the same one twice
  });

  it('refuses bfloat16 with float64 state', async () => {
    await expect(StepRunner.create({ ...objectiveStepSpec(spec), dtype: 'float64' }, {}, { provider: 'cpu', precision: 'bfloat16' })).rejects.toThrow('precision bfloat16 needs float32 state');
  });
});
