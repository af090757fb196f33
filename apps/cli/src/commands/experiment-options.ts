// The options `diffworld grpo train` and `diffworld repro` share: which settings (a preset or a
// file), settings changed from the command line, and --print-config. One table, one parser, so
// both commands read a config the same way and a file written for one works for the other.
import { mergeSettings } from '@diffworld/config';
import type { ExperimentConfig } from '@diffworld/experiments';
import { UsageError, stringOpt, type ParsedArgs } from '../command.js';

export const EXPERIMENT_OPTIONS = {
  env: { type: 'string' },
  config: { type: 'string' },
  out: { type: 'string' },
  set: { type: 'string', multiple: true },
  provider: { type: 'string' },
  'env-workers': { type: 'string' },
  'print-config': { type: 'boolean' },
} as const;

export const EXPERIMENT_OPTIONS_HELP = `  --config PRESET|FILE  settings: a preset of apps/experiments/configs (cpu, the default, sized
                        for a 2-core machine; gpu, one H200; micro, seconds) or a JSON file (it may
                        "extends" another); the same file serves grpo train and repro
  --set KEY=VALUE       change one setting by its key path (repeatable), e.g. --set grpo.steps=40
                        --set worldModel.train.lr=3e-4; VALUE is JSON, or a string
  --provider NAME       ONNX Runtime provider for every graph: cpu | cuda | webgpu (sets provider)
  --env-workers N       step the real engine in a pool of N worker threads (sets envWorkers)
  --print-config        print the resolved settings (defaults filled in) as JSON and exit
  --out DIR             the run directory: stages/<stage>-<hash>/ (each skipped when its inputs are
                        unchanged, continued from its checkpoints when it was killed), metrics.jsonl,
                        config.json, report.md, report.html`;

/** `a.b.c=value` → { a: { b: { c: value } } }, the value parsed as JSON where it is JSON. */
export function parseSet(spec: string): Record<string, unknown> {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set ${spec}: expected KEY=VALUE, e.g. --set grpo.steps=40`);
  const path = spec.slice(0, eq).split('.');
  if (path.some((p) => p === '')) throw new UsageError(`--set ${spec}: empty key in "${spec.slice(0, eq)}"`);
  const text = spec.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = text;
  }
  return path.reduceRight<unknown>((v, k) => ({ [k]: v }), value) as Record<string, unknown>;
}

/** The overrides of the command line, as one partial config object. */
export function experimentOverrides(args: ParsedArgs): Record<string, unknown> {
  const layers: Record<string, unknown>[] = ((args.values['set'] as string[] | undefined) ?? []).map(parseSet);
  const provider = stringOpt(args, 'provider');
  if (provider !== undefined) layers.push({ provider });
  const workers = stringOpt(args, 'env-workers');
  if (workers !== undefined) {
    const n = Number(workers);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--env-workers must be a positive integer, got "${workers}"`);
    layers.push({ envWorkers: n });
  }
  return layers.reduce<Record<string, unknown>>((acc, l) => mergeSettings(acc, l) as Record<string, unknown>, {});
}

/** The resolved settings of an experiment command (a ConfigError, exit 2, names any bad key). */
export async function experimentConfig(args: ParsedArgs, env: string | undefined): Promise<ExperimentConfig> {
  const { loadExperimentConfig } = await import('@diffworld/experiments');
  return loadExperimentConfig(stringOpt(args, 'config'), env, experimentOverrides(args));
}
