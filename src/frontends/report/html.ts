import { COLOR_CSS, renderSequenceDiagram, escapeHtml, LANE_W } from '../../foundation/timeline/sequence-diagram';
import { formatTimeline } from '../../foundation/timeline/text';
import { formatOffset } from '../../foundation/timeline/time';
import { deflateRawSync } from 'node:zlib';
import { renderComparison } from './compare';
import { OVERVIEW_CSS, OVERVIEW_SCRIPT, renderOverview } from './overview';
import { podOf } from '../../foundation/timeline/lanes';
import type { ScenarioReport, Status } from './model';
import { eventsOf, type ScenarioTimeline } from './scenario-timeline';

/**
 * The project's report page: every scenario with its steps, its error, and its sequence diagram
 * in view as soon as the scenario is opened (failed scenarios open already); then the comparisons
 * of the Examples rows of each Scenario Outline. Pure: the same scenarios give the same page.
 */
export function renderReport(
  scenarios: readonly ScenarioReport[],
  comparisons: readonly [ScenarioReport, ScenarioReport][] = outlinePairs(scenarios),
  // Each scenario's part of the page: renderScenario, or the same text rendered earlier (incremental.ts).
  scenarioHtml: (s: ScenarioReport) => string = (s) => renderScenario(s, true),
): string {
  const counts = new Map<Status, number>();
  for (const s of scenarios) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  const summary = [...counts]
    .map(([status, n]) => `<a class="st-${status}" href="#list-${status}">${n} ${status}</a>`)
    .join(', ');
  const tags = [...new Set(scenarios.flatMap((s) => s.tags ?? []))].sort();
  const features = [...new Map(scenarios.map((s) => [s.uri, s.feature])).entries()];
  const out: string[] = [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>terminating — scenario report</title><style>${CSS}</style></head><body>`,
    `<header><h1>Scenario report</h1><p>${scenarios.length} scenarios: ${summary}.</p>`,
    renderStatusLists(scenarios),
    '<div class="filters" role="search">',
    '<input type="search" id="q" placeholder="search names, steps and events" aria-label="search">',
    ...[...counts.keys()].map(
      (st) => `<label class="st-${st}"><input type="checkbox" class="f-status" value="${st}" checked> ${st}</label>`,
    ),
    `<select id="f-tag" aria-label="tag"><option value="">any tag</option>${tags.map((t) => `<option>${escapeHtml(t)}</option>`).join('')}</select>`,
    `<select id="f-feature" aria-label="feature"><option value="">any feature</option>${features.map(([uri, name]) => `<option value="${escapeHtml(uri)}">${escapeHtml(name)}</option>`).join('')}</select>`,
    '<span id="shown"></span></div>',
    '<label class="toggle"><input type="checkbox" id="expand-echoes" onchange="document.body.classList.toggle(\'expanded\', this.checked)"> show each write\'s etcd and watch rows (folded into the request that caused them)</label>',
    comparisons.length > 0 ? ' · <a href="#comparisons">comparisons</a>' : '',
    LEGEND,
    '</header><main>',
  ];
  let feature: string | undefined;
  for (const s of scenarios) {
    if (s.uri !== feature) {
      if (feature !== undefined) out.push('</section>');
      feature = s.uri;
      out.push(
        `<section class="feature" data-feature="${escapeHtml(s.uri)}"><h2>${escapeHtml(s.feature)} <small>${escapeHtml(s.uri)}</small></h2>`,
      );
      if (s.featureDescription) out.push(`<p class="description">${escapeHtml(s.featureDescription)}</p>`);
    }
    out.push(scenarioHtml(s));
  }
  if (feature !== undefined) out.push('</section>');
  if (comparisons.length > 0) {
    out.push(
      '<section id="comparisons"><h2>Comparisons <small>Examples rows of each Scenario Outline, side by side (npm run compare -- FILE:LINE FILE:LINE compares any two)</small></h2>',
    );
    for (const [a, b] of comparisons)
      out.push(
        `<details class="comparison"><summary>${escapeHtml(comparisonLabel(a, b))} <small>${escapeHtml(a.location)} vs ${escapeHtml(b.location)}</small></summary>${renderComparison(a, b)}</details>`,
      );
    out.push('</section>');
  }
  out.push(`</main><script>${SCRIPT}</script></body></html>\n`);
  return out.join('');
}

/** Under the counts: each status but passed as a list of links to its scenarios (the failed ones open). */
function renderStatusLists(scenarios: readonly ScenarioReport[]): string {
  const by = new Map<Status, ScenarioReport[]>();
  for (const s of scenarios) by.set(s.status, [...(by.get(s.status) ?? []), s]);
  const out: string[] = [];
  for (const [status, list] of by) {
    if (status === 'passed') {
      out.push(`<span id="list-passed"></span>`);
      continue;
    }
    out.push(
      `<details class="status-list st-${status}" id="list-${status}"${status === 'failed' ? ' open' : ''}><summary>${list.length} ${status}</summary><ul>`,
    );
    for (const s of list)
      out.push(
        `<li><a href="#${escapeHtml(s.location)}">${escapeHtml(s.name)}</a> <small>${escapeHtml(s.location)}</small></li>`,
      );
    out.push('</ul></details>');
  }
  return out.join('');
}

/** What two Examples rows differ in, by column: `release: v1.26 → v1.33`; their names when the rows have no values. */
export function comparisonLabel(a: ScenarioReport, b: ScenarioReport): string {
  const keys = [...new Set([...Object.keys(a.examples ?? {}), ...Object.keys(b.examples ?? {})])];
  const differ = keys
    .filter((k) => a.examples?.[k] !== b.examples?.[k])
    .map((k) => `${k}: ${a.examples?.[k] ?? '—'} → ${b.examples?.[k] ?? '—'}`);
  return differ.length > 0 ? differ.join(', ') : `${a.name} vs ${b.name}`;
}

const MARK: Readonly<Record<Status, string>> = {
  passed: '✓',
  failed: '✗',
  skipped: '–',
  pending: '?',
  undefined: '?',
  ambiguous: '?',
  unknown: '?',
};

/**
 * One scenario: its steps with their doc strings and tables, the error of a failed step, and its
 * diagram, timeline and objects. These last three are raw text until the scenario is first
 * opened, when the page's script puts them in place: a page of hundreds of scenarios then parses
 * and lays out only what is open.
 */
export function renderScenario(s: ScenarioReport, pack = false): string {
  const tags = (s.tags ?? []).join(' ');
  const out = [
    `<details class="scenario st-${s.status}" id="${escapeHtml(s.location)}" data-status="${s.status}" data-tags="${escapeHtml(tags)}" data-feature="${escapeHtml(s.uri)}"${s.status === 'failed' ? ' open' : ''}>`,
    `<summary><span class="mark">${MARK[s.status]}</span> ${escapeHtml(s.name)} <small>${escapeHtml(s.location)}${tags ? ` ${escapeHtml(tags)}` : ''}</small></summary>`,
    '<ol class="steps">',
  ];
  // The commands each step ran, by the step's text in order (the spans cover the steps from T+0 on).
  const spans = [...(s.timeline?.steps ?? [])];
  for (const step of s.steps) {
    out.push(
      `<li class="st-${step.status}"><span class="mark">${MARK[step.status]}</span> <b>${escapeHtml(step.keyword)}</b> ${escapeHtml(step.text)}`,
    );
    if (step.docString !== undefined) out.push(`<pre class="docstring">${escapeHtml(step.docString)}</pre>`);
    if (step.dataTable !== undefined) out.push(renderDataTable(step.dataTable));
    const span = spans.findIndex((sp) => sp.text === step.text);
    if (span >= 0) for (const c of spans.splice(span, 1)[0]!.commands ?? []) out.push(renderCommand(c));
    if (step.error !== undefined && step.status !== 'passed') out.push(renderError(step.error));
    out.push('</li>');
  }
  out.push('</ol>');
  if (s.timeline !== undefined) {
    const { t0, events } = eventsOf(s.timeline);
    // The rows' texts are the same in both diagrams (one lane per component, one per pod): rendered once.
    const rowTexts = new Map<number, string>();
    const diagram = (podLanes: boolean | 'all') =>
      renderSequenceDiagram(events, {
        t0,
        dropBeforeT0: true,
        marks: s.timeline!.marks,
        steps: s.timeline!.steps,
        podLanes,
        rowTexts,
      });
    const pods = new Set(
      events
        .filter((e) => e.at >= t0)
        .map((e) => podOf(e.text))
        .filter((p) => p !== undefined),
    );
    const later = [
      renderOverview(events, t0),
      pods.size > 1
        ? '<label class="toggle toggle-pods"><input type="checkbox" class="pod-lanes"> one lane per pod for the kubelet, runtime, status… (folded: one lane per component, each event naming its pod)</label>'
        : '',
      '<div class="diagram">',
      diagram(false),
      '</div>',
      `<details><summary>Timeline as text, setup included (T+0s is ${escapeHtml(s.timeline.t0)}); each event names the upstream function it models</summary><pre>${escapeHtml(formatTimeline(events, t0))}</pre></details>`,
      `<details><summary>Objects left in the API</summary><pre>${escapeHtml(s.timeline.finalObjects)}</pre></details>`,
    ].join('');
    // Raw text the parser skips over (a template's content would still be parsed into nodes): the
    // page script puts it in place when the scenario is opened. Texts are escaped, so no tag closes it early.
    // Packed (raw deflate, base64), a report of 500 scenarios is about an eighth of the size, and the page opens in a fraction of the time.
    if (pack)
      out.push(
        `<script type="text/x-later-deflate" class="later">${deflateRawSync(later).toString('base64')}</script>`,
      );
    else out.push(`<script type="text/x-later" class="later">${later.replace(/<\/script/gi, '<\\/script')}</script>`);
    // The diagram with a lane per pod, unpacked when asked for.
    if (pods.size > 1)
      out.push(
        `<script type="text/x-later-deflate" class="later-pods">${deflateRawSync(`<div class="diagram diagram-pods">${diagram('all')}</div>`).toString('base64')}</script>`,
      );
  }
  out.push('</details>');
  return out.join('');
}

/** What a command printed and its exit code, under its step. */
function renderCommand(c: { line: string; exitCode: number; stdout: string; stderr: string; atMs: number }): string {
  const out = c.stdout.trimEnd() === '' ? '' : `<span class="out">${escapeHtml(c.stdout.trimEnd())}</span>\n`;
  const err = c.stderr.trimEnd() === '' ? '' : `<span class="err">${escapeHtml(c.stderr.trimEnd())}</span>\n`;
  return `<pre class="command${c.exitCode !== 0 ? ' failed' : ''}"><span class="cmd">$ ${escapeHtml(c.line)}</span>\n${out}${err}<span class="exit">exit code ${c.exitCode} at ${escapeHtml(formatOffset(c.atMs))}</span></pre>`;
}

/** A step's table as the feature writes it, each data row numbered as the assertions' `row N` count them. */
function renderDataTable(rows: readonly (readonly string[])[]): string {
  const [head, ...body] = rows;
  if (!head) return '';
  const cells = (r: readonly string[], tag: string) => r.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('');
  return `<table class="datatable"><thead><tr><th class="n"></th>${cells(head, 'th')}</tr></thead><tbody>${body.map((r, i) => `<tr><td class="n">row ${i + 1}</td>${cells(r, 'td')}</tr>`).join('')}</tbody></table>`;
}

/**
 * What the diagram's marks mean, shown once at the top of the page: samples drawn with the
 * diagram's own classes.
 */
const LEGEND = [
  '<details class="legend" id="legend"><summary>Legend</summary><dl>',
  '<dt><i class="lg-dot"></i></dt><dd>an event a component did on its own (a container exits, a controller decides)</dd>',
  '<dt><i class="lg-arrow"></i></dt><dd>causality: a request from its client to the apiserver, a write to etcd, a watch event to its receiver, a CRI call to the runtime</dd>',
  '<dt><span class="sd-lane sd-pod lg-lane">runtime<small>web</small></span></dt><dd>on demand (the checkbox above a diagram of several pods): one lane per pod for the components that act on one pod at a time</dd>',
  '<dt><span class="sd-badge lg-ok">✓ row 2</span></dt><dd>the event the assertion\'s row 2 matched (the rows are numbered in the step\'s table)</dd>',
  '<dt><span class="sd-badge lg-bad">✗</span></dt><dd>where an assertion\'s row was looked for and not found, or the event found in its place; <b>≈</b> in a failure: the event with the row\'s text at another time</dd>',
  '<dt><span class="lg-expected">✗ expected row</span></dt><dd>(dashed) the row an assertion expected, drawn where it was looked for</dd>',
  '<dt><span class="lg-step"><b>When</b> a step</span></dt><dd>a step of the scenario, where it began on the time axis (and how long it let time run)</dd>',
  '<dt><i class="lg-bar k-grace"></i><i class="lg-bar k-prestop"></i><i class="lg-bar k-backoff"></i><i class="lg-bar k-unreachable"></i></dt><dd>an interval, from its start to its end: the grace period up to the deletionTimestamp, a preStop hook, a back-off until its retry, a node cut off from the apiserver; <span class="sd-ends">ends: …</span> marks a moment an interval ends at</dd>',
  '<dt><span class="sd-gaveup lg-gaveup"><span class="sd-badge">kubectl gave up</span></span></dt><dd>the moment a command returned non-zero (what it printed is under its step, with its exit code)</dd>',
  '<dt><i class="ov-seg s-running s-ready lg-ov"></i><i class="ov-seg s-terminating lg-ov"></i><i class="ov-seg c-stale lg-ov"></i></dt><dd>the overview above a diagram of several pods, a workload or a Service: each pod\'s state, what each consumer of a Service sent to, failed requests; a click goes to the diagram (docs/report.md)</dd>',
  '<dt><span class="lg-gap">… 30s later</span></dt><dd>time that passed with nothing happening; a folded section holds a long run of rows that only repeat earlier events (a retry loop)</dd>',
  '</dl></details>',
].join('');

/** The page's only script: the filters, and each scenario's diagram put in place when first opened. */
const SCRIPT = `(() => {
  const all = [...document.querySelectorAll('details.scenario')];
  const later = (d) => d.querySelector(':scope > script.later');
  // A packed scenario's diagram (raw deflate, base64) is unpacked once, when it is first needed.
  const unpacked = new Map();
  const htmlOf = (t) => {
    if (t.type !== 'text/x-later-deflate') return Promise.resolve(t.textContent);
    if (!unpacked.has(t)) {
      const bytes = Uint8Array.from(atob(t.textContent), (c) => c.charCodeAt(0));
      unpacked.set(t, new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text());
    }
    return unpacked.get(t);
  };
  const fill = async (d) => { const t = later(d); if (!t) return; const html = await htmlOf(t); if (t.isConnected) { t.insertAdjacentHTML('beforebegin', html); t.remove(); d.dispatchEvent(new Event('filled')); } };
  all.forEach((d) => { if (d.open) fill(d); d.addEventListener('toggle', () => d.open && fill(d)); });
  addEventListener('hashchange', () => { const d = document.getElementById(decodeURIComponent(location.hash.slice(1))); if (d && d.matches('details.scenario')) { d.open = true; fill(d); d.scrollIntoView(); } });
  const entities = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" };
  const texts = new Map();
  // What a search looks through: the scenario's name and steps, and its diagram's texts (tags left out).
  const textOf = async (d) => {
    if (!texts.has(d)) {
      const t = later(d);
      const raw = t ? (await htmlOf(t)).replace(/<[^>]*>/g, ' ').replace(/&(lt|gt|amp|quot|#39);/g, (e) => entities[e]) : '';
      texts.set(d, (d.querySelector(':scope > summary').textContent + ' ' + d.querySelector(':scope > ol').textContent + ' ' + (t ? raw : d.textContent)).toLowerCase());
    }
    return texts.get(d);
  };
  const q = document.getElementById('q'), tag = document.getElementById('f-tag'), feature = document.getElementById('f-feature'), shown = document.getElementById('shown');
  const statuses = [...document.querySelectorAll('.f-status')];
  let run = 0;
  const apply = async () => {
    const mine = ++run;
    const words = q.value.toLowerCase().split(/\\s+/).filter(Boolean);
    const on = new Set(statuses.filter((c) => c.checked).map((c) => c.value));
    const found = await Promise.all(all.map(async (d) => on.has(d.dataset.status) && (!tag.value || d.dataset.tags.split(' ').includes(tag.value)) && (!feature.value || d.dataset.feature === feature.value) && (words.length === 0 || words.every((w) => texts.has(d) && texts.get(d).includes(w)) || (await textOf(d), words.every((w) => texts.get(d).includes(w))))));
    // A later keystroke's search wins over this one.
    if (mine !== run) return;
    let n = 0;
    all.forEach((d, i) => { d.hidden = !found[i]; if (found[i]) n++; });
    for (const s of document.querySelectorAll('section.feature')) s.hidden = !s.querySelector('details.scenario:not([hidden])');
    shown.textContent = n === all.length ? '' : n + ' of ' + all.length + ' scenarios shown';
    document.body.dataset.filtered = String(mine);
  };
  for (const el of [q, tag, feature, ...statuses]) el.addEventListener('input', apply);
  if (location.hash) dispatchEvent(new HashChangeEvent('hashchange'));
  // One lane per pod, on demand: the scenario's second diagram is unpacked the first time it is asked for.
  document.addEventListener('change', async (ev) => {
    const box = ev.target;
    if (!box.classList || !box.classList.contains('pod-lanes')) return;
    const d = box.closest('details.scenario');
    const folded = d && d.querySelector(':scope > .diagram:not(.diagram-pods)');
    if (!folded) return;
    let unfolded = d.querySelector(':scope > .diagram-pods');
    if (!unfolded) {
      const t = d.querySelector(':scope > script.later-pods');
      if (!t) return;
      folded.insertAdjacentHTML('afterend', await htmlOf(t));
      t.remove();
      unfolded = d.querySelector(':scope > .diagram-pods');
    }
    folded.hidden = box.checked;
    unfolded.hidden = !box.checked;
  });
  ${OVERVIEW_SCRIPT}
})();`;

/** A page with one timeline (a served session's): its diagram, its text and the pods left, under a title and an introduction (HTML). */
export function renderTimelinePage(title: string, introHtml: string, data: ScenarioTimeline): string {
  const { t0, events } = eventsOf(data);
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>`,
    `<header><h1>${escapeHtml(title)}</h1><p>${introHtml}</p>`,
    '<label class="toggle"><input type="checkbox" id="expand-echoes" onchange="document.body.classList.toggle(\'expanded\', this.checked)"> show each write\'s etcd and watch rows (folded into the request that caused them)</label></header><main>',
    renderOverview(events, t0),
    `<div class="diagram">${renderSequenceDiagram(events, { t0, dropBeforeT0: true, marks: data.marks, podLanes: false })}</div>`,
    `<h2>Timeline as text <small>setup included; T+0s is ${escapeHtml(data.t0)}</small></h2><pre>${escapeHtml(formatTimeline(events, t0))}</pre>`,
    `<h2>Pods now</h2><pre>${escapeHtml(data.finalObjects)}</pre></main><script>${OVERVIEW_SCRIPT}</script></body></html>\n`,
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
    if (
      next &&
      s.outlineLine !== undefined &&
      next.uri === s.uri &&
      next.outlineLine === s.outlineLine &&
      s.timeline &&
      next.timeline
    )
      pairs.push([s, next]);
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
pre.docstring{margin:2px 0 4px 1.6em;background:#f8fafc;border-left:3px solid #cbd5e1}
.datatable{border-collapse:collapse;margin:2px 0 4px 1.6em;font:12px/1.35 ${MONO}}.datatable td,.datatable th{border:1px solid #e5e7eb;padding:1px 6px;text-align:left;overflow-wrap:anywhere}.datatable .n{color:#9ca3af;font-family:system-ui,sans-serif;font-size:11px;white-space:nowrap}
.description{white-space:pre-wrap;color:#374151;margin:0 0 8px;max-width:60em}
.filters{display:flex;flex-wrap:wrap;gap:6px 12px;align-items:center;margin:6px 0;font-size:13px}.filters input[type=search]{min-width:22em;padding:3px 6px}#shown{color:#6b7280}
.status-list{font-size:13px;margin:2px 0}.status-list summary{cursor:pointer}.status-list ul{margin:2px 0;padding-left:1.4em}
[hidden]{display:none!important}
.legend{font-size:13px;margin:6px 0}.legend summary{cursor:pointer}.legend dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:6px 0}.legend dt{display:flex;gap:4px;align-items:center;justify-content:flex-end}.legend dd{margin:0}
.lg-dot{display:inline-block;width:10px;height:10px;border-radius:50%;background:#1d4ed8}
.lg-arrow{display:inline-block;position:relative;width:40px;border-top:1.5px solid #475569}.lg-arrow::after{content:'';position:absolute;right:-2px;top:-5.5px;border:5px solid transparent;border-left:8px solid #475569;border-right:none}
.lg-lane{position:static;display:inline-block;color:#c2410c}.sd-badge.lg-ok{background:#dcfce7;color:#166534}.sd-badge.lg-bad{background:#fee2e2;color:#991b1b}
.lg-expected{font-size:12px;color:#9a3412;border:1px dashed #fb923c;background:#fff7ed;padding:0 4px}.lg-step{font-size:12px;background:#eef2ff;padding:0 4px}.lg-gap{font-style:italic;color:#6b7280}
.lg-bar{display:inline-block;width:4px;height:16px;border-radius:2px}.lg-ov{position:static;display:inline-block;width:16px;height:10px}.lg-gaveup{padding:1px 4px}
.diagram{margin:8px 0 12px}
.sd{font:12px/1.35 ${MONO}}
.sd-row{display:flex;align-items:stretch;border-top:1px solid #f3f4f6}
.sd-row:nth-child(even){background:#f9fafb}
.sd-head{position:sticky;top:0;background:#fff;z-index:1;font-family:system-ui,sans-serif;font-weight:600;border:none}
.sd-t{flex:0 0 7em;text-align:right;padding:3px 8px 3px 0;color:#374151;position:sticky;left:0;z-index:1;background:inherit}
.sd-same .sd-t{color:#c0c4cc}
.sd-lanes{flex:none;width:var(--lanes-w);position:relative;min-height:22px;background-image:linear-gradient(90deg,transparent calc(50% - .5px),#d1d5db calc(50% - .5px),#d1d5db calc(50% + .5px),transparent calc(50% + .5px));background-size:var(--lane-w,${LANE_W}px) 100%}
.sd-head .sd-lanes{background:none;height:24px}
.sd-lane{position:absolute;top:3px;width:${LANE_W}px;text-align:center;font-size:12px;line-height:1.1;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.sd-staggered .sd-lane{font-size:11px}.sd-staggered .sd-head .sd-lanes{height:34px}.sd-lower{top:18px}.sd-staggered .sd-head .sd-lanes:has(.sd-pod){height:58px}.sd-staggered .sd-pod.sd-lower{top:30px}
.sd-command .sd-x{font-family:system-ui,sans-serif;font-size:12px}.sd-gaveup{background:#fef2f2!important}.sd-gaveup .sd-badge{background:#111827;color:#fff}.sd-end{background:#111827;border-radius:2px}
.sd-printed{margin:2px 0;padding:3px 6px;font-size:11.5px;background:#f3f4f6}
pre.command{margin:2px 0 4px 1.6em;background:#f8fafc;border-left:3px solid #64748b}pre.command.failed{border-left-color:#111827;background:#fef2f2}pre.command .cmd{color:#334155;font-weight:600}pre.command .err{color:#991b1b}pre.command .exit{color:#6b7280}
.toggle-pods{display:block;margin:4px 0}.sd-lane small{display:block;font-size:10.5px;color:#6b7280;overflow-wrap:anywhere}.sd-head .sd-lanes:has(.sd-pod){height:36px}
.sd-bar{position:absolute;top:0;bottom:0;width:4px;opacity:.55}.sd-bar-from{top:8px;border-radius:2px 2px 0 0}.sd-bar-to{bottom:calc(100% - 14px);border-radius:0 0 2px 2px}.sd-bar-from.sd-bar-to{top:6px;bottom:auto;height:10px}
.k-grace{background:#2563eb}.k-prestop{background:#d97706}.k-backoff{background:#9333ea}.k-unreachable{background:#dc2626}
.sd-ibar{font-family:system-ui,sans-serif;font-size:11px;border-radius:3px;padding:0 4px;margin-right:4px;color:#fff}.sd-ibar.k-grace,.sd-ibar.k-prestop,.sd-ibar.k-backoff,.sd-ibar.k-unreachable{opacity:.85}
.sd-step{background:#eef2ff!important;font-family:system-ui,sans-serif;border-top:1px solid #c7d2fe}.sd-step .sd-x{font-size:12.5px}.sd-took{color:#4338ca;font-size:11.5px;margin-left:6px}
.sd-tick .sd-x{font-family:system-ui,sans-serif;font-size:11.5px;color:#374151}.sd-ends{border-bottom:2px dotted #9ca3af}.sd-due{color:#9ca3af;font-style:italic}
.sd-idle{border-top:1px dashed #cbd5e1;padding-left:7em;font-family:system-ui,sans-serif;font-size:12px;color:#6b7280}.sd-idle[open]{padding-left:0}.sd-idle>summary{cursor:pointer;font-style:italic}
${COLOR_CSS}
${OVERVIEW_CSS}
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
