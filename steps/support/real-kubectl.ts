import { kubectlSource } from '../../src/frontends/kubectl/workload-commands';
import { After, AfterAll } from '@cucumber/cucumber';
import { DEFAULT_WAIT_LIMIT_MS, type KubectlResult } from '../../src/frontends/kubectl/kubectl';
import { parseKubectlDelete, splitCommandLine, splitEnvironment } from '../../src/frontends/kubectl/delete-command';
import { isDrainLine } from '../../src/frontends/kubectl/drain-command';
import type { RealKubectlSession } from '../../src/frontends/kubectl/real-session';
import { ScenarioError, type TerminatingWorld } from './world';

/**
 * The real-kubectl profile (`cucumber-js -p real-kubectl`): `When I run \`kubectl …\`` runs the
 * pinned real kubectl of the scenario's release (the bundled v1.36 when that release has none) against the scenario's cluster through the HTTP API, on an
 * in-process server on 127.0.0.1, with the virtual clock moved only while kubectl waits in its
 * watch (RealKubectlSession), so every run gives the same timeline.
 */
export function usesRealKubectl(world: TerminatingWorld): boolean {
  return (world.parameters as { kubectl?: string } | undefined)?.kubectl === 'real';
}

/**
 * One server per kubectl release for the whole run, serving each scenario's cluster in turn:
 * kubectl keeps its discovery cache (per server address) from one scenario to the next.
 */
const sessions = new Map<number, RealKubectlSession>();
/** The session of the last run: a kubectl still running when its scenario ends is stopped. */
let current: RealKubectlSession | undefined;

/** A polling kubectl (drain) lets virtual time move after this much quiet (wall time). */
const DRAIN_QUIET_MS = 100;

/** How long the real kubectl may take in wall-clock time before the step fails. */
const WALL_LIMIT_MS = 15_000;

export async function runRealKubectl(world: TerminatingWorld, line: string, stdin?: string): Promise<KubectlResult> {
  const cluster = world.cluster;
  const { env, words } = splitEnvironment(splitCommandLine(line));
  if (words[0] !== 'kubectl') throw new ScenarioError(`not a kubectl command line: ${line}`);
  // Loaded on first use: runs without the real kubectl need neither the HTTP layer nor protobufjs (tens of ms to load).
  const [{ createApiHandler }, { RealKubectlSession }, { PINNED_KUBECTL_MINORS, REAL_KUBECTL_MINOR }] =
    await Promise.all([
      import('../../src/frontends/server/api-handler'),
      import('../../src/frontends/kubectl/real-session'),
      import('../../src/frontends/kubectl/real-kubectl'),
    ]);
  // The scenario's release is kubectl's too (ClusterOptions.release): its pinned binary when there
  // is one (the client matrix's devDependencies), else the bundled default release's.
  const minor = (PINNED_KUBECTL_MINORS as readonly number[]).includes(cluster.release.minor)
    ? (cluster.release.minor as (typeof PINNED_KUBECTL_MINORS)[number])
    : REAL_KUBECTL_MINOR;
  const { listener } = createApiHandler(cluster);
  let session = sessions.get(minor);
  if (session) session.use(cluster, listener);
  else sessions.set(minor, (session = await RealKubectlSession.start(cluster, listener, minor)));
  current = session;
  // The built-in kubectl's virtual wait limit: its --timeout, else one virtual hour.
  let virtualMs = DEFAULT_WAIT_LIMIT_MS;
  try {
    virtualMs = parseKubectlDelete(line).timeoutMs ?? DEFAULT_WAIT_LIMIT_MS;
  } catch {
    // A line the built-in kubectl refuses or does not model: the real one decides.
  }
  const from = cluster.timeline.all().length;
  // drain polls each pod with GETs instead of watching: time moves while it is quiet (K81).
  const drain = isDrainLine(line);
  const source = drain ? 'staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go RunDrain' : kubectlSource(line);
  cluster.timeline.record('kubectl', line.replace(/^\s*kubectl\s+/, ''), source, { actor: 'kubectl' });
  const limits = {
    virtualMs: Math.max(virtualMs, 0),
    wallMs: WALL_LIMIT_MS,
    ...(drain && { pollingQuietMs: DRAIN_QUIET_MS }),
  };
  const run = await session.run(words.slice(1), limits, { stdin, env: Object.fromEntries(env) });
  if (run.stopped) {
    throw new Error(
      `the real kubectl could not finish through the simulation: ${run.stopped}\n${run.stdout}${run.stderr}`,
    );
  }
  // "The last request": the last DELETE kubectl sent, as the apiserver recorded it.
  const deletes = cluster.timeline
    .all()
    .slice(from)
    .filter((e) => e.component === 'apiserver' && e.actor === 'kubectl' && e.text.startsWith('DELETE '));
  const requestId = deletes.at(-1)?.requestId;
  return {
    exitCode: run.exitCode,
    stdout: run.stdout.replace(/\n$/, ''),
    stderr: run.stderr.replace(/\n$/, ''),
    ...(requestId !== undefined && { requestId }),
    requests: run.requests,
  };
}

/** A kubectl still running (a step that timed out) ends with its scenario; the server with the run. */
After(function () {
  current?.stop();
});
AfterAll(async function () {
  await Promise.all([...sessions.values()].map((s) => s.close()));
  sessions.clear();
  current = undefined;
});
