// The minimum of Python's json.dumps this package needs (the dataset package does not export one
// yet): ", " / ": " separators, ensure_ascii escaping, optional sort_keys by code point.
// Limitation: JS numbers carry no int/float distinction, so integral floats print as ints (1, not 1.0).

export function pyJsonDumps(value: unknown, opts: { sortKeys?: boolean; indent?: number } = {}): string {
  return dump(value, opts.sortKeys ?? false, opts.indent, 0);
}

function dump(v: unknown, sortKeys: boolean, indent: number | undefined, depth: number): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
    return String(v).replace(/e\+?/, (m) => (m === 'e+' ? 'e+' : 'e'));
  }
  if (typeof v === 'string') return quote(v);
  const nl = indent === undefined ? '' : '\n' + ' '.repeat(indent * (depth + 1));
  const close = indent === undefined ? '' : '\n' + ' '.repeat(indent * depth);
  const sep = indent === undefined ? ', ' : ',';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[' + nl + v.map((x) => dump(x, sortKeys, indent, depth + 1)).join(sep + nl) + close + ']';
  }
  if (typeof v === 'object') {
    let keys = Object.keys(v as object).filter((k) => (v as Record<string, unknown>)[k] !== undefined);
    if (sortKeys) keys = keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (keys.length === 0) return '{}';
    return '{' + nl + keys.map((k) => quote(k) + ': ' + dump((v as Record<string, unknown>)[k], sortKeys, indent, depth + 1)).join(sep + nl) + close + '}';
  }
  return quote(String(v));
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    if (ESCAPES[ch]) out += ESCAPES[ch];
    else if (code < 0x20 || code > 0x7e) out += '\\u' + code.toString(16).padStart(4, '0'); // UTF-16 units = Python's surrogate pairs
    else out += ch;
  }
  return out + '"';
}
