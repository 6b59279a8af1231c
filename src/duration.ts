/** Milliseconds per unit of the durations scenarios may write. */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration written in a scenario could not be read. */
export class DurationError extends Error {}

/**
 * Reads `30s`, `1.5s`, `2m`, `1h`, `500ms` (a non-negative number and a unit) into milliseconds.
 * Anything else — `30`, `-5s`, `1x` — is an error that says what was expected.
 */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!m) {
    throw new DurationError(`bad duration "${text}": expected a non-negative number followed by ms, s, m or h (e.g. 30s, 1.5s, 2m, 1h, 500ms)`);
  }
  return Math.round(Number(m[1]) * UNITS[m[2]]);
}
