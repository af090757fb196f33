// Reading an experiment's settings: a preset or a file (which may extend another), command-line
// overrides laid on top, then the schema. Paths inside a file (tokenizer.path, worldModel.path,
// eval.games) are relative to that file. Every problem is a ConfigError naming the key path (exit 2).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, isPlainObject, mergeSettings, parseConfig } from '@diffworld/config';
import { type ExperimentConfig, experimentSchema } from './schema.js';

/**
 * The committed presets (apps/experiments/configs): cpu (the default, sized for a 2-core machine),
 * gpu (one H200), micro (the tests'). A bundle for a GPU host sets DIFFWORLD_CONFIGS to its copy.
 */
export function configsDir(): string {
  if (process.env['DIFFWORLD_CONFIGS']) return process.env['DIFFWORLD_CONFIGS'];
  // From the sources (src/config/ → configs/), or beside a bundled CLI (tools/gpu/bundle.sh copies them there).
  const candidates = [new URL('../../configs/', import.meta.url), new URL('./configs/', import.meta.url)].map((u) => fileURLToPath(u));
  return candidates.find((d) => existsSync(resolve(d, 'cpu.json'))) ?? candidates[0]!;
}

export const PRESETS = ['cpu', 'gpu', 'micro'] as const;

/** A --config value that is a preset name rather than a path. */
export const isPresetName = (v: string) => /^[a-z][a-z0-9-]*$/.test(v) && !v.endsWith('.json');

/** The file of preset `name` for `env`: `<name>-<env>.json` where the env has its own, else `<name>.json`. */
export function presetFile(name: string, env: string): string {
  const dir = configsDir();
  for (const f of [`${name}-${env}.json`, `${name}.json`]) if (existsSync(resolve(dir, f))) return resolve(dir, f);
  throw new ConfigError('--config', [{ path: '(root)', message: `no preset "${name}" (presets: ${PRESETS.join(', ')}; or give a JSON file path)` }]);
}

const bad = (where: string, message: string): never => {
  throw new ConfigError(where, [{ path: '(root)', message }]);
};

/**
 * A config file as one object: its `extends` (a path relative to it) read first and this file laid
 * on top; relative tokenizer.path / worldModel.path / eval.games made absolute against the file that names them.
 */
export function readConfigFile(path: string, seen: readonly string[] = []): Record<string, unknown> {
  const file = resolve(path);
  if (seen.includes(file)) bad(file, `extends itself through ${[...seen, file].join(' → ')}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return bad(file, (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return bad(file, `not valid JSON (${(e as Error).message})`);
  }
  if (!isPlainObject(raw)) return bad(file, 'must be a JSON object');
  const { extends: parent, ...own } = raw;
  for (const [section, key] of [
    ['tokenizer', 'path'],
    ['worldModel', 'path'],
    ['eval', 'games'],
  ] as const) {
    const s = own[section];
    if (isPlainObject(s) && typeof s[key] === 'string' && !isAbsolute(s[key])) own[section] = { ...s, [key]: resolve(dirname(file), s[key]) };
  }
  // policy.init is a directory or a Hub id (org/name): a path only when it exists beside the file.
  const p = own['policy'];
  if (isPlainObject(p) && typeof p['init'] === 'string' && !isAbsolute(p['init']) && existsSync(resolve(dirname(file), p['init']))) own['policy'] = { ...p, init: resolve(dirname(file), p['init']) };
  if (parent === undefined) return own;
  if (typeof parent !== 'string') return bad(file, `extends: must be a file path, got ${JSON.stringify(parent)}`);
  return mergeSettings(readConfigFile(resolve(dirname(file), parent), [...seen, file]), own) as Record<string, unknown>;
}

export interface ResolveOptions {
  /** The env asked for on the command line; a file naming another env is refused. */
  env?: string;
  /** Settings laid on the file (command-line flags), as a partial config object. */
  overrides?: Record<string, unknown>;
  /** Names the source in messages (the file path, "--config gpu"). */
  where?: string;
}

/** Defaults ← file ← overrides, through the schema; the env comes from the options or the file. */
export function resolveExperimentConfig(file: unknown, o: ResolveOptions = {}): ExperimentConfig {
  const where = o.where ?? 'experiment config';
  if (file !== undefined && !isPlainObject(file)) bad(where, 'must be a JSON object');
  const given = (file ?? {}) as Record<string, unknown>;
  if (o.env !== undefined && given['env'] !== undefined && given['env'] !== o.env)
    throw new ConfigError(where, [{ path: 'env', message: `the file is for "${String(given['env'])}", not "${o.env}"` }]);
  const merged = mergeSettings({ ...given, ...(o.env !== undefined ? { env: o.env } : {}) }, o.overrides ?? {});
  return parseConfig(experimentSchema, merged, where);
}

/** `--config` (a preset name or a file; default the cpu preset) for `env`, resolved. */
export function loadExperimentConfig(config: string | undefined, env: string | undefined, overrides: Record<string, unknown> = {}): ExperimentConfig {
  const spec = config ?? 'cpu';
  if (isPresetName(spec)) {
    if (env === undefined) bad(`--config ${spec}`, 'a preset needs --env (alfworld, sciworld, appworld)');
    const file = presetFile(spec, env!);
    return resolveExperimentConfig(readConfigFile(file), { env: env!, overrides, where: file });
  }
  return resolveExperimentConfig(readConfigFile(spec), { ...(env !== undefined ? { env } : {}), overrides, where: resolve(spec) });
}
