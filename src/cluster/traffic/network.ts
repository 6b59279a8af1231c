import type { ApiServer } from '../../apiserver/apiserver';
import type { Clock } from '../../foundation/clock';
import type { SimNode } from '../node';
import { KubeProxy, type KubeProxyConfig } from '../../components/proxy/kube-proxy';
import { LoadBalancer, loadBalancerInformers } from '../../components/proxy/load-balancer';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import { TrafficClients } from './traffic';

/** --iptables-min-sync-period's default. */
export const DEFAULT_MIN_SYNC_PERIOD_MS = 1000;

/**
 * The service data path of a cluster: one kube-proxy per node, one load balancer per service
 * that outside clients reach, and the clients. It exists once a scenario has a service (a
 * cluster without one has nothing for kube-proxy to do, and so pays nothing for it).
 */
export class ServiceNetwork {
  private readonly proxies = new Map<string, KubeProxy>();
  private readonly balancers = new Map<string, LoadBalancer>();
  private readonly lbInformers: ReturnType<typeof loadBalancerInformers>;
  /** Load balancer lags set before their load balancer was first needed, by service key. */
  private readonly lags = new Map<string, number>();
  readonly clients: TrafficClients;

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly api: ApiServer,
    private readonly nodes: () => readonly SimNode[],
    private readonly release: Release,
    /** Per-node delays (`kube-proxy on node … applies changes after …`). */
    private readonly proxyDelays: ReadonlyMap<string, number> = new Map(),
    /** The apiserver as each node's kube-proxy reaches it (a perturbed view, src/cluster/perturbation/, or the apiserver). */
    private readonly proxyApi: (node: string) => ApiServer = () => api,
  ) {
    this.lbInformers = loadBalancerInformers(api);
    this.lbInformers.services.start();
    this.lbInformers.slices.start();
    for (const n of nodes()) this.addNode(n.name);
    this.clients = new TrafficClients(clock, timeline, {
      nodes: () => this.nodes(),
      proxy: (node) => this.proxies.get(node),
      loadBalancer: (svcKey) => this.loadBalancer(svcKey),
      servingContainer: (uid, pod, namespace) => this.servingContainer(uid, pod, namespace),
    });
  }

  /** A node's kube-proxy starts with it. */
  addNode(name: string): void {
    if (this.proxies.has(name)) return;
    const config: KubeProxyConfig = {
      minSyncPeriodMs: DEFAULT_MIN_SYNC_PERIOD_MS,
      syncDelayMs: this.proxyDelays.get(name) ?? 0,
      release: this.release,
    };
    const proxy = new KubeProxy(this.clock, this.timeline, this.proxyApi(name), name, config);
    this.proxies.set(name, proxy);
    proxy.start();
  }

  proxy(node: string): KubeProxy {
    const p = this.proxies.get(node);
    if (!p) throw new Error(`no kube-proxy on node "${node}"`);
    return p;
  }

  /** The load balancer of a service (created with a lag of 0 unless one was set: it notices changes as they are written). */
  loadBalancer(svcKey: string): LoadBalancer {
    let lb = this.balancers.get(svcKey);
    if (!lb) {
      lb = new LoadBalancer(
        this.clock,
        this.timeline,
        this.lbInformers.services,
        this.lbInformers.slices,
        svcKey,
        this.lags.get(svcKey) ?? 0,
      );
      this.balancers.set(svcKey, lb);
    }
    return lb;
  }

  /** `the load balancer of service … notices endpoint changes after …`: before the load balancer is first used. */
  setLoadBalancerLag(svcKey: string, lagMs: number): void {
    if (this.balancers.has(svcKey))
      throw new Error(
        `the load balancer of service "${svcKey}" is already in use: its lag must be set before the scenario starts`,
      );
    this.lags.set(svcKey, lagMs);
    this.loadBalancer(svcKey);
  }

  private readonly containers = new Map<string, string>();

  /** The pod's first regular container serves its traffic (looked up once per pod, while the pod exists). */
  private servingContainer(uid: string, pod: string, namespace: string): string | undefined {
    const known = this.containers.get(uid);
    if (known) return known;
    const r = this.api.get('pods', namespace, pod);
    if (!r.ok || r.object.metadata.uid !== uid) return undefined;
    const name = r.object.spec?.containers[0]?.name;
    if (name) this.containers.set(uid, name);
    return name;
  }
}
