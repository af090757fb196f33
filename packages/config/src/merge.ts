// Layering settings (defaults ← file ← command line) before a schema reads them.

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `over` laid on `base`, recursively for plain objects; arrays and other values are replaced whole,
 * and an `undefined` in `over` leaves the base value. Neither argument is changed.
 */
export function mergeSettings(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = mergeSettings(base[k], v);
  return out;
}
