// Python's `json` module, as far as the reference evaluators depend on it: `json.loads` (ints stay
// ints, floats stay floats, NaN/Infinity accepted), `json.dumps` (sort_keys by code point, chosen
// separators, ensure_ascii, floats in `repr` form) and Python `==` on the parsed values.
// Ints are bigint and floats are number, so `1` and `1.0` survive a round trip as Python's do.
// (The dataset package is meant to export a `pyJsonDumps`; it did not exist when this was written.)

export type PyJson = null | boolean | bigint | number | string | PyJson[] | PyDict;
/** A JSON object; a Map keeps Python's dict order (first insertion position, last value wins). */
export type PyDict = Map<string, PyJson>;

export class PyJsonDecodeError extends Error {
  override readonly name = 'PyJsonDecodeError';
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(`${message} (char ${pos})`);
  }
}

// CPython's default `sys.get_int_max_str_digits()` (3.11+): longer ints fail to convert.
const MAX_INT_DIGITS = 4300;
const JSON_WS = /[ \t\n\r]*/y;
const JSON_START = /^[ \t\n\r]*["{[\-0-9tfnNI]/;
const NUMBER = /(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;

/** Python `json.loads(text)`; throws PyJsonDecodeError where Python raises JSONDecodeError. */
export function pyJsonLoads(text: string): PyJson {
  const p = new Parser(text);
  p.ws();
  const v = p.value();
  p.ws();
  if (p.i !== text.length) throw new PyJsonDecodeError('Extra data', p.i);
  return v;
}

/** Like pyJsonLoads, but returns undefined instead of throwing. */
export function tryPyJsonLoads(text: string): { ok: true; value: PyJson } | { ok: false } {
  // Most texts are prose: reject them on their first character without the cost of a throw.
  if (!JSON_START.test(text)) return { ok: false };
  try {
    return { ok: true, value: pyJsonLoads(text) };
  } catch (e) {
    if (e instanceof PyJsonDecodeError) return { ok: false };
    throw e;
  }
}

class Parser {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    JSON_WS.lastIndex = this.i;
    JSON_WS.exec(this.s);
    this.i = JSON_WS.lastIndex;
  }

  value(): PyJson {
    const s = this.s;
    const c = s[this.i];
    if (c === '"') return this.string();
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    for (const [word, v] of CONSTANTS) {
      if (s.startsWith(word, this.i)) {
        this.i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(s);
    if (!m) throw new PyJsonDecodeError('Expecting value', this.i);
    this.i = NUMBER.lastIndex;
    const [, int, frac, exp] = m;
    if (frac === undefined && exp === undefined) {
      if (int!.replace('-', '').length > MAX_INT_DIGITS) throw new PyJsonDecodeError('Exceeds the limit (4300 digits) for integer string conversion', m.index);
      return BigInt(int!);
    }
    return Number(m[0]);
  }

  string(): string {
    const s = this.s;
    let i = this.i + 1;
    let out = '';
    for (;;) {
      const start = i;
      while (i < s.length) {
        const code = s.charCodeAt(i);
        if (code === 0x22 || code === 0x5c || code < 0x20) break;
        i++;
      }
      out += s.slice(start, i);
      if (i >= s.length) throw new PyJsonDecodeError('Unterminated string starting at', this.i);
      const code = s.charCodeAt(i);
      if (code === 0x22) {
        this.i = i + 1;
        return out;
      }
      if (code < 0x20) throw new PyJsonDecodeError('Invalid control character at', i);
      const esc = s[i + 1];
      if (esc === 'u') {
        const hex = s.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new PyJsonDecodeError('Invalid \\uXXXX escape', i + 1);
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        const mapped = esc === undefined ? undefined : SIMPLE_ESCAPES[esc];
        if (mapped === undefined) throw new PyJsonDecodeError('Invalid \\escape', i);
        out += mapped;
        i += 2;
      }
    }
  }

  object(): PyDict {
    const s = this.s;
    const obj: PyDict = new Map();
    this.i++;
    this.ws();
    if (s[this.i] === '}') {
      this.i++;
      return obj;
    }
    for (;;) {
      if (s[this.i] !== '"') throw new PyJsonDecodeError('Expecting property name enclosed in double quotes', this.i);
      const key = this.string();
      this.ws();
      if (s[this.i] !== ':') throw new PyJsonDecodeError("Expecting ':' delimiter", this.i);
      this.i++;
      this.ws();
      obj.set(key, this.value());
      this.ws();
      const c = s[this.i];
      this.i++;
      if (c === '}') return obj;
      if (c !== ',') throw new PyJsonDecodeError("Expecting ',' delimiter", this.i - 1);
      this.ws();
    }
  }

  array(): PyJson[] {
    const s = this.s;
    const arr: PyJson[] = [];
    this.i++;
    this.ws();
    if (s[this.i] === ']') {
      this.i++;
      return arr;
    }
    for (;;) {
      arr.push(this.value());
      this.ws();
      const c = s[this.i];
      this.i++;
      if (c === ']') return arr;
      if (c !== ',') throw new PyJsonDecodeError("Expecting ',' delimiter", this.i - 1);
      this.ws();
    }
  }
}

const CONSTANTS: ReadonlyArray<readonly [string, PyJson]> = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', NaN],
  ['Infinity', Infinity],
  ['-Infinity', -Infinity],
];

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export interface PyDumpsOptions {
  /** Python `sort_keys` (default false): order by Unicode code point. */
  sortKeys?: boolean;
  /** Python `separators` (default [', ', ': '], Python's default without indent). */
  separators?: readonly [string, string];
  /** Python `ensure_ascii` (default true, as in Python). */
  ensureAscii?: boolean;
  /** Python `indent` (spaces); with it the default item separator becomes ','. */
  indent?: number;
}

/** Python `json.dumps(value, sort_keys=…, separators=…, ensure_ascii=…)`. */
export function pyJsonDumps(value: PyJson, options: PyDumpsOptions = {}): string {
  const indent = options.indent;
  const [itemSep, keySep] = options.separators ?? (indent === undefined ? [', ', ': '] : [',', ': ']);
  const sortKeys = options.sortKeys ?? false;
  const str = options.ensureAscii ?? true ? encodeAscii : encodeUnicode;
  // Python writes empty containers as [] / {} even when indenting.
  const join = (parts: string[], open: string, close: string, depth: number): string => {
    if (indent === undefined || parts.length === 0) return open + parts.join(itemSep) + close;
    const pad = '\n' + ' '.repeat(indent * (depth + 1));
    return open + pad + parts.join(itemSep + pad) + '\n' + ' '.repeat(indent * depth) + close;
  };
  const enc = (v: PyJson, depth = 0): string => {
    if (v === null) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') return pyFloatRepr(v);
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return join(v.map((x) => enc(x, depth + 1)), '[', ']', depth);
    const keys = [...v.keys()];
    if (sortKeys) keys.sort(compareCodePoints);
    return join(keys.map((k) => str(k) + keySep + enc(v.get(k)!, depth + 1)), '{', '}', depth);
  };
  return enc(value);
}

/** Python's float `repr` (shortest round-trip digits; exponent form below 1e-4 and from 1e16). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant, expStr] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const exp = Number(expStr);
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Python's str ordering (by code point); JavaScript's default sorts by UTF-16 code unit. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    if (ca > 0xffff) i++;
  }
  return a.length - b.length;
}

const SHORT: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
const hex4 = (c: number): string => '\\u' + c.toString(16).padStart(4, '0');

// ensure_ascii=False: only '"', '\\' and U+0000–U+001F are escaped.
function encodeUnicode(s: string): string {
  return '"' + s.replace(/[\x00-\x1f\\"]/g, (ch) => SHORT[ch] ?? hex4(ch.charCodeAt(0))) + '"';
}

// ensure_ascii=True: everything outside ' '..'~' is escaped, astral characters as surrogate pairs
// (a JavaScript string already holds them as two UTF-16 units).
function encodeAscii(s: string): string {
  return '"' + s.replace(/[^ -~]|[\\"]/g, (ch) => SHORT[ch] ?? hex4(ch.charCodeAt(0))) + '"';
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
    if (typeof na === 'bigint' && typeof nb === 'bigint') return na === nb;
    if (typeof na === 'number' && typeof nb === 'number') return na === nb || (nested && Number.isNaN(na) && Number.isNaN(nb));
    const [i, f] = typeof na === 'bigint' ? [na, nb as number] : [nb as bigint, na as number];
    return Number.isInteger(f) && BigInt(f) === i;
  }
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, k) => eq(x, b[k]!, true));
  }
  if (!(a instanceof Map) || !(b instanceof Map) || a.size !== b.size) return false;
  for (const [k, v] of a) {
    if (!b.has(k) || !eq(v, b.get(k)!, true)) return false;
  }
  return true;
}

// bool is a subclass of int in Python.
function asNumber(v: PyJson): bigint | number | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return undefined;
}
