import type { Service } from '../apimachinery/types';
import { type Cluster, USER } from '../cluster/cluster';
import type { ClientSpec } from '../cluster/traffic/traffic';
import { listNames, PlanError } from './plan-error';

/**
 * The services of a plan and their data path: kube-proxy's delays by node, the load balancers'
 * lags, and the client streams that send requests to them from T+0.
 */
export class ServicePlan {
  /** Services to create before the pods (with them, the service data path: kube-proxy on every node). */
  readonly services = new Map<string, Service>();
  /** `kube-proxy on node … applies changes after …`, by node. */
  readonly proxyDelays = new Map<string, number>();
  /** `the load balancer of service … notices endpoint changes after …`, by service. */
  readonly lbLags = new Map<string, number>();
  /** Client streams, started at T+0 (the end of the warm-up). */
  private readonly clients: ClientSpec[] = [];

  constructor(
    private readonly cluster: () => Cluster,
    private readonly started: () => boolean,
  ) {}

  /** A service to create (at once when the plan runs already). */
  add(name: string, svc: Service): void {
    this.services.set(name, svc);
    if (this.started()) this.create(name);
  }

  /** The load balancer in front of a service notices endpoint changes this long after they are written. */
  loadBalancerLag(service: string, ms: number): void {
    this.knownService(service);
    this.lbLags.set(service, ms);
  }

  /** A stream of requests to a service, from T+0 on. */
  trafficClients(spec: Omit<ClientSpec, 'namespace'>): void {
    this.knownService(spec.service);
    if (spec.everyMs <= 0)
      throw new PlanError(`clients must wait a positive time between requests, not ${spec.everyMs}ms`);
    const full = { ...spec, namespace: 'default' };
    this.clients.push(full);
    if (this.started()) this.cluster().network().clients.add(full, this.cluster().clock.now());
  }

  knownService(name: string): void {
    if (!this.services.has(name))
      throw new PlanError(
        `unknown service "${name}": declare it first with  Given a service "${name}" selecting pods with label "app=${name}"  (services so far: ${listNames([...this.services.keys()])})`,
      );
  }

  /** The services outside clients reach through their load balancer (what a load balancer watches: their EndpointSlices). */
  loadBalancedServices(): string[] {
    return [...new Set([...this.clients.filter((c) => c.external).map((c) => c.service), ...this.lbLags.keys()])];
  }

  /** The network (kube-proxy on every node, the load balancers), the services, then the clients from `clientsFromMs`. */
  start(clientsFromMs: number): void {
    if (this.services.size === 0) return;
    const network = this.cluster().network(this.proxyDelays);
    for (const [service, lag] of this.lbLags) network.setLoadBalancerLag(`default/${service}`, lag);
    for (const name of this.services.keys()) this.create(name);
    for (const spec of this.clients) network.clients.add(spec, clientsFromMs);
  }

  private create(name: string): void {
    const cluster = this.cluster();
    const svc = this.services.get(name)!;
    const r = cluster.apiserver.create(USER, 'services', svc.metadata.namespace ?? 'default', svc);
    if (!r.ok)
      throw new PlanError(`service "${name}" could not be created: ${r.code} ${r.status.reason}: ${r.status.message}`);
    this.services.set(name, r.object);
    cluster.network();
    cluster.flush();
  }
}
