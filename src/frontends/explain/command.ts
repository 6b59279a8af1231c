import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { CommandError } from '../command-error';
import { Release } from '../../foundation/release';
import { DumpError, readDumpFiles } from '../../planning/restore/dump';
import { writeSessionReport } from '../serve/session-report';
import { explainDump } from './explain';
import { formatExplanation } from './format';
import { writeScenario } from './scenario';
import { writeFileSync } from 'node:fs';

export const EXPLAIN_USAGE = `Usage: terminating explain [options] FILE…

Loads the objects kubectl get -o yaml (or -o json) printed — pods, nodes, leases, events, … — runs
the cluster forward on the virtual clock (at most one virtual hour), and says of each pod that is
Terminating what holds it, what happens next and when, and what would release it (the kubectl
command, with its risk).

Options:
  --kubernetes 1.NN    the release every component runs, 1.26 to 1.36 (default 1.36)
  --now TIME           when the objects were read (RFC 3339; default: the newest time they show)
  -o, --output FORMAT  text (default) or json
  --report DIR         write the HTML report of the forward run to DIR
  --scenario FILE      also write a minimal scenario (.feature) that reproduces each hold: the
                       objects it needs and the suspect made explicit as steps, with the cause
                       it must show (npx cucumber-js FILE runs it)
  -h, --help           this help

Output: for each pod, what the objects show (its phase and how long it has been past its
deletionTimestamp) apart from what the run finds (gone at T+…, or still there), then its causes.
When the run releases a pod far sooner than the cluster did, the run contradicts the cluster:
the causes are then the suspects the objects support, ranked, each with its evidence.

Exit codes:
  0  no pod is held: every Terminating pod goes within the run, as the cluster's history agrees
  1  a pod is still held: still there at the end of the run, or the run contradicts the cluster
  2  bad input: an unknown option, a file that cannot be read, an object that cannot be used
`;

/** `terminating explain FILE…`: resolves with the exit code (0; 1 when a pod is still held; 2 for bad input). */
export async function explainCommand(args: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        kubernetes: { type: 'string' },
        now: { type: 'string' },
        output: { type: 'string', short: 'o' },
        report: { type: 'string' },
        scenario: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new CommandError(`${(e as Error).message.split('. ')[0]} (see terminating explain --help)`, 2);
  }
  const v = parsed.values;
  if (v.help) {
    out.write(EXPLAIN_USAGE);
    return 0;
  }
  if (parsed.positionals.length === 0)
    throw new CommandError(
      'no file given: terminating explain FILE… (the output of kubectl get pods,nodes,events -o yaml)',
      2,
    );
  const format = v.output ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new CommandError(`invalid --output "${format}": expected text or json`, 2);
  let release;
  try {
    release = v.kubernetes === undefined ? undefined : Release.parse(v.kubernetes);
  } catch (e) {
    throw new CommandError(`invalid --kubernetes: ${(e as Error).message}`, 2);
  }
  const nowMs = v.now === undefined ? undefined : Date.parse(v.now);
  if (nowMs !== undefined && Number.isNaN(nowMs))
    throw new CommandError(`invalid --now "${v.now}": expected an RFC 3339 time (e.g. 2025-06-01T10:00:00Z)`, 2);
  if (v.scenario !== undefined && !v.scenario.endsWith('.feature'))
    throw new CommandError(`invalid --scenario "${v.scenario}": expected a file name ending in .feature`, 2);
  let run;
  let dump;
  try {
    dump = readDumpFiles(parsed.positionals);
    run = explainDump(dump, { release, nowMs, checkRemedies: true });
  } catch (e) {
    if (e instanceof DumpError) throw new CommandError(e.message, 2);
    throw e;
  }
  if (v.scenario !== undefined) {
    // X19 — a minimal scenario reproducing each hold, the suspect made explicit as a step.
    const written = writeScenario(dump, run.explanation, { release: run.plan.release, nowMs });
    try {
      writeFileSync(resolve(v.scenario), written.feature);
    } catch (e) {
      throw new CommandError(`cannot write ${v.scenario}: ${(e as Error).message}`, 2);
    }
  }
  out.write(format === 'json' ? `${JSON.stringify(run.explanation, null, 2)}\n` : formatExplanation(run.explanation));
  if (v.scenario !== undefined && format === 'text') out.write(`scenario: ${resolve(v.scenario)}\n`);
  if (v.report !== undefined) {
    const files = writeSessionReport(
      run.plan.cluster,
      run.t0,
      resolve(v.report),
      `terminating explain ${parsed.positionals.join(' ')} (Kubernetes ${run.plan.release})`,
    );
    if (format === 'text') out.write(`report: ${files.html}\n`);
  }
  // 1 when a pod is still held: at the end of the run, or in the cluster when the run contradicts it (X16).
  return run.explanation.pods.some((p) => p.stuck || p.contradiction !== undefined) ? 1 : 0;
}
