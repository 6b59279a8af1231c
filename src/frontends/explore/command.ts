import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CommandError } from '../command-error';
import { DurationError, parseDuration } from '../../foundation/duration';
import {
  describeTarget,
  parseTarget,
  PerturbationError,
  perturbationStep,
  type Target,
} from '../../cluster/perturbation/perturbation';
import { Release } from '../../foundation/release';
import { FeatureError, locateScenario, reproducingFeature, type ScenarioLocation } from './feature';
import { explore, type Exploration } from './explore';
import { exploreReport } from './report';

export const EXPLORE_USAGE = `Usage: terminating explore [options] FILE[:LINE]

Reruns one scenario under perturbations derived from its own unperturbed run (as Sieve does):
for each component and each kind of change it watched, it sees those changes late (1 s and 2 s);
each controller restarts just before and just after each change. Every rerun checks the
scenario's Then steps, invariants (\`at no instant …\`) included. The first plan that breaks the
scenario is reduced to the fewest, smallest perturbations, printed as the Given steps that
reproduce it, and written as a ready-to-run feature under reports/explore/.

Exit code: 0 when no plan breaks the scenario, 1 when one does, 2 on bad input.

Options:
  --max-delay DURATION  also try later deliveries, doubling from 4s up to DURATION (e.g. 10s)
  --depth N             1 (default): single perturbations; 2: then pairs of them
  --kubernetes 1.NN     the release every component runs (default: the scenario's own)
  --out DIR             where the feature and report go (default reports/explore)
  --component TEXT      perturb only this component, as the steps write it (e.g. 'client "my-operator"',
                        'endpointslice controller')
  -h, --help            this help
`;

/** `terminating explore FILE[:LINE]`: resolves with the exit code. */
export async function exploreCommand(
  args: string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'max-delay': { type: 'string' },
        depth: { type: 'string' },
        kubernetes: { type: 'string' },
        out: { type: 'string' },
        component: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new CommandError(`${(e as Error).message.split('. ')[0]} (see terminating explore --help)`, 2);
  }
  const v = parsed.values;
  if (v.help) {
    out.write(EXPLORE_USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1)
    throw new CommandError('name one scenario: terminating explore FILE[:LINE] (e.g. features/traffic.feature:14)', 2);
  const depth = v.depth ?? '1';
  if (depth !== '1' && depth !== '2') throw new CommandError(`invalid --depth "${depth}": expected 1 or 2`, 2);
  let maxDelayMs: number | undefined;
  if (v['max-delay'] !== undefined) {
    try {
      maxDelayMs = parseDuration(v['max-delay']);
    } catch (e) {
      if (!(e instanceof DurationError)) throw e;
      throw new CommandError(`invalid --max-delay: ${e.message}`, 2);
    }
    if (maxDelayMs < 1000)
      throw new CommandError(`invalid --max-delay "${v['max-delay']}": at least 1s (the smallest delay tried)`, 2);
  }
  if (v.kubernetes !== undefined) {
    try {
      Release.parse(v.kubernetes);
    } catch (e) {
      throw new CommandError(`invalid --kubernetes: ${(e as Error).message}`, 2);
    }
  }
  let component: Target | undefined;
  if (v.component !== undefined) {
    try {
      component = parseTarget(v.component);
    } catch (e) {
      if (!(e instanceof PerturbationError)) throw e;
      throw new CommandError(`invalid --component: ${e.message}`, 2);
    }
  }
  const loc = location(parsed.positionals[0]);
  const progress = (line: string) => err.write(`${line}\n`);
  const result = await explore(loc, {
    depth: depth === '2' ? 2 : 1,
    maxDelayMs,
    kubernetes: v.kubernetes,
    progress,
    ...(component && { component }),
  });
  if (result.kind === 'no-such-component') {
    throw new CommandError(
      `--component: no ${describeTarget(component!)} ran in the scenario; it had: ${result.components.join(', ')}`,
      2,
    );
  }
  if (result.kind === 'baseline-fails') {
    throw new CommandError(
      `the scenario fails without any perturbation; explore needs a scenario that passes:\n${result.output}`,
      2,
    );
  }
  const dir = path.resolve(v.out ?? path.join('reports', 'explore'));
  mkdirSync(dir, { recursive: true });
  const name = `${path.basename(loc.file, '.feature')}-${loc.line}`;
  const reportFile = path.join(dir, `${name}.html`);
  writeFileSync(reportFile, exploreReport(loc, result));
  if (result.kind === 'holds') {
    out.write(
      `${result.tried} plans tried on ${describe(loc)}: none breaks it.\nReport: ${path.relative(process.cwd(), reportFile)}\n`,
    );
    return 0;
  }
  const steps = result.failing.plan.map(perturbationStep);
  const featureFile = path.join(dir, `${name}.feature`);
  const release = v.kubernetes === undefined ? [] : [`Given Kubernetes v1.${Release.parse(v.kubernetes).minor}`];
  writeFileSync(
    featureFile,
    reproducingFeature(
      loc,
      release,
      steps,
      `explore: ${result.tried} plans tried; the perturbation below breaks the scenario (without it, it passes)`,
    ),
  );
  out.write(
    `${describe(loc)} breaks under ${steps.length === 1 ? 'this perturbation' : 'these perturbations'} (plan ${result.failingIndex} of ${result.tried} tried, reduced in ${result.reductionRuns} more runs):\n\n` +
      steps.map((s) => `    ${s}\n`).join('') +
      `\nWhat failed:\n${indent(result.failing.output)}\n` +
      `Feature: ${path.relative(process.cwd(), featureFile)} (run it: npm run scenario -- ${path.relative(process.cwd(), featureFile)})\nReport: ${path.relative(process.cwd(), reportFile)}\n`,
  );
  return 1;
}

function describe(loc: ScenarioLocation): string {
  return `${path.relative(process.cwd(), loc.file)}:${loc.line} (${loc.name})`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/** FILE[:LINE] → the scenario, or one clear error (exit 2). */
function location(arg: string): ScenarioLocation {
  const m = /^(.*?)(?::(\d+))?$/.exec(arg)!;
  const file = path.resolve(m[1]);
  if (!m[1].endsWith('.feature')) throw new CommandError(`"${m[1]}" is not a .feature file`, 2);
  if (!existsSync(file)) throw new CommandError(`no such file: ${m[1]}`, 2);
  try {
    return locateScenario(file, m[2] === undefined ? undefined : Number(m[2]));
  } catch (e) {
    if (e instanceof FeatureError) throw new CommandError(e.message, 2);
    throw e;
  }
}

export type { Exploration };
