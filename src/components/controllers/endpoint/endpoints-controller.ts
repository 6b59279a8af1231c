import type { ClientIdentity } from '../../../apiserver/apiserver';
import { jsonEqual } from '../../../apimachinery/object';
import type {
  EndpointAddress,
  EndpointPort,
  Endpoints,
  EndpointSubset,
  Pod,
  Service,
} from '../../../apimachinery/types';
import { ControllerBase } from '../controller-base';
import type { ControllerContext } from '../controller-manager';
import { findPort, podEndpointChanged, portsNeedNoPod, shouldPodBeInEndpoints } from '../endpointslice/utils';
import { isPodReady } from '../../../helpers/pod-util';
import { splitKey, type SharedInformer } from '../../../client/informer';
import { podInformer, type PodInformer } from '../../../client/pod-informer';
import { ServiceSelectorCache } from '../service-selector-cache';
import { WorkQueue } from '../../../client/workqueue';

const SOURCE = 'pkg/controller/endpoint/endpoints_controller.go';
const IDENTITY: ClientIdentity = { name: 'endpoint-controller', component: 'endpoints' };

export interface EndpointsConfig {
  /** --endpoint-updates-batch-period (default 0): a pod change is synced after this delay. */
  endpointUpdatesBatchPeriodMs: number;
}

export const DEFAULT_ENDPOINTS_CONFIG: EndpointsConfig = { endpointUpdatesBatchPeriodMs: 0 };

/**
 * LessEndpointAddress: by IP compared as bytes of its text (so 10.0.0.10 sorts before 10.0.0.9),
 * then by the target's UID (an address without one first).
 */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const au = a.targetRef?.uid;
  const bu = b.targetRef?.uid;
  if (au === bu) return 0;
  if (bu === undefined) return 1;
  if (au === undefined) return -1;
  return au < bu ? -1 : 1;
}

const addressKey = (a: EndpointAddress): string => `${a.ip}/${a.targetRef?.uid ?? ''}`;
const portKey = (p: EndpointPort): string =>
  JSON.stringify([p.name ?? '', p.port, p.protocol ?? '', p.appProtocol ?? '']);

/**
 * N9 — endpoints util RepackSubsets: every (address, port) pair is mapped first, an address
 * keyed by IP and target UID (mapAddressByPort: the first copy of it is kept, and for one port
 * not ready always wins over ready, whatever the order they came in); then the ports that share
 * exactly the same addresses with the same readiness form one subset, its ready addresses in
 * `addresses`, the others in `notReadyAddresses`, each sorted (LessEndpointAddress). Upstream
 * orders ports and subsets by an md5 of their Go dump; here by port name, number and protocol,
 * and subsets by their first port — the same subsets, maybe in another order.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const allAddrs = new Map<string, EndpointAddress>();
  const byPort = new Map<string, { port: EndpointPort; ready: Map<string, boolean> }>();
  // endpointSubsets hands every pod the same port objects when no targetPort is named: each
  // object's key is serialised once, not once per address.
  const portKeys = new Map<EndpointPort, string>();
  const map = (addr: EndpointAddress, port: EndpointPort, ready: boolean) => {
    const key = addressKey(addr);
    if (!allAddrs.has(key)) allAddrs.set(key, { ...addr });
    let pk = portKeys.get(port);
    if (pk === undefined) portKeys.set(port, (pk = portKey(port)));
    let entry = byPort.get(pk);
    if (!entry) byPort.set(pk, (entry = { port, ready: new Map() }));
    // Not ready trumps ready: only an unrecorded or ready state is overwritten.
    if (entry.ready.get(key) !== false) entry.ready.set(key, ready);
  };
  // A subset without ports (a headless service's) is kept under a sentinel port -1.
  for (const ss of subsets)
    for (const port of ss.ports?.length ? ss.ports : [SENTINEL_PORT]) {
      for (const a of ss.addresses ?? []) map(a, port, true);
      for (const a of ss.notReadyAddresses ?? []) map(a, port, false);
    }
  // The ports that offer the same set of (address, readiness).
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, ready } of byPort.values()) {
    // One port (the usual service) makes one group: no key needed (it would sort and serialise
    // every address of the service at every sync).
    const k =
      byPort.size === 1 ? '' : JSON.stringify([...ready.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { ready, ports: [] }));
    if (port.port > 0) g.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const g of groups.values()) {
    const subset: EndpointSubset = {};
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [key, isReady] of g.ready) (isReady ? ready : notReady).push(allAddrs.get(key)!);
    if (ready.length > 0) subset.addresses = ready.sort(compareAddresses);
    if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(compareAddresses);
    if (g.ports.length > 0) subset.ports = g.ports.sort(comparePorts);
    out.push(subset);
  }
  return out.sort((a, b) => comparePorts(a.ports?.[0] ?? SENTINEL_PORT, b.ports?.[0] ?? SENTINEL_PORT));
}

const SENTINEL_PORT: EndpointPort = { port: -1 };

function comparePorts(a: EndpointPort, b: EndpointPort): number {
  const an = a.name ?? '';
  const bn = b.name ?? '';
  if (an !== bn) return an < bn ? -1 : 1;
  if (a.port !== b.port) return a.port - b.port;
  const ap = a.protocol ?? '';
  const bp = b.protocol ?? '';
  return ap < bp ? -1 : ap > bp ? 1 : 0;
}

/**
 * N8 — syncService's subsets: every selected pod that ShouldPodBeInEndpoints — with
 * includeTerminating = publishNotReadyAddresses (the Endpoints object drops a terminating pod
 * unless the service tolerates unready endpoints) — is an address for each service port it has,
 * ready when the service publishes not-ready addresses or the pod is Ready (addEndpointSubset),
 * else not ready; then repacked.
 */
