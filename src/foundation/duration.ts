/** Milliseconds per unit of the durations scenarios may write. */
const UNITS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
const ORDER = ['h', 'm', 's', 'ms'];

/** A duration written in a scenario could not be read. */
export class DurationError extends Error {}

/**
 * Reads a duration into milliseconds: a non-negative number and a unit (`30s`, `1.5s`, `2m`, `1h`,
 * `500ms`), or several such parts from the largest unit down, each unit once (`1m30s`, `1h15m`,
 * `2s500ms`), the way Go's time.Duration prints them. Anything else — `30`, `-5s`, `1x`, `30s1m` —
 * is an error that says what was expected. The one parser of durations: steps (`When 1m30s pass`)
 * and the `T+…` cells of tables both use it.
 */
export function parseDuration(text: string): number {
  const t = text.trim();
  const part = /(\d+(?:\.\d+)?)(ms|h|m|s)/y;
  let total = 0;
  let lastUnit = -1;
  let read = 0;
  for (let m = part.exec(t); m !== null; m = part.exec(t)) {
    const unit = ORDER.indexOf(m[2]);
    if (unit <= lastUnit) break;
    lastUnit = unit;
    total += Number(m[1]) * UNITS[m[2]];
    read = part.lastIndex;
  }
  if (lastUnit < 0 || read !== t.length) {
    throw new DurationError(
      `bad duration "${text}": expected a non-negative number followed by ms, s, m or h (e.g. 30s, 1.5s, 2m, 1h, 500ms), or several of them from the largest unit down (1m30s, 1h15m)`,
    );
  }
  return Math.round(total);
}

/**
 * Reads `T+<duration>` (`T+30s`, `T+1m30s`) into milliseconds after T+0, in whole seconds: the
 * times in tables are compared with the whole seconds Kubernetes writes. Throws a DurationError
 * for anything else.
 */
export function parseWholeSecondsAfterT0(text: string): number {
  const t = text.trim();
  if (!t.startsWith('T+')) throw new DurationError(`"${text}" does not start with T+`);
  const ms = parseDuration(t.slice(2));
  if (ms % 1000 !== 0) throw new DurationError(`"${text}" is not a whole second`);
  return ms;
}
