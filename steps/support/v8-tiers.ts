/**
 * A scenario process runs V8's interpreter and baseline code, not its optimizing compiler
 * (TurboFan: `--no-opt`, set as the support code loads, before the first scenario).
 *
 * Why: a cucumber run is a few seconds of ~300 modules' code, each scenario exercising a different
 * part of it. TurboFan compiles every function that gets warm — ≈ 780 compiles in one run of the
 * features, the largest (the kubelet's syncPod, node lifecycle's monitorNodeHealth, the Deployment
 * controller's sync) tens of milliseconds each on a background thread, ≈ 500 of them thrown away
 * again by a deoptimization when the next scenario brings other object shapes — and the run ends
 * before that compiled code pays for itself. Without it the same run takes about a third less CPU
 * (docs/performance.md, "A scenario process without TurboFan"). Only the scenario process is
 * concerned: the big runs (bench/, `serve`) never load the step support and keep the optimizing
 * compiler, which their minutes-long hot loops need.
 *
 * What runs is the same JavaScript with the same results (V8's tiers differ in speed, never in
 * semantics): every scenario's timeline is identical (bench/fingerprint.ts).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-opt');
