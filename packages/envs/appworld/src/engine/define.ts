// A compact way for app modules to declare their APIs as data.
import { ApiError, type ApiContext, type ApiDef, type Args, type Json, type ParamDef } from './types.js';

type Method = ApiDef['method'];

/** Returns a declarer bound to one app; the path is a stand-in until the app's `routed()` table sets AppWorld's real route. */
export function declarer(app: string) {
  return (name: string, spec: { method?: Method; description: string; auth?: boolean; params?: readonly ParamDef[]; response?: Json }, handler: (ctx: ApiContext, args: Args) => Json): ApiDef => ({
    app,
    name,
    method: spec.method ?? (/^(show|search|get|file_exists|directory_exists|download)/.test(name) ? 'GET' : 'POST'),
    path: `/${app}/${name.replace(/_/g, '-')}`,
    description: spec.description,
    auth: spec.auth ?? true,
    params: spec.params ?? [],
    ...(spec.response === undefined ? {} : { response: spec.response }),
    handler,
  });
}

/** The authenticated user; the dispatcher guarantees it for APIs with `auth`. */
export function me(ctx: ApiContext): number {
  if (ctx.userId === null) throw new ApiError(401, `You are either not authorized to access this ${ctx.app} API endpoint or your access token is missing, invalid or expired.`);
  return ctx.userId;
}

export function str(args: Args, key: string): string {
  const v = args[key];
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}
export function num(args: Args, key: string): number {
  const v = args[key];
  return typeof v === 'number' ? v : Number(v);
}
export function optStr(args: Args, key: string): string | null {
  const v = args[key];
  return typeof v === 'string' ? v : null;
}
export function optNum(args: Args, key: string): number | null {
  const v = args[key];
  return typeof v === 'number' ? v : null;
}
export function optBool(args: Args, key: string): boolean | null {
  const v = args[key];
  return typeof v === 'boolean' ? v : null;
}

export const ok = (message: string, extra: Record<string, Json> = {}): Json => ({ message, ...extra });

export function notFound(what: string): never {
  throw new ApiError(422, `The ${what} does not exist.`);
}

/** Parses a JSON-encoded list column (relationships, tags, repeat_days). */
export function jsonList(text: unknown): string[] {
  try {
    const v = JSON.parse(String(text));
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}
