import { Given, Then } from '@cucumber/cucumber';
import type { Endpoint, EndpointSlice } from '../../src/apimachinery/types';
import { labelsFromText } from '../../src/planning/manifest';
import { parseAt } from '../../src/foundation/timeline/match';
import { formatOffset } from '../../src/foundation/timeline/time';
import { formatTimeline } from '../../src/foundation/timeline/text';
import type { RequestFailure } from '../../src/cluster/traffic/traffic';
import { ScenarioError, type TerminatingWorld } from '../support/world';

// ---- Given: services, how containers serve, the data path's lags, clients ----

/**
 * A Service selecting the pods that carry that label (`"app=web"`; several as `"app=web,tier=front"`),
 * one TCP port 80 to the pods' 8080. Its ClusterIP comes from 10.96.0.0/12; the EndpointSlice and
 * Endpoints controllers keep its endpoints, every node's kube-proxy routes it.
 */
Given(
  'a service {string} selecting pods with label {string}',
  function (this: TerminatingWorld, name: string, label: string) {
    this.plan.service(name, { spec: { selector: labelsFromText(label, `the selector of service "${name}"`) } });
  },
);

/** A default pod carrying a label (`"app=web"`), for a service to select. */
Given(
  'a pod {string} running on node {string} with label {string}',
  function (this: TerminatingWorld, pod: string, node: string, label: string) {
    this.planPod(pod, node, { metadata: { labels: labelsFromText(label, `the label of pod "${pod}"`) } });
  },
);

function probe(world: TerminatingWorld, container: string, pod: string, ms: number, failsAtSigterm: boolean): void {
  if (ms % 1000 !== 0 || ms <= 0)
    throw new ScenarioError(`a readiness probe's period is whole seconds (periodSeconds), not ${ms / 1000}s`);
  world.containerBehaviour(container, pod, { readinessFailsAtSigterm: failsAtSigterm }, (c) => {
    c.readinessProbe = { httpGet: { path: '/ready', port: 8080 }, periodSeconds: ms / 1000 };
  });
}

/**
 * The container gets an HTTP readiness probe (`/ready` on 8080) with that periodSeconds and the
 * API's other defaults (failureThreshold 3, successThreshold 1): it succeeds while the process
 * accepts connections.
 */
Given(
  'container {string} of pod {string} has a readiness probe every {duration}',
  function (this: TerminatingWorld, container: string, pod: string, ms: number) {
    probe(this, container, pod, ms, false);
  },
);

/** As above, and the app's readiness endpoint answers failure from SIGTERM on (while it may go on serving). */
Given(
  'container {string} of pod {string} has a readiness probe every {duration} that fails from SIGTERM on',
  function (this: TerminatingWorld, container: string, pod: string, ms: number) {
    probe(this, container, pod, ms, true);
  },
);

/**
 * The process handles SIGTERM: it keeps accepting and finishing requests for that long, then
 * exits 0 (unless another step says when it exits).
 */
Given(
  'container {string} of pod {string} keeps serving for {duration} after SIGTERM',
  function (this: TerminatingWorld, container: string, pod: string, ms: number) {
    const current = this.plan.behaviourOf(container, pod);
    this.containerBehaviour(
      container,
      pod,
      current.sigterm.kind === 'dies'
        ? { servesAfterSigtermMs: ms, sigterm: { kind: 'exits', afterMs: ms } }
        : { servesAfterSigtermMs: ms },
    );
  },
);

/** The process stops accepting connections at SIGTERM (the default: a process that dies of SIGTERM, or one that closes its listener first). */
Given(
  'container {string} of pod {string} stops accepting connections at SIGTERM',
  function (this: TerminatingWorld, container: string, pod: string) {
    this.containerBehaviour(container, pod, { servesAfterSigtermMs: 0 });
  },
);

/** That node's kube-proxy puts each change in place this long after it saw it (on top of --iptables-min-sync-period, 1 s). */
Given(
  'kube-proxy on node {string} applies changes after {duration}',
  function (this: TerminatingWorld, node: string, ms: number) {
    this.plan.kubeProxyDelay(node, ms);
  },
);

