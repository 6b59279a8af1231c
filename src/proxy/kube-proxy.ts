import type { ApiServer } from '../apiserver/apiserver';
import { jsonEqual } from '../apiserver/object';
import type { EndpointSlice, Service } from '../apiserver/types';
import type { Clock, TimerHandle } from '../clock';
import { SharedInformer } from '../controllers/informer';
import { LABEL_SERVICE_NAME } from '../controllers/endpointslice/utils';
import type { Release } from '../release';
import type { Timeline } from '../timeline/timeline';
import { categorizeEndpoints, endpointsFromSlices, TOPOLOGY_SOURCE, trafficPolicy, type ProxyEndpoint } from './topology';

const SOURCE = 'pkg/proxy/iptables/proxier.go syncProxyRules (async.BoundedFrequencyRunner)';

export interface KubeProxyConfig {
  /** --iptables-min-sync-period (default 1 s): two syncs are at least this far apart. */
  minSyncPeriodMs: number;
  /** How long this node takes from a change it saw to its rules in place (a scenario sets it: a busy node's iptables-restore). */
  syncDelayMs: number;
  release: Release;
}

/** What one service's rules send traffic to on this node, as last applied. */
interface AppliedService {
  readonly svc: Service;
  readonly endpoints: readonly ProxyEndpoint[];
}

/**
 * N14 — the kube-proxy of one node (pkg/proxy, the iptables proxier): its own watches of
 * services and EndpointSlices; a change schedules a sync (BoundedFrequencyRunner: at once, but
 * never sooner than --iptables-min-sync-period after the previous one, plus the node's own
 * delay), and only a sync changes where traffic goes. Each service whose rules changed is one
 * timeline event, `node NODE applied SERVICE: …` with the endpoints traffic from a pod may use.
 * Requests are balanced round robin over the eligible endpoints (iptables picks at random; the
 * model stays deterministic).
 */
export class KubeProxy {
  private readonly services: SharedInformer<Service>;
  private readonly slices: SharedInformer<EndpointSlice>;
  private readonly applied = new Map<string, AppliedService>();
  private readonly rr = new Map<string, number>();
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  private pending?: TimerHandle;
  private readonly proxyTerminating: boolean;

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    api: ApiServer,
    readonly nodeName: string,
    readonly config: KubeProxyConfig,
  ) {
    this.services = new SharedInformer<Service>(api, 'services');
    this.slices = new SharedInformer<EndpointSlice>(api, 'endpointslices');
    this.slices.addIndexer(LABEL_SERVICE_NAME, (s) => (s.metadata.labels?.[LABEL_SERVICE_NAME] ? [`${s.metadata.namespace}/${s.metadata.labels[LABEL_SERVICE_NAME]}`] : []));
    this.proxyTerminating = config.release.enabled('ProxyTerminatingEndpoints');
    const changed = () => this.requestSync();
    this.services.addEventHandler(changed);
    this.slices.addEventHandler(changed);
  }

  start(): void {
    this.services.start();
    this.slices.start();
  }

  /** BoundedFrequencyRunner.Run: one sync pending at a time, no sooner than minSyncPeriod after the last. */
  private requestSync(): void {
    if (this.pending) return;
    const at = Math.max(this.clock.now() + this.config.syncDelayMs, this.lastSyncAt + this.config.minSyncPeriodMs);
    this.pending = this.clock.at(at, () => this.syncProxyRules());
  }

  private syncProxyRules(): void {
    this.pending = undefined;
    this.lastSyncAt = this.clock.now();
    const seen = new Set<string>();
    for (const svc of this.services.list()) {
      const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
      seen.add(key);
      const endpoints = endpointsFromSlices(this.slices.byIndex(LABEL_SERVICE_NAME, key));
      const before = this.applied.get(key);
      if (before && jsonEqual(before.endpoints, endpoints) && jsonEqual(before.svc.spec, svc.spec)) continue;
      this.applied.set(key, { svc, endpoints });
      this.timeline.record('proxy', `node ${this.nodeName} applied ${svc.metadata.name}: ${this.describe(endpoints)}`, `${SOURCE} → ${TOPOLOGY_SOURCE}`, { actor: `kube-proxy/${this.nodeName}` });
    }
    for (const key of [...this.applied.keys()]) {
      if (seen.has(key)) continue;
      this.timeline.record('proxy', `node ${this.nodeName} applied ${this.applied.get(key)!.svc.metadata.name}: service removed`, SOURCE, { actor: `kube-proxy/${this.nodeName}` });
      this.applied.delete(key);
    }
  }

  /** What traffic from a pod (Cluster policy) may use: the ready endpoints, or the serving terminating ones when none is ready. */
  private describe(endpoints: readonly ProxyEndpoint[]): string {
    const usable = categorizeEndpoints(endpoints, 'Cluster', this.nodeName, this.proxyTerminating);
    if (usable.length === 0) return 'no endpoints (traffic refused)';
    const names = usable.map((e) => e.pod).join(', ');
    return usable.every((e) => e.ready) ? names : `${names} (serving, terminating: no ready endpoint left)`;
  }

  /** The service as this node's rules know it (undefined before its first sync with it). */
  appliedService(svcKey: string): Service | undefined {
    return this.applied.get(svcKey)?.svc;
  }

  /** Whether this node's rules send external Local traffic of the service anywhere (the health check node port's answer). */
  hasLocalEndpoints(svcKey: string): boolean {
    const a = this.applied.get(svcKey);
    return !!a && categorizeEndpoints(a.endpoints, 'Local', this.nodeName, this.proxyTerminating).length > 0;
  }

  /** The endpoint a new connection to the service goes to by this node's rules (undefined: refused, no endpoint). */
  route(svcKey: string, external: boolean): ProxyEndpoint | undefined {
    const a = this.applied.get(svcKey);
    if (!a) return undefined;
    const policy = trafficPolicy(a.svc, external);
    const usable = categorizeEndpoints(a.endpoints, policy, this.nodeName, this.proxyTerminating);
    if (usable.length === 0) return undefined;
    const rrKey = `${svcKey} ${policy}`;
    const i = this.rr.get(rrKey) ?? 0;
    this.rr.set(rrKey, i + 1);
    return usable[i % usable.length];
  }
}
