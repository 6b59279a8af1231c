import type { ClientIdentity } from '../../../apiserver/apiserver';
import { jsonEqual } from '../../../apimachinery/object';
import type { EndpointAddress, Endpoints, EndpointSubset, Pod, Service } from '../../../apimachinery/types';
import { ControllerBase } from '../controller-base';
import type { ControllerContext } from '../controller-manager';
import { findPort, podEndpointChanged, shouldPodBeInEndpoints } from '../endpointslice/utils';
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

function ipValue(ip: string): number {
  return ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
}

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  return ipValue(a.ip) - ipValue(b.ip) || ((a.targetRef?.uid ?? '') < (b.targetRef?.uid ?? '') ? -1 : 1);
}

/**
 * N9 — endpoints util RepackSubsets: addresses with the same ports are gathered into one
 * subset, ready ones in `addresses`, the others in `notReadyAddresses` (an address both ready and
 * not is ready), each sorted by IP; subsets in the order of their port sets.
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const byPorts = new Map<
    string,
    { ports: EndpointSubset['ports']; ready: Map<string, EndpointAddress>; notReady: Map<string, EndpointAddress> }
  >();
  for (const ss of subsets) {
    const ports = [...(ss.ports ?? [])].sort((a, b) =>
      (a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : a.port - b.port,
    );
    const k = JSON.stringify(ports);
    let g = byPorts.get(k);
    if (!g) byPorts.set(k, (g = { ports, ready: new Map(), notReady: new Map() }));
    for (const a of ss.addresses ?? []) {
      g.ready.set(`${a.ip}/${a.targetRef?.uid}`, a);
      g.notReady.delete(`${a.ip}/${a.targetRef?.uid}`);
    }
    for (const a of ss.notReadyAddresses ?? [])
      if (!g.ready.has(`${a.ip}/${a.targetRef?.uid}`)) g.notReady.set(`${a.ip}/${a.targetRef?.uid}`, a);
  }
  const out: EndpointSubset[] = [];
  for (const k of [...byPorts.keys()].sort()) {
    const g = byPorts.get(k)!;
    const subset: EndpointSubset = {};
    if (g.ready.size > 0) subset.addresses = [...g.ready.values()].sort(compareAddresses);
    if (g.notReady.size > 0) subset.notReadyAddresses = [...g.notReady.values()].sort(compareAddresses);
    if ((g.ports ?? []).length > 0) subset.ports = g.ports;
    out.push(subset);
  }
  return out;
}

/**
 * N8 — syncService's subsets: every selected pod that ShouldPodBeInEndpoints — with
 * includeTerminating = publishNotReadyAddresses (the Endpoints object drops a terminating pod
 * unless the service tolerates unready endpoints) — is an address for each service port it has,
 * ready when the service publishes not-ready addresses or the pod is Ready (addEndpointSubset),
 * else not ready; then repacked.
 */
export function endpointSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const tolerateUnready = !!service.spec?.publishNotReadyAddresses;
  const subsets: EndpointSubset[] = [];
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
    for (const sp of ports) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      const epp = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
      subsets.push(ready ? { addresses: [epa], ports: [epp] } : { notReadyAddresses: [epa], ports: [epp] });
    }
  }
  return repackSubsets(subsets);
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
    super(ctx);
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
      const r = this.api.delete(IDENTITY, 'endpoints', namespace, name);
      this.written.delete(key);
      if (r.ok)
        this.timeline.record('endpoints', `deleted ${name}`, `${SOURCE} syncService (service deleted)`, {
          actor: IDENTITY.name,
        });
      return r.ok || r.code === 404 ? undefined : new Error(r.status.message);
    }
    if (!svc.spec?.selector) return;
    const subsets = endpointSubsets(svc, this.selectorCache.podsOf(key));
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
      ? this.api.update(IDENTITY, 'endpoints', namespace, object)
      : this.api.create(IDENTITY, 'endpoints', namespace, object);
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
