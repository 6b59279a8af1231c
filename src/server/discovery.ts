import { REVIEW_RESOURCES } from './handlers/reviews';
import { groupVersionString, resourcesOf, SERVED_GROUPS, type ServedResource } from './resources';

/** What discovery says of a resource: the served ones and the review resources (handlers/reviews.ts). */
type Discovered = Pick<ServedResource, 'group' | 'version' | 'resource' | 'kind' | 'singularName' | 'namespaced' | 'verbs' | 'shortNames' | 'categories' | 'subresources'>;

function discoveredOf(group: string, version: string): Discovered[] {
  return [...resourcesOf(group, version), ...REVIEW_RESOURCES.filter((r) => r.group === group && r.version === version)];
}

/**
 * API discovery as kube-apiserver answers it (staging/src/k8s.io/apiserver/pkg/endpoints/discovery):
 * the legacy documents (/api APIVersions, /apis APIGroupList, /apis/{group} APIGroup,
 * /api/v1 and /apis/{group}/{version} APIResourceList) and the aggregated ones
 * (discovery/aggregated: one APIGroupDiscoveryList for /api and one for /apis, which kubectl
 * v1.33 asks for first).
 */

/** The aggregated discovery conversions the /api and /apis endpoints offer. */
export const AGGREGATED_DISCOVERY = [{ kind: 'APIGroupDiscoveryList', group: 'apidiscovery.k8s.io', versions: ['v2', 'v2beta1'] }] as const;

export function apiVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupVersions(group: string): { groupVersion: string; version: string }[] {
  return [{ groupVersion: groupVersionString(group, 'v1'), version: 'v1' }];
}

export function apiGroup(group: string): object | undefined {
  if (!SERVED_GROUPS.includes(group)) return undefined;
  const versions = groupVersions(group);
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(): object {
  const groups = SERVED_GROUPS.map((name) => {
    const versions = groupVersions(name);
    return { name, versions, preferredVersion: versions[0] };
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** metav1.APIResourceList of one group/version, subresources as `pods/status` entries. */
export function apiResourceList(group: string, version: string): object | undefined {
  const served = discoveredOf(group, version);
  if (served.length === 0) return undefined;
  const resources: object[] = [];
  for (const r of served) {
    resources.push({
      name: r.resource,
      singularName: r.singularName,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: r.verbs,
      ...(r.shortNames ? { shortNames: r.shortNames } : {}),
      ...(r.categories ? { categories: r.categories } : {}),
    });
    for (const [sub, { verbs, kind }] of Object.entries(r.subresources)) {
      // A subresource of another kind names its group and version too (pods/eviction: policy/v1 Eviction).
      const gvk = kind ? { group: kind.group, version: kind.version, kind: kind.kind } : { kind: r.kind };
      resources.push({ name: `${r.resource}/${sub}`, singularName: '', namespaced: r.namespaced, ...gvk, verbs });
    }
  }
  // The core group's list carries no apiVersion (it predates groups); the others do.
  return group === '' ? { kind: 'APIResourceList', groupVersion: version, resources } : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersionString(group, version), resources };
}

function discoveryResource(r: Discovered): object {
  const responseKind = { group: r.group, version: r.version, kind: r.kind };
  const subresources = Object.entries(r.subresources).map(([subresource, { verbs, kind }]) => ({ subresource, responseKind: kind ?? responseKind, verbs }));
  return {
    resource: r.resource,
    responseKind,
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: r.verbs,
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

function groupDiscovery(group: string): object {
  return {
    metadata: group === '' ? { creationTimestamp: null } : { name: group, creationTimestamp: null },
    versions: [{ version: 'v1', resources: discoveredOf(group, 'v1').map(discoveryResource), freshness: 'Current' }],
  };
}

/** apidiscovery.k8s.io APIGroupDiscoveryList for /api (`legacy`) or /apis. */
export function aggregatedDiscovery(version: string, legacy: boolean): object {
  const groups = legacy ? [''] : SERVED_GROUPS;
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items: groups.map(groupDiscovery) };
}
