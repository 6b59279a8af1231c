/**
 * What `npm run bench` reads from its environment, checked before anything runs (a run takes
 * minutes: a typo must not surface at its end, or not at all):
 * - BENCH_RUNS: runs per figure, a whole number ≥ 1 (default 5);
 * - MASS_CASES: the mass-deletion cases to run, by their bench.json keys, comma-separated (default all);
 * - BENCH_PROFILE: set (to anything but "" or "0") for the profiled runs.
 */
export interface BenchSettings {
  runs: number;
  /** undefined: every case. */
  massCases?: string[];
  profile: boolean;
}

export function benchSettings(env: NodeJS.ProcessEnv, knownCases: readonly string[]): BenchSettings {
  const runs = env.BENCH_RUNS ?? '5';
  if (!/^[1-9]\d*$/.test(runs))
    throw new Error(`BENCH_RUNS is the number of runs per figure, a whole number of at least 1, not "${runs}"`);
  let massCases: string[] | undefined;
  if (env.MASS_CASES !== undefined) {
    massCases = env.MASS_CASES.split(',').map((k) => k.trim());
    const unknown = massCases.filter((k) => !knownCases.includes(k));
    if (unknown.length > 0)
      throw new Error(
        `MASS_CASES names ${unknown.map((k) => `"${k}"`).join(', ')}, not a mass-deletion case; the cases are ${knownCases.join(', ')}`,
      );
  }
  return {
    runs: Number(runs),
    massCases,
    profile: env.BENCH_PROFILE !== undefined && env.BENCH_PROFILE !== '' && env.BENCH_PROFILE !== '0',
  };
}

/** benchSettings for a script's start: a bad setting is one line on standard error and exit code 2. */
export function benchSettingsOrExit(env: NodeJS.ProcessEnv, knownCases: readonly string[]): BenchSettings {
  try {
    return benchSettings(env, knownCases);
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    process.exit(2);
  }
}
