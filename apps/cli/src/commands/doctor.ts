// `diffworld doctor`: what this machine can run. Versions, the execution providers that really
// initialise (each creates and runs a small session), adapter names, and a MatMul benchmark.
import { availableParallelism } from 'node:os';
import {
  INSTALL_HINTS,
  PROVIDERS,
  PROVIDER_ENV,
  ProviderSelector,
  benchmarkMatMul,
  defaultTrainingPath,
  nvidiaGpus,
  ortVersion,
  parseProviderList,
  providerOrder,
  supportedModels,
  vulkanDevices,
  type SupportedModel,
  type MatMulBenchResult,
  type ProviderName,
} from '@diffworld/mdlm-core';
import { EXIT, UsageError, numberOpt, stringOpt, type Command, type CommandIO, type ParsedArgs } from '../command.js';

export interface DoctorProvider {
  provider: ProviderName;
  ok: boolean;
  initMs?: number;
  reason?: string;
  fix?: string;
  adapters?: string[];
}

export interface DoctorReport {
  node: string;
  onnxruntime: string;
  platform: string;
  cores: number;
  /** The order sessions use (option > DIFFWORLD_EP > default), or why DIFFWORLD_EP is invalid. */
  order: ProviderName[] | { error: string };
  selected: ProviderName | null;
  /** How training steps run on the selected provider (defaultTrainingPath). */
  training: { path: string; detail: string } | null;
  providers: DoctorProvider[];
  benchmarks: MatMulBenchResult[];
  /** The config.json model types checkpoints may have (`--init`, `--model`). */
  models: SupportedModel[];
}

function listOpt(args: ParsedArgs, name: string, fallback: string): string {
  return stringOpt(args, name) ?? fallback;
}

function parseSizes(text: string): number[] {
  const sizes = text.split(',').map((s) => Number(s.trim()));
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 16384)) {
    throw new UsageError(`--sizes must be a comma-separated list of integers in 1..16384, got "${text}"`);
  }
  return sizes;
}

function parseProviders(text: string, option: string): ProviderName[] {
  const parsed = parseProviderList(text, `--${option}`);
  if (!parsed.ok) throw new UsageError(`--${option}: "${text}" is not a provider list; use names from ${PROVIDERS.join(', ')}, e.g. --${option} cpu,webgpu`);
  return parsed.value;
}

async function adaptersOf(provider: ProviderName): Promise<string[] | undefined> {
  if (provider === 'cpu') return [`${availableParallelism()} threads`];
  if (provider === 'cuda') return nvidiaGpus();
  const devices = await vulkanDevices();
  return devices?.map((d) => `${d.name} [Vulkan ${d.type}${d.driver ? `, ${d.driver}` : ''}]`);
}

export async function doctorReport(opts: { providers: ProviderName[]; sizes: number[]; seconds: number }): Promise<DoctorReport> {
  const selector = new ProviderSelector({ logger: () => {} });
  let order: DoctorReport['order'];
  try {
    order = providerOrder();
  } catch (e) {
    order = { error: (e as Error).message };
  }
  const probed = await selector.probeAll(opts.providers);
  const providers: DoctorProvider[] = [];
  for (const r of probed) {
    const adapters = await adaptersOf(r.provider);
    providers.push(
      r.ok
        ? { provider: r.provider, ok: true, initMs: Math.round(r.initMs), ...(adapters ? { adapters } : {}) }
        : { provider: r.provider, ok: false, reason: r.reason, fix: INSTALL_HINTS[r.provider], ...(adapters ? { adapters } : {}) },
    );
  }
  const working = new Set(providers.filter((p) => p.ok).map((p) => p.provider));
  let selected: ProviderName | null = null;
  if (Array.isArray(order)) {
    // Providers outside --providers were not probed: probe them too, the selection must be real.
    for (const p of order) {
      if ((await selector.probe(p)).ok) {
        selected = p;
        break;
      }
    }
  }
  const benchmarks: MatMulBenchResult[] = [];
  for (const p of opts.providers) {
    if (!working.has(p)) continue;
    for (const n of opts.sizes) benchmarks.push(await benchmarkMatMul({ provider: p, n, minSeconds: opts.seconds }));
  }
  return {
    node: process.version,
    onnxruntime: ortVersion(),
    platform: `${process.platform} ${process.arch}`,
    cores: availableParallelism(),
    order,
    selected,
    training: selected ? defaultTrainingPath(selected) : null,
    providers,
    benchmarks,
    models: supportedModels(),
  };
}

