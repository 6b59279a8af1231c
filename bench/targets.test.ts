import { describe, it } from 'node:test';
import { expect } from 'chai';
import {
  formatTargets,
  growthPer10x,
  issue37Targets,
  SUPPORTED_MAXIMUM,
  SUPPORTED_MAXIMUM_DRAIN,
  type MeasuredFigures,
} from './targets';

/** Fake measurements: no run, no wall time. */
function figures(): MeasuredFigures {
  const m = (seconds: number, peakRssMB: number) => ({ seconds, peakRssMB, cpuSeconds: seconds * 1.2 });
  return {
    suite: { ratio: 4.65 },
    mass: {
      '10000': m(1.5, 340),
      '10000-summary': m(2, 300),
      '10000-services': m(3.5, 400),
      '100000': m(34.8, 1700),
      [SUPPORTED_MAXIMUM]: m(52.3, 2900),
      [SUPPORTED_MAXIMUM_DRAIN]: m(38, 4200),
    },
    serve: { listJsonMs: 90, listProtobufMs: 401, listTableMs: 200 },
  };
}

describe('npm run bench: the targets of issue 37', () => {
  it('puts every figure beside its target and says whether it is met', () => {
    const rows = issue37Targets(figures());
    expect(rows.map((r) => [r.figure, r.measured, r.target, r.verdict])).to.deep.equal([
      ['10 000 pods / 100 nodes: time', '1.50 s', '≤ 2 s', 'met'],
      ['10 000 pods / 100 nodes: peak RSS', '340 MB', '≤ 400 MB', 'met'],
      ['100 000 pods / 1 000 nodes, scale mode: time', '34.80 s', '≤ 25 s', 'not met'],
      ['150 000 pods / 5 000 nodes, scale mode: time', '52.30 s', '≤ 40 s', 'not met'],
      ['150 000 pods / 5 000 nodes, scale mode: peak RSS', '2900 MB', '≤ 4 GB (4 096 MB)', 'met'],
      ['drain of 100 of the 5 000 nodes, scale mode: time', '38.00 s', '≤ 40 s', 'met'],
      ['drain of 100 of the 5 000 nodes, scale mode: peak RSS', '4200 MB', '≤ 4 GB (4 096 MB)', 'not met'],
      [
        'growth per 10×, 10 000 → 150 000 pods (scale mode)',
        `${growthPer10x(2, 52.3, 10000, 150000).toFixed(2)}×`,
        '≤ 10.5×',
        'not met',
      ],
      ['10 000 pods with 100 services / without', '2.33×', '≤ 2×', 'not met'],
      ['serve: LIST 10 000 pods, JSON', '90 ms', '≤ 200 ms', 'met'],
      ['serve: LIST 10 000 pods, protobuf', '401 ms', '≤ 200 ms', 'not met'],
      ['serve: LIST 10 000 pods, Table', '200 ms', '≤ 200 ms', 'met'],
      ['npm run bdd / its floor', '4.65×', '≤ 2×', 'not met'],
    ]);
  });

  it('brings growth to a tenfold step: 10× pods in 10× time is 10×, 15× pods in 15× time too', () => {
    expect(growthPer10x(1, 10, 1000, 10000)).to.be.closeTo(10, 1e-9);
    expect(growthPer10x(2, 30, 10000, 150000)).to.be.closeTo(10, 1e-9);
    expect(growthPer10x(2, 52.3, 10000, 150000)).to.be.closeTo(26.15 ** (1 / Math.log10(15)), 1e-9);
  });

  it('says "not measured" for a case MASS_CASES left out, never a number', () => {
    const f = figures();
    delete f.mass[SUPPORTED_MAXIMUM];
    delete f.mass[SUPPORTED_MAXIMUM_DRAIN];
    delete f.serve;
    const rows = issue37Targets(f);
    const max = rows.filter(
      (r) =>
        r.figure.startsWith('150 000') ||
        r.figure.startsWith('drain') ||
        r.figure.startsWith('growth') ||
        r.figure.startsWith('serve'),
    );
    expect(max).to.have.length(8);
    for (const r of max) expect([r.measured, r.verdict]).to.deep.equal(['—', 'not measured']);
  });

  it('prints one aligned line per target, the verdict last', () => {
    const lines = formatTargets(issue37Targets(figures()));
    expect(lines).to.have.length(13);
    expect(lines[0]).to.match(/^10 000 pods \/ 100 nodes: time {2,}1\.50 s {2}≤ 2 s {2,}met$/);
    expect(new Set(lines.map((l) => l.indexOf('≤')))).to.have.property('size', 1);
    expect(lines[3].endsWith('not met')).to.equal(true);
  });
});
