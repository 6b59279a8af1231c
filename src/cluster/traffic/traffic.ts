import type { Clock } from '../../foundation/clock';
import type { SimNode } from '../node';
import type { KubeProxy } from '../../components/proxy/kube-proxy';
import type { LoadBalancer } from '../../components/proxy/load-balancer';
import type { ProxyEndpoint } from '../../components/proxy/topology';
import type { Timeline } from '../../foundation/timeline/timeline';

/** Why a request failed: nothing to send it to, the process did not take it, or it went away while serving it. */
export type FailureReason = 'no endpoints' | 'connection refused' | 'connection reset';

export interface RequestFailure {
  readonly at: number;
  readonly service: string;
  readonly reason: FailureReason;
  /** The pod it was sent to, when there was one. */
  readonly pod?: string;
}

export interface ClientSpec {
  readonly service: string;
  readonly namespace: string;
  readonly everyMs: number;
  /** How long the server takes to answer (0: at once). */
  readonly takesMs: number;
  /** From outside the cluster, through the service's load balancer; else from the nodes, through kube-proxy. */
  readonly external: boolean;
}

/** What the clients need of the cluster: the nodes (their runtimes and proxies), the load balancers, and who a pod is. */
export interface TrafficPaths {
  nodes(): readonly SimNode[];
  proxy(node: string): KubeProxy | undefined;
  loadBalancer(svcKey: string): LoadBalancer;
  /** The container that serves the pod's traffic (the first regular container), by pod uid. */
  servingContainer(uid: string, pod: string, namespace: string): string | undefined;
}

const SOURCE = 'simulated clients (not a Kubernetes component): one request per interval, counted per second';

/**
 * N16 — deterministic clients: each stream sends one request every `everyMs` from T+0 on.
 * From inside the cluster a request leaves from the nodes in turn (round robin in the order
 * they were declared) and goes where that node's kube-proxy rules send it at that instant; from
 * outside, where the service's load balancer sends it. It fails when there is no endpoint to send
 * it to, when the chosen pod's process does not accept the connection (gone, or it stopped
 * listening at SIGTERM), or — for a request that takes time — when that process ends before it
 * answered (the connection is reset). Failures are counted per second: the `traffic` lane gets one
 * event per second that had any, `N failed requests to SERVICE`, not one per request.
 */
export class TrafficClients {
  readonly failures: RequestFailure[] = [];
  private readonly sent = new Map<string, number>();
  private bucket?: { second: number; counts: Map<string, { n: number; reasons: Map<string, number> }> };
  private nodeTurn = 0;

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly paths: TrafficPaths,
  ) {}

  /** Starts a stream at `startAt` (a scenario's T+0). */
  add(spec: ClientSpec, startAt: number): void {
    const tick = (at: number) => {
      // Idle traffic does not keep "the cluster settles" waiting: the clients run for ever.
      this.clock.at(
        at,
        () => {
          this.send(spec);
          tick(at + spec.everyMs);
        },
        { background: true },
      );
    };
    tick(Math.max(startAt, this.clock.now()));
  }

  sentTo(service: string): number {
    return this.sent.get(service) ?? 0;
  }

  failuresOf(service: string): RequestFailure[] {
    return this.failures.filter((f) => f.service === service);
  }

  private send(spec: ClientSpec): void {
    const svcKey = `${spec.namespace}/${spec.service}`;
    this.sent.set(spec.service, this.sentTo(spec.service) + 1);
    const endpoint = spec.external ? this.viaLoadBalancer(svcKey) : this.viaNode(svcKey);
    if (!endpoint) return this.fail(spec.service, 'no endpoints');
    const node = this.paths.nodes().find((n) => n.name === endpoint.nodeName);
    const container = this.paths.servingContainer(endpoint.uid, endpoint.pod, spec.namespace);
    if (!node || !container || !node.runtime.acceptsConnections(endpoint.uid, container))
      return this.fail(spec.service, 'connection refused', endpoint.pod);
    if (spec.takesMs <= 0) return;
    // In flight until it is answered; the process ending first resets it, at that instant.
    this.observe(node);
    const key = `${endpoint.uid} ${container}`;
    let flights = this.inFlight.get(key);
    if (!flights) this.inFlight.set(key, (flights = new Set()));
    const flight = { service: spec.service, pod: endpoint.pod };
    flights.add(flight);
    this.clock.after(spec.takesMs, () => flights.delete(flight), { background: true });
  }

  /** Requests being served, by `POD-UID CONTAINER`. */
  private readonly inFlight = new Map<string, Set<{ service: string; pod: string }>>();
  private readonly observed = new WeakSet<SimNode>();

  private observe(node: SimNode): void {
    if (this.observed.has(node)) return;
    this.observed.add(node);
    node.runtime.exitObservers.add((uid, container) => {
      const key = `${uid} ${container}`;
      const flights = this.inFlight.get(key);
      if (!flights) return;
      this.inFlight.delete(key);
      for (const f of flights) this.fail(f.service, 'connection reset', f.pod);
    });
  }

  private viaNode(svcKey: string): ProxyEndpoint | undefined {
    const nodes = this.paths.nodes();
    if (nodes.length === 0) return undefined;
    const from = nodes[this.nodeTurn++ % nodes.length];
    return this.paths.proxy(from.name)?.route(svcKey, false);
  }

  private viaLoadBalancer(svcKey: string): ProxyEndpoint | undefined {
    const target = this.paths.loadBalancer(svcKey).route();
    if (!target) return undefined;
    if (target.kind === 'pod') return target.endpoint;
    return this.paths.proxy(target.node)?.route(svcKey, true);
  }

  private fail(service: string, reason: FailureReason, pod?: string): void {
    const at = this.clock.now();
    this.failures.push({ at, service, reason, ...(pod ? { pod } : {}) });
    const second = Math.floor(at / 1000);
    if (!this.bucket || this.bucket.second !== second) {
      this.bucket = { second, counts: new Map() };
      const bucket = this.bucket;
      // The second's summary goes on the timeline at its last millisecond.
      this.clock.at(second * 1000 + 999, () => this.flush(bucket), { background: true });
    }
    let c = this.bucket.counts.get(service);
    if (!c) this.bucket.counts.set(service, (c = { n: 0, reasons: new Map() }));
    c.n += 1;
    const why = pod ? `${reason}: ${pod}` : reason;
    c.reasons.set(why, (c.reasons.get(why) ?? 0) + 1);
  }

  private flush(bucket: NonNullable<TrafficClients['bucket']>): void {
    for (const [service, { n, reasons }] of bucket.counts) {
      const detail = [...reasons].map(([why, k]) => `${k} ${why}`).join(', ');
      this.timeline.record('traffic', `${n} failed requests to ${service} (${detail})`, SOURCE, { actor: 'clients' });
    }
    bucket.counts.clear();
    if (this.bucket === bucket) this.bucket = undefined;
  }
}
