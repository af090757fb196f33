// Field-by-field validation of request bodies. Every failure is a 400 naming the field (with its
// path, e.g. "messages[2].content"), so a client can fix its request without reading our code.
import { HttpError } from '@diffworld/env-core';

/** A 400 that names the offending field; OpenAI-shaped errors carry it as `param`. */
export class FieldError extends HttpError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(400, `field "${field}" ${message}`);
  }
}

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function requireObject(v: unknown, field: string): JsonObject {
  if (!isObject(v)) throw new FieldError(field, `must be a JSON object, got ${describe(v)}`);
  return v;
}

/** Rejects fields outside `allowed`: a typo (`max_token`) must not silently fall back to a default. */
export function rejectUnknown(body: JsonObject, allowed: ReadonlySet<string>, prefix = ''): void {
  for (const key of Object.keys(body)) if (!allowed.has(key)) throw new FieldError(prefix + key, 'is not a recognised field');
}

export function optString(body: JsonObject, field: string, opts: { maxLength?: number; prefix?: string } = {}): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  const name = (opts.prefix ?? '') + field;
  if (typeof v !== 'string') throw new FieldError(name, `must be a string, got ${describe(v)}`);
  if (opts.maxLength !== undefined && v.length > opts.maxLength) throw new FieldError(name, `must be at most ${opts.maxLength} characters`);
  return v;
}

export function optBoolean(body: JsonObject, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new FieldError(field, `must be true or false, got ${describe(v)}`);
  return v;
}

export interface NumberRule {
  min?: number;
  max?: number;
  /** Exclusive lower bound. */
  above?: number;
  integer?: boolean;
}

export function optNumber(body: JsonObject, field: string, rule: NumberRule, prefix = ''): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  return checkNumber(v, prefix + field, rule);
}

export function checkNumber(v: unknown, name: string, rule: NumberRule): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new FieldError(name, `must be a finite number, got ${describe(v)}`);
  if (rule.integer && !Number.isSafeInteger(v)) throw new FieldError(name, `must be an integer, got ${v}`);
  if (rule.min !== undefined && v < rule.min) throw new FieldError(name, `must be ≥ ${rule.min}, got ${v}`);
  if (rule.above !== undefined && v <= rule.above) throw new FieldError(name, `must be > ${rule.above}, got ${v}`);
  if (rule.max !== undefined && v > rule.max) throw new FieldError(name, `must be ≤ ${rule.max}, got ${v}`);
  return v;
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string (${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)})`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
