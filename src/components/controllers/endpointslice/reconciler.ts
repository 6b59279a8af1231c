import type { Endpoint, EndpointSlice, Pod, Service } from '../../../apimachinery/types';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME } from '../../../helpers/well-known';
import {
  CONTROLLER_NAME,
  getEndpointPorts,
  MAX_ENDPOINTS_PER_SLICE,
  podToEndpoint,
  portsNeedNoPod,
  shouldPodBeInEndpoints,
} from './utils';

export const RECONCILER_SOURCE = 'staging/src/k8s.io/endpointslice/reconciler.go';

/** What one endpoint of a slice became in a write: its pod and its conditions, or that it left. */
export interface EndpointChange {
  readonly pod: string;
  readonly endpoint?: Endpoint;
}

/** One write the reconciler decided, with the endpoints it changed (for the timeline). */
export interface SliceWrite {
  readonly slice: EndpointSlice;
  readonly changes: readonly EndpointChange[];
}

export interface ReconcileResult {
  readonly create: SliceWrite[];
  readonly update: SliceWrite[];
  readonly delete: EndpointSlice[];
}

/**
 * The endpoint's identity in the desired set (endpointsliceutil.EndpointSet's hashEndpoint) is
 * its addresses, node and target pod — not its conditions, which may change in place. Every
 * desired endpoint is a pod's, one per pod, so the set is filed by the target pod's uid (a stored
 * string, no key built per endpoint) and a match is then checked on the other two.
 */
function targetUid(ep: Endpoint): string {
  return ep.targetRef?.uid ?? '';
}

/** The rest of hashEndpoint's identity: the same addresses and node. */
function sameAddressesAndNode(a: Endpoint, b: Endpoint): boolean {
  return (a.nodeName ?? '') === (b.nodeName ?? '') && addressesOf(a) === addressesOf(b);
}

function addressesOf(ep: Endpoint): string {
  // One address is the usual case: no join (a stored endpoint's addresses are a frozen array,
  // which V8's array builtins walk on a slow path).
  return ep.addresses.length === 1 ? ep.addresses[0] : ep.addresses.join(',');
}

/** endpointsliceutil EndpointsEqualBeyondHash: what the hash leaves out — the conditions, zone, hostname and target. */
function endpointsEqualBeyondHash(a: Endpoint, b: Endpoint): boolean {
  const x = a.conditions ?? {};
  const y = b.conditions ?? {};
  return (
    x.ready === y.ready &&
    x.serving === y.serving &&
    x.terminating === y.terminating &&
    a.zone === b.zone &&
    a.hostname === b.hostname &&
    a.targetRef?.name === b.targetRef?.name &&
    a.targetRef?.uid === b.targetRef?.uid &&
    a.addresses.length === b.addresses.length
  );
}

function podName(ep: Endpoint): string {
  return ep.targetRef?.name ?? ep.addresses[0];
}

/** utils.go newEndpointSlice: generateName SERVICE-, the service's labels plus the two reserved ones, owned by the service. */
export function newEndpointSlice(service: Service, ports: EndpointSlice['ports']): EndpointSlice {
  const name = service.metadata.name!;
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.metadata.labels ?? {}))
    if (k !== LABEL_SERVICE_NAME && k !== LABEL_MANAGED_BY) labels[k] = v;
  labels[LABEL_SERVICE_NAME] = name;
  labels[LABEL_MANAGED_BY] = CONTROLLER_NAME;
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: `${name}-`,
      namespace: service.metadata.namespace,
      labels,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name,
          uid: service.metadata.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    addressType: 'IPv4',
    endpoints: [],
    ports,
  };
}

/**
 * N7 — reconciler.go reconcile / reconcileByAddressType for one IPv4 service: the desired
 * endpoints (one per pod that ShouldPodBeInEndpoints, terminating ones included), grouped by
 * their ports (endpointMeta); each existing slice keeps the endpoints still desired, in its order,
 * with their new conditions — a slice left empty is deleted; the endpoints left over fill the
 * slices being updated first, then the unchanged slice closest to full (getSliceToFill), then new
 * slices of at most `maxEndpoints` (100). A service with no endpoint at all has one empty
 * placeholder slice.
 */