function table(rows: string[][], align: ('l' | 'r')[]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map(
    (r) =>
      '  ' +
      r
        .map((cell, c) => (align[c] === 'r' ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd(),
  );
}

export function formatDoctor(r: DoctorReport): string[] {
  const env = process.env[PROVIDER_ENV];
  const orderText = Array.isArray(r.order) ? `${r.order.join(' → ')} (${env ? `${PROVIDER_ENV}=${env}` : `default; ${PROVIDER_ENV} unset`})` : `invalid: ${r.order.error}`;
  const lines = [
    'diffworld doctor',
    `  node          ${r.node}`,
    `  onnxruntime   ${r.onnxruntime} (onnxruntime-node)`,
    `  platform      ${r.platform}, ${r.cores} cores`,
    `  order         ${orderText}`,
    `  selected      ${r.selected ?? 'none: no provider of the order initialises'}`,
    `  training      ${r.training ? `${r.training.path}: ${r.training.detail}` : 'none'}`,
    '',
    'Execution providers (each initialised by creating and running a small session)',
    ...table(
      [
        ['provider', 'status', 'init ms', 'adapter / reason'],
        ...r.providers.map((p) => [p.provider, p.ok ? 'ok' : 'FAILED', p.initMs === undefined ? '' : String(p.initMs), p.ok ? (p.adapters?.join('; ') ?? 'adapter unknown') : `${p.reason}`]),
      ],
      ['l', 'l', 'r', 'l'],
    ),
  ];
  for (const p of r.providers) if (!p.ok) lines.push(`  fix ${p.provider}: ${p.fix}`);
  lines.push('', 'Checkpoints (config.json model_type)', ...table([['model_type', 'architecture', 'here'], ...r.models.map((m) => [m.modelType, m.architecture, m.note])], ['l', 'l', 'l']));
  if (r.benchmarks.length) {
    lines.push('', 'MatMul float32 N×N (GFLOP/s = 2·N³ / time per run; webgpu: operands on the GPU, one read-back per run)');
    lines.push(
      ...table(
        [['provider', 'N', 'runs', 'ms/run', 'GFLOP/s'], ...r.benchmarks.map((b) => [b.provider, String(b.n), String(b.runs), b.msPerRun.toFixed(2), b.gflops.toFixed(2)])],
        ['l', 'r', 'r', 'r', 'r'],
      ),
    );
  }
  return lines;
}

export const DOCTOR_COMMANDS: readonly Command[] = [
  {
    path: ['doctor'],
    summary: 'check Node/ONNX Runtime, which execution providers work here, and their MatMul GFLOP/s',
    help: [
      'Usage: diffworld doctor [options]',
      '',
      'Prints Node and onnxruntime-node versions, the execution providers that really initialise',
      '(cuda, webgpu, cpu: each creates and runs a small session), their adapters, the provider that',
      `sessions will use (${PROVIDER_ENV} or cuda → webgpu → cpu), and a float32 MatMul benchmark per provider.`,
      '',
      'Options:',
      '  --providers LIST   providers to check (default cuda,webgpu,cpu)',
      '  --sizes LIST       MatMul sizes N (default 512,1024)',
      '  --seconds S        minimum timing per size and provider (default 0.5)',
      '  --no-bench         skip the benchmark',
      '  --require LIST     exit 1 unless every listed provider works (for CI: --require cpu,webgpu)',
      '  --json             print the report as JSON on stdout',
      '',
      'Exit codes: 0 ok, 1 no provider works or a --require provider does not, 2 bad options.',
      '',
      'Examples:',
      '  npx diffworld doctor',
      '  npx diffworld doctor --sizes 256,2048 --seconds 2',
      '  npx diffworld doctor --require cpu,webgpu --sizes 256 --json',
    ].join('\n'),
    options: {
      providers: { type: 'string' },
      sizes: { type: 'string' },
      seconds: { type: 'string' },
      'no-bench': { type: 'boolean' },
      require: { type: 'string' },
      json: { type: 'boolean' },
    },
    async run(args: ParsedArgs, io: CommandIO): Promise<number> {
      const providers = parseProviders(listOpt(args, 'providers', PROVIDERS.join(',')), 'providers');
      const required = parseProviders(listOpt(args, 'require', providers.join(',')), 'require');
      const sizes = args.values['no-bench'] ? [] : parseSizes(listOpt(args, 'sizes', '512,1024'));
      const seconds = numberOpt(args, 'seconds', 0.5);
      if (!(seconds > 0)) throw new UsageError(`--seconds must be > 0, got ${seconds}`);
      const extra = required.filter((p) => !providers.includes(p));
      const report = await doctorReport({ providers: [...providers, ...extra], sizes, seconds });
      if (args.values['json']) io.out(JSON.stringify(report, null, 2));
      else for (const line of formatDoctor(report)) io.out(line);
      const failing = args.values['require'] === undefined ? [] : required.filter((p) => !report.providers.find((x) => x.provider === p)?.ok);
      if (failing.length) {
        io.err(`diffworld doctor: required provider(s) not working: ${failing.join(', ')}`);
        return EXIT.failure;
      }
      return report.providers.some((p) => p.ok) ? EXIT.ok : EXIT.failure;
    },
  },
];
