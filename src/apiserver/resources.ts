import type { ApiServer, Resource } from './apiserver';
import type { ServedCustomResource, ServedVersion } from './apiextensions/served-resources';
import type { KubeObject } from '../apimachinery/object';
import { builtinKind, builtinKinds } from './kinds';
import { SCALE, STATUS } from './kinds/kind';

/**
 * One resource the server serves at one group/version, as discovery describes it
 * (metav1.APIResource) plus where it is stored: the apiserver resource behind it and, for a
 * second version of the same objects (events.k8s.io/v1 Events over core/v1 Events), the
 * conversion between the stored and the served form.
 */
export interface ServedResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly singularName: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** Subresources served (pods/status, pods/eviction). */
  readonly subresources: Readonly<Record<string, ServedSubresource>>;
  readonly storage: Resource;
  /** Stored object → served object (absent: served as stored). */
  readonly toServed?: (obj: KubeObject) => KubeObject;
  /** Served object → stored object. */
  readonly fromServed?: (obj: KubeObject) => KubeObject;
  /** A custom resource: its CRD as served and the version of it this entry serves. */
  readonly custom?: { readonly crd: ServedCustomResource; readonly version: ServedVersion };
}

/**
 * The REST storage serving a subresource, as upstream's storage.go assembles it for the kind
 * (pod/storage/storage.go PodStorage{Status, Eviction, Log, Exec, …}; namespace FinalizeREST;
 * the workloads' ScaleREST). The HTTP layer installs the handlers of each (endpoints/installer.go
 * registerResourceHandlers: a route per verb the storage implements).
 */
export type SubresourceRest = 'StatusREST' | 'FinalizeREST' | 'ScaleREST' | 'EvictionREST' | 'LogREST' | 'ExecREST';

/** A subresource: its REST storage, its verbs and, when it is not of the resource's own kind, the kind it takes (pods/eviction: policy/v1 Eviction). */
export interface ServedSubresource {
  readonly rest: SubresourceRest;
  readonly verbs: readonly string[];
  readonly kind?: { readonly group: string; readonly version: string; readonly kind: string };
}

/**
 * Every resource the server serves, in the order discovery lists them, derived from the kind
 * registry (kinds/): each kind at its own group/version, then the second versions some kinds are
 * also served at (events.k8s.io/v1 Events). Verbs, short names and categories are those
 * kube-apiserver advertises for them (pkg/registry/.../storage).
 */
export const SERVED_RESOURCES: readonly ServedResource[] = [
  ...builtinKinds().map((k) => servedAt(k, k)),
  ...builtinKinds().flatMap((k) =>
    (k.alsoServedAs ?? []).map((v) => ({ ...servedAt(k, v), toServed: v.toServed, fromServed: v.fromServed })),
  ),
];

/** A kind as discovery shows it at one group/version (its own, or a second one it is also served at). */
function servedAt(
  k: ReturnType<typeof builtinKinds>[number],
  at: { readonly group: string; readonly version: string },
): ServedResource {
  return {
    group: at.group,
    version: at.version,
    resource: k.resource,
    kind: k.kind,
    singularName: k.singularName,
    namespaced: k.namespaced,
    verbs: k.verbs,
    ...(k.shortNames ? { shortNames: k.shortNames } : {}),
    ...(k.categories ? { categories: k.categories } : {}),
    subresources: k.subresources,
    storage: k.resource as Resource,
  };
}

/** The groups in the order /apis lists them (kube-apiserver's group priority: apps, events.k8s.io, authentication, authorization, batch, policy, …, storage.k8s.io, admissionregistration, …, coordination, discovery). */
export const SERVED_GROUPS: readonly string[] = [
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'batch',
  'networking.k8s.io',
  'policy',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
];

export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

/**
 * The resource served at group/version/resource: a built-in one, or with `api` a custom resource
 * whose CRD is served (NamesAccepted or Established, in a served version; the crdHandler).
 */
export function findResource(
  group: string,
  version: string,
  resource: string,
  api?: ApiServer,
): ServedResource | undefined {
  const builtin = SERVED_RESOURCES.find(
    (r) => r.group === group && r.version === version && r.resource === resource && (!api || servedBy(r, api)),
  );
  if (builtin || !api || api.customResources.size === 0) return builtin;
  const crd = api.customResources.get(`${resource}.${group}`)?.info;
  const v = crd?.versions.find((x) => x.name === version);
  return crd && v ? customServedResource(crd, v) : undefined;
}

/**
 * What discovery lists at group/version: the built-in resources, and with `api` the custom
 * resources of Established CRDs (the DiscoveryController lists no other).
 */
