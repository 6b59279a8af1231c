import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { CommandError } from '../command-error';
import { Release } from '../../foundation/release';
import { DumpError, readDumpFiles } from '../../planning/restore/dump';
import { writeSessionReport } from '../serve/session-report';
import { explainDump } from './explain';
import { formatExplanation } from './format';

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
  -h, --help           this help
`;

/** `terminating explain FILE…`: resolves with the exit code (0; 1 when a pod is still held at the end of the run). */
export async function explainCommand(args: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { kubernetes: { type: 'string' }, now: { type: 'string' }, output: { type: 'string', short: 'o' }, report: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    throw new CommandError(`${(e as Error).message.split('. ')[0]} (see terminating explain --help)`, 2);
  }
  const v = parsed.values;
  if (v.help) {
    out.write(EXPLAIN_USAGE);
    return 0;
  }
  if (parsed.positionals.length === 0) throw new CommandError('no file given: terminating explain FILE… (the output of kubectl get pods,nodes,events -o yaml)', 2);
  const format = v.output ?? 'text';
  if (format !== 'text' && format !== 'json') throw new CommandError(`invalid --output "${format}": expected text or json`, 2);
  let release;
  try {
    release = v.kubernetes === undefined ? undefined : Release.parse(v.kubernetes);
  } catch (e) {
    throw new CommandError(`invalid --kubernetes: ${(e as Error).message}`, 2);
  }
  const nowMs = v.now === undefined ? undefined : Date.parse(v.now);
  if (nowMs !== undefined && Number.isNaN(nowMs)) throw new CommandError(`invalid --now "${v.now}": expected an RFC 3339 time (e.g. 2025-06-01T10:00:00Z)`, 2);
  let run;
  try {
    run = explainDump(readDumpFiles(parsed.positionals), { release, nowMs });
  } catch (e) {
    if (e instanceof DumpError) throw new CommandError(e.message);
    throw e;
  }
  out.write(format === 'json' ? `${JSON.stringify(run.explanation, null, 2)}\n` : formatExplanation(run.explanation));
  if (v.report !== undefined) {
    const files = writeSessionReport(run.plan.cluster, run.t0, resolve(v.report), `terminating explain ${parsed.positionals.join(' ')} (Kubernetes ${run.plan.release})`);
    if (format === 'text') out.write(`report: ${files.html}\n`);
  }
  return run.explanation.pods.some((p) => p.stuck) ? 1 : 0;
}
