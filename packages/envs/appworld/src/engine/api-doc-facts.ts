// AppWorld's API docs as interface facts, one API a line: `<app>.<api> <METHOD> <path> <shape>`,
// where <shape> is the success response's structure in a compact notation: `{key:shape,…}` an
// object with exactly these keys in this order, `[shape]` a list of shape, `[]` a list of anything,
// `{}` any object, and the leaves `s` string, `n` number, `b` boolean, `z` null. The facts were read
// from AppWorld's published API docs (`data/api_docs/standard/<app>.json`, `response_schemas.success`);
// names, routes and keys only, no descriptions. Tests hold the registry to them.
import { constraintTexts } from './constraint-text.js';
import type { ApiDef, Json, ParamDef, ParamType } from './types.js';

export interface ApiDocFact {
  app: string;
  api: string;
  method: ApiDef['method'];
  path: string;
  /** The success shape as an example value in AppWorld's style ("string", 1, true, null). */
  success: Json;
}

export class ApiDocFactsError extends Error {
  constructor(line: number, message: string) {
    super(`api doc facts, line ${line}: ${message}`);
    this.name = 'ApiDocFactsError';
  }
}

const LEAVES: Record<string, Json> = { s: 'string', n: 1, b: true, z: null };
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Parses one shape in the compact notation into an example value. */
export function parseShape(text: string): Json {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at ${i} in ${text.slice(0, 80)}`);
  };
  const value = (): Json => {
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, Json> = {};
      if (text[i] === '}') return (i++, out);
      for (;;) {
        const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
        if (!m) fail('a key expected');
        const key = m![0];
        if (key in out) fail(`duplicate key ${key}`);
        i += key.length;
        if (text[i++] !== ':') fail(`':' expected after ${key}`);
        out[key] = value();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return (i++, out);
        else fail("',' or '}' expected");
      }
    }
    if (c === '[') {
      i++;
      if (text[i] === ']') return (i++, []);
      const item = value();
      if (text[i++] !== ']') fail("']' expected");
      return [item];
    }
    if (c !== undefined && c in LEAVES) return (i++, LEAVES[c]!);
    return fail('a shape expected');
  };
  const v = value();
  if (i !== text.length) fail('trailing text');
  return v;
}

/** Parses the facts file; blank lines and `#` comments are skipped. */
export function parseApiDocFacts(text: string): ApiDocFact[] {
  const out: ApiDocFact[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((raw, n) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const parts = line.split(' ');
    if (parts.length !== 4) throw new ApiDocFactsError(n + 1, `4 fields expected, got ${parts.length}`);
    const [name, method, path, shape] = parts as [string, string, string, string];
    const m = /^([a-z_]+)\.([a-z0-9_]+)$/.exec(name);
    if (!m) throw new ApiDocFactsError(n + 1, `bad API name ${name}`);
    if (!METHODS.has(method)) throw new ApiDocFactsError(n + 1, `bad method ${method}`);
    if (!path.startsWith(`/${m[1]}/`)) throw new ApiDocFactsError(n + 1, `path ${path} is not under /${m[1]}/`);
    if (seen.has(name)) throw new ApiDocFactsError(n + 1, `duplicate API ${name}`);
    seen.add(name);
    let success: Json;
    try {
      success = parseShape(shape);
    } catch (e) {
      throw new ApiDocFactsError(n + 1, (e as Error).message);
    }
    out.push({ app: m[1]!, api: m[2]!, method: method as ApiDef['method'], path, success });
  });
  return out;
}

const kind = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v);

/**
 * Where a declared response shape differs from the real one: keys (and their order) at every level,
 * list versus object, leaf types. A real `null` (AppWorld's example for "anything") accepts any
 * declared leaf; a real `{}` or `[]` accepts any object or list.
 */
export function shapeDifferences(real: Json, declared: Json, path = '$'): string[] {
  if (real === null) return [];
  if (kind(real) !== kind(declared)) return [`${path}: ${kind(declared)} here, ${kind(real)} in AppWorld`];
  if (Array.isArray(real)) {
    const d = declared as Json[];
    if (real.length === 0) return [];
    if (d.length === 0) return [`${path}: list of anything here, list of ${kind(real[0]!)} in AppWorld`];
    return shapeDifferences(real[0]!, d[0]!, `${path}[]`);
  }
  if (typeof real === 'object') {
    const r = Object.keys(real);
    const dObj = declared as Record<string, Json>;
    const d = Object.keys(dObj);
    if (r.length === 0) return [];
    const out: string[] = [];
    const missing = r.filter((k) => !d.includes(k));
    const extra = d.filter((k) => !r.includes(k));
    if (missing.length) out.push(`${path}: missing ${missing.join(', ')}`);
    if (extra.length) out.push(`${path}: not in AppWorld ${extra.join(', ')}`);
    if (!missing.length && !extra.length && r.join() !== d.join()) out.push(`${path}: key order ${d.join(',')} vs AppWorld ${r.join(',')}`);
    for (const k of r) if (k in dObj) out.push(...shapeDifferences(real[k]!, dObj[k]!, `${path}.${k}`));
    return out;
  }
  return [];
}

