import type { ApiServer } from '../../apiserver/apiserver';
import { jsonEqual } from '../../apimachinery/object';
import type { Service } from '../../apimachinery/types';
import type { Clock, TimerHandle } from '../../foundation/clock';
import { SharedInformer } from '../../client/informer';
import { EndpointSliceCache } from './endpointslice-cache';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import {
  categorizeEndpoints,
  endpointsFromSlices,
  sameEndpoints,
  TOPOLOGY_SOURCE,
  trafficPolicy,
  type ProxyEndpoint,
} from './topology';

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
  /** The service's and its slices' resourceVersions the rules were made from. */
  readonly from: string;
}

/**
 * describe's text per endpoint list, without and with ProxyTerminatingEndpoints. The Cluster
 * policy's endpoints do not depend on the node, and every node's proxy holds the same list for a
 * service of one slice (topology.ts converts each slice once): the proxies of 100 nodes applying a
 * slice write joined the same 100 pod names 100 times.
 */
const described = [new WeakMap<readonly ProxyEndpoint[], string>(), new WeakMap<readonly ProxyEndpoint[], string>()];

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
  private readonly slices: EndpointSliceCache;
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
    this.slices = new EndpointSliceCache(api, (svcKey) => this.changed(svcKey));
    this.proxyTerminating = config.release.enabled('ProxyTerminatingEndpoints');
    // The change trackers (serviceChangeTracker, endpointsChangeTracker): which services a sync must look at.
    this.services.addEventHandler((key) => this.changed(key));
  }

  private readonly dirty = new Set<string>();

  private changed(svcKey: string): void {
    this.dirty.add(svcKey);
    this.requestSync();
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
    const keys = [...this.dirty].sort();
    this.dirty.clear();
    for (const key of keys) {
      const svc = this.services.get(key);
      const before = this.applied.get(key);
      if (!svc) {
        if (!before) continue;
        this.applied.delete(key);
        this.timeline.record(
          'proxy',
          `node ${this.nodeName} applied ${before.svc.metadata.name}: service removed`,
          SOURCE,
          { actor: `kube-proxy/${this.nodeName}` },
        );
        continue;
      }
      const slices = this.slices.slicesOf(key);
      const from = `${svc.metadata.resourceVersion} ${slices.map((s) => `${s.metadata.name}@${s.metadata.resourceVersion}`).join(',')}`;
      if (before?.from === from) continue;
      const endpoints = endpointsFromSlices(slices);
      this.applied.set(key, { svc, endpoints, from });
      if (before && sameEndpoints(before.endpoints, endpoints) && jsonEqual(before.svc.spec, svc.spec)) continue;
      this.timeline.record(
        'proxy',
        `node ${this.nodeName} applied ${svc.metadata.name}: ${this.describe(endpoints)}`,
        `${SOURCE} → ${TOPOLOGY_SOURCE}`,
        { actor: `kube-proxy/${this.nodeName}` },
      );
    }
  }

  /** What traffic from a pod (Cluster policy) may use: the ready endpoints, or the serving terminating ones when none is ready. */
  private describe(endpoints: readonly ProxyEndpoint[]): string {
    const cache = described[this.proxyTerminating ? 1 : 0];
    let text = cache.get(endpoints);
    if (text === undefined) {
      const usable = categorizeEndpoints(endpoints, 'Cluster', this.nodeName, this.proxyTerminating);
      const names = usable.map((e) => e.pod).join(', ');
      text =
        usable.length === 0
          ? 'no endpoints (traffic refused)'
          : usable.every((e) => e.ready)
            ? names
            : `${names} (serving, terminating: no ready endpoint left)`;
      cache.set(endpoints, text);
    }
    return text;
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
