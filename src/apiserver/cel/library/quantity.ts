import { CelFunctionError, parses, type CelLibrary } from './library';

/**
 * A resource.Quantity as an exact fraction num/den (den > 0), enough for the comparisons and
 * arithmetic the CEL library offers (pkg/cel/quantity.go, the CEL type `kubernetes.Quantity`).
 */
export class CelQuantity {
  constructor(
    readonly num: bigint,
    readonly den: bigint,
  ) {}
  compare(o: CelQuantity): number {
    const l = this.num * o.den;
    const r = o.num * this.den;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  plus(o: CelQuantity, sign: bigint): CelQuantity {
    return new CelQuantity(this.num * o.den + sign * o.num * this.den, this.den * o.den);
  }
}

const BINARY: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** resource.ParseQuantity: a signed decimal number and one suffix (binary SI, decimal SI, or an exponent). */
export function parseQuantity(text: string): CelQuantity {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === ''))
    throw new CelFunctionError(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  const fraction = m[3] ?? '';
  let num = BigInt(`${m[2] || '0'}${fraction}`) * (m[1] === '-' ? -1n : 1n);
  let den = 10n ** BigInt(fraction.length);
  const suffix = m[4] ?? '';
  let exponent = 0;
  if (suffix in BINARY) num *= BINARY[suffix];
  else if (/^[eE]/.test(suffix)) exponent = Number(suffix.slice(1));
  else exponent = DECIMAL[suffix];
  if (exponent > 0) num *= 10n ** BigInt(exponent);
  else if (exponent < 0) den *= 10n ** BigInt(-exponent);
  return new CelQuantity(num, den);
}

const MAX_INT64 = (1n << 63n) - 1n;
const fromInt = (n: bigint) => new CelQuantity(n, 1n);

/**
 * library.Quantity (pkg/cel/library/quantity.go), in the base environment from 1.28:
 * `quantity(s)`, `isQuantity(s)`, and on a quantity `isInteger()`, `asInteger()`,
 * `asApproximateFloat()`, `sign()`, `add(q|int)`, `sub(q|int)`, `isGreaterThan(q)`,
 * `isLessThan(q)`, `compareTo(q)`; two quantities are equal when their values are.
 */
export const QUANTITY: CelLibrary = {
  name: 'quantity',
  introduced: 28,
  register(env) {
    env.registerType('kubernetes.Quantity', CelQuantity);
    env.registerFunction('quantity(string): kubernetes.Quantity', parseQuantity);
    env.registerFunction('isQuantity(string): bool', parses(parseQuantity));
    env.registerOperator(
      'kubernetes.Quantity == kubernetes.Quantity',
      (a: CelQuantity, b: CelQuantity) => a.compare(b) === 0,
    );
    env.registerFunction(
      'kubernetes.Quantity.isInteger(): bool',
      (q: CelQuantity) => q.num % q.den === 0n && q.num / q.den <= MAX_INT64 && q.num / q.den >= -MAX_INT64 - 1n,
    );
    env.registerFunction('kubernetes.Quantity.asInteger(): int', (q: CelQuantity) => {
      if (q.num % q.den !== 0n || q.num / q.den > MAX_INT64 || q.num / q.den < -MAX_INT64 - 1n)
        throw new CelFunctionError('cannot convert value to integer');
      return q.num / q.den;
    });
    env.registerFunction(
      'kubernetes.Quantity.asApproximateFloat(): double',
      (q: CelQuantity) => Number(q.num) / Number(q.den),
    );
    env.registerFunction('kubernetes.Quantity.sign(): int', (q: CelQuantity) =>
      BigInt(q.num === 0n ? 0 : q.num > 0n ? 1 : -1),
    );
    env.registerFunction(
      'kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity',
      (a: CelQuantity, b: CelQuantity) => a.plus(b, 1n),
    );
    env.registerFunction('kubernetes.Quantity.add(int): kubernetes.Quantity', (a: CelQuantity, b: bigint) =>
      a.plus(fromInt(b), 1n),
    );
    env.registerFunction(
      'kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity',
      (a: CelQuantity, b: CelQuantity) => a.plus(b, -1n),
    );
    env.registerFunction('kubernetes.Quantity.sub(int): kubernetes.Quantity', (a: CelQuantity, b: bigint) =>
      a.plus(fromInt(b), -1n),
    );
    env.registerFunction(
      'kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool',
      (a: CelQuantity, b: CelQuantity) => a.compare(b) > 0,
    );
    env.registerFunction(
      'kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool',
      (a: CelQuantity, b: CelQuantity) => a.compare(b) < 0,
    );
    env.registerFunction('kubernetes.Quantity.compareTo(kubernetes.Quantity): int', (a: CelQuantity, b: CelQuantity) =>
      BigInt(a.compare(b)),
    );
  },
};
