import { renderSequenceDiagram, escapeHtml, LANE_W } from '../timeline/sequence-diagram';
import { formatTimeline } from '../timeline/text';
import { renderComparison } from './compare';
import type { ScenarioReport, Status } from './model';
import { eventsOf, type ScenarioTimeline } from './scenario-timeline';

/**
 * The project's report page: every scenario with its steps, its error, and its sequence diagram
 * in view as soon as the scenario is opened (failed scenarios open already); then the comparisons
 * of the Examples rows of each Scenario Outline. Pure: the same scenarios give the same page.
 */
export function renderReport(scenarios: readonly ScenarioReport[], comparisons: readonly [ScenarioReport, ScenarioReport][] = outlinePairs(scenarios)): string {
  const counts = new Map<Status, number>();
  for (const s of scenarios) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  const summary = [...counts].map(([status, n]) => `<span class="st-${status}">${n} ${status}</span>`).join(', ');
  const out: string[] = [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>terminating — scenario report</title><style>${CSS}</style></head><body>`,
    `<header><h1>Scenario report</h1><p>${scenarios.length} scenarios: ${summary}.</p>`,
    '<label class="toggle"><input type="checkbox" id="expand-echoes" onchange="document.body.classList.toggle(\'expanded\', this.checked)"> show each write\'s etcd and watch rows (folded into the request that caused them)</label>',
    comparisons.length > 0 ? ' · <a href="#comparisons">comparisons</a>' : '',
    '</header><main>',
  ];
  let feature: string | undefined;
  for (const s of scenarios) {
    if (s.uri !== feature) {
      if (feature !== undefined) out.push('</section>');
      feature = s.uri;
      out.push(`<section class="feature"><h2>${escapeHtml(s.feature)} <small>${escapeHtml(s.uri)}</small></h2>`);
    }
    out.push(renderScenario(s));
  }
  if (feature !== undefined) out.push('</section>');
  if (comparisons.length > 0) {
    out.push('<section id="comparisons"><h2>Comparisons <small>Examples rows of each Scenario Outline, side by side (npm run compare -- FILE:LINE FILE:LINE compares any two)</small></h2>');
    for (const [a, b] of comparisons) out.push(`<details class="comparison"><summary>${escapeHtml(a.location)} vs ${escapeHtml(b.location)}</summary>${renderComparison(a, b)}</details>`);
    out.push('</section>');
  }
  out.push('</main></body></html>\n');
  return out.join('');
}

const MARK: Readonly<Record<Status, string>> = { passed: '✓', failed: '✗', skipped: '–', pending: '?', undefined: '?', ambiguous: '?', unknown: '?' };

export function renderScenario(s: ScenarioReport): string {
  const out = [
    `<details class="scenario st-${s.status}" id="${escapeHtml(s.location)}"${s.status === 'failed' ? ' open' : ''}>`,
    `<summary><span class="mark">${MARK[s.status]}</span> ${escapeHtml(s.name)} <small>${escapeHtml(s.location)}</small></summary>`,
    '<ol class="steps">',
  ];
  for (const step of s.steps) {
    out.push(`<li class="st-${step.status}"><span class="mark">${MARK[step.status]}</span> <b>${escapeHtml(step.keyword)}</b> ${escapeHtml(step.text)}`);
    if (step.error !== undefined && step.status !== 'passed') out.push(renderError(step.error));
    out.push('</li>');
  }
  out.push('</ol>');
  if (s.timeline !== undefined) {
    const { t0, events } = eventsOf(s.timeline);
    out.push(
      '<div class="diagram">',
      renderSequenceDiagram(events, { t0, dropBeforeT0: true, marks: s.timeline.marks }),
      '</div>',
      `<details><summary>Timeline as text, setup included (T+0s is ${escapeHtml(s.timeline.t0)}); each event names the upstream function it models</summary><pre>${escapeHtml(formatTimeline(events, t0))}</pre></details>`,
      `<details><summary>Objects left in the API</summary><pre>${escapeHtml(s.timeline.finalObjects)}</pre></details>`,
    );
  }
  out.push('</details>');
  return out.join('');
}

/** A page with one timeline (a served session's): its diagram, its text and the pods left, under a title and an introduction (HTML). */
export function renderTimelinePage(title: string, introHtml: string, data: ScenarioTimeline): string {
  const { t0, events } = eventsOf(data);
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>`,
    `<header><h1>${escapeHtml(title)}</h1><p>${introHtml}</p>`,
    '<label class="toggle"><input type="checkbox" id="expand-echoes" onchange="document.body.classList.toggle(\'expanded\', this.checked)"> show each write\'s etcd and watch rows (folded into the request that caused them)</label></header><main>',
    `<div class="diagram">${renderSequenceDiagram(events, { t0, dropBeforeT0: true, marks: data.marks })}</div>`,
    `<h2>Timeline as text <small>setup included; T+0s is ${escapeHtml(data.t0)}</small></h2><pre>${escapeHtml(formatTimeline(events, t0))}</pre>`,
    `<h2>Pods now</h2><pre>${escapeHtml(data.finalObjects)}</pre></main></body></html>\n`,
  ].join('');
}

