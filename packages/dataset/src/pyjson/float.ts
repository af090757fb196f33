// Python floats in JavaScript. JS has one number type, so `1.0` and `1` are the same value; Python
// prints them differently (`1.0` vs `1`). A PyFloat marks a number that Python holds as a float.

/**
 * A number that is a Python `float`. The parser returns one only where a plain JS number would
 * print as a Python int (integral values, `-0.0`); other floats come back as plain numbers,
 * because `1.5` already prints as a float.
 */
export class PyFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toString(): string {
    return pyFloatRepr(this.value);
  }
}

/** Wraps `value` so pyJsonDumps prints it as a Python float (`pyFloat(1)` → `1.0`). */
export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

/**
 * Python's `repr(float)`: the shortest digits that round-trip (JS and Python both pick them),
 * laid out as Python does — positional when the decimal exponent is in [-4, 16), scientific
 * otherwise with a signed two-digit exponent (`1e+16`, `1.5e-05`); `.0` on integral positional
 * values; `inf`/`nan` become JSON's `Infinity`/`NaN` in pyJsonDumps, not here.
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // toExponential() with no argument gives the shortest round-trip digits: "d.ddde±x".
  const [mant, expText] = Math.abs(x).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  const decpt = exp + 1; // position of the decimal point relative to the digit string
  if (decpt > 16 || decpt <= -4) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}
