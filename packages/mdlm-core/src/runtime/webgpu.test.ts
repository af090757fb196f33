// WebGPU through Dawn → Vulkan: Mesa lavapipe in CI, the NVIDIA ICD on GPU hosts.
// Under CI=true an unavailable WebGPU fails these tests; elsewhere they are skipped with the reason.
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { encodeModel, type OnnxModel } from '../onnx/model.js';
import { rng } from '../testing/index.js';
import { RuntimeError } from './errors.js';
import { probeProvider, type ProbeResult } from './providers.js';
import { createSession, toDevice, toHost } from './session.js';
import { DeviceTensor, hostTensor, type HostTensor } from './tensor.js';

const CI = process.env['CI'] === 'true' || process.env['CI'] === '1';

function randomTensor(dims: number[], seed: number): HostTensor<'float32'> {
  const r = rng(seed);
  return hostTensor(
    'float32',
    Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, () => r() - 0.5),
    dims,
  );
}

/** S = Softmax(A·B, axis=-1) and Y = A·B. */
const matmulSoftmax: OnnxModel = {
  graphName: 'matmul_softmax',
  opset: 18,
  inputs: [
    { name: 'A', dtype: 'float32', shape: ['n', 'k'] },
    { name: 'B', dtype: 'float32', shape: ['k', 'm'] },
  ],
  outputs: [
    { name: 'Y', dtype: 'float32', shape: ['n', 'm'] },
    { name: 'S', dtype: 'float32', shape: ['n', 'm'] },
  ],
  initializers: [],
  nodes: [
    { opType: 'MatMul', inputs: ['A', 'B'], outputs: ['Y'] },
    { opType: 'Softmax', inputs: ['Y'], outputs: ['S'], attributes: { axis: { type: 'int', value: -1 } } },
  ],
};

/** Z = Tanh(X) * 2: a second, different session to feed device tensors into. */
const tanhTwice: OnnxModel = {
  graphName: 'tanh_twice',
  opset: 18,
  inputs: [{ name: 'X', dtype: 'float32', shape: ['n', 'm'] }],
  outputs: [{ name: 'Z', dtype: 'float32', shape: ['n', 'm'] }],
  initializers: [{ name: 'two', dtype: 'float32', shape: [], data: Float32Array.from([2]) }],
  nodes: [
    { opType: 'Tanh', inputs: ['X'], outputs: ['T'] },
    { opType: 'Mul', inputs: ['T', 'two'], outputs: ['Z'] },
  ],
};

function expectClose(got: HostTensor, want: HostTensor, rtol = 1e-5, atol = 1e-6): void {
  expect(got.dims).toEqual(want.dims);
  const g = got.data as Float32Array;
  const w = want.data as Float32Array;
  let worst = 0;
  for (let i = 0; i < w.length; i++) worst = Math.max(worst, Math.abs(g[i]! - w[i]!) - rtol * Math.abs(w[i]!));
  expect(worst).toBeLessThanOrEqual(atol);
}

let webgpu: ProbeResult;
beforeAll(async () => {
  webgpu = await probeProvider('webgpu');
});

function requireWebGpu(ctx: TestContext): void {
  if (webgpu.ok) return;
  const why = `WebGPU does not initialise: ${webgpu.reason}. Install Mesa's Vulkan driver (apt-get install -t bookworm-backports mesa-vulkan-drivers libvulkan1; .ci/run does)`;
  if (CI) throw new Error(why);
  ctx.skip(why);
}

describe('webgpu provider', () => {
  it('MatMul + Softmax match the CPU provider within float32 tolerance', async (ctx) => {
    requireWebGpu(ctx);
    const bytes = encodeModel(matmulSoftmax);
    const gpu = await createSession(bytes, { provider: 'webgpu' });
    const cpu = await createSession(bytes, { provider: 'cpu' });
    const feeds = { A: randomTensor([37, 96], 1), B: randomTensor([96, 53], 2) };
    const g = (await gpu.run(feeds)) as Record<string, HostTensor>;
    const c = (await cpu.run(feeds)) as Record<string, HostTensor>;
    expect(g['Y']!.kind).toBe('host');
    expectClose(g['Y']!, c['Y']!);
    expectClose(g['S']!, c['S']!);
  });

  it('keeps outputs on the GPU across sessions and reads them back through Identity', async (ctx) => {
    requireWebGpu(ctx);
    const A = randomTensor([16, 24], 3);
    const B = randomTensor([24, 16], 4);
    const mmBytes = encodeModel(matmulSoftmax);
    const tanhBytes = encodeModel(tanhTwice);
    const gA = await createSession(mmBytes, { provider: 'webgpu', outputs: 'device' });
    const gB = await createSession(tanhBytes, { provider: 'webgpu', outputs: { Z: 'device' } });

    // A → B on the device, then Y fed back into A itself (as its left operand) from the device.
    const first = await gA.run({ A, B });
    const y = first['Y']!;
    expect(y).toBeInstanceOf(DeviceTensor);
    expect(y.kind).toBe('device');
    expect('data' in y).toBe(false); // no way to reach getData(), which aborts the process
    const z = await gB.run({ X: y });
    const again = await gA.run({
      A: y,
      B: await toDevice(
        hostTensor(
          'float32',
          Float32Array.from({ length: 16 * 16 }, (_, i) => (i % 17 === 0 ? 1 : 0)),
          [16, 16],
        ),
      ),
    });

    const cA = await createSession(mmBytes, { provider: 'cpu' });
    const cB = await createSession(tanhBytes, { provider: 'cpu' });
    const cy = (await cA.run({ A, B }))['Y'] as HostTensor;
    const cz = (await cB.run({ X: cy }))['Z'] as HostTensor;
    expectClose(await toHost(y), cy);
    expectClose(await toHost(z['Z']!), cz);
    expectClose(await toHost(again['Y']!), cy); // multiplied by the identity matrix
    expect((await toHost(first['S']!)).dims).toEqual([16, 16]);
  });

  it('refuses disposed device tensors and device tensors of another provider', async (ctx) => {
    requireWebGpu(ctx);
    const d = await toDevice(randomTensor([2, 3], 5));
    const cpu = await createSession(encodeModel(tanhTwice), { provider: 'cpu' });
    await expect(cpu.run({ X: d })).rejects.toThrowError('a webgpu device tensor cannot feed a cpu session; read it with toHost() first');
    d.dispose();
    expect(d.disposed).toBe(true);
    const err = await toHost(d).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeError);
    expect((err as RuntimeError).issue.code).toBe('device_tensor_disposed');
  });
});