/** A page with one comparison, for `npm run compare`. */
export function renderComparisonPage(a: ScenarioReport, b: ScenarioReport): string {
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(a.location)} vs ${escapeHtml(b.location)}</title><style>${CSS}</style></head><body>`,
    `<header><h1>Two timelines side by side</h1><p>Rows aligned by component and event; red: only in A, blue: only in B, yellow: the same event with another value or at another time.</p></header>`,
    `<main>${renderComparison(a, b)}</main></body></html>\n`,
  ].join('');
}

/** Lines of an error shown at once; the rest (usually the timeline, which the diagram shows) is one click away. */
const ERROR_LINES = 12;

function renderError(error: string): string {
  const lines = error.split('\n');
  if (lines.length <= ERROR_LINES + 2) return `<pre class="error">${escapeHtml(error)}</pre>`;
  const rest = lines.slice(ERROR_LINES);
  return `<pre class="error">${escapeHtml(lines.slice(0, ERROR_LINES).join('\n'))}<details><summary>${rest.length} more lines</summary>${escapeHtml(rest.join('\n'))}</details></pre>`;
}

/** Consecutive Examples rows of each Scenario Outline: the pairs the report compares. */
export function outlinePairs(scenarios: readonly ScenarioReport[]): [ScenarioReport, ScenarioReport][] {
  const pairs: [ScenarioReport, ScenarioReport][] = [];
  scenarios.forEach((s, i) => {
    const next = scenarios[i + 1];
    if (next && s.outlineLine !== undefined && next.uri === s.uri && next.outlineLine === s.outlineLine && s.timeline && next.timeline) pairs.push([s, next]);
  });
  return pairs;
}

const MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace";
const CSS = `
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,'DejaVu Sans',sans-serif;color:#111827;margin:0;background:#f9fafb}
header{padding:12px 20px;background:#fff;border-bottom:1px solid #e5e7eb}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:20px 0 8px}small{color:#6b7280;font-weight:normal}
main{padding:0 20px 40px}.toggle{font-size:13px}
.st-passed>.mark,.st-passed>summary>.mark{color:#15803d}.st-failed>.mark,.st-failed>summary>.mark,span.st-failed{color:#b91c1c}
.scenario{background:#fff;border:1px solid #e5e7eb;border-radius:6px;margin:6px 0;padding:0 12px}
.scenario.st-failed{border-color:#fca5a5}
.scenario>summary{cursor:pointer;padding:8px 0;font-weight:600}
.steps{list-style:none;padding:0;margin:4px 0 10px;font-size:13px}.steps li{padding:1px 0}
.steps .st-skipped{color:#9ca3af}
pre{font:12px/1.4 ${MONO};white-space:pre-wrap;overflow-wrap:anywhere;background:#f3f4f6;padding:8px;border-radius:4px}
pre.error{background:#fef2f2;border-left:3px solid #b91c1c;margin:4px 0}pre.error summary{cursor:pointer;color:#6b7280;font-family:system-ui,sans-serif}
.diagram{margin:8px 0 12px;overflow-x:auto}
.sd{font:12px/1.35 ${MONO}}
.sd-row{display:flex;align-items:stretch;border-top:1px solid #f3f4f6}
.sd-row:nth-child(even){background:#f9fafb}
.sd-head{position:sticky;top:0;background:#fff;z-index:1;font-family:system-ui,sans-serif;font-weight:600;border:none}
.sd-t{flex:0 0 7em;text-align:right;padding:3px 8px 3px 0;color:#374151}
.sd-same .sd-t{color:#c0c4cc}
.sd-lanes{flex:none;position:relative;min-height:22px;background-image:linear-gradient(90deg,transparent calc(50% - .5px),#d1d5db calc(50% - .5px),#d1d5db calc(50% + .5px),transparent calc(50% + .5px));background-size:${LANE_W}px 100%}
.sd-head .sd-lanes{background:none;height:24px}
.sd-lane{position:absolute;top:3px;width:${LANE_W}px;text-align:center;font-size:12px}
.sd-dot{position:absolute;top:6px;width:10px;height:10px;margin-left:-5px;border-radius:50%}
.sd-hollow{background:#fff;border:2px dashed;box-sizing:border-box}
.sd-arrow{position:absolute;top:10px;height:0;border-top:1.5px solid #475569}
.sd-arrow::after{content:'';position:absolute;top:-5.5px;border:5px solid transparent}
.sd-right::after{right:-2px;border-left:8px solid #475569;border-right:none}
.sd-left::after{left:-2px;border-right:8px solid #475569;border-left:none}
.sd-x{flex:1 1 28em;min-width:20em;padding:3px 8px;overflow-wrap:anywhere}
.sd-actor,.sd-out,.sd-via{color:#6b7280}
.sd-patch{color:#4b5563;font-size:11.5px;padding-left:1em}.sd-patch summary{cursor:pointer;color:#6b7280}
.sd-gap{padding:2px 0 2px 7em;color:#6b7280;font-style:italic;font-family:system-ui,sans-serif;border-top:1px dashed #cbd5e1}
.sd-setup{opacity:.5}
.sd-echo{display:none}body.expanded .sd-echo{display:flex}body.expanded .sd-fold{display:none}
.sd-fold .sd-via{font-size:11.5px;padding-left:1em;display:block}
.sd-badge{font-family:system-ui,sans-serif;font-size:11px;font-weight:600;border-radius:3px;padding:0 4px;margin-right:4px}
.sd-matched{background:#f0fdf4!important}.sd-matched .sd-badge{background:#dcfce7;color:#166534}
.sd-mismatch{background:#fef2f2!important}.sd-mismatch .sd-badge,.sd-expected .sd-badge{background:#fee2e2;color:#991b1b}
.sd-expected{background:#fff7ed!important;color:#9a3412;border:1px dashed #fb923c}
.comparison{background:#fff;border:1px solid #e5e7eb;border-radius:6px;margin:6px 0;padding:0 12px}.comparison>summary{cursor:pointer;padding:8px 0;font-weight:600}
.cmp{border-collapse:collapse;font:12px/1.35 ${MONO};width:100%}.cmp td,.cmp th{border-top:1px solid #f3f4f6;padding:2px 6px;vertical-align:top;text-align:left;overflow-wrap:anywhere}
.cmp td.t,.cmp td.c{white-space:nowrap}.cmp .only-a{background:#fef2f2}.cmp .only-b{background:#eff6ff}.cmp .moved td.t,.cmp .changed td.x{background:#fefce8;font-weight:600}.cmp .fields{color:#9a3412}
`;
