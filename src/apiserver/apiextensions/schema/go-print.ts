/**
 * How Go's fmt prints the JSON values a decoded custom resource holds, for the messages kube-apiserver
 * builds with them: %q of a string, %v of a number, and field.Error's value printing
 * (apimachinery/pkg/util/validation/field/errors.go ErrorBody: strings quoted, int64/float64/bool as
 * %v, nil as "null", maps and lists as %#v). Numbers follow the JSON decoder of
 * apimachinery/pkg/util/json: an integral number is an int64, any other a float64 (R301).
 */

/** %q of a string: a double-quoted Go string literal. */
export function goQuote(s: string): string {
  // JSON's escapes are Go's, except that Go writes control characters as \x.. and keeps U+2028/2029 escaped alike.
  return JSON.stringify(s).replace(/\\u00([0-7][0-9a-f])/g, (_, hex: string) => `\\x${hex}`);
}

/** Whether a JSON number decodes to an int64 (utiljson.Unmarshal keeps integral numbers as int64). */
export function isGoInt(n: number): boolean {
  return Number.isSafeInteger(n);
}

/**
 * %v of a float64: strconv.FormatFloat(f, 'g', -1): the shortest digits that round-trip, in exponent
 * form (at least two exponent digits) when the decimal exponent is below -4 or at least 6 (the precision
 * 'g' uses for the shortest form), so 1000000.5 prints as 1.0000005e+06.
 */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  // Shortest round-trip digits and the decimal exponent, as strconv computes them.
  const [mantissa, expPart] = n.toExponential().split('e');
  const exp = Number(expPart);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}

/** %v of a JSON number as Go holds it (int64 or float64). */
export function goNumber(n: number): string {
  return isGoInt(n) ? String(n) : goFloat(n);
}

/** %#v of a decoded JSON value (map[string]interface {}, []interface {}, string, int64, float64, bool, nil). */
export function goSharpV(x: unknown, nested = false): string {
  if (x === null || x === undefined) return nested ? 'interface {}(nil)' : '<nil>';
  if (typeof x === 'string') return goQuote(x);
  if (typeof x === 'number') return goNumber(x);
  if (typeof x === 'boolean') return String(x);
  if (Array.isArray(x)) return `[]interface {}{${x.map((v) => goSharpV(v, true)).join(', ')}}`;
  const entries = Object.keys(x as Record<string, unknown>)
    .sort()
    .map((k) => `${goQuote(k)}:${goSharpV((x as Record<string, unknown>)[k], true)}`);
  return `map[string]interface {}{${entries.join(', ')}}`;
}

/** How field.Error prints a bad value: "null" for nil, quoted strings, plain numbers and booleans, %#v otherwise. */
export function goBadValue(x: unknown): string {
  if (x === null || x === undefined) return 'null';
  if (typeof x === 'string') return goQuote(x);
  if (typeof x === 'number') return goNumber(x);
  if (typeof x === 'boolean') return String(x);
  return goSharpV(x);
}
