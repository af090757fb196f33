// Python-compatible JSON for the evaluators. Parsing and `json.dumps` come from @diffworld/dataset
// (ints stay ints, `1.0` stays a float, NaN/Infinity accepted, sort_keys by code point); this module
// adds what scoring needs on top: a non-throwing `json.loads` and Python `==` on the parsed values.
import { DatasetError, pyJsonDumps, pyJsonParse, PyFloat, type PyJsonDumpsOptions, type PyJsonValue } from '@diffworld/dataset';

export { pyJsonDumps, pyFloat, pyFloatRepr, compareCodePoints, PyFloat } from '@diffworld/dataset';
export type PyJson = PyJsonValue;
export type PyDumpsOptions = PyJsonDumpsOptions;
/** A JSON object as parsed here: a Map keeps Python's dict order (first insertion, last value wins). */
export type PyDict = Map<string, PyJson>;

/** Python `json.loads(text)` with objects as Maps; throws the dataset package's DatasetError. */
export function pyJsonLoads(text: string): PyJson {
  return pyJsonParse(text, { objects: 'map' });
}

// Most texts are prose: reject them on their first character without the cost of a throw.
const JSON_START = /^[ \t\n\r]*["{[\-0-9tfnNI]/;

/** Python `json.loads` that reports failure (JSONDecodeError) instead of throwing. */
export function tryPyJsonLoads(text: string): { ok: true; value: PyJson } | { ok: false } {
  if (!JSON_START.test(text)) return { ok: false };
  try {
    return { ok: true, value: pyJsonLoads(text) };
  } catch (e) {
    if (e instanceof DatasetError) return { ok: false };
    throw e;
  }
}

/** Canonical compact text of a value: Python `json.dumps(v, sort_keys=True, separators=(',', ':'), ensure_ascii=False)`. */
export function pyCompactSorted(value: PyJson, separators: readonly [string, string] = [',', ':']): string {
  return pyJsonDumps(value, { sortKeys: true, ensureAscii: false, separators });
}

/**
 * Python `a == b` on values from json.loads: dicts ignore order, `1 == 1.0 == True`, `0 == False`.
 * NaN: `float('nan') != float('nan')` at the top level, but inside lists and dicts Python compares by
 * identity first and json.loads returns one shared NaN object, so `[NaN] == [NaN]` is True.
 */
export function pyEquals(a: PyJson, b: PyJson): boolean {
  return eq(a, b, false);
}

function eq(a: PyJson, b: PyJson, nested: boolean): boolean {
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false;
    // int and float compare by exact mathematical value in Python.
    if (typeof na === 'number' && typeof nb === 'number') return na === nb || (nested && Number.isNaN(na) && Number.isNaN(nb));
    if (typeof na === 'bigint' && typeof nb === 'bigint') return na === nb;
    const [i, f] = typeof na === 'bigint' ? [na, nb as number] : [nb as bigint, na as number];
    return Number.isInteger(f) && BigInt(f) === i;
  }
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x: PyJson, k: number) => eq(x, b[k] as PyJson, true));
  }
  const ma = asMap(a);
  const mb = asMap(b);
  if (ma.size !== mb.size) return false;
  for (const [k, v] of ma) {
    if (!mb.has(k) || !eq(v, mb.get(k)!, true)) return false;
  }
  return true;
}

// bool is a subclass of int in Python; PyFloat marks an integral float.
function asNumber(v: PyJson): bigint | number | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

function asMap(v: PyJson): ReadonlyMap<string, PyJson> {
  if (v instanceof Map) return v as ReadonlyMap<string, PyJson>;
  return new Map(Object.entries(v as Record<string, PyJson>));
}