/** One parameter as AppWorld's API docs list it. */
export interface ParamFact {
  name: string;
  type: ParamType;
  required: boolean;
  /** The default, null where the docs show none (JSON has no 64-bit ints: 9223372036854775807 reads as 2^63). */
  default: Json;
  /** AppWorld's constraint strings, e.g. "value >= 1.0, <= 20.0". */
  constraints: string[];
}

const PARAM_TYPES: Record<string, ParamType> = {
  s: 'string',
  i: 'integer',
  n: 'number',
  b: 'boolean',
  ls: 'list[string]',
  ln: 'list[number]',
  u: 'number | integer | string',
};

/** Parses the parameter facts (api-params.facts.txt): `<app>.<api>` lines, each followed by its parameter lines. */
export function parseApiParamFacts(text: string): Map<string, ParamFact[]> {
  const out = new Map<string, ParamFact[]>();
  let current: ParamFact[] | null = null;
  text.split('\n').forEach((raw, n) => {
    if (!raw.trim() || raw.startsWith('#')) return;
    if (!raw.startsWith(' ')) {
      const name = raw.trim();
      if (!/^[a-z_]+\.[a-z0-9_]+$/.test(name)) throw new ApiDocFactsError(n + 1, `bad API name ${name}`);
      if (out.has(name)) throw new ApiDocFactsError(n + 1, `duplicate API ${name}`);
      current = [];
      out.set(name, current);
      return;
    }
    if (!current) throw new ApiDocFactsError(n + 1, 'a parameter before any API');
    const m = /^\s+(\w+) (s|i|n|b|ls|ln|u)(\*?)(?: =(.*?))?(?: \{(.*)\})?$/.exec(raw);
    if (!m) throw new ApiDocFactsError(n + 1, `bad parameter line ${raw.trim()}`);
    let def: Json = null;
    if (m[4] !== undefined) {
      try {
        def = JSON.parse(m[4]) as Json;
      } catch {
        throw new ApiDocFactsError(n + 1, `bad default ${m[4]}`);
      }
    }
    if ((current as ParamFact[]).some((p) => p.name === m[1])) throw new ApiDocFactsError(n + 1, `duplicate parameter ${m[1]}`);
    (current as ParamFact[]).push({ name: m[1]!, type: PARAM_TYPES[m[2]!]!, required: m[3] === '*', default: def, constraints: m[5] ? m[5].split('; ') : [] });
  });
  return out;
}

/** AppWorld's 64-bit int maximum: defaults at or above 2^53 stand for it on both sides. */
const sameDefault = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b) || (typeof a === 'number' && typeof b === 'number' && a >= 2 ** 53 - 1 && b >= 2 ** 53 - 1);

/**
 * Where an API's parameters differ from AppWorld's docs, by name: missing or extra parameters, type,
 * required, default and the constraint strings as api_docs renders them (`constraintTexts`).
 */
export function paramDifferences(real: readonly ParamFact[], ours: readonly ParamDef[]): string[] {
  const out: string[] = [];
  const byName = new Map(ours.map((p) => [p.name, p]));
  for (const r of real) {
    const o = byName.get(r.name);
    if (!o) {
      out.push(`${r.name}: missing`);
      continue;
    }
    if (o.type !== r.type) out.push(`${r.name}: type ${o.type} vs ${r.type}`);
    if (o.required !== r.required) out.push(`${r.name}: required ${o.required} vs ${r.required}`);
    if (!r.required && !sameDefault(o.default ?? null, r.default)) out.push(`${r.name}: default ${JSON.stringify(o.default ?? null)} vs ${JSON.stringify(r.default)}`);
    const oc = constraintTexts(o.constraints);
    if (JSON.stringify(oc) !== JSON.stringify(r.constraints)) out.push(`${r.name}: constraints ${JSON.stringify(oc)} vs ${JSON.stringify(r.constraints)}`);
  }
  const known = new Set(real.map((r) => r.name));
  for (const o of ours) if (!known.has(o.name)) out.push(`${o.name}: not in AppWorld`);
  return out;
}
