import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
  it('falls back in order with one log line naming the choice and every skipped provider, and caches the choice', async () => {
    const lines: string[] = [];
    const calls: ProviderName[] = [];
    const sel = new ProviderSelector({ probe: fakeProbe(['cpu'], calls), logger: (l) => lines.push(l) });
    expect(await sel.select({ env: {} })).toBe('cpu');
    expect(lines).toEqual([
      '[diffworld] running on cpu; skipped cuda (cuda broken in test), webgpu (webgpu broken in test); `npx diffworld doctor` says how to enable them, DIFFWORLD_EP=cpu skips the check',
    ]);
    expect(await sel.select({ env: {} })).toBe('cpu');
    expect(calls).toEqual(['cuda', 'webgpu', 'cpu']);
    // Another order that also falls back (another cache entry) says nothing more: once per selector.
    expect(await sel.select({ providers: ['webgpu', 'cpu'] })).toBe('cpu');
    expect(lines).toHaveLength(1);
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
    expect(lines).toEqual([]); // every failure is in the error, not in a fallback line
  });
});

describe('probeProvider (real onnxruntime-node)', () => {
  it('cpu initialises and runs', async () => {
    expect(await probeProvider('cpu')).toMatchObject({ provider: 'cpu', ok: true });
  });

  it('a process that selects with the default order writes at most one line to stderr (none from Dawn)', () => {
    // A child process: Dawn writes to file descriptor 2 natively, where no in-process hook sees it.
    const providers = fileURLToPath(new URL('./providers.ts', import.meta.url));
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DIFFWORLD_EP;
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=@diffworld/source',
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(pathToFileURL(providers).href)}); console.log(await m.selectProvider());`,
      ],
      { encoding: 'utf8', env, timeout: 60_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    const chosen = child.stdout.trim();
    const lines = child.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(child.stderr).not.toMatch(/Couldn't load Vulkan/);
    const ours = lines.filter((l) => l.startsWith('[diffworld]'));
    expect(ours.length).toBeLessThanOrEqual(1);
    if (chosen !== 'cuda') expect(ours[0]).toMatch(new RegExp(`^\\[diffworld\\] running on ${chosen}; skipped cuda \\(`));
    // On a CPU-only machine that line is all there is; a Vulkan driver may add its own notice (lavapipe warns it is not conformant).
    if (chosen === 'cpu') expect(lines).toEqual(ours);
  }, 90_000);

  it('cuda reports the missing library and how to install it when absent', async () => {
    const r = await probeProvider('cuda');
    if (!r.ok) expect(r.reason).toMatch(/CUDA provider library not installed|libcu|CUDA/);
    else expect(r.initMs).toBeGreaterThan(0); // a GPU host with the provider installed
  });
});
