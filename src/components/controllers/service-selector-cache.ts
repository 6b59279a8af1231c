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

/** A service's entry: its selector, its place among the namespace's services, the label pair it is filed under. */
interface Selecting {
  readonly selector: ServiceSelector;
  /** When the service was first seen (a service that changes keeps it): podChanged answers in this order. */
  readonly order: number;
  /** Its selector's first pair, `key=value`, under which byPair files it (undefined: an empty selector, which selects every pod). */
  readonly pair: string | undefined;
}

/** A namespace's services with a selector, and the same filed by one pair of their selector. */
interface NamespaceServices {
  readonly all: Map<string, Selecting>;
  /** Services by one pair of their selector: a pod without that label cannot be selected by them. */
  readonly byPair: Map<string, Set<string>>;
  /** Services with an empty selector: candidates for every pod. */
  readonly everyPod: Set<string>;
}

/**
 * Which pods each service selects, kept up to date from the pod and service informers' events
 * (staging/src/k8s.io/endpointslice/util/controller_utils.go ServiceSelectorCache and
 * GetPodServiceMemberships): a pod's change costs the services that could select it — those filed
 * under one of its labels — not every service of its namespace nor the pods of the cluster, and
 * with no service at all it costs one map lookup. (Upstream's GetPodServiceMemberships tries every
 * service of the namespace; the answer is the same set, in the same order.)
 */
export class ServiceSelectorCache {
  private readonly namespaces = new Map<string, NamespaceServices>();
  private readonly members = new Map<string, Map<string, Pod>>();
  /** Each service's members' keys in order, while no pod joined or left (podsOf sorts only then). */
  private readonly sortedKeys = new Map<string, string[]>();
  private seen = 0;

  constructor(private readonly podsOfNamespace: (namespace: string) => readonly Pod[]) {}

  /** A service was added, changed or deleted: its membership is computed again from the namespace's pods. */
  serviceChanged(key: string, svc: Service | undefined): void {
    const namespace = key.slice(0, key.indexOf('/'));
    let services = this.namespaces.get(namespace);
    const selector = svc?.spec?.selector;
    const before = services?.all.get(key);
    if (before) unfile(services!, key, before);
    this.sortedKeys.delete(key);
    if (!svc || !selector) {
      services?.all.delete(key);
      this.members.delete(key);
      return;
    }
    if (!services)
      this.namespaces.set(namespace, (services = { all: new Map(), byPair: new Map(), everyPod: new Set() }));
    const entry: Selecting = { selector, order: before?.order ?? this.seen++, pair: firstPair(selector) };
    services.all.set(key, entry);
    if (entry.pair === undefined) services.everyPod.add(key);
    else {
      let filed = services.byPair.get(entry.pair);
      if (!filed) services.byPair.set(entry.pair, (filed = new Set()));
      filed.add(key);
    }
    const members = new Map<string, Pod>();
    for (const pod of this.podsOfNamespace(namespace))
      if (selectorMatches(selector, pod.metadata.labels)) members.set(keyOf(pod), pod);
    this.members.set(key, members);
  }

  /** A pod changed: the keys of the services that selected it before or select it now (their membership updated). */
  podChanged(key: string, old: Pod | undefined, pod: Pod | undefined): readonly string[] {
    const services = this.namespaces.get((pod ?? old)!.metadata.namespace ?? '');
    if (!services || services.all.size === 0) return NO_SERVICES;
    // The candidates: services filed under a label of the old or the new pod, and those selecting every pod.
    let candidates: string[] | undefined;
    const consider = (svcKey: string): void => {
      if (candidates === undefined) candidates = [svcKey];
      else if (!candidates.includes(svcKey)) candidates.push(svcKey);
    };
    for (const svcKey of services.everyPod) consider(svcKey);
    fileLookups(services.byPair, old?.metadata.labels, consider);
    if (pod?.metadata.labels !== old?.metadata.labels) fileLookups(services.byPair, pod?.metadata.labels, consider);
    if (candidates === undefined) return NO_SERVICES;
    // Allocated only for a pod some service selects: two controllers ask at every pod event.
    let out: string[] | undefined;
    for (const svcKey of candidates) {
      const { selector } = services.all.get(svcKey)!;
      const was = old !== undefined && selectorMatches(selector, old.metadata.labels);
      const is = pod !== undefined && selectorMatches(selector, pod.metadata.labels);
      if (!was && !is) continue;
      const members = this.members.get(svcKey)!;
      if (is) {
        if (!was || !members.has(key)) this.sortedKeys.delete(svcKey);
        members.set(key, pod!);
      } else {
        members.delete(key);
        this.sortedKeys.delete(svcKey);
      }
      (out ??= []).push(svcKey);
    }
    if (out !== undefined && out.length > 1)
      out.sort((a, b) => services.all.get(a)!.order - services.all.get(b)!.order);
    return out ?? NO_SERVICES;
  }

  /** The pods a service selects, in namespace/name order (as the pod lister lists them). */
  podsOf(svcKey: string): Pod[] {
    const members = this.members.get(svcKey);
    if (!members) return [];
    let keys = this.sortedKeys.get(svcKey);
    if (keys === undefined) this.sortedKeys.set(svcKey, (keys = [...members.keys()].sort()));
    const out: Pod[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) out[i] = members.get(keys[i])!;
    return out;
  }
}

/** The selector's first pair as `key=value` (undefined for an empty selector). */
function firstPair(selector: ServiceSelector): string | undefined {
  for (const k in selector) return `${k}=${selector[k]}`;
  return undefined;
}

/** Takes a service out of its namespace's pair index. */
function unfile(services: NamespaceServices, key: string, entry: Selecting): void {
  if (entry.pair === undefined) {
    services.everyPod.delete(key);
    return;
  }
  const filed = services.byPair.get(entry.pair);
  filed?.delete(key);
  if (filed?.size === 0) services.byPair.delete(entry.pair);
}

/** Hands `consider` every service filed under one of the labels. */
function fileLookups(
  byPair: ReadonlyMap<string, ReadonlySet<string>>,
  labels: Readonly<Record<string, string>> | undefined,
  consider: (svcKey: string) => void,
): void {
  if (labels === undefined || byPair.size === 0) return;
  for (const k in labels) {
    const filed = byPair.get(`${k}=${labels[k]}`);
    if (filed !== undefined) for (const svcKey of filed) consider(svcKey);
  }
}
