// Compares the registry with AppWorld's published API signatures (`apis.pyi`, as
// `{app: {api: {params: [[name, type]], ret}}}`): which APIs exist, and whether their parameters
// match in name, order, type (Python annotations) and optionality (`| None`).
import { API_REGISTRY } from './registry.js';
import type { ApiDef, ParamDef } from './types.js';
import { allParams } from './validate.js';

export type RealSignatures = Record<string, Record<string, { params: [string, string][]; ret: string }>>;

export interface SignatureMismatch {
  api: string;
  reasons: string[];
}

export interface SignatureReport {
  total: number;
  present: number;
  matching: number;
  missing: string[];
  mismatches: SignatureMismatch[];
  /** APIs here that AppWorld does not have. */
  extra: string[];
}

function literalValues(t: string): string[] | null {
  const m = /Literal\[([^\]]*)\]/.exec(t);
  return m ? [...m[1]!.matchAll(/"([^"]*)"/g)].map((x) => x[1]!) : null;
}

function enumOf(p: ParamDef): readonly string[] | null {
  const c = p.constraints?.find((x) => x.kind === 'enum');
  return c && c.kind === 'enum' ? c.values : null;
}

/** Why one parameter differs from its Python annotation, or null when it matches. */
export function paramMismatch(p: ParamDef, pyType: string): string | null {
  const optional = /\|\s*(None|NoneType)\s*$/.test(pyType) || /^None \|/.test(pyType);
  const base = pyType.replace(/\s*\|\s*(None|NoneType)\s*$/, '').trim();
  const why = (expected: string) => `${p.name}: ${p.type}${p.required ? '' : '?'} vs ${pyType} (${expected})`;
  if (optional && p.required && p.name !== 'answer') return why('optional there');
  if (base === 'None | float | int | str') return p.type === 'number | integer | string' ? null : why('float | int | str');
  const list = /^list\[\s*(.*)\s*\]$/.exec(base);
  if (list) {
    const item = list[1]!.trim();
    if (item === 'float') return (p.type as string) === 'list[number]' ? null : why('list of numbers');
    if (p.type !== 'list[string]') return why('list of strings');
    const lit = literalValues(item);
    if (lit && JSON.stringify(enumOf(p)) !== JSON.stringify(lit)) return why(`items one of ${lit.join(', ')}`);
    return null;
  }
  const lit = literalValues(base);
  if (lit) return p.type === 'string' && JSON.stringify(enumOf(p)) === JSON.stringify(lit) ? null : why(`one of ${lit.join(', ')}`);
  const expected: Record<string, ParamDef['type']> = { str: 'string', EmailStr: 'string', int: 'integer', float: 'number', bool: 'boolean' };
  const t = expected[base];
  if (!t) return why('unknown annotation');
  if (p.type !== t) return why(t);
  if (base === 'EmailStr' && !p.constraints?.some((c) => c.kind === 'email')) return why('email validation');
  return null;
}

export function apiMismatch(api: ApiDef, real: { params: [string, string][] }): string[] {
  const ours = allParams(api);
  const reasons: string[] = [];
  const names = ours.map((p) => p.name).join(', ');
  const realNames = real.params.map(([n]) => n).join(', ');
  if (names !== realNames) reasons.push(`parameters (${names}) vs (${realNames})`);
  for (const [name, type] of real.params) {
    const p = ours.find((x) => x.name === name);
    if (!p) continue;
    const m = paramMismatch(p, type);
    if (m) reasons.push(m);
  }
  return reasons;
}

export function compareSignatures(real: RealSignatures, registry: ReadonlyMap<string, ApiDef> = API_REGISTRY): SignatureReport {
  const report: SignatureReport = { total: 0, present: 0, matching: 0, missing: [], mismatches: [], extra: [] };
  for (const [app, apis] of Object.entries(real)) {
    for (const [name, sig] of Object.entries(apis)) {
      report.total++;
      const api = registry.get(`${app}__${name}`);
      if (!api) {
        report.missing.push(`${app}__${name}`);
        continue;
      }
      report.present++;
      const reasons = apiMismatch(api, sig);
      if (reasons.length) report.mismatches.push({ api: `${app}__${name}`, reasons });
      else report.matching++;
    }
  }
  for (const key of registry.keys()) {
    const [app, ...rest] = key.split('__');
    if (!real[app!]?.[rest.join('__')]) report.extra.push(key);
  }
  return report;
}
