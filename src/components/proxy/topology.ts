import type { EndpointSlice, Service } from '../../apimachinery/types';

/** One endpoint as a proxy has it (pkg/proxy/endpoint.go BaseEndpointInfo). */
export interface ProxyEndpoint {
  readonly ip: string;
  readonly port: number;
  readonly pod: string;
  readonly uid: string;
  readonly nodeName?: string;
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
}

export const TOPOLOGY_SOURCE = 'pkg/proxy/topology.go CategorizeEndpoints';

/**
 * pkg/proxy/endpointslicecache.go: the endpoints of a service from all its slices (ready unset
 * counts as ready, serving unset as ready), in slice-name and then endpoint order.
 */
export function endpointsFromSlices(slices: readonly EndpointSlice[]): ProxyEndpoint[] {
  if (slices.length === 1) return sliceEndpoints(slices[0]);
  const out: ProxyEndpoint[] = [];
  for (const s of [...slices].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1)))
    out.push(...sliceEndpoints(s));
  return out;
}

/**
 * One slice's endpoints, converted once per stored version: every node's proxy (and the load
 * balancer) is handed the same watch event object, so they share the conversion.
 */
const converted = new WeakMap<EndpointSlice, readonly ProxyEndpoint[]>();

function sliceEndpoints(s: EndpointSlice): ProxyEndpoint[] {
  const known = converted.get(s);
  if (known) return known as ProxyEndpoint[];
  const out: ProxyEndpoint[] = [];
  {
    const port = s.ports?.[0]?.port ?? 0;
    for (const ep of s.endpoints ?? []) {
      const ready = ep.conditions?.ready ?? true;
      out.push({
        ip: ep.addresses[0],
        port,
        pod: ep.targetRef?.name ?? ep.addresses[0],
        uid: ep.targetRef?.uid ?? '',
        nodeName: ep.nodeName,
        ready,
        serving: ep.conditions?.serving ?? ready,
        terminating: ep.conditions?.terminating ?? false,
      });
    }
  }
  converted.set(s, out);
  return out;
}

/**
 * N13 — topology.go CategorizeEndpoints: the endpoints traffic may go to. With the Cluster
 * policy, the ready endpoints; with Local, the ready ones on this node. When that leaves none,
 * the serving terminating ones instead (ProxyTerminatingEndpoints: β on 1.26, GA 1.28, always
 * from 1.30) — so a rollout whose last endpoint is terminating keeps serving until its process
 * stops; without it (the gate off on 1.26–1.27) nothing, and the traffic is refused.
 */
export function categorizeEndpoints(
  endpoints: readonly ProxyEndpoint[],
  policy: 'Cluster' | 'Local',
  nodeName: string,
  proxyTerminating: boolean,
): ProxyEndpoint[] {
  const eligible = policy === 'Local' ? endpoints.filter((e) => e.nodeName === nodeName) : endpoints;
  const ready = eligible.filter((e) => e.ready);
  if (ready.length > 0 || !proxyTerminating) return ready;
  return eligible.filter((e) => e.serving && e.terminating);
}

/** The traffic policy that applies: externalTrafficPolicy for traffic from outside, internalTrafficPolicy for traffic from a pod or node. */
export function trafficPolicy(svc: Service, external: boolean): 'Cluster' | 'Local' {
  const p = external ? svc.spec?.externalTrafficPolicy : svc.spec?.internalTrafficPolicy;
  return p === 'Local' ? 'Local' : 'Cluster';
}

/** Whether two endpoint lists route alike (same endpoints, same conditions, same order). */
export function sameEndpoints(a: readonly ProxyEndpoint[], b: readonly ProxyEndpoint[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (
      x.ip !== y.ip ||
      x.uid !== y.uid ||
      x.port !== y.port ||
      x.nodeName !== y.nodeName ||
      x.ready !== y.ready ||
      x.serving !== y.serving ||
      x.terminating !== y.terminating
    )
      return false;
  }
  return true;
}
