// The one generic validator: coerces and checks arguments against an API's ParamDefs with
// pydantic-v1-style messages, as AppWorld's FastAPI layer reports them (422 "Validation error").
import { ACCESS_TOKEN } from './params.js';
import type { ApiDef, Args, Json, ParamDef } from './types.js';

/** Strings longer than this are rejected everywhere, so no call can bloat an episode database. */
export const MAX_STRING_LENGTH = 20_000;

export type Validation = { ok: true; args: Args } | { ok: false; message: string };

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function coerce(p: ParamDef, v: Json): { value: Json } | { errors: string[] } {
  switch (p.type) {
    case 'integer':
      if (typeof v === 'boolean') return { value: v ? 1 : 0 };
      if (typeof v === 'number' && Number.isInteger(v)) return { value: v };
      if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v) && Number.isSafeInteger(Number(v))) return { value: Number(v) };
      return { errors: ['value is not a valid integer'] };
    case 'number':
      if (typeof v === 'number' && Number.isFinite(v)) return { value: v };
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return { value: Number(v) };
      return { errors: ['value is not a valid float'] };
    case 'boolean':
      if (typeof v === 'boolean') return { value: v };
      if (v === 0 || v === 1) return { value: v === 1 };
      if (typeof v === 'string' && /^(true|false|yes|no|on|off|1|0)$/i.test(v)) return { value: /^(true|yes|on|1)$/i.test(v) };
      return { errors: ['value could not be parsed to a boolean'] };
    case 'string':
      if (typeof v === 'string') return { value: v };
      if (typeof v === 'number') return { value: String(v) };
      return { errors: ['str type expected'] };
    case 'list[string]':
      if (!Array.isArray(v)) return { errors: ['value is not a valid list'] };
      if (v.some((x) => typeof x !== 'string' && typeof x !== 'number')) return { errors: ['str type expected'] };
      return { value: v.map(String) };
    case 'list[number]': {
      if (!Array.isArray(v)) return { errors: ['value is not a valid list'] };
      const nums = v.map((x) => (typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : NaN));
      if (nums.some((x) => !Number.isFinite(x))) return { errors: ['value is not a valid float'] };
      return { value: nums };
    }
    case 'number | integer | string':
      if (typeof v === 'number' || typeof v === 'string') return { value: v };
      if (typeof v === 'boolean') return { value: v ? 1 : 0 };
      return { errors: ['value is not a valid float', 'value is not a valid integer', 'str type expected'] };
  }
}

function checkConstraints(p: ParamDef, v: Json): string[] {
  const errors: string[] = [];
  if (typeof v === 'string' && v.length > MAX_STRING_LENGTH) errors.push(`ensure this value has at most ${MAX_STRING_LENGTH} characters`);
  if (Array.isArray(v) && JSON.stringify(v).length > MAX_STRING_LENGTH) errors.push(`ensure this list has at most ${MAX_STRING_LENGTH} characters in total`);
  for (const c of p.constraints ?? []) {
    if (c.kind === 'min' && typeof v === 'number' && v < c.value) errors.push(`ensure this value is greater than or equal to ${c.value}`);
    if (c.kind === 'max' && typeof v === 'number' && v > c.value) errors.push(`ensure this value is less than or equal to ${c.value}`);
    if (c.kind === 'exclusiveMin' && typeof v === 'number' && v <= c.value) errors.push(`ensure this value is greater than ${c.value}`);
    if (c.kind === 'exclusiveMax' && typeof v === 'number' && v >= c.value) errors.push(`ensure this value is less than ${c.value}`);
    if (c.kind === 'minLength' && typeof v === 'string' && v.length < c.value) errors.push(`ensure this value has at least ${c.value} characters`);
    if (c.kind === 'maxLength' && typeof v === 'string' && v.length > c.value) errors.push(`ensure this value has at most ${c.value} characters`);
    if (c.kind === 'enum' && Array.isArray(v)) {
      const bad = v.find((x) => !c.values.includes(String(x)));
      if (bad !== undefined) errors.push(`value '${String(bad).slice(0, 100)}' is not a valid enumeration member; permitted: ${c.values.map((x) => `'${x}'`).join(', ')}`);
    } else if (c.kind === 'enum' && !c.values.includes(String(v))) errors.push(`value is not a valid enumeration member; permitted: ${c.values.map((x) => `'${x}'`).join(', ')}`);
    if (c.kind === 'email' && (typeof v !== 'string' || !EMAIL.test(v))) errors.push('value is not a valid email address');
  }
  return errors;
}

/** All parameters of an API in AppWorld's order, with `access_token` last when the API needs one. */
export function allParams(api: ApiDef): ParamDef[] {
  const ps = [...api.params];
  // An API may place access_token itself (AppWorld lists it first on a few); otherwise it goes last.
  if (api.auth && !ps.some((p) => p.name === 'access_token')) ps.push(ACCESS_TOKEN);
  return ps;
}

/** The parameters an agent passes: all but access_token, which the harness injects after login. */
export function agentParams(api: ApiDef): ParamDef[] {
  return allParams(api).filter((p) => p.name !== 'access_token');
}

export function validateArgs(api: ApiDef, raw: unknown, strict = false): Validation {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, message: 'Validation error. Reason: \nbody: value is not a valid dict' };
  const given = raw as Record<string, Json>;
  const params = allParams(api);
  if (strict) {
    const extra = Object.keys(given).find((k) => !params.some((p) => p.name === k));
    if (extra !== undefined)
      return { ok: false, message: `Unexpected parameter '${extra}' passed to the ${api.name} API of the ${api.app} app. Allowed parameters are: [${params.map((p) => `'${p.name}'`).join(', ')}]` };
  }
  const args: Args = {};
  const reasons: string[] = [];
  for (const p of params) {
    const v = Object.prototype.hasOwnProperty.call(given, p.name) ? given[p.name] : undefined;
    if (v === undefined || v === null) {
      if (p.required) reasons.push(`${p.name}: field required`);
      else args[p.name] = p.default ?? null;
      continue;
    }
    const c = coerce(p, v);
    if ('errors' in c) {
      for (const e of c.errors) reasons.push(`${p.name}: ${e}`);
      continue;
    }
    const errs = checkConstraints(p, c.value);
    if (errs.length) for (const e of errs) reasons.push(`${p.name}: ${e}`);
    else args[p.name] = c.value;
  }
  if (reasons.length) return { ok: false, message: `Validation error. Reason: \n${reasons.join('\n')}` };
  return { ok: true, args };
}
