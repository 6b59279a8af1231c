/**
 * The report's one time notation: an offset from T+0 written like a Go duration (`T+0s`,
 * `T+1.5s`, `T+1m2s`, `T-1m`), the same notation a scenario's `at` cells accept; and, where a
 * field value is a timestamp, the absolute RFC 3339 time beside it.
 */

/** `T+0s`, `T+1.5s`, `T+2m3s`, `T-1m`: a virtual-time offset from T+0. */
export function formatOffset(ms: number): string {
  return `T${ms < 0 ? '-' : '+'}${formatDuration(Math.abs(ms))}`;
}

/** Go-style duration with millisecond precision only when needed: `0s`, `0.3s`, `29s`, `2m3s`, `1h`. */
export function formatDuration(ms: number): string {
  const total = Math.round(Math.abs(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const frac = total % 1000;
  const secs = frac === 0 ? `${s}` : `${s}.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
  let out = ms < 0 ? '-' : '';
  if (h > 0) out += `${h}h`;
  if (m > 0 || (h > 0 && (s > 0 || frac > 0))) out += `${m}m`;
  if (s > 0 || frac > 0 || (h === 0 && m === 0)) out += `${secs}s`;
  return out;
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

/** The offset from T+0 of an RFC 3339 timestamp, or undefined if `value` is not one. */
export function timestampOffset(value: unknown, t0: number): number | undefined {
  if (typeof value !== 'string' || !RFC3339.test(value)) return undefined;
  return Date.parse(value) - t0;
}

/**
 * A field value as the report shows it: JSON, and for a timestamp its offset from T+0 after it,
 * e.g. `"2025-01-01T00:01:30Z" (T+30s)`.
 */
export function showValue(value: unknown, t0: number): string {
  const json = JSON.stringify(value) ?? 'undefined';
  const offset = timestampOffset(value, t0);
  return offset === undefined ? json : `${json} (${formatOffset(offset)})`;
}
