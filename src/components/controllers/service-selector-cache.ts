import type { Pod, Service } from '../../apimachinery/types';
import { keyOf } from '../../client/informer';

/** A service's spec.selector as a label set (nil: the service's endpoints are not managed by controllers). */
export type ServiceSelector = Readonly<Record<string, string>>;

/** labels.SelectorFromSet(selector).Matches(pod labels): every pair of the selector is a label of the pod (an empty selector matches every pod). */
export function selectorMatches(
  selector: ServiceSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  for (const k in selector) if (labels?.[k] !== selector[k]) return false;
  return true;
}

/** What podChanged returns for a pod no service selects (most pods): one shared empty list. */
const NO_SERVICES: readonly string[] = [];

/**
 * Which pods each service selects, kept up to date from the pod and service informers' events
 * (staging/src/k8s.io/endpointslice/util/controller_utils.go ServiceSelectorCache and
 * GetPodServiceMemberships): a pod's change costs the services of its namespace, not the pods
 * of the cluster, and with no service at all it costs one map lookup — so pods that no service
 * selects keep their per-pod cost.
 */
export class ServiceSelectorCache {
  private readonly selectors = new Map<string, Map<string, ServiceSelector>>();
  private readonly members = new Map<string, Map<string, Pod>>();

  constructor(private readonly podsOfNamespace: (namespace: string) => readonly Pod[]) {}

  /** A service was added, changed or deleted: its membership is computed again from the namespace's pods. */
  serviceChanged(key: string, svc: Service | undefined): void {
    const namespace = key.slice(0, key.indexOf('/'));
    let services = this.selectors.get(namespace);
    const selector = svc?.spec?.selector;
    if (!svc || !selector) {
      services?.delete(key);
      this.members.delete(key);
      return;
    }
    if (!services) this.selectors.set(namespace, (services = new Map()));
    services.set(key, selector);
    const members = new Map<string, Pod>();
    for (const pod of this.podsOfNamespace(namespace))
      if (selectorMatches(selector, pod.metadata.labels)) members.set(keyOf(pod), pod);
    this.members.set(key, members);
  }

  /** A pod changed: the keys of the services that selected it before or select it now (their membership updated). */
  podChanged(key: string, old: Pod | undefined, pod: Pod | undefined): readonly string[] {
    const services = this.selectors.get((pod ?? old)!.metadata.namespace ?? '');
    if (!services || services.size === 0) return NO_SERVICES;
    // Allocated only for a pod some service selects: two controllers ask at every pod event.
    let out: string[] | undefined;
    for (const [svcKey, selector] of services) {
      const was = old !== undefined && selectorMatches(selector, old.metadata.labels);
      const is = pod !== undefined && selectorMatches(selector, pod.metadata.labels);
      if (!was && !is) continue;
      const members = this.members.get(svcKey)!;
      if (is) members.set(key, pod!);
      else members.delete(key);
      (out ??= []).push(svcKey);
    }
    return out ?? NO_SERVICES;
  }

  /** The pods a service selects, in namespace/name order (as the pod lister lists them). */
  podsOf(svcKey: string): Pod[] {
    const members = this.members.get(svcKey);
    if (!members) return [];
    return [...members.keys()].sort().map((k) => members.get(k)!);
  }
}
