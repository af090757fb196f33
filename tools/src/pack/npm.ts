// Runs npm (and other commands) for the pack test with output captured, and tells a registry that
// cannot be reached apart from every other failure (the one thing the test may skip for outside CI).
import { spawnSync } from 'node:child_process';

export interface CommandResult {
  readonly command: string;
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

// npm exports its settings to child processes as npm_* variables (npm_config_local_prefix names the
// workspace, npm_package_* its manifest); a nested npm must not inherit the workspace's. Only the
// settings that say where packages come from are kept.
const KEPT_NPM_SETTINGS = /^npm_config_(cache|registry|userconfig|globalconfig|proxy|https_proxy|noproxy|cafile|ca|strict_ssl|fetch_[a-z_]+|@[^_]+:registry|\/\/.*)$/i;

/** The environment for a command outside the workspace: `env` minus the workspace's npm_* settings, plus `extra`. */
export function cleanEnv(env: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!/^npm_/i.test(k) || KEPT_NPM_SETTINGS.test(k)) out[k] = v;
  return { ...out, ...extra };
}

export function runCommand(cmd: string, args: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): CommandResult {
  const start = performance.now();
  const r = spawnSync(cmd, args, { cwd: opts.cwd, env: opts.env, encoding: 'utf8', maxBuffer: 64 << 20, timeout: opts.timeoutMs });
  const command = [cmd, ...args].join(' ');
  const result = { command, status: r.status ?? 1, stdout: r.stdout ?? '', stderr: r.stderr ?? '', seconds: (performance.now() - start) / 1000 };
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT') throw new Error(`ran past its ${opts.timeoutMs / 1000} s: ${failure(result, opts.cwd)}`);
  if (r.error) throw new Error(`${command} (in ${opts.cwd}) did not run: ${r.error.message}`);
  return result;
}

/** The command's failure as one message: what ran, where, its exit status and the end of its output. */
export function failure(r: CommandResult, cwd: string): string {
  const tail = (s: string) => s.trim().split('\n').slice(-30).join('\n');
  return `${r.command} (in ${cwd}) exited ${r.status}\n--- stderr\n${tail(r.stderr)}\n--- stdout\n${tail(r.stdout)}`;
}

const UNREACHABLE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED)\b/;

/** Why npm failed when the registry could not be reached (and the cache did not have what it needed); undefined for any other failure. */
export function registryUnreachable(r: CommandResult): string | undefined {
  const code = UNREACHABLE.exec(r.stderr)?.[1];
  return code === undefined ? undefined : `npm could not reach the registry (${code}) for a dependency the npm cache does not hold`;
}
