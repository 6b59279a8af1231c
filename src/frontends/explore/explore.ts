import * as path from 'node:path';
import { type InProcessRun, runCucumber } from '../../../scripts/cucumber-in-process';
import { runRerunnable, type WorldParameters } from '../../../scripts/cucumber-reruns';
import { describeTarget, perturbationStep, type Target } from '../../cluster/perturbation/perturbation';
import { takeObservation, type Observation } from './observation';
import { delaysUpTo, pairPlans, reductions, singlePlans, type Plan } from './plans';
import type { ScenarioLocation } from './feature';

export interface ExploreOptions {
  readonly depth: 1 | 2;
  readonly maxDelayMs?: number;
  /** The release to run (`--kubernetes`), else the scenario's own. */
  readonly kubernetes?: string;
  /** One line of progress (standard error). */
  readonly progress: (line: string) => void;
  /** Perturb only this component (`--component`), e.g. a served client of your own. */
  readonly component?: Target;
}

/** One rerun: did the scenario pass, and what did it print (its failure). */
export interface PlanRun {
  readonly plan: Plan;
  readonly passed: boolean;
  readonly output: string;
  /** The perturbed run's observation (only for the failing plan, for the report). */
  readonly observation?: Observation;
}

export type Exploration =
  | { kind: 'baseline-fails'; output: string }
  /** `--component` names a component the scenario's run did not have (the ones it had, as the steps write them). */
  | { kind: 'no-such-component'; components: readonly string[] }
  | { kind: 'holds'; tried: number; baseline: Observation; plans: readonly Plan[] }
  | {
      kind: 'breaks';
      tried: number;
      baseline: Observation;
      failing: PlanRun;
      failingIndex: number;
      found: Plan;
      reductionRuns: number;
    };

/**
 * `terminating explore`: runs the scenario once unperturbed (learning its components, their
 * watches and the changes), then once per plan — single perturbations first, then (depth 2)
 * pairs — in this process, each rerun a fresh cluster from the same steps. The first plan that
 * breaks the scenario is reduced (src/frontends/explore/plans.ts reductions) to the smallest that still does.
 */
export async function explore(loc: ScenarioLocation, options: ExploreOptions): Promise<Exploration> {
  const where = `${loc.file}:${loc.line}`;
  const params = options.kubernetes === undefined ? {} : { kubernetes: options.kubernetes };
  // `explore` tells the steps what a run is for: "observe" (learn the components, watches and
  // changes), "outcome" (only whether it passes: no report data is built from it).
  const worldParameters = (plan: Plan, explore?: 'observe' | 'outcome') =>
    JSON.parse(JSON.stringify({ ...params, perturbations: plan, ...(explore && { explore }) })) as WorldParameters;
  /** A run that reports: its failure text and its observation (the unperturbed run, and the failing plan's for the report). */
  const observed = (r: InProcessRun, plan: Plan): PlanRun => ({
    plan,
    passed: r.success,
    output: failureText(r.output),
    observation: takeObservation(),
  });
  const first = await runRerunnable({ paths: [where], worldParameters: worldParameters([], 'observe') });
  const baseline = observed(first.run, []);
  /**
   * A rerun that needs only its outcome: the first run's test case again (scripts/cucumber-reruns.ts).
   * A scenario that runs a program of your own reruns this way too: its hand-over of virtual time
   * reads the program's quiet from /proc (src/frontends/serve/program-quiet.ts) instead of waiting
   * out wall-time quiet periods, so a rerun started right after the last one has the same timeline.
   */
  const run = async (plan: Plan): Promise<PlanRun> => ({
    plan,
    passed: await first.again(worldParameters(plan, 'outcome')),
    output: '',
  });
  if (!baseline.passed || !baseline.observation) return { kind: 'baseline-fails', output: baseline.output };
  let o = baseline.observation;
  const only = options.component && describeTarget(options.component);
  if (only) {
    const components = o.components.filter((c) => describeTarget(c.target) === only);
    if (components.length === 0)
      return { kind: 'no-such-component', components: o.components.map((c) => describeTarget(c.target)) };
    o = { ...o, components };
  }
  const singles = singlePlans(o, { delaysMs: delaysUpTo(options.maxDelayMs), depth: options.depth });
  const rounds: Plan[][] = [singles];
  if (options.depth === 2) rounds.push(pairPlans(singles));
  options.progress(
    `explore ${path.relative(process.cwd(), loc.file)}:${loc.line} (${loc.name}): ${o.components.length} components watched ${new Set(o.components.flatMap((c) => c.resources)).size} kinds; ${singles.length} single plans${options.depth === 2 ? `, ${rounds[1].length} pairs` : ''}`,
  );
  let tried = 0;
  const total = rounds.reduce((n, r) => n + r.length, 0);
  for (const round of rounds) {
    for (const plan of round) {
      tried++;
      const r = await run(plan);
      options.progress(
        `[${tried}/${total}] ${plan.map(perturbationStep).join(' + ')}: ${r.passed ? 'holds' : 'BREAKS'}`,
      );
      if (r.passed) continue;
      const { smallest, runs } = await reduce(r, run, options.progress);
      const failing = observed(
        await runCucumber({ paths: [where], worldParameters: worldParameters(smallest.plan, 'observe') }),
        smallest.plan,
      );
      return { kind: 'breaks', tried, baseline: o, failing, failingIndex: tried, found: plan, reductionRuns: runs };
    }
  }
  return { kind: 'holds', tried, baseline: o, plans: rounds.flat() };
}

/** Tries ever smaller plans while one still breaks the scenario; the smallest that does. */
async function reduce(
  failing: PlanRun,
  run: (plan: Plan) => Promise<PlanRun>,
  progress: (line: string) => void,
): Promise<{ smallest: PlanRun; runs: number }> {
  let current = failing;
  let runs = 0;
  for (let shrunk = true; shrunk; ) {
    shrunk = false;
    for (const candidate of reductions(current.plan)) {
      runs++;
      const r = await run(candidate);
      progress(`  reduce: ${candidate.map(perturbationStep).join(' + ')}: ${r.passed ? 'holds' : 'still breaks'}`);
      if (!r.passed) {
        current = r;
        shrunk = true;
        break;
      }
    }
  }
  return { smallest: current, runs };
}

/** What cucumber's summary says of the failing step: its lines from the first ✖ on, without the hook lines. */
function failureText(output: string): string {
  const lines = output.split('\n');
  const first = lines.findIndex((l) => l.includes('✖'));
  if (first < 0) return output.trim();
  return lines
    .slice(first)
    .filter((l) => !/^\s*(✔|-) (After|Before)/.test(l) && !/^\d+ (scenarios?|steps?) \(/.test(l) && !/^\d+m\d/.test(l))
    .join('\n')
    .trim();
}
