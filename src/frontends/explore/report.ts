import * as path from 'node:path';
import { perturbationStep } from '../../cluster/perturbation/perturbation';
import type { Exploration } from './explore';
import type { ScenarioLocation } from './feature';

const escape = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * explore's page (reports/explore/NAME.html), kept apart from the suite's report: how many plans
 * were tried, the one that breaks the scenario (its Given steps and failure), and its timeline
 * beside the unperturbed one.
 */
export function exploreReport(loc: ScenarioLocation, r: Extract<Exploration, { kind: 'holds' | 'breaks' }>): string {
  const title = `explore ${path.basename(loc.file)}:${loc.line} — ${loc.name}`;
  const style = `body{font-family:system-ui,sans-serif;margin:1.5em}pre{font-size:12px;white-space:pre-wrap;background:#f6f8fa;padding:.6em;overflow:auto}
.side{display:grid;grid-template-columns:1fr 1fr;gap:1em}.breaks{color:#b00020}.holds{color:#1b5e20}`;
  const head = `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title><style>${style}</style></head><body><h1>${escape(title)}</h1>`;
  const observed = `<p>${r.baseline.components.length} components observed: ${escape(r.baseline.components.map((c) => `${perturbationStep({ type: 'late', target: c.target, resource: c.resources[0] ?? 'pods', delayMs: 0 }).replace(/^Given the (.*) sees .*$/, '$1')} (${c.resources.join(', ')})`).join('; '))}.</p>`;
  if (r.kind === 'holds') {
    return `${head}<p class="holds"><strong>${r.tried} plans tried: none breaks the scenario.</strong></p>${observed}<h2>Plans</h2><pre>${escape(r.plans.map((p) => p.map(perturbationStep).join(' + ')).join('\n'))}</pre><h2>Unperturbed timeline</h2><pre>${escape(r.baseline.timeline)}</pre></body></html>\n`;
  }
  const steps = r.failing.plan.map(perturbationStep).join('\n');
  return `${head}<p class="breaks"><strong>Plan ${r.failingIndex} of the ${r.tried} tried breaks the scenario</strong> (found as: ${escape(r.found.map(perturbationStep).join(' + '))}; reduced in ${r.reductionRuns} runs).</p>
<h2>The Given steps that reproduce it</h2><pre>${escape(steps)}</pre><h2>What failed</h2><pre>${escape(r.failing.output)}</pre>${observed}
<h2>Timelines from T+0</h2><div class="side"><div><h3>Unperturbed</h3><pre>${escape(r.baseline.timeline)}</pre></div><div><h3>Perturbed</h3><pre>${escape(r.failing.observation?.timeline ?? '(not recorded)')}</pre></div></div></body></html>\n`;
}
