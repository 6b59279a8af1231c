/**
 * A scenario process leaves V8's optimizing compiler (TurboFan) to the code that is really hot:
 * a function is optimized after ≈ 15× as much of it has run as by default (`--interrupt-budget`,
 * 66 KB of bytecode by default; set as the support code loads, before the first scenario).
 *
 * Why: a cucumber run is a few seconds of ~300 modules' code, each scenario exercising a different
 * part of it. With the default budget TurboFan compiled 784 functions in one run of the features —
 * the largest (the kubelet's syncPod, node lifecycle's monitorNodeHealth, the Deployment
 * controller's sync) tens of milliseconds each on a background thread — and 512 times optimized
 * code was thrown away by a deoptimization when the next scenario brought other object shapes;
 * the run ended before most of that compiled code had paid for itself. With the higher budget
 * ≈ 150 functions are compiled (small helpers every scenario runs: the clock's heap, the stores'
 * get and list, etcd's range and freeze, cucumber's and Node's own) and ≈ 40 deoptimized; the
 * process takes about a quarter less CPU and its main thread no more than before
 * (docs/performance.md, "A scenario process with less TurboFan"). `--no-opt` (no TurboFan at all)
 * saves as much CPU but slows the main thread, which is the wall time on an idle machine.
 * Only processes that load the step support, and `npm test`'s test processes, are concerned: the
 * big runs (bench/, `serve`) keep V8's defaults.
 *
 * What runs is the same JavaScript with the same results (V8's tiers differ in speed, never in
 * semantics): every scenario's timeline is identical (bench/fingerprint.ts).
 */
import { setFlagsFromString } from 'node:v8';

/** The flag, also given to `npm test`'s test processes (scripts/unit-tests.ts). */
export const LESS_TURBOFAN = '--interrupt-budget=1000000';

setFlagsFromString(LESS_TURBOFAN);
