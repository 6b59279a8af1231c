// Loaded with --require into a run that bench/run.ts measures: writes the process's own CPU time
// (microseconds, user and system) to $BENCH_CPU_FILE when it exits.
'use strict';
process.on('exit', () =>
  require('node:fs').writeFileSync(process.env.BENCH_CPU_FILE, JSON.stringify(process.cpuUsage())),
);
