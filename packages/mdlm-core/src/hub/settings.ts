// Where the Hub and its cache are, read from the environment variables Python's huggingface_hub
// reads, with the same defaults, so both find the same files and the same token.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_HUB_ENDPOINT = 'https://huggingface.co';

export interface HubSettings {
  /** HF_ENDPOINT without a trailing slash. */
  endpoint: string;
  /** HF_HUB_CACHE (or legacy HUGGINGFACE_HUB_CACHE), default `$HF_HOME/hub`. */
  cacheDir: string;
  /** HF_TOKEN (or legacy HUGGING_FACE_HUB_TOKEN), else the token file `hf auth login` writes. */
  token: string | undefined;
  /** HF_HUB_OFFLINE (or TRANSFORMERS_OFFLINE) set to 1/true/yes/on: never ask the Hub. */
  offline: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

// huggingface_hub's _is_true: case-insensitive 1 / ON / YES / TRUE.
const truthy = (v: string | undefined) => v !== undefined && ['1', 'on', 'yes', 'true'].includes(v.trim().toLowerCase());
const nonEmpty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

/** `$HF_HOME`, default `$XDG_CACHE_HOME/huggingface` or `~/.cache/huggingface`. */
export function hfHome(env: Env = process.env): string {
  return nonEmpty(env['HF_HOME']) ?? join(nonEmpty(env['XDG_CACHE_HOME']) ?? join(homedir(), '.cache'), 'huggingface');
}

export function hubSettings(env: Env = process.env): HubSettings {
  const home = hfHome(env);
  const cacheDir = nonEmpty(env['HF_HUB_CACHE']) ?? nonEmpty(env['HUGGINGFACE_HUB_CACHE']) ?? join(home, 'hub');
  let token = nonEmpty(env['HF_TOKEN']) ?? nonEmpty(env['HUGGING_FACE_HUB_TOKEN']);
  if (token === undefined) {
    try {
      token = nonEmpty(readFileSync(nonEmpty(env['HF_TOKEN_PATH']) ?? join(home, 'token'), 'utf8').trim());
    } catch {
      // No token file: anonymous access, as in Python.
    }
  }
  return {
    endpoint: (nonEmpty(env['HF_ENDPOINT']) ?? DEFAULT_HUB_ENDPOINT).replace(/\/+$/, ''),
    cacheDir,
    token: token?.trim(),
    offline: truthy(env['HF_HUB_OFFLINE']) || truthy(env['TRANSFORMERS_OFFLINE']),
  };
}
