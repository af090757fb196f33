import { describe, expect, it } from 'vitest';
import { encodeModel, type OnnxModel } from '../onnx/model.js';
import { RuntimeError } from './errors.js';
import { createSession, sessionCacheStats, threadsFromEnv, toDevice } from './session.js';
import { hostTensor, type HostTensor } from './tensor.js';

/** Out = Where(Cond, Mul(A, A), Cast(I)) over float64, plus float32 Add and int64 Add. */
const mixed: OnnxModel = {
  graphName: 'mixed',
  opset: 18,
  inputs: [
    { name: 'A', dtype: 'float64', shape: [3] },
    { name: 'I', dtype: 'int64', shape: [3] },
    { name: 'C', dtype: 'bool', shape: [3] },
    { name: 'F', dtype: 'float32', shape: [2, 2] },
  ],
  outputs: [
    { name: 'Out', dtype: 'float64', shape: [3] },
    { name: 'I2', dtype: 'int64', shape: [3] },
    { name: 'NotC', dtype: 'bool', shape: [3] },
    { name: 'F2', dtype: 'float32', shape: [2, 2] },
  ],
  initializers: [],
  nodes: [
    { opType: 'Mul', inputs: ['A', 'A'], outputs: ['AA'] },
    { opType: 'Cast', inputs: ['I'], outputs: ['IF'], attributes: { to: { type: 'int', value: 11 } } },
    { opType: 'Where', inputs: ['C', 'AA', 'IF'], outputs: ['Out'] },
    { opType: 'Add', inputs: ['I', 'I'], outputs: ['I2'] },
    { opType: 'Not', inputs: ['C'], outputs: ['NotC'] },
    { opType: 'Add', inputs: ['F', 'F'], outputs: ['F2'] },
  ],
};

describe('Session on cpu', () => {
  it('runs float32, float64, int64 and bool tensors', async () => {
    const s = await createSession(encodeModel(mixed), { provider: 'cpu' });
    expect(s.provider).toBe('cpu');
    const a = Float64Array.from([0.1, 1e-300, -3]);
    const out = await s.run({
      A: hostTensor('float64', a, [3]),
      I: hostTensor('int64', BigInt64Array.from([5n, 2n ** 40n, -7n]), [3]),
      C: hostTensor('bool', Uint8Array.from([1, 0, 1]), [3]),
      F: hostTensor('float32', Float32Array.from([1.5, -2, 0.25, 3]), [2, 2]),
    });
    const o = out as Record<string, HostTensor>;
    expect(o['Out']).toMatchObject({ kind: 'host', dtype: 'float64', dims: [3] });
    expect(Array.from(o['Out']!.data as Float64Array)).toEqual([0.1 * 0.1, 2 ** 40, 9]); // float64 kept exactly
    expect(o['I2']!.data).toEqual(BigInt64Array.from([10n, 2n ** 41n, -14n]));
    expect(o['NotC']).toMatchObject({ dtype: 'bool' });
    expect(Array.from(o['NotC']!.data as Uint8Array)).toEqual([0, 1, 0]);
    expect(o['F2']!.data).toEqual(Float32Array.from([3, -4, 0.5, 6]));
    expect(o['F2']!.dims).toEqual([2, 2]);
  });

  it('compiles a graph built twice once (cache keyed by bytes, provider and options)', async () => {
    const before = sessionCacheStats();
    const s1 = await createSession(encodeModel({ ...mixed, graphName: 'cached' }), { provider: 'cpu' });
    const s2 = await createSession(encodeModel({ ...mixed, graphName: 'cached' }), { provider: 'cpu' });
    expect(s2).toBe(s1);
    const s3 = await createSession(encodeModel({ ...mixed, graphName: 'cached' }), { provider: 'cpu', intraOpThreads: 1 });
    expect(s3).not.toBe(s1);
    const s4 = await createSession(encodeModel({ ...mixed, graphName: 'cached2' }), { provider: 'cpu' });
    expect(s4).not.toBe(s1);
    // Spinning off is a session config entry ORT accepts: another session, which runs.
    const s5 = await createSession(encodeModel({ ...mixed, graphName: 'cached' }), { provider: 'cpu', spinning: false });
    expect(s5).not.toBe(s1);
    const f = await s5.run({
      A: hostTensor('float64', Float64Array.from([2, 0, 0]), [3]),
      I: hostTensor('int64', BigInt64Array.from([1n, 1n, 1n]), [3]),
      C: hostTensor('bool', Uint8Array.from([1, 0, 0]), [3]),
      F: hostTensor('float32', new Float32Array(4), [2, 2]),
    });
    expect(Array.from((f['Out'] as HostTensor).data as Float64Array)).toEqual([4, 1, 1]);
    const after = sessionCacheStats();
    expect(after.misses - before.misses).toBe(4);
    expect(after.hits - before.hits).toBe(1);
  });

  it('says which input is missing, unknown or malformed', async () => {
    const s = await createSession(encodeModel(mixed), { provider: 'cpu' });
    const F = hostTensor('float32', new Float32Array(4), [2, 2]);
    await expect(s.run({ F })).rejects.toThrowError('[runtime] missing input(s) "A", "I", "C"; the model takes A, I, C, F');
    const full = {
      A: hostTensor('float64', new Float64Array(3), [3]),
      I: hostTensor('int64', new BigInt64Array(3), [3]),
      C: hostTensor('bool', new Uint8Array(3), [3]),
      F,
    };
    await expect(s.run({ ...full, Z: F })).rejects.toThrowError('[runtime] unknown input(s) "Z"; the model takes A, I, C, F');
    expect(() => hostTensor('float32', new Float32Array(5), [2, 2], 'X')).toThrowError('[runtime] input "X": dims [2, 2] need 4 elements, the float32 data has 5');
    expect(() => hostTensor('int64', new Float64Array(2) as unknown as BigInt64Array, [2], 'I')).toThrowError('[runtime] input "I": dtype int64 needs a BigInt64Array, got Float64Array');
  });

  it('wraps typed arrays without copying them', async () => {
    const data = Float32Array.from([1, 2, 3, 4]);
    const t = hostTensor('float32', data, [2, 2]);
    expect(t.data).toBe(data);
  });

  it('refuses device tensors on providers that have none in the node binding', async () => {
    const err = await toDevice(hostTensor('float32', new Float32Array(1), [1]), 'cpu').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeError);
    expect((err as RuntimeError).issue.code).toBe('device_not_supported');
  });
});

describe('DIFFWORLD_ORT_THREADS', () => {
  it('sets the intra-op threads; unset means every core; anything but a positive integer names the variable', () => {
    expect(threadsFromEnv({})).toBeUndefined();
    expect(threadsFromEnv({ DIFFWORLD_ORT_THREADS: '5' })).toBe(5);
    for (const bad of ['0', '-2', '1.5', 'four']) expect(() => threadsFromEnv({ DIFFWORLD_ORT_THREADS: bad })).toThrow(/DIFFWORLD_ORT_THREADS="[^"]*": expected a positive integer/);
  });
});
