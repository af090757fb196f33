// The C API layer on the CPU: a bound session computes into buffers the caller owns, copies move
// values between them, and misuse is refused by name (the CUDA side is the same code with device
// memory; it is checked on the GPU host by the gpu-train benchmark's --compare).
import { describe, expect, it } from 'vitest';
import { probeModel } from '../providers.js';
import { BoundSession, Copier, hostStaging, loadCApi } from './index.js';

const { error } = loadCApi();
if (error) console.warn(`skipping the C API tests: ${error}`);
const describeCApi = error && !process.env['CI'] ? describe.skip : describe;

// Y = X·X for a 2×2 X: the model the provider probe runs.
const square = probeModel();

describeCApi('ORT C API sessions (koffi)', () => {
  it('reaches onnxruntime-node 1.29.0 and runs a session into bound buffers, which copies read back', async () => {
    expect(loadCApi().api?.version).toBe('1.29.0');
    const s = BoundSession.create(square, { provider: 'cpu' });
    expect([s.inputNames, s.outputNames]).toEqual([['X'], ['Y']]);
    const x = s.allocate('float32', [2, 2]);
    const y = s.allocate('float32', [2, 2]);
    (x.hostData() as Float32Array).set([1, 2, 3, 4]);
    const binding = s.bind({ X: x }, { Y: y });
    await s.run(binding);
    expect(Array.from(y.hostData() as Float32Array)).toEqual([7, 10, 15, 22]);
    // A second run through the same binding sees the input's new values.
    (x.hostData() as Float32Array).set([0, 1, 1, 0]);
    s.runSync(binding);
    expect(Array.from(y.hostData() as Float32Array)).toEqual([1, 0, 0, 1]);
    const copier = Copier.create('cpu', Copier.slotsOf([y]));
    const z = hostStaging('float32', [2, 2]);
    copier.copy([y], [z]);
    expect(Array.from(z.hostData() as Float32Array)).toEqual([1, 0, 0, 1]);
    expect(() => copier.copy([y], [hostStaging('float32', [4, 1])])).toThrow('Copier: pair 0 copies float32[2, 2] into float32[4, 1]');
    binding.release();
    for (const t of [x, y, z]) t.release();
    expect(() => x.handle).toThrow('bound tensor float32[2, 2] was released');
    copier.release();
    s.release();
  });

  it('names what is unbound, unknown or not a model', () => {
    const s = BoundSession.create(square, { provider: 'cpu' });
    const x = s.allocate('float32', [2, 2]);
    expect(() => s.bind({}, { Y: x })).toThrow('bind: unbound input "X"');
    expect(() => s.bind({ X: x, W: x }, { Y: x })).toThrow('bind: the session has no "W"');
    expect(() => BoundSession.create(Uint8Array.of(1, 2, 3), { provider: 'cpu' })).toThrow(/ONNX Runtime \(C API\) creating a cpu session: /);
    x.release();
    s.release();
  });
});
