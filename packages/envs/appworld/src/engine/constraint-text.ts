// Parameter constraints as AppWorld's API docs write them: value bounds in one string with Python's
// float spelling ("value >= 1.0, <= 20.0", "value > 0.0", "value >= 1000000000000000.0, < 1e+16"),
// length bounds in one ("length >= 10, <= 10"), then "value in ['a', 'b']" and "value is email address".
import type { Constraint } from './types.js';

/** A number as Python's repr of a float writes it (1 → "1.0", 1e16 → "1e+16", 0.01 → "0.01"). */
export function pyFloat(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : x < 0 ? '-inf' : 'nan';
  if (x !== 0 && (Math.abs(x) >= 1e16 || Math.abs(x) < 1e-4)) return x.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

const VALUE_OPS: Partial<Record<Constraint['kind'], string>> = { min: '>=', exclusiveMin: '>', max: '<=', exclusiveMax: '<' };
const LENGTH_OPS: Partial<Record<Constraint['kind'], string>> = { minLength: '>=', maxLength: '<=' };

export function constraintTexts(constraints: readonly Constraint[] = []): string[] {
  const value: string[] = [];
  const length: string[] = [];
  const rest: string[] = [];
  for (const c of constraints) {
    if (c.kind === 'enum') rest.push(`value in [${c.values.map((v) => `'${v}'`).join(', ')}]`);
    else if (c.kind === 'email') rest.push('value is email address');
    else if (VALUE_OPS[c.kind]) value.push(`${VALUE_OPS[c.kind]} ${pyFloat(c.value)}`);
    else length.push(`${LENGTH_OPS[c.kind]} ${c.value}`);
  }
  return [...(value.length ? [`value ${value.join(', ')}`] : []), ...(length.length ? [`length ${length.join(', ')}`] : []), ...rest];
}
