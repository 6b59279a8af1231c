/**
 * The targets of issue 37 ("Speed at full scale") beside what `npm run bench` measured, each with
 * whether it is met. A pure function of the measurements: a slow machine gives slow figures and
 * "not met", never a figure that was not measured; a case left out (MASS_CASES) is "not measured".
 */

/** The part of bench.json the targets read (each optional: MASS_CASES may leave a case out). */
export interface MeasuredFigures {
  suite: { ratio: number };
  mass: Record<string, { seconds: number; peakRssMB: number; cpuSeconds: number } | undefined>;
  serve?: { listJsonMs: number; listProtobufMs: number; listTableMs: number };
}

export type Verdict = 'met' | 'not met' | 'not measured';

export interface TargetRow {
  figure: string;
  /** The measured figure with its unit, or "—". */
  measured: string;
  target: string;
  verdict: Verdict;
}

/** The largest cluster Kubernetes supports: 150 000 pods on 5 000 nodes (bench.json key). */
export const SUPPORTED_MAXIMUM = '150000-5000nodes';
/** A drain of 100 nodes of that cluster (bench.json key). */
export const SUPPORTED_MAXIMUM_DRAIN = '150000-5000nodes-drain100';

/**
 * Growth per 10× pods between two scale-mode runs of `fromPods` and `toPods` pods: the time ratio
 * brought to a tenfold step (ratio^(1 / log10(toPods / fromPods))), so 10 000 → 150 000 (15×) is
 * comparable with the 10.5× target for 10 000 → 100 000.
 */
export function growthPer10x(fromSeconds: number, toSeconds: number, fromPods: number, toPods: number): number {
  return (toSeconds / fromSeconds) ** (1 / Math.log10(toPods / fromPods));
}

function row(
  figure: string,
  value: number | undefined,
  unit: string,
  digits: number,
  limit: number,
  target: string,
): TargetRow {
  if (value === undefined || !Number.isFinite(value)) return { figure, measured: '—', target, verdict: 'not measured' };
  return { figure, measured: `${value.toFixed(digits)}${unit}`, target, verdict: value <= limit ? 'met' : 'not met' };
}

export function issue37Targets(m: MeasuredFigures): TargetRow[] {
  const mass = m.mass;
  const max = mass[SUPPORTED_MAXIMUM];
  const drain = mass[SUPPORTED_MAXIMUM_DRAIN];
  const growth =
    max && mass['10000-summary'] ? growthPer10x(mass['10000-summary'].seconds, max.seconds, 10000, 150000) : undefined;
  const services =
    mass['10000-services'] && mass['10000'] ? mass['10000-services'].seconds / mass['10000'].seconds : undefined;
  return [
    row('10 000 pods / 100 nodes: time', mass['10000']?.seconds, ' s', 2, 2, '≤ 2 s'),
    row('10 000 pods / 100 nodes: peak RSS', mass['10000']?.peakRssMB, ' MB', 0, 400, '≤ 400 MB'),
    row('100 000 pods / 1 000 nodes, scale mode: time', mass['100000']?.seconds, ' s', 2, 25, '≤ 25 s'),
    row('150 000 pods / 5 000 nodes, scale mode: time', max?.seconds, ' s', 2, 40, '≤ 40 s'),
    row('150 000 pods / 5 000 nodes, scale mode: peak RSS', max?.peakRssMB, ' MB', 0, 4096, '≤ 4 GB (4 096 MB)'),
    row('drain of 100 of the 5 000 nodes, scale mode: time', drain?.seconds, ' s', 2, 40, '≤ 40 s'),
    row('drain of 100 of the 5 000 nodes, scale mode: peak RSS', drain?.peakRssMB, ' MB', 0, 4096, '≤ 4 GB (4 096 MB)'),
    row('growth per 10×, 10 000 → 150 000 pods (scale mode)', growth, '×', 2, 10.5, '≤ 10.5×'),
    row('10 000 pods with 100 services / without', services, '×', 2, 2, '≤ 2×'),
    row('serve: LIST 10 000 pods, JSON', m.serve?.listJsonMs, ' ms', 0, 200, '≤ 200 ms'),
    row('serve: LIST 10 000 pods, protobuf', m.serve?.listProtobufMs, ' ms', 0, 200, '≤ 200 ms'),
    row('serve: LIST 10 000 pods, Table', m.serve?.listTableMs, ' ms', 0, 200, '≤ 200 ms'),
    row('npm run bdd / its floor', m.suite.ratio, '×', 2, 2, '≤ 2×'),
  ];
}

/** The rows as lines of a table: figure, measured, target, verdict. */
export function formatTargets(rows: TargetRow[]): string[] {
  const w = (f: (r: TargetRow) => string): number => Math.max(0, ...rows.map((r) => f(r).length));
  const [a, b, c] = [w((r) => r.figure), w((r) => r.measured), w((r) => r.target)];
  return rows.map((r) => `${r.figure.padEnd(a)}  ${r.measured.padStart(b)}  ${r.target.padEnd(c)}  ${r.verdict}`);
}
