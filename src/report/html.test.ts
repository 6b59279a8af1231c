import { describe, it } from 'node:test';
import { expect } from 'chai';
import { outlinePairs, renderReport, renderScenario } from './html';
import type { ScenarioReport } from './model';
import { toScenarioTimeline } from './scenario-timeline';

const T0 = Date.UTC(2025, 0, 1, 0, 1);
const data = toScenarioTimeline(
  [
    { seq: 1, at: T0 - 60_000, component: 'apiserver', text: 'CREATE pods/web', source: 'create.go F', actor: 'user', requestId: 1 },
    { seq: 2, at: T0, component: 'apiserver', text: 'DELETE pods/<web>', source: 'delete.go F', actor: 'kubectl', requestId: 2 },
  ],
  T0,
  { rows: [{ seq: 2, kind: 'matched', note: 'row 1' }], expected: [] },
  '# no pods left in the API\n',
);

function scenario(line: number, status: ScenarioReport['status'], extra: Partial<ScenarioReport> = {}): ScenarioReport {
  return {
    location: `features/x.feature:${line}`, uri: 'features/x.feature', line, feature: 'X', name: `scenario ${line}`, status,
    steps: [{ keyword: 'When', text: 'I run `kubectl delete pod web`', status }, ...(status === 'failed' ? [{ keyword: 'Then', text: 'pod "web" is gone', status: 'failed' as const, error: 'pod "web" still exists <x>' }] : [])],
    timeline: data,
    ...extra,
  };
}

describe('renderScenario', () => {
  it('puts the steps, the error and the diagram inside the scenario, closed when it passed, open when it failed', () => {
    const passed = renderScenario(scenario(3, 'passed'));
    expect(passed).to.match(/^<details class="scenario st-passed" id="features\/x.feature:3"><summary>/);
    expect(passed).to.contain('<div class="diagram"><div class="sd"');
    expect(passed).to.contain('<span class="sd-text">DELETE pods/&lt;web&gt;</span>');
    expect(passed).to.contain('✓ row 1');
    const failed = renderScenario(scenario(5, 'failed'));
    expect(failed).to.match(/^<details class="scenario st-failed" id="features\/x.feature:5" open>/);
    expect(failed).to.contain('<pre class="error">pod &quot;web&quot; still exists &lt;x&gt;</pre>');
  });
  it('keeps setup out of the diagram but in the text timeline, with T+0 as an absolute time', () => {
    const html = renderScenario(scenario(3, 'passed'));
    const diagram = html.indexOf('<div class="diagram">');
    expect(html.slice(diagram, html.indexOf('<details>', diagram))).not.to.contain('CREATE pods/web');
    expect(html).to.contain('T+0s is 2025-01-01T00:01:00Z');
    expect(html).to.match(/#1 +T-1m +apiserver CREATE pods\/web/);
  });
  it('shows a long error\'s first lines, the rest one click away', () => {
    const error = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
    const html = renderScenario(scenario(5, 'failed', { steps: [{ keyword: 'Then', text: 'x', status: 'failed', error }] }));
    expect(html).to.contain('line 12<details><summary>28 more lines</summary>line 13\n');
  });
  it('renders a scenario that never started (no timeline) with its steps only', () => {
    expect(renderScenario(scenario(3, 'failed', { timeline: undefined }))).not.to.contain('class="diagram"');
  });
});

describe('renderReport', () => {
  const outline = (line: number) => scenario(line, 'passed', { outlineLine: 8 });
  it('counts statuses, groups by feature and compares consecutive Examples rows of an outline', () => {
    const all = [scenario(3, 'passed'), scenario(5, 'failed'), outline(10), outline(11), outline(12)];
    expect(outlinePairs(all).map(([a, b]) => [a.line, b.line])).to.deep.equal([[10, 11], [11, 12]]);
    const page = renderReport(all);
    expect(page).to.match(/^<!DOCTYPE html>/);
    expect(page).to.contain('5 scenarios: <span class="st-passed">4 passed</span>, <span class="st-failed">1 failed</span>.');
    expect(page.match(/<section class="feature">/g)).to.have.length(1);
    expect(page).to.contain('<summary>features/x.feature:10 vs features/x.feature:11</summary><table class="cmp">');
    expect(page).to.contain('id="expand-echoes"');
  });
  it('has no comparisons section without outlines', () => {
    expect(renderReport([scenario(3, 'passed')])).not.to.contain('id="comparisons"');
  });
});
