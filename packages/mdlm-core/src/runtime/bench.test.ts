import { describe, expect, it } from 'vitest';
import { benchmarkMatMul } from './bench.js';
import { parseVulkanSummary } from './system.js';

describe('benchmarkMatMul', () => {
  it('reports runs, time per run and GFLOP/s consistent with 2·N³ flops per run', async () => {
    const r = await benchmarkMatMul({ provider: 'cpu', n: 64, minSeconds: 0.05 });
    expect(r).toMatchObject({ provider: 'cpu', n: 64, placement: 'host' });
    expect(r.runs).toBeGreaterThan(0);
    expect(r.gflops).toBeCloseTo((2 * 64 ** 3) / (r.msPerRun / 1000) / 1e9, 6);
  });
});

describe('parseVulkanSummary', () => {
  it('reads device name, type and driver of each GPU block', () => {
    const text = [
      'Devices:',
      '========',
      'GPU0:',
      '\tapiVersion         = 1.4.305',
      '\tdeviceType         = PHYSICAL_DEVICE_TYPE_CPU',
      '\tdeviceName         = llvmpipe (LLVM 15.0.6, 256 bits)',
      '\tdriverName         = llvmpipe',
      '\tdriverInfo         = Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)',
      'GPU1:',
      '\tdeviceType         = PHYSICAL_DEVICE_TYPE_DISCRETE_GPU',
      '\tdeviceName         = NVIDIA H200',
      '\tdriverName         = NVIDIA',
      '',
    ].join('\n');
    expect(parseVulkanSummary(text)).toEqual([
      { name: 'llvmpipe (LLVM 15.0.6, 256 bits)', type: 'cpu', driver: 'Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)' },
      { name: 'NVIDIA H200', type: 'discrete_gpu', driver: 'NVIDIA' },
    ]);
    expect(parseVulkanSummary('no devices here')).toEqual([]);
  });
});