export function resourcesOf(group: string, version: string, api?: ApiServer): ServedResource[] {
  const builtin = SERVED_RESOURCES.filter(
    (r) => r.group === group && r.version === version && (!api || servedBy(r, api)),
  );
  if (!api || api.customResources.size === 0) return builtin;
  return [...builtin, ...customResources(api).filter((r) => r.group === group && r.version === version)];
}

/** Every served version of every Established CRD, as served resources. */
export function customResources(api: ApiServer): ServedResource[] {
  if (api.customResources.size === 0) return [];
  return api.customResources
    .list()
    .filter((c) => c.established)
    .flatMap((c) => c.versions.map((v) => customServedResource(c, v)));
}

/** Built-in and custom resources (the GC's and namespace controller's discovery). */
export function allServedResources(api: ApiServer): readonly ServedResource[] {
  const builtin = SERVED_RESOURCES.filter((r) => servedBy(r, api));
  return api.customResources.size === 0 ? builtin : [...builtin, ...customResources(api)];
}

/** Whether the apiserver's release serves a built-in resource (kinds/kind.ts `served`: MutatingAdmissionPolicy only from 1.36). */
export function servedBy(r: ServedResource, api: ApiServer): boolean {
  return builtinKind(r.storage)?.served?.(api.options.release) !== false;
}

/**
 * The groups of Established CRDs with their served versions, in the order /apis lists them
 * (after the built-in groups: the aggregator gives CRD groups priority 1000, ties by name), each
 * group's versions in kube-aware order (sortGroupDiscoveryByKubeAwareVersion: GA before beta
 * before alpha, higher first).
 */
export function customGroups(api: ApiServer): { group: string; versions: string[] }[] {
  const groups = new Map<string, Set<string>>();
  for (const c of api.customResources.list()) {
    if (!c.established) continue;
    let versions = groups.get(c.group);
    if (!versions) groups.set(c.group, (versions = new Set()));
    for (const v of c.versions) versions.add(v.name);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([group, versions]) => ({ group, versions: [...versions].sort(compareKubeAwareVersions) }));
}

/** version.CompareKubeAwareVersionStrings, as a sort order: v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > anything else (by name). */
export function compareKubeAwareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return { major: Number(m[1]), stage: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor: Number(m[3] ?? 0) };
  };
  const x = parse(a);
  const y = parse(b);
  if (x && y) return y.stage - x.stage || y.major - x.major || y.minor - x.minor;
  if (x) return -1;
  if (y) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The discovery verbs of a custom resource (customresource_discovery_controller.go), fewer while its CRD terminates. */
const CUSTOM_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'] as const;
const CUSTOM_TERMINATING_VERBS = ['delete', 'deletecollection', 'get', 'list', 'watch'] as const;

/**
 * One served version of a CRD as a served resource. Conversion is None: the objects are stored
 * as the storage version, and served as any served version by changing only their apiVersion.
 */
function customServedResource(crd: ServedCustomResource, version: ServedVersion): ServedResource {
  const served = `${crd.group}/${version.name}`;
  const stored = `${crd.group}/${crd.storageVersion}`;
  const subresources: Record<string, ServedSubresource> = {};
  if (version.subresources.status) subresources.status = STATUS;
  if (version.subresources.scale) subresources.scale = SCALE;
  return {
    group: crd.group,
    version: version.name,
    resource: crd.plural,
    kind: crd.kind,
    singularName: crd.singular,
    namespaced: crd.namespaced,
    // The handler serves every verb (a create while terminating is refused by the apiserver); discovery says fewer then.
    verbs: crd.terminating ? [...CUSTOM_TERMINATING_VERBS, 'create', 'patch', 'update'] : CUSTOM_VERBS,
    ...(crd.shortNames.length ? { shortNames: crd.shortNames } : {}),
    ...(crd.categories.length ? { categories: crd.categories } : {}),
    subresources,
    storage: crd.resource,
    ...(served === stored
      ? {}
      : {
          toServed: (o: KubeObject) => ({ ...o, apiVersion: served }),
          fromServed: (o: KubeObject) => ({ ...o, apiVersion: stored }),
        }),
    custom: { crd, version },
  };
}

/** The verbs discovery lists for a resource (a terminating CRD's resources: no create, patch or update). */
export function discoveryVerbs(r: ServedResource): readonly string[] {
  return r.custom?.crd.terminating ? CUSTOM_TERMINATING_VERBS : r.verbs;
}

/** The served form of a stored object, with apiVersion and kind set. */
export function toServed(r: ServedResource, obj: KubeObject): KubeObject {
  const served = r.toServed ? r.toServed(obj) : obj;
  return { ...served, apiVersion: groupVersionString(r.group, r.version), kind: r.kind };
}
