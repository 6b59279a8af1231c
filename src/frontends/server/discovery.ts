import type { ApiServer } from '../../apiserver/apiserver';
import { REVIEW_RESOURCES } from './handlers/reviews';
import {
  customGroups,
  discoveryVerbs,
  groupVersionString,
  resourcesOf,
  SERVED_GROUPS,
  type ServedResource,
} from '../../apiserver/resources';

/** What discovery says of a resource: the served ones and the review resources (handlers/reviews.ts). */
type Discovered = Pick<
  ServedResource,
  | 'group'
  | 'version'
  | 'resource'
  | 'kind'
  | 'singularName'
  | 'namespaced'
  | 'verbs'
  | 'shortNames'
  | 'categories'
  | 'subresources'
  | 'custom'
>;

function discoveredOf(group: string, version: string, api?: ApiServer): Discovered[] {
  return [
    ...resourcesOf(group, version, api),
    ...REVIEW_RESOURCES.filter((r) => r.group === group && r.version === version),
  ];
}

/**
 * API discovery as kube-apiserver answers it (staging/src/k8s.io/apiserver/pkg/endpoints/discovery):
 * the legacy documents (/api APIVersions, /apis APIGroupList, /apis/{group} APIGroup,
 * /api/v1 and /apis/{group}/{version} APIResourceList) and the aggregated ones
 * (discovery/aggregated: one APIGroupDiscoveryList for /api and one for /apis, which kubectl
 * v1.33 asks for first).
 */

/** The aggregated discovery conversions the /api and /apis endpoints offer. */
export const AGGREGATED_DISCOVERY = [
  { kind: 'APIGroupDiscoveryList', group: 'apidiscovery.k8s.io', versions: ['v2', 'v2beta1'] },
] as const;

export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/**
 * The versions of a group, preferred first: v1 for the built-in groups; for the group of
 * Established CRDs every version one of them serves (the DiscoveryController's APIGroup).
 */
function groupVersions(group: string, api?: ApiServer): { groupVersion: string; version: string }[] {
  const custom = api && !SERVED_GROUPS.includes(group) ? customGroups(api).find((g) => g.group === group) : undefined;
  const versions = custom ? custom.versions : ['v1'];
  return versions.map((version) => ({ groupVersion: groupVersionString(group, version), version }));
}

/** Every group /apis lists: the built-in ones, then those of Established CRDs. */
function allGroups(api?: ApiServer): string[] {
  return api && api.customResources.size > 0
    ? [
        ...SERVED_GROUPS,
        ...customGroups(api)
          .map((g) => g.group)
          .filter((g) => !SERVED_GROUPS.includes(g)),
      ]
    : [...SERVED_GROUPS];
}

export function apiGroup(group: string, api?: ApiServer): object | undefined {
  if (!allGroups(api).includes(group)) return undefined;
  const versions = groupVersions(group, api);
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(api?: ApiServer): object {
  const groups = allGroups(api).map((name) => {
    const versions = groupVersions(name, api);
    return { name, versions, preferredVersion: versions[0] };
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** metav1.APIResourceList of one group/version, subresources as `pods/status` entries. */
export function apiResourceList(group: string, version: string, api?: ApiServer): object | undefined {
  const served = discoveredOf(group, version, api);
  if (served.length === 0) return undefined;
  const resources: object[] = [];
  for (const r of served) {
    resources.push({
      name: r.resource,
      singularName: r.singularName,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: discoveryVerbs(r as ServedResource),
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
  return group === ''
    ? { kind: 'APIResourceList', groupVersion: version, resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersionString(group, version), resources };
}

function discoveryResource(r: Discovered): object {
  const responseKind = { group: r.group, version: r.version, kind: r.kind };
  const subresources = Object.entries(r.subresources).map(([subresource, { verbs, kind }]) => ({
    subresource,
    responseKind: kind ?? responseKind,
    verbs,
  }));
  return {
    resource: r.resource,
    responseKind,
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: discoveryVerbs(r as ServedResource),
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

function groupDiscovery(group: string, api?: ApiServer): object {
  const versions = group === '' ? ['v1'] : groupVersions(group, api).map((v) => v.version);
  return {
    // V74: the zero creation time is written as null up to v1.33, left out from v1.34 (kubernetes#130989).
    metadata: {
      ...(group === '' ? {} : { name: group }),
      ...(api?.options.release.has('OmitNullCreationTimestamp') ? {} : { creationTimestamp: null }),
    },
    versions: versions.map((version) => ({
      version,
      resources: discoveredOf(group, version, api).map(discoveryResource),
      freshness: 'Current',
    })),
  };
}

/** apidiscovery.k8s.io APIGroupDiscoveryList for /api (`legacy`) or /apis. */
export function aggregatedDiscovery(version: string, legacy: boolean, api?: ApiServer): object {
  const groups = legacy ? [''] : allGroups(api);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => groupDiscovery(g, api)),
  };
}
