import type { ApiServer } from '../../apiserver/apiserver';
import type { EndpointSlice, Service } from '../../apimachinery/types';
import type { Clock } from '../../foundation/clock';
import { SharedInformer } from '../../client/informer';
import { LABEL_SERVICE_NAME } from '../../helpers/well-known';
import type { Timeline } from '../../foundation/timeline/timeline';
import { endpointsFromSlices, type ProxyEndpoint } from './topology';

/** The node-or-pod a load balancer sends one request to. */
export type LoadBalancerTarget = { kind: 'pod'; endpoint: ProxyEndpoint } | { kind: 'node'; node: string };

/**
 * N15 — a load balancer or ingress controller in front of one service, outside the cluster's
 * own components (an ingress controller, a cloud load balancer in IP mode): it watches the
 * service's EndpointSlices and notices each change `lagMs` later (its controller's resync, its
 * target registration and health checks — the usual cause of 502s during a rollout), then sends
 * each request straight to one of the endpoints it believes ready, round robin. With
 * externalTrafficPolicy Local it sends to the nodes that had a ready endpoint instead (the
 * health check node port), whose kube-proxy forwards to its own endpoints.
 */
export class LoadBalancer {
  private view: ProxyEndpoint[] = [];
  private svc?: Service;
  private next = 0;

  constructor(
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly services: SharedInformer<Service>,
    private readonly slices: SharedInformer<EndpointSlice>,
    readonly svcKey: string,
    readonly lagMs: number,
  ) {
    // What it will believe once it notices a change: the state of the moment of the change.
    const changed = () => {
      const snapshot = endpointsFromSlices(this.slices.byIndex(LABEL_SERVICE_NAME, this.svcKey));
      const svc = this.services.get(this.svcKey);
      this.clock.after(this.lagMs, () => this.notice(snapshot, svc));
    };
    services.addEventHandler((key) => {
      if (key === this.svcKey) changed();
    });
    slices.addEventHandler((_key, old, slice) => {
      const s = (slice ?? old)!;
      if (`${s.metadata.namespace}/${s.metadata.labels?.[LABEL_SERVICE_NAME] ?? ''}` === this.svcKey) changed();
    });
  }

  private notice(endpoints: ProxyEndpoint[], svc: Service | undefined): void {
    const before = this.view
      .filter((e) => e.ready)
      .map((e) => e.pod)
      .join(', ');
    this.view = endpoints;
    this.svc = svc;
    const after = endpoints
      .filter((e) => e.ready)
      .map((e) => e.pod)
      .join(', ');
    if (before !== after)
      this.timeline.record(
        'loadbalancer',
        `load balancer of ${this.svcKey.slice(this.svcKey.indexOf('/') + 1)} sends to: ${after || 'nothing (502)'}`,
        'an ingress controller or cloud load balancer (IP mode) watching EndpointSlices, outside Kubernetes',
        { actor: 'load-balancer' },
      );
  }

  route(): LoadBalancerTarget | undefined {
    const ready = this.view.filter((e) => e.ready);
    if (ready.length === 0) return undefined;
    const i = this.next++;
    if (this.svc?.spec?.externalTrafficPolicy === 'Local') {
      const nodes = [...new Set(ready.map((e) => e.nodeName).filter((n): n is string => !!n))];
      return { kind: 'node', node: nodes[i % nodes.length] };
    }
    return { kind: 'pod', endpoint: ready[i % ready.length] };
  }
}

/** The informers the load balancers share (their own watches, not kube-controller-manager's). */
export function loadBalancerInformers(api: ApiServer): {
  services: SharedInformer<Service>;
  slices: SharedInformer<EndpointSlice>;
} {
  const services = new SharedInformer<Service>(api, 'services');
  const slices = new SharedInformer<EndpointSlice>(api, 'endpointslices');
  slices.addIndexer(LABEL_SERVICE_NAME, (s) =>
    s.metadata.labels?.[LABEL_SERVICE_NAME] ? [`${s.metadata.namespace}/${s.metadata.labels[LABEL_SERVICE_NAME]}`] : [],
  );
  return { services, slices };
}
