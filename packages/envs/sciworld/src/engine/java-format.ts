// Number formatting as the JVM does it, where ScienceWorld prints numbers with java.util.Formatter.

/**
 * `String.format("%.0f", x)` for a Java double: the exact value rounded half away from zero (Java's
 * HALF_UP), and the sign kept for anything below zero, so −0.3 prints "-0" and −61.5 prints "-62"
 * (JavaScript's Math.round gives 0 and −61).
 */
export function javaFormatFixed0(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  const negative = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  const whole = Math.floor(a);
  // a − floor(a) is exact for every double, so the tie test sees the true fraction.
  const rounded = a - whole >= 0.5 ? whole + 1 : whole;
  return `${negative ? '-' : ''}${BigInt(rounded).toString()}`;
}