export function endpointSubsets(service: Service, pods: readonly Pod[], sidecarPorts = true): EndpointSubset[] {
  const tolerateUnready = !!service.spec?.publishNotReadyAddresses;
  const subsets: EndpointSubset[] = [];
  // Without a named targetPort the ports are the same for every pod: built once.
  const fixedPorts = portsNeedNoPod(service) ? endpointPorts(service, undefined, sidecarPorts) : undefined;
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const epa: EndpointAddress = {
      ip: pod.status!.podIP!,
      targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
    };
    if (pod.spec?.nodeName) epa.nodeName = pod.spec.nodeName;
    const ready = tolerateUnready || isPodReady(pod);
    const ports = service.spec?.ports ?? [];
    if (ports.length === 0 && service.spec?.clusterIP === 'None') {
      subsets.push(ready ? { addresses: [epa] } : { notReadyAddresses: [epa] });
      continue;
    }
    const epps = fixedPorts ?? endpointPorts(service, pod, sidecarPorts);
    for (let i = 0; i < epps.length; i++) {
      const epp = epps[i];
      subsets.push(ready ? { addresses: [epa], ports: [epp] } : { notReadyAddresses: [epa], ports: [epp] });
    }
  }
  return repackSubsets(subsets);
}

/** The EndpointPort of each service port the pod has (without a pod: only when portsNeedNoPod). */
function endpointPorts(service: Service, pod: Pod | undefined, sidecarPorts: boolean): EndpointPort[] {
  const out: EndpointPort[] = [];
  const ports = service.spec?.ports ?? [];
  for (let i = 0; i < ports.length; i++) {
    const sp = ports[i];
    // podutil.FindPort looks up named ports in sidecars too from v1.32 (kubernetes#127976).
    const port = findPort(pod, sp, sidecarPorts);
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' });
  }
  return out;
}

/** The subsets as the timeline names them: `ready web-1, web-2; not ready web-3`. */
function describeSubsets(subsets: readonly EndpointSubset[]): string {
  const names = (list: EndpointAddress[] | undefined) => (list ?? []).map((a) => a.targetRef?.name ?? a.ip);
  const ready = subsets.flatMap((s) => names(s.addresses));
  const notReady = subsets.flatMap((s) => names(s.notReadyAddresses));
  const parts = [`ready ${ready.join(', ') || 'none'}`];
  if (notReady.length > 0) parts.push(`not ready ${notReady.join(', ')}`);
  return parts.join('; ');
}

