import { describe, expect, it } from 'vitest';
import { RuntimeError } from './errors.js';
import { ProviderSelector, parseProviderList, probeProvider, providerOrder, type ProbeResult, type ProviderName } from './providers.js';

function fakeProbe(working: readonly ProviderName[], calls: ProviderName[] = []) {
  return async (p: ProviderName): Promise<ProbeResult> => {
    calls.push(p);
    return working.includes(p) ? { provider: p, ok: true, initMs: 1 } : { provider: p, ok: false, reason: `${p} broken in test` };
  };
}

describe('DIFFWORLD_EP parsing', () => {
  it('accepts lists with spaces and any case', () => {
    expect(parseProviderList(' WebGPU , cpu')).toEqual({ ok: true, value: ['webgpu', 'cpu'] });
    expect(parseProviderList('cpu')).toEqual({ ok: true, value: ['cpu'] });
  });

  it('rejects unknown, duplicate and empty names with the fix in the message', () => {
    expect(parseProviderList('gpu,cpu')).toEqual({ ok: false, issue: { code: 'unknown_provider', source: 'DIFFWORLD_EP', name: 'gpu' } });
    expect(parseProviderList('cpu,CPU')).toMatchObject({ ok: false, issue: { code: 'duplicate_provider', name: 'cpu' } });
    expect(parseProviderList(' , ')).toMatchObject({ ok: false, issue: { code: 'empty_provider_list' } });
    expect(() => providerOrder({ env: { DIFFWORLD_EP: 'cuda,tpu' } })).toThrowError(
      '[runtime] DIFFWORLD_EP: unknown execution provider "tpu" (known: cuda, webgpu, cpu). Example: DIFFWORLD_EP=webgpu,cpu',
    );
    const e = (() => {
      try {
        providerOrder({ providers: 'metal' });
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(RuntimeError);
    expect((e as RuntimeError).badInput).toBe(true);
  });

  it('option beats DIFFWORLD_EP, which beats the default order', () => {
    expect(providerOrder({ env: {} })).toEqual(['cuda', 'webgpu', 'cpu']);
    expect(providerOrder({ env: { DIFFWORLD_EP: '' } })).toEqual(['cuda', 'webgpu', 'cpu']);
    expect(providerOrder({ env: { DIFFWORLD_EP: 'webgpu,cpu' } })).toEqual(['webgpu', 'cpu']);
    expect(providerOrder({ env: { DIFFWORLD_EP: 'webgpu,cpu' }, providers: ['cpu'] })).toEqual(['cpu']);
  });
});

describe('ProviderSelector', () => {
  it('falls back in order with one log line per skipped provider, and caches the choice', async () => {
    const lines: string[] = [];
    const calls: ProviderName[] = [];
    const sel = new ProviderSelector({ probe: fakeProbe(['cpu'], calls), logger: (l) => lines.push(l) });
    expect(await sel.select({ env: {} })).toBe('cpu');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[diffworld\] cuda unavailable \(cuda broken in test\); falling back to webgpu\. .*node tools\/install-cuda-provider\.mjs/);
    expect(lines[1]).toMatch(/^\[diffworld\] webgpu unavailable \(webgpu broken in test\); falling back to cpu\. .*mesa-vulkan-drivers/);
    expect(await sel.select({ env: {} })).toBe('cpu');
    expect(lines).toHaveLength(2);
    expect(calls).toEqual(['cuda', 'webgpu', 'cpu']);
  });

  it('picks the first working provider without probing the rest, and no log line when nothing is skipped', async () => {
    const lines: string[] = [];
    const calls: ProviderName[] = [];
    const sel = new ProviderSelector({ probe: fakeProbe(['webgpu', 'cpu'], calls), logger: (l) => lines.push(l) });
    expect(await sel.select({ env: { DIFFWORLD_EP: 'webgpu,cpu' } })).toBe('webgpu');
    expect(calls).toEqual(['webgpu']);
    expect(lines).toEqual([]);
  });

  it('throws what to install when no provider works, and turns a throwing probe into a failure', async () => {
    const lines: string[] = [];
    const sel = new ProviderSelector({
      probe: async (p) => {
        if (p === 'webgpu') throw new Error('adapter exploded');
        return { provider: p, ok: false, reason: `${p} broken in test` };
      },
      logger: (l) => lines.push(l),
    });
    const err = await sel.select({ env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeError);
    expect((err as RuntimeError).issue).toEqual({
      code: 'no_provider',
      tried: [
        { provider: 'cuda', reason: 'cuda broken in test' },
        { provider: 'webgpu', reason: 'adapter exploded' },
        { provider: 'cpu', reason: 'cpu broken in test' },
      ],
    });
    const msg = (err as Error).message;
    expect(msg).toContain('node tools/install-cuda-provider.mjs');
    expect(msg).toContain('mesa-vulkan-drivers');
    expect(msg).toContain('npm ci');
    expect(lines).toHaveLength(2); // the last provider's failure is in the error, not a fallback line
  });
});

describe('probeProvider (real onnxruntime-node)', () => {
  it('cpu initialises and runs', async () => {
    expect(await probeProvider('cpu')).toMatchObject({ provider: 'cpu', ok: true });
  });

  it('cuda reports the missing library and how to install it when absent', async () => {
    const r = await probeProvider('cuda');
    if (!r.ok) expect(r.reason).toMatch(/CUDA provider library not installed|libcu|CUDA/);
    else expect(r.initMs).toBeGreaterThan(0); // a GPU host with the provider installed
  });
});
