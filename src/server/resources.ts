import type { Resource } from '../apiserver/apiserver';
import type { KubeObject } from '../apiserver/object';
import { eventFromEventsV1, eventToEventsV1 } from './events-v1';

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
}

/** A subresource: its verbs and, when it is not of the resource's own kind, the kind it takes (pods/eviction: policy/v1 Eviction). */
export interface ServedSubresource {
  readonly verbs: readonly string[];
  readonly kind?: { readonly group: string; readonly version: string; readonly kind: string };
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

/**
 * Every resource the server serves, in the order discovery lists them. Verbs, short names and
 * categories are those kube-apiserver v1.33 advertises for them (pkg/registry/.../storage).
 */
/** The scale subresource of replicasets, deployments and statefulsets: an autoscaling/v1 Scale. */
const SCALE = { verbs: ['get', 'patch', 'update'], kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' } };

export const SERVED_RESOURCES: readonly ServedResource[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', singularName: 'configmap', namespaced: true, verbs: ALL_VERBS, shortNames: ['cm'], subresources: {}, storage: 'configmaps' },
  { group: '', version: 'v1', resource: 'endpoints', kind: 'Endpoints', singularName: 'endpoints', namespaced: true, verbs: ALL_VERBS, shortNames: ['ep'], subresources: {}, storage: 'endpoints' },
  { group: '', version: 'v1', resource: 'events', kind: 'Event', singularName: 'event', namespaced: true, verbs: ALL_VERBS, shortNames: ['ev'], subresources: {}, storage: 'events' },
  // Namespaces: no deletecollection (kube-apiserver has none); DELETE stamps them Terminating, their controller empties them (R121).
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', singularName: 'namespace', namespaced: false, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'], subresources: { finalize: { verbs: ['update'] }, status: { verbs: ['get', 'patch', 'update'] } }, storage: 'namespaces' },
  { group: '', version: 'v1', resource: 'nodes', kind: 'Node', singularName: 'node', namespaced: false, verbs: ALL_VERBS, shortNames: ['no'], subresources: {}, storage: 'nodes' },
  // pods/log and pods/exec are listed (as upstream lists them) and answer that the simulated containers have neither (R97).
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', singularName: 'pod', namespaced: true, verbs: ALL_VERBS, shortNames: ['po'], categories: ['all'], subresources: { eviction: { verbs: ['create'], kind: { group: 'policy', version: 'v1', kind: 'Eviction' } }, exec: { verbs: ['create', 'get'], kind: { group: '', version: 'v1', kind: 'PodExecOptions' } }, log: { verbs: ['get'] }, status: { verbs: ['get', 'patch', 'update'] } }, storage: 'pods' },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', singularName: 'secret', namespaced: true, verbs: ALL_VERBS, subresources: {}, storage: 'secrets' },
  { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', singularName: 'serviceaccount', namespaced: true, verbs: ALL_VERBS, shortNames: ['sa'], subresources: {}, storage: 'serviceaccounts' },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', singularName: 'service', namespaced: true, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['svc'], categories: ['all'], subresources: { status: { verbs: ['get', 'patch', 'update'] } }, storage: 'services' },
  { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', singularName: 'replicaset', namespaced: true, verbs: ALL_VERBS, shortNames: ['rs'], categories: ['all'], subresources: { scale: SCALE, status: { verbs: ['get', 'patch', 'update'] } }, storage: 'replicasets' },
  { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', singularName: 'deployment', namespaced: true, verbs: ALL_VERBS, shortNames: ['deploy'], categories: ['all'], subresources: { scale: SCALE, status: { verbs: ['get', 'patch', 'update'] } }, storage: 'deployments' },
  { group: 'apps', version: 'v1', resource: 'controllerrevisions', kind: 'ControllerRevision', singularName: 'controllerrevision', namespaced: true, verbs: ALL_VERBS, subresources: {}, storage: 'controllerrevisions' },
  { group: 'apps', version: 'v1', resource: 'daemonsets', kind: 'DaemonSet', singularName: 'daemonset', namespaced: true, verbs: ALL_VERBS, shortNames: ['ds'], categories: ['all'], subresources: { status: { verbs: ['get', 'patch', 'update'] } }, storage: 'daemonsets' },
  { group: 'apps', version: 'v1', resource: 'statefulsets', kind: 'StatefulSet', singularName: 'statefulset', namespaced: true, verbs: ALL_VERBS, shortNames: ['sts'], categories: ['all'], subresources: { scale: SCALE, status: { verbs: ['get', 'patch', 'update'] } }, storage: 'statefulsets' },
  { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', singularName: 'job', namespaced: true, verbs: ALL_VERBS, categories: ['all'], subresources: { status: { verbs: ['get', 'patch', 'update'] } }, storage: 'jobs' },
  // pkg/registry/admissionregistration/{validating,mutating}webhookconfiguration/storage: category api-extensions.
  { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', singularName: 'mutatingwebhookconfiguration', namespaced: false, verbs: ALL_VERBS, categories: ['api-extensions'], subresources: {}, storage: 'mutatingwebhookconfigurations' },
  { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', singularName: 'validatingwebhookconfiguration', namespaced: false, verbs: ALL_VERBS, categories: ['api-extensions'], subresources: {}, storage: 'validatingwebhookconfigurations' },
  // pkg/registry/admissionregistration/validatingadmissionpolicy{,binding}/storage: category api-extensions (the policy's status subresource is not served).
  { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', singularName: 'validatingadmissionpolicy', namespaced: false, verbs: ALL_VERBS, categories: ['api-extensions'], subresources: {}, storage: 'validatingadmissionpolicies' },
  { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding', singularName: 'validatingadmissionpolicybinding', namespaced: false, verbs: ALL_VERBS, categories: ['api-extensions'], subresources: {}, storage: 'validatingadmissionpolicybindings' },
  { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', singularName: 'poddisruptionbudget', namespaced: true, verbs: ALL_VERBS, shortNames: ['pdb'], subresources: { status: { verbs: ['get', 'patch', 'update'] } }, storage: 'poddisruptionbudgets' },
  { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', singularName: 'endpointslice', namespaced: true, verbs: ALL_VERBS, subresources: {}, storage: 'endpointslices' },
  { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', singularName: 'lease', namespaced: true, verbs: ALL_VERBS, subresources: {}, storage: 'leases' },
  { group: 'events.k8s.io', version: 'v1', resource: 'events', kind: 'Event', singularName: 'event', namespaced: true, verbs: ALL_VERBS, shortNames: ['ev'], subresources: {}, storage: 'events', toServed: eventToEventsV1, fromServed: eventFromEventsV1 },
];

/** The groups in the order /apis lists them (kube-apiserver's group priority: apps, events.k8s.io, authentication, authorization, batch, policy, …, admissionregistration, …, coordination, discovery). */
export const SERVED_GROUPS: readonly string[] = ['apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'batch', 'policy', 'admissionregistration.k8s.io', 'coordination.k8s.io', 'discovery.k8s.io'];

export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

export function findResource(group: string, version: string, resource: string): ServedResource | undefined {
  return SERVED_RESOURCES.find((r) => r.group === group && r.version === version && r.resource === resource);
}

export function resourcesOf(group: string, version: string): ServedResource[] {
  return SERVED_RESOURCES.filter((r) => r.group === group && r.version === version);
}

/** The served form of a stored object, with apiVersion and kind set. */
export function toServed(r: ServedResource, obj: KubeObject): KubeObject {
  const served = r.toServed ? r.toServed(obj) : obj;
  return { ...served, apiVersion: groupVersionString(r.group, r.version), kind: r.kind };
}
