import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { CommandError } from '../command-error';
import { ManifestFileError } from '../../planning/manifest-file';
import { DurationError, parseDuration } from '../../foundation/duration';
import { Release } from '../../foundation/release';
import { ClockModeError, formatClockMode, parseClockMode, SERVE_HEADROOM_MS } from './clock-driver';
import { CLOCK_PATH, REPORT_PATH, serve, type ServeOptions } from './serve';

export const SERVE_USAGE = `Usage: terminating serve [options]

Serves a simulated cluster over the Kubernetes HTTP API on 127.0.0.1 until SIGINT or SIGTERM,
then writes the session report.

Options:
  --port N             TCP port on 127.0.0.1 (default 0: any free port)
  --manifests FILE     Nodes, Pods, ReplicaSets, Services to start with (YAML as kubectl get -o yaml prints
                       them; behaviours in terminating.sim/ annotations). Default: the embedded
                       cluster (nodes node-1, node-2; pods web, api, held, data, frontend-1/2).
                       A real cluster's objects (FILE[,FILE…] whose objects carry a uid) are
                       resumed as they are: see terminating explain --help
  --now TIME           with resumed objects: when they were read (RFC 3339; default: the newest
                       time they show)
  --clock MODE         jump (default): virtual time jumps ahead while every client waits on a watch
                       realtime: virtual time follows wall time
                       fast=N: virtual time runs N times as fast as wall time
                       manual: virtual time moves only on POST /terminating/v1/clock?advance=30s
                       (for tests that drive the clock themselves)
  --kubernetes 1.NN    the Kubernetes release every component runs, 1.26 to 1.36 (default 1.36)
  --etcd-compaction-interval DURATION
                       how often etcd is compacted (default 5m); the history, timeline events and
                       request records from before the compacted revision are dropped, so the
                       session report covers the time since the last compaction
  --report-dir DIR     where the session report and the kubeconfig go (default reports/serve)
  --kubeconfig FILE    where the kubeconfig goes (default DIR/kubeconfig)
  --start TIME         the virtual time serving starts at, RFC 3339 (e.g. 2025-06-01T12:00:00Z);
                       default: 10 minutes before now; with --clock jump virtual time never passes
                       the wall clock, so ages that clients compute from timestamps are never
                       negative
  -h, --help           this help
`;

export function parseServeArgs(args: string[], now: () => number = Date.now): ServeOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        manifests: { type: 'string' },
        now: { type: 'string' },
        clock: { type: 'string' },
        kubernetes: { type: 'string' },
        'report-dir': { type: 'string' },
        kubeconfig: { type: 'string' },
        'etcd-compaction-interval': { type: 'string' },
        start: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    // parseArgs says e.g. "Unknown option '--foo'. To specify a positional argument …": keep the first sentence.
    throw new CommandError(`${(e as Error).message.split('. ')[0]} (see terminating serve --help)`, 2);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  let port = 0;
  if (v.port !== undefined) {
    if (!/^\d+$/.test(v.port) || Number(v.port) > 65535)
      throw new CommandError(`invalid --port "${v.port}": expected a TCP port number 0-65535 (0: any free port)`, 2);
    port = Number(v.port);
  }
  let clock;
  try {
    clock = parseClockMode(v.clock ?? 'jump');
  } catch (e) {
    if (e instanceof ClockModeError) throw new CommandError(e.message, 2);
    throw e;
  }
  let release;
  if (v.kubernetes !== undefined) {
    try {
      release = Release.parse(v.kubernetes);
    } catch (e) {
      throw new CommandError(`invalid --kubernetes: ${(e as Error).message}`, 2);
    }
  }
  const nowMs = v.now === undefined ? undefined : Date.parse(v.now);
  if (nowMs !== undefined && Number.isNaN(nowMs))
    throw new CommandError(`invalid --now "${v.now}": expected an RFC 3339 time (e.g. 2025-06-01T10:00:00Z)`, 2);
  const options: ServeOptions = {
    port,
    manifests: v.manifests,
    clock,
    release,
    reportDir: v['report-dir'] ?? 'reports/serve',
    kubeconfig: v.kubeconfig,
    start: parseStart(v.start, now),
    ...(nowMs !== undefined ? { nowMs } : {}),
  };
  const interval = v['etcd-compaction-interval'];
  if (interval !== undefined) {
    let ms: number;
    try {
      ms = parseDuration(interval);
    } catch (e) {
      if (!(e instanceof DurationError)) throw e;
      throw new CommandError(`invalid --etcd-compaction-interval "${interval}": ${e.message}`, 2);
    }
    if (ms <= 0)
      throw new CommandError(
        `invalid --etcd-compaction-interval "${interval}": must be more than 0 (kube-apiserver's 0 turns compaction off, which is not modelled)`,
        2,
      );
    options.etcdCompactionIntervalMs = ms;
  }
  return options;
}

/**
 * --start, or the wall-clock time now less SERVE_HEADROOM_MS (the room a jumping clock has ahead
 * of it before it meets the wall clock), in whole seconds (timestamps carry seconds): the one
 * place the wall clock sets virtual time. Scenarios keep the fixed epoch.
 */
function parseStart(value: string | undefined, now: () => number): number {
  if (value === undefined) return Math.floor((now() - SERVE_HEADROOM_MS) / 1000) * 1000;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(ms)) {
    throw new CommandError(`invalid --start "${value}": expected an RFC 3339 time such as 2025-06-01T12:00:00Z`, 2);
  }
  return Math.floor(ms / 1000) * 1000;
}

/** `terminating serve …`: runs until SIGINT/SIGTERM; resolves with the exit code. */
export async function serveCommand(args: string[], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const options = parseServeArgs(args);
  if (options === 'help') {
    out.write(SERVE_USAGE);
    return 0;
  }
  let served;
  try {
    served = await serve(options);
  } catch (e) {
    // An unusable manifest file or a port in use: the user's to fix.
    if (e instanceof ManifestFileError || (e as NodeJS.ErrnoException).syscall === 'listen')
      throw new CommandError((e as Error).message);
    throw e;
  }
  const pods = served.cluster.apiserver.list('pods', undefined);
  const nodes = served.cluster.nodes.size;
  out.write(
    [
      `terminating serve: ${options.manifests ?? 'the default cluster'} (${nodes} node${nodes === 1 ? '' : 's'}, ${pods.ok ? pods.object.items.length : 0} pods, Kubernetes ${served.cluster.release}) at ${served.url}, --clock ${formatClockMode(options.clock)}`,
      `kubeconfig: ${served.kubeconfig}`,
      `  export KUBECONFIG=${served.kubeconfig}`,
      `virtual time: GET ${served.url}${CLOCK_PATH}   (POST ?advance=30s moves it on)`,
      `report: on exit, on kill -USR2 ${process.pid}, or on POST ${served.url}${REPORT_PATH}  → ${resolve(options.reportDir, 'index.html')}`,
      'Ctrl-C stops.',
      '',
    ].join('\n'),
  );
  const writeReport = () => {
    const files = served.report();
    out.write(`report written: ${files.html}\n`);
  };
  process.on('SIGUSR2', writeReport);
  const signal = await new Promise<NodeJS.Signals>((done) => {
    process.once('SIGINT', () => done('SIGINT'));
    process.once('SIGTERM', () => done('SIGTERM'));
  });
  process.off('SIGUSR2', writeReport);
  out.write(`${signal}: stopping\n`);
  writeReport();
  await served.close();
  return 0;
}
