import { describe, it } from 'node:test';
import { expect } from 'chai';
import { comparisonLabel, outlinePairs, renderReport, renderScenario } from './html';
import type { ScenarioReport } from './model';
import { toScenarioTimeline } from './scenario-timeline';

const T0 = Date.UTC(2025, 0, 1, 0, 1);
const data = toScenarioTimeline(
  [
    {
      seq: 1,
      at: T0 - 60_000,
      component: 'apiserver',
      text: 'CREATE pods/web',
      source: 'create.go F',
      actor: 'user',
      requestId: 1,
    },
    {
      seq: 2,
      at: T0,
      component: 'apiserver',
      text: 'DELETE pods/<web>',
      source: 'delete.go F',
      actor: 'kubectl',
      requestId: 2,
    },
  ],
  T0,
  { rows: [{ seq: 2, kind: 'matched', note: 'row 1' }], expected: [] },
  '# no pods left in the API\n',
);

function scenario(line: number, status: ScenarioReport['status'], extra: Partial<ScenarioReport> = {}): ScenarioReport {
  return {
    location: `features/x.feature:${line}`,
    uri: 'features/x.feature',
    line,
    feature: 'X',
    name: `scenario ${line}`,
    status,
    steps: [
      { keyword: 'When', text: 'I run `kubectl delete pod web`', status },
      ...(status === 'failed'
        ? [
            {
              keyword: 'Then',
              text: 'pod "web" is gone',
              status: 'failed' as const,
              error: 'pod "web" still exists <x>',
            },
          ]
        : []),
    ],
    timeline: data,
    ...extra,
  };
}

describe('renderScenario', () => {
  it('puts the steps, the error and the diagram inside the scenario, closed when it passed, open when it failed', () => {
    const passed = renderScenario(scenario(3, 'passed'));
    expect(passed).to.match(
      /^<details class="scenario st-passed" id="features\/x.feature:3" data-status="passed" data-tags="" data-feature="features\/x.feature"><summary>/,
    );
    expect(passed).to.contain('<script type="text/x-later" class="later"><div class="diagram"><div class="sd"');
    expect(passed).to.contain('<span class="sd-text">DELETE pods/&lt;web&gt;</span>');
    expect(passed).to.contain('✓ row 1');
    const failed = renderScenario(scenario(5, 'failed'));
    expect(failed).to.match(
      /^<details class="scenario st-failed" id="features\/x.feature:5" data-status="failed" data-tags="" data-feature="features\/x.feature" open>/,
    );
    expect(failed).to.contain('<pre class="error">pod &quot;web&quot; still exists &lt;x&gt;</pre>');
  });
  it('keeps setup out of the diagram but in the text timeline, with T+0 as an absolute time', () => {
    const html = renderScenario(scenario(3, 'passed'));
    const diagram = html.indexOf('<div class="diagram">');
    expect(html.slice(diagram, html.indexOf('<details>', diagram))).not.to.contain('CREATE pods/web');
    expect(html).to.contain('T+0s is 2025-01-01T00:01:00Z');
    expect(html).to.match(/#1 +T-1m +apiserver CREATE pods\/web/);
  });
  it("shows a long error's first lines, the rest one click away", () => {
    const error = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
    const html = renderScenario(
      scenario(5, 'failed', { steps: [{ keyword: 'Then', text: 'x', status: 'failed', error }] }),
    );
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
    expect(outlinePairs(all).map(([a, b]) => [a.line, b.line])).to.deep.equal([
      [10, 11],
      [11, 12],
    ]);
    const page = renderReport(all);
    expect(page).to.match(/^<!DOCTYPE html>/);
    expect(page).to.contain(
      '5 scenarios: <a class="st-passed" href="#list-passed">4 passed</a>, <a class="st-failed" href="#list-failed">1 failed</a>.',
    );
    expect(page, 'the failed ones listed, each a link').to.contain(
      '<details class="status-list st-failed" id="list-failed" open><summary>1 failed</summary><ul><li><a href="#features/x.feature:5">scenario 5</a>',
    );
    expect(page.match(/<section class="feature" /g)).to.have.length(1);
    expect(page).to.contain(
      '<summary>scenario 10 vs scenario 11 <small>features/x.feature:10 vs features/x.feature:11</small></summary><table class="cmp">',
    );
    expect(page).to.contain('<details class="legend" id="legend">');
    expect(page).to.contain('<input type="search" id="q"');
    expect(page).to.contain('id="expand-echoes"');
  });
  it('has no comparisons section without outlines', () => {
    expect(renderReport([scenario(3, 'passed')])).not.to.contain('id="comparisons"');
  });
});

describe("the scenario's inputs", () => {
  it("shows each step's doc string and its table, data rows numbered as the assertions count them, and the feature's description", () => {
    const s = scenario(3, 'passed', {
      featureDescription: 'Why <this> feature',
      tags: ['@graceful', '@v'],
      steps: [
        {
          keyword: 'Given',
          text: 'a pod "web" running on node "node-1" with:',
          status: 'passed',
          docString: 'spec:\n  terminationGracePeriodSeconds: 5',
        },
        {
          keyword: 'Then',
          text: 'these events happen in order:',
          status: 'passed',
          dataTable: [
            ['at', 'component', 'event'],
            ['T+0s', 'runtime', 'SIGTERM app'],
          ],
        },
      ],
    });
    const html = renderScenario(s);
    expect(html).to.contain('<pre class="docstring">spec:\n  terminationGracePeriodSeconds: 5</pre>');
    expect(html).to.contain(
      '<tbody><tr><td class="n">row 1</td><td>T+0s</td><td>runtime</td><td>SIGTERM app</td></tr></tbody>',
    );
    expect(html).to.contain('data-tags="@graceful @v"');
    expect(renderReport([s])).to.contain('<p class="description">Why &lt;this&gt; feature</p>');
  });
  it('labels a comparison by the Examples values that differ', () => {
    const a = scenario(10, 'passed', { outlineLine: 8, examples: { release: 'v1.26', at: 'T+40s' } });
    const b = scenario(11, 'passed', { outlineLine: 8, examples: { release: 'v1.33', at: 'T+40s' } });
    expect(comparisonLabel(a, b)).to.equal('release: v1.26 → v1.33');
  });
});