export function reconcile(
  service: Service,
  pods: readonly Pod[],
  existing: readonly EndpointSlice[],
  maxEndpoints = MAX_ENDPOINTS_PER_SLICE,
  /** findPort looks up named ports in sidecars too (v1.33 on, kubernetes#128850). */
  sidecarPorts = true,
): ReconcileResult {
  // desired endpoints by endpointMeta (ports)
  const groups = new Map<string, { ports: EndpointSlice['ports']; desired: Map<string, Endpoint> }>();
  // Ports that cannot depend on the pod (no named targetPort) are built and serialised once per
  // reconcile instead of once per pod: the same endpointMeta for every pod.
  const fixedPorts = portsNeedNoPod(service) ? getEndpointPorts(service, undefined, sidecarPorts) : undefined;
  const fixedMeta = fixedPorts && JSON.stringify(fixedPorts);
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i];
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = fixedPorts ?? getEndpointPorts(service, pod, sidecarPorts);
    const meta = fixedMeta ?? JSON.stringify(ports);
    let g = groups.get(meta);
    if (!g) groups.set(meta, (g = { ports, desired: new Map() }));
    const ep = podToEndpoint(pod, service);
    g.desired.set(targetUid(ep), ep);
  }
  const result = { create: [] as SliceWrite[], update: [] as SliceWrite[], delete: [] as EndpointSlice[] };
  const slicesByMeta = new Map<string, EndpointSlice[]>();
  for (const s of existing) {
    const meta = JSON.stringify(s.ports ?? []);
    if (!groups.has(meta)) {
      result.delete.push(s);
      continue;
    }
    let list = slicesByMeta.get(meta);
    if (!list) slicesByMeta.set(meta, (list = []));
    list.push(s);
  }
  for (const [meta, { ports, desired }] of groups) {
    const toUpdate: { slice: EndpointSlice; changes: EndpointChange[] }[] = [];
    const unchanged: EndpointSlice[] = [];
    for (const slice of slicesByMeta.get(meta) ?? []) {
      const kept: Endpoint[] = [];
      const changes: EndpointChange[] = [];
      const endpoints = slice.endpoints ?? [];
      for (let i = 0; i < endpoints.length; i++) {
        const ep = endpoints[i];
        const key = targetUid(ep);
        const want = desired.get(key);
        if (!want || !sameAddressesAndNode(want, ep)) {
          changes.push({ pod: podName(ep) });
          continue;
        }
        kept.push(want);
        if (!endpointsEqualBeyondHash(want, ep)) changes.push({ pod: podName(want), endpoint: want });
        desired.delete(key);
      }
      if (changes.length === 0) unchanged.push(slice);
      else if (kept.length === 0) result.delete.push(slice);
      else toUpdate.push({ slice: { ...slice, endpoints: kept }, changes });
    }
    // The endpoints no slice holds yet: the slices being written first, then the fullest unchanged one with room, then new ones.
    let left = [...desired.values()];
    toUpdate.sort((a, b) => (b.slice.endpoints ?? []).length - (a.slice.endpoints ?? []).length);
    for (const u of toUpdate) {
      const room = maxEndpoints - (u.slice.endpoints ?? []).length;
      if (room <= 0 || left.length === 0) continue;
      const add = left.slice(0, room);
      left = left.slice(room);
      u.slice.endpoints = [...(u.slice.endpoints ?? []), ...add];
      u.changes.push(...add.map((ep) => ({ pod: podName(ep), endpoint: ep })));
    }
    while (left.length > 0) {
      const fill = sliceToFill(unchanged, left.length, maxEndpoints);
      if (fill) {
        unchanged.splice(unchanged.indexOf(fill), 1);
        toUpdate.push({
          slice: { ...fill, endpoints: [...(fill.endpoints ?? []), ...left] },
          changes: left.map((ep) => ({ pod: podName(ep), endpoint: ep })),
        });
        left = [];
        break;
      }
      const add = left.slice(0, maxEndpoints);
      left = left.slice(maxEndpoints);
      result.create.push({
        slice: { ...newEndpointSlice(service, ports), endpoints: add },
        changes: add.map((ep) => ({ pod: podName(ep), endpoint: ep })),
      });
    }
    result.update.push(...toUpdate);
  }
  // The placeholder (reconcile): a service whose slices would all be deleted and none created gets
  // one empty slice; an existing placeholder that would be deleted is kept instead.
  if (existing.length === result.delete.length && result.create.length === 0) {
    if (result.delete.length === 1 && isPlaceholder(result.delete[0])) result.delete.length = 0;
    else result.create.push({ slice: newEndpointSlice(service, []), changes: [] });
  }
  return result;
}

function isPlaceholder(s: EndpointSlice): boolean {
  return (s.endpoints ?? []).length === 0 && (s.ports ?? []).length === 0;
}

/** utils.go getSliceToFill: the slice that will be closest to full once `n` endpoints are added (none if none has room). */
function sliceToFill(slices: readonly EndpointSlice[], n: number, max: number): EndpointSlice | undefined {
  let best: EndpointSlice | undefined;
  let closest = max;
  for (const s of slices) {
    const diff = max - (n + (s.endpoints ?? []).length);
    if (diff >= 0 && diff < closest) {
      closest = diff;
      best = s;
      if (diff === 0) break;
    }
  }
  return best;
}
