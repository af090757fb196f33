// Python `str` whitespace semantics. Python's `str.isspace()` set differs from JavaScript's `\s`
// (Python has U+001C–U+001F and U+0085, JavaScript has U+FEFF), and `strip()` / `split()` use it.

/** Character class body of Python's Unicode whitespace (str.isspace()). */
export const PY_WS_CLASS = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const LEADING = new RegExp(`^[${PY_WS_CLASS}]+`);
const TRAILING = new RegExp(`[${PY_WS_CLASS}]+$`);
const RUNS = new RegExp(`[${PY_WS_CLASS}]+`);

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(LEADING, '').replace(TRAILING, '');
}

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  return s.replace(TRAILING, '');
}

/** Python `s.split()` (no argument): runs of whitespace separate, no empty strings. */
export function pySplit(s: string): string[] {
  const t = pyStrip(s);
  return t === '' ? [] : t.split(RUNS);
}