/** The load balancer (or ingress) in front of the service sees each EndpointSlice change this long after it was written (default: at once). */
Given(
  'the load balancer of service {string} notices endpoint changes after {duration}',
  function (this: TerminatingWorld, service: string, ms: number) {
    this.plan.loadBalancerLag(service, ms);
  },
);

/** From T+0 on, one request every interval, from the nodes in turn through their kube-proxy; answered at once. */
Given(
  'clients send a request to service {string} every {duration}',
  function (this: TerminatingWorld, service: string, ms: number) {
    this.plan.trafficClients({ service, everyMs: ms, takesMs: 0, external: false });
  },
);

/** As above, each request taking that long to answer (reset if the process ends first). */
Given(
  'clients send a request to service {string} every {duration} that takes {duration}',
  function (this: TerminatingWorld, service: string, ms: number, takes: number) {
    this.plan.trafficClients({ service, everyMs: ms, takesMs: takes, external: false });
  },
);

/** From T+0 on, one request every interval from outside, through the service's load balancer. */
Given(
  'clients outside the cluster send a request to service {string} every {duration}',
  function (this: TerminatingWorld, service: string, ms: number) {
    this.plan.trafficClients({ service, everyMs: ms, takesMs: 0, external: true });
  },
);

/** As above, each request taking that long to answer. */
Given(
  'clients outside the cluster send a request to service {string} every {duration} that takes {duration}',
  function (this: TerminatingWorld, service: string, ms: number, takes: number) {
    this.plan.trafficClients({ service, everyMs: ms, takesMs: takes, external: true });
  },
);

// ---- Then: requests ----

function failures(world: TerminatingWorld, service: string): RequestFailure[] {
  world.ensureStarted();
  if (!world.cluster.hasNetwork)
    throw new ScenarioError(
      `no service in this scenario: declare one with  Given a service "${service}" selecting pods with label "app=${service}"`,
    );
  return world.cluster
    .network()
    .clients.failuresOf(service)
    .filter((f) => f.at >= world.start);
}

function describeFailures(world: TerminatingWorld, service: string, list: readonly RequestFailure[]): string {
  const sent = world.cluster.network().clients.sentTo(service);
  const shown = list
    .slice(0, 12)
    .map((f) => `  ${formatOffset(f.at - world.start)} ${f.reason}${f.pod ? ` (${f.pod})` : ''}`);
  const more = list.length > 12 ? [`  … and ${list.length - 12} more`] : [];
  const traffic = world.cluster.timeline
    .since(world.start)
    .filter((e) => ['traffic', 'proxy', 'loadbalancer', 'endpointslice', 'runtime'].includes(e.component));
  return `${list.length} of ${sent} requests to service "${service}" failed:\n${[...shown, ...more].join('\n')}\nTimeline (traffic, proxy, load balancer, endpointslice, runtime) from T+0:\n${formatTimeline(traffic, world.start)}`;
}

/** Every request sent from T+0 on was answered. */
Then('no request to service {string} fails', function (this: TerminatingWorld, service: string) {
  const list = failures(this, service);
  if (list.length > 0) throw new Error(describeFailures(this, service, list));
});

/** Exactly that many requests failed (from T+0 on). */
Then('{int} requests to service {string} fail', function (this: TerminatingWorld, n: number, service: string) {
  const list = failures(this, service);
  if (list.length !== n) throw new Error(`expected ${n}, but ${describeFailures(this, service, list)}`);
});

/**
 * At least one request failed, and none outside the window — `T+1s` and `T+3s` as in an `at`
 * cell: whole seconds after T+0, both included.
 */
Then(
  'requests to service {string} fail only between {word} and {word}',
  function (this: TerminatingWorld, service: string, a: string, b: string) {
    const { from } = parseAt(a);
    const { to } = parseAt(b);
    const list = failures(this, service);
    if (list.length === 0)
      throw new Error(
        `no request to service "${service}" failed (expected some between ${a} and ${b}); ${describeFailures(this, service, list)}`,
      );
    const outside = list.filter((f) => {
      const s = Math.floor((f.at - this.start) / 1000);
      return s < from || s > to;
    });
    if (outside.length > 0)
      throw new Error(`${outside.length} failed outside ${a}..${b}; ${describeFailures(this, service, list)}`);
  },
);

