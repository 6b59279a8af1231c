/**
 * Memory quantities as k8s.io/apimachinery resource.Quantity reads and prints them, for the few
 * places the eviction manager needs: a byte count, and the canonical text of that count in the
 * format the quantity was written in (BinarySI for Ki/Mi/Gi…, DecimalSI for k/M/G… and plain numbers).
 * Fractions, exponents and milli-units are not needed for memory and are refused.
 */
export type QuantityFormat = 'BinarySI' | 'DecimalSI';

export interface Quantity {
  bytes: number;
  format: QuantityFormat;
}

const BINARY: readonly [string, number][] = [
  ['Ei', 2 ** 60],
  ['Pi', 2 ** 50],
  ['Ti', 2 ** 40],
  ['Gi', 2 ** 30],
  ['Mi', 2 ** 20],
  ['Ki', 2 ** 10],
];
const DECIMAL: readonly [string, number][] = [
  ['E', 1e18],
  ['P', 1e15],
  ['T', 1e12],
  ['G', 1e9],
  ['M', 1e6],
  ['k', 1e3],
];

/** A quantity that is not a whole number of bytes with one of the suffixes above. */
export class QuantityError extends Error {}

export function parseQuantity(text: string): Quantity {
  const m = /^(\d+)([KMGTPE]i|[kMGTPE])?$/.exec(text.trim());
  if (!m)
    throw new QuantityError(
      `"${text}" is not a memory quantity: write a whole number with an optional suffix (Ki, Mi, Gi, Ti or k, M, G, T), e.g. 100Mi`,
    );
  const suffix = m[2];
  if (suffix === undefined) return { bytes: Number(m[1]), format: 'DecimalSI' };
  const binary = BINARY.find(([s]) => s === suffix);
  if (binary) return { bytes: Number(m[1]) * binary[1], format: 'BinarySI' };
  return { bytes: Number(m[1]) * DECIMAL.find(([s]) => s === suffix)![1], format: 'DecimalSI' };
}

/**
 * Quantity.String(): a BinarySI count of at least 1024 takes the largest binary suffix that divides
 * it exactly, or none (1000000 stays "1000000"); a DecimalSI count, or a BinarySI one below 1024,
 * the largest decimal suffix that divides it exactly (1000 is "1k"). 0 is "0".
 */
export function formatQuantity(bytes: number, format: QuantityFormat = 'BinarySI'): string {
  const sign = bytes < 0 ? '-' : '';
  const n = Math.abs(bytes);
  if (n === 0) return '0';
  const table = format === 'BinarySI' && n >= 1024 ? BINARY : DECIMAL;
  for (const [suffix, size] of table) if (n % size === 0) return `${sign}${n / size}${suffix}`;
  return `${sign}${n}`;
}

export const MI = 2 ** 20;
