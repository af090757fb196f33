// Execution providers: which to try (cuda → webgpu → cpu, or DIFFWORLD_EP / an option), whether one
// really initialises (a tiny session is created and run), and one log line, once, naming the
// provider chosen and why the faster ones were skipped.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { encodeModel } from '../onnx/model.js';
import { RuntimeError, type ProviderFailure, type RuntimeIssue } from './errors.js';

export const PROVIDERS = ['cuda', 'webgpu', 'cpu'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
/** The order tried when neither an option nor DIFFWORLD_EP says otherwise: fastest first. */
export const DEFAULT_PROVIDER_ORDER: readonly ProviderName[] = PROVIDERS;
export const PROVIDER_ENV = 'DIFFWORLD_EP';

export type ProbeResult = { provider: ProviderName; ok: true; initMs: number } | { provider: ProviderName; ok: false; reason: string };
export type Probe = (provider: ProviderName) => Promise<ProbeResult>;
export type Logger = (line: string) => void;

export const stderrLogger: Logger = (line) => {
  process.stderr.write(line + '\n');
};

export type ParseResult<T> = { ok: true; value: T } | { ok: false; issue: RuntimeIssue };

function isProvider(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/**
 * Parses a comma-separated provider list such as "webgpu,cpu" (case and spaces ignored).
 * @example parseProviderList('webgpu, cpu') // { ok: true, value: ['webgpu', 'cpu'] }
 */
export function parseProviderList(text: string, source = PROVIDER_ENV): ParseResult<ProviderName[]> {
  const names = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  if (names.length === 0) return { ok: false, issue: { code: 'empty_provider_list', source } };
  const out: ProviderName[] = [];
  for (const name of names) {
    if (!isProvider(name)) return { ok: false, issue: { code: 'unknown_provider', source, name } };
    if (out.includes(name)) return { ok: false, issue: { code: 'duplicate_provider', source, name } };
    out.push(name);
  }
  return { ok: true, value: out };
}

export interface ProviderChoice {
  /** Explicit order (wins over DIFFWORLD_EP): a list or a comma-separated string. */
  providers?: readonly ProviderName[] | string;
  /** Environment to read DIFFWORLD_EP from; process.env by default. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The provider order to try: the option, else DIFFWORLD_EP, else cuda → webgpu → cpu. */
export function providerOrder(choice: ProviderChoice = {}): ProviderName[] {
  const { providers } = choice;
  if (providers !== undefined) {
    const parsed = parseProviderList(typeof providers === 'string' ? providers : providers.join(','), 'providers option');
    if (!parsed.ok) throw new RuntimeError(parsed.issue);
    return parsed.value;
  }
  const fromEnv = (choice.env ?? process.env)[PROVIDER_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const parsed = parseProviderList(fromEnv, PROVIDER_ENV);
    if (!parsed.ok) throw new RuntimeError(parsed.issue);
    return parsed.value;
  }
  return [...DEFAULT_PROVIDER_ORDER];
}

/** Chooses the first provider of an order that initialises; probes and choices are cached. */
export class ProviderSelector {
  readonly #probe: Probe;
  readonly #log: Logger;
  readonly #probes = new Map<ProviderName, Promise<ProbeResult>>();
  readonly #choices = new Map<string, Promise<ProviderName>>();
  /** Whether the fallback line was written: once per selector, i.e. once per process for the default one. */
  #noted = false;

  constructor(options: { probe?: Probe; logger?: Logger } = {}) {
    this.#probe = options.probe ?? probeProvider;
    this.#log = options.logger ?? stderrLogger;
  }

  /** The probe result of one provider, computed once per selector. */
  probe(provider: ProviderName): Promise<ProbeResult> {
    let p = this.#probes.get(provider);
    if (!p) {
      p = this.#probe(provider).catch((e: unknown): ProbeResult => ({ provider, ok: false, reason: errorText(e) }));
      this.#probes.set(provider, p);
    }
    return p;
  }

  /** Probes every provider of the order (for `doctor`), without selecting. */
  probeAll(order: readonly ProviderName[] = PROVIDERS): Promise<ProbeResult[]> {
    return Promise.all(order.map((p) => this.probe(p)));
  }

  /**
   * The first provider of the order that works. When faster ones were skipped, logs one line (the
   * first time only) naming the provider chosen and each skipped one's reason; `diffworld doctor`
   * has the install hints. Throws RuntimeError `no_provider` with what to install when none works.
   */
  select(choice: ProviderChoice = {}): Promise<ProviderName> {
    const order = providerOrder(choice);
    const key = order.join(',');
    let chosen = this.#choices.get(key);
    if (!chosen) {
      chosen = this.#selectUncached(order);
      this.#choices.set(key, chosen);
      chosen.catch(() => this.#choices.delete(key));
    }
    return chosen;
  }

  async #selectUncached(order: readonly ProviderName[]): Promise<ProviderName> {
    const failed: ProviderFailure[] = [];
    for (const provider of order) {
      const r = await this.probe(provider);
      if (r.ok) {
        if (failed.length > 0 && !this.#noted) {
          this.#noted = true;
          this.#log(fallbackLine(provider, failed));
        }
        return provider;
      }
      failed.push({ provider, reason: r.reason });
    }
    throw new RuntimeError({ code: 'no_provider', tried: failed });
  }
}

/**
 * The one line a fallback prints, e.g. `[diffworld] running on cpu; skipped cuda (CUDA provider library
 * not installed), webgpu (no Vulkan loader); \`npx diffworld doctor\` says how to enable them`.
 */
function fallbackLine(chosen: ProviderName, skipped: readonly ProviderFailure[]): string {
  const why = skipped.map((f) => `${f.provider} (${f.reason})`).join(', ');
  return `[diffworld] running on ${chosen}; skipped ${why}; \`npx diffworld doctor\` says how to enable ${skipped.length > 1 ? 'them' : 'it'}, DIFFWORLD_EP=${chosen} skips the check`;
}

let defaultSelector: ProviderSelector | undefined;

/** The process-wide selector (real probes, log lines to stderr). */
export function providerSelector(): ProviderSelector {
  defaultSelector ??= new ProviderSelector();
  return defaultSelector;
}

/** The provider to use in this process: see ProviderSelector.select. */
export function selectProvider(choice: ProviderChoice = {}): Promise<ProviderName> {
  return providerSelector().select(choice);
}

/** Folder of onnxruntime-node's native libraries (where the CUDA provider must be installed). */
export function ortLibraryDir(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('onnxruntime-node/package.json');
  return join(dirname(pkg), 'bin', 'napi-v6', process.platform, process.arch);
}

export const CUDA_PROVIDER_FILES = ['libonnxruntime_providers_cuda.so', 'libonnxruntime_providers_shared.so'] as const;

let probeBytes: Uint8Array | undefined;

/** Y = X·X for a 2×2 X (inputs X, output Y): enough to make a provider compile and run a kernel. */
export function probeModel(): Uint8Array {
  probeBytes ??= encodeModel({
    graphName: 'diffworld_probe',
    opset: 18,
    inputs: [{ name: 'X', dtype: 'float32', shape: [2, 2] }],
    outputs: [{ name: 'Y', dtype: 'float32', shape: [2, 2] }],
    initializers: [],
    nodes: [{ opType: 'MatMul', inputs: ['X', 'X'], outputs: ['Y'] }],
  });
  return probeBytes;
}

/** Really initialises a provider: creates a tiny session on it, runs it, checks the numbers. */
export async function probeProvider(provider: ProviderName): Promise<ProbeResult> {
  if (provider === 'cuda' && process.platform === 'linux') {
    // Checked first: ORT prints a red error block to stderr when the library is missing.
    const dir = ortLibraryDir();
    const missing = CUDA_PROVIDER_FILES.filter((f) => !existsSync(join(dir, f)));
    if (missing.length > 0) return { provider, ok: false, reason: `CUDA provider library not installed (no ${missing[0]} in onnxruntime-node)` };
  }
  if (provider === 'webgpu' && process.platform === 'linux' && !canLoad(VULKAN_LOADER)) {
    // Checked first: without the loader Dawn prints a three-line warning to stderr before failing.
    return { provider, ok: false, reason: `no Vulkan loader (${VULKAN_LOADER})` };
  }
  const t0 = performance.now();
  let session: InferenceSession | undefined;
  try {
    session = await InferenceSession.create(probeModel(), { executionProviders: [provider], logSeverityLevel: 3 });
    const out = await session.run({ X: new Tensor('float32', Float32Array.from([1, 2, 3, 4]), [2, 2]) });
    const y = out['Y'];
    const got = y && y.location === 'cpu' ? Array.from(y.data as Float32Array) : undefined;
    if (!got || got.join() !== '7,10,15,22') return { provider, ok: false, reason: `a 2×2 MatMul returned ${JSON.stringify(got)} instead of [7,10,15,22]` };
    return { provider, ok: true, initMs: performance.now() - t0 };
  } catch (e) {
    return { provider, ok: false, reason: errorText(e) };
  } finally {
    await session?.release();
  }
}

/** The Vulkan loader Dawn (ORT's WebGPU) opens on Linux. */
const VULKAN_LOADER = 'libvulkan.so.1';

/** Whether the dynamic linker finds a shared library (dlopen through koffi, a dependency already). */
function canLoad(library: string): boolean {
  const koffi = createRequire(import.meta.url)('koffi') as { load(name: string): { unload(): void } };
  try {
    koffi.load(library).unload();
    return true;
  } catch {
    return false;
  }
}

/** First line of an error, without ORT's source-location prefix. */
function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  const failedCheck = /\bwas false\.\s*(.+)$/.exec(line); // ORT_ENFORCE: "<file> <fn> <cond> was false. <why>"
  return (failedCheck?.[1] ?? line.replace(/^\/onnxruntime_src\/\S+ /, '')).trim();
}