/**
 * The Endpoints controller (pkg/controller/endpoint): the v1 Endpoints object of each service with
 * a selector, named after it, from the pods it selects; a deleted service's Endpoints object is
 * deleted. Handlers queue service keys (a pod change after the batch period), syncService writes.
 */
export class EndpointsController extends ControllerBase {
  readonly queue: WorkQueue;
  private readonly services: SharedInformer<Service>;
  private readonly endpoints: SharedInformer<Endpoints>;
  private readonly selectorCache: ServiceSelectorCache;
  private readonly pods: PodInformer;

  /** --endpoint-updates-batch-period (the component config's, or the default). */
  readonly config: EndpointsConfig;

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
    const { clock, informers } = ctx;
    this.config = ctx.config.endpoints ?? DEFAULT_ENDPOINTS_CONFIG;
    const pods = podInformer(informers);
    this.pods = pods;
    this.services = informers.informerFor('services');
    this.endpoints = informers.informerFor('endpoints');
    this.selectorCache = new ServiceSelectorCache((ns) => pods.list(ns));
    this.queue = new WorkQueue(clock, (key) => this.syncService(key));
  }

  /** The handlers: a service's every change queues it; a pod's change queues the services that select it. */
  start(): this {
    this.services.addEventHandler((key, _old, svc) => {
      this.selectorCache.serviceChanged(key, svc);
      this.queue.add(key);
    });
    this.pods.addEventHandler((key, old, pod) => {
      const services = this.selectorCache.podChanged(key, old, pod);
      if (services.length === 0 || (old && pod && !podEndpointChanged(old, pod))) return;
      for (const svc of services) this.queue.addAfter(svc, this.config.endpointUpdatesBatchPeriodMs);
    });
    return this;
  }

  /** What this controller last wrote, until the informer has caught up with it (as the slice controller's tracker). */
  private readonly written = new Map<string, Endpoints>();

  private newest(key: string): Endpoints | undefined {
    const seen = this.endpoints.get(key);
    const mine = this.written.get(key);
    if (!mine) return seen;
    if (seen && Number(seen.metadata.resourceVersion) >= Number(mine.metadata.resourceVersion)) {
      this.written.delete(key);
      return seen;
    }
    return mine;
  }

  syncService(key: string): void | Error {
    const { namespace, name } = splitKey(key);
    const svc = this.services.get(key);
    const current = this.newest(key);
    if (!svc) {
      if (!current) return;
      const r = this.client.delete('endpoints', namespace, name);
      this.written.delete(key);
      if (r.ok)
        this.timeline.record('endpoints', `deleted ${name}`, `${SOURCE} syncService (service deleted)`, {
          actor: IDENTITY.name,
        });
      return r.ok || r.code === 404 ? undefined : new Error(r.status.message);
    }
    if (!svc.spec?.selector) return;
    const subsets = endpointSubsets(svc, this.selectorCache.podsOf(key), this.release.has('EndpointsFindPortSidecars'));
    const labels = { ...svc.metadata.labels };
    if (svc.spec.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    if (current && jsonEqual(current.subsets ?? [], subsets) && jsonEqual(current.metadata.labels ?? {}, labels))
      return;
    const object: Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: current ? { ...current.metadata, labels } : { name, namespace, labels },
    };
    if (subsets.length > 0) object.subsets = subsets;
    const r = current
      ? this.client.update('endpoints', namespace, object)
      : this.client.create('endpoints', namespace, object);
    if (!r.ok) return new Error(r.status.message);
    this.written.set(key, r.object);
    this.timeline.record(
      'endpoints',
      `${current ? 'updated' : 'created'} ${name}: ${describeSubsets(subsets)}`,
      `${SOURCE} syncService`,
      { actor: IDENTITY.name },
    );
  }
}
