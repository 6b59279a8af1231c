/**
 * Growth checks for tests: how much more CPU time a piece of work takes when its size grows by a
 * factor. Linear work grows by about the factor, quadratic work by its square, so a test can tell
 * them apart without asserting any wall-clock time (a slow or busy machine slows both sizes).
 */
function cpuMs(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * The ratio of the CPU time of `run(small * factor)` to that of `run(small)` (each the best of
 * `tries`, after one warm-up run of the small size so the JIT has settled).
 */
export function growthRatio(run: (n: number) => void, small: number, factor: number, tries = 3): number {
  run(small);
  const best = (n: number) => Math.min(...Array.from({ length: tries }, () => cpuMs(() => run(n))));
  return best(small * factor) / Math.max(best(small), 0.001);
}

/** The bound a linear piece of work stays under: the factor, with room for noise (a quadratic one gives ≈ factor²). */
export function linearBound(factor: number): number {
  return factor * 2.5;
}