// ---- Then: endpoints ----

function slicesOf(world: TerminatingWorld, service: string): EndpointSlice[] {
  world.ensureStarted();
  const r = world.cluster.apiserver.list(
    'endpointslices',
    'default',
    (s) => s.metadata.labels?.['kubernetes.io/service-name'] === service,
  );
  return r.ok ? r.object.items : [];
}

function describeSlices(slices: readonly EndpointSlice[]): string {
  if (slices.length === 0) return 'no EndpointSlice';
  return slices
    .map(
      (s) =>
        `${s.metadata.name}: ${(s.endpoints ?? []).map((e) => `${e.targetRef?.name} ready=${e.conditions?.ready} serving=${e.conditions?.serving} terminating=${e.conditions?.terminating}`).join('; ') || 'no endpoints'}`,
    )
    .join('\n');
}

const CONDITIONS: Readonly<Record<string, (e: Endpoint) => boolean>> = {
  ready: (e) => e.conditions?.ready === true,
  'not-ready': (e) => e.conditions?.ready === false,
  serving: (e) => e.conditions?.serving === true,
  'not-serving': (e) => e.conditions?.serving === false,
  terminating: (e) => e.conditions?.terminating === true,
};

/** The pod is an endpoint of the service's slices with that condition: ready, not-ready, serving, not-serving or terminating. */
Then(
  'the endpointslice of service {string} lists pod {string} as {word}',
  function (this: TerminatingWorld, service: string, pod: string, condition: string) {
    const check = CONDITIONS[condition];
    if (!check)
      throw new ScenarioError(
        `unknown endpoint condition "${condition}": use one of ${Object.keys(CONDITIONS).join(', ')}`,
      );
    const slices = slicesOf(this, service);
    const ep = slices.flatMap((s) => s.endpoints ?? []).find((e) => e.targetRef?.name === pod);
    if (!ep)
      throw new Error(
        `the EndpointSlices of service "${service}" do not list pod "${pod}":\n${describeSlices(slices)}`,
      );
    if (!check(ep))
      throw new Error(
        `pod "${pod}" is not ${condition} in the EndpointSlices of service "${service}":\n${describeSlices(slices)}`,
      );
  },
);

function endpointsNames(world: TerminatingWorld, service: string): { ready: string[]; notReady: string[] } {
  world.ensureStarted();
  const r = world.cluster.apiserver.get('endpoints', 'default', service);
  const subsets = r.ok ? (r.object.subsets ?? []) : [];
  return {
    ready: subsets.flatMap((s) => (s.addresses ?? []).map((a) => a.targetRef?.name ?? a.ip)),
    notReady: subsets.flatMap((s) => (s.notReadyAddresses ?? []).map((a) => a.targetRef?.name ?? a.ip)),
  };
}

/** The service's v1 Endpoints object has the pod among its addresses (ready or not ready). */
Then(
  'the endpoints of service {string} list pod {string}',
  function (this: TerminatingWorld, service: string, pod: string) {
    const { ready, notReady } = endpointsNames(this, service);
    if (!ready.includes(pod) && !notReady.includes(pod))
      throw new Error(
        `the Endpoints of service "${service}" do not list pod "${pod}" (addresses: ${ready.join(', ') || 'none'}; notReadyAddresses: ${notReady.join(', ') || 'none'})`,
      );
  },
);

/** The service's v1 Endpoints object does not have the pod, ready or not. */
Then(
  'the endpoints of service {string} do not list pod {string}',
  function (this: TerminatingWorld, service: string, pod: string) {
    const { ready, notReady } = endpointsNames(this, service);
    if (ready.includes(pod) || notReady.includes(pod))
      throw new Error(
        `the Endpoints of service "${service}" list pod "${pod}" (addresses: ${ready.join(', ') || 'none'}; notReadyAddresses: ${notReady.join(', ') || 'none'})`,
      );
  },
);
