import type { Resource } from '../../apiserver/apiserver';

/**
 * X1 — the kinds a dump's objects are resumed as: every built-in kind the simulated apiserver
 * stores, at the apiVersion kubectl prints it, with its resource. Left out: webhook
 * configurations (their servers are the real cluster's, which the run cannot call: X15 names
 * what they could do instead), CustomResourceDefinitions and custom resources (a CRD's schema and
 * its custom resources' controllers are the user's), and the admission policies, which the
 * release decides (restore.ts POLICY_RESOURCES). A kind added to the apiserver is one more row
 * (resumed-kinds.test.ts checks each row against what the server serves).
 */
export const RESUMED_KINDS: Readonly<Record<string, { apiVersion: string; resource: Resource }>> = {
  Pod: { apiVersion: 'v1', resource: 'pods' },
  Node: { apiVersion: 'v1', resource: 'nodes' },
  Namespace: { apiVersion: 'v1', resource: 'namespaces' },
  Event: { apiVersion: 'v1', resource: 'events' },
  Lease: { apiVersion: 'coordination.k8s.io/v1', resource: 'leases' },
  ReplicaSet: { apiVersion: 'apps/v1', resource: 'replicasets' },
  ConfigMap: { apiVersion: 'v1', resource: 'configmaps' },
  Secret: { apiVersion: 'v1', resource: 'secrets' },
  ServiceAccount: { apiVersion: 'v1', resource: 'serviceaccounts' },
  Service: { apiVersion: 'v1', resource: 'services' },
  Endpoints: { apiVersion: 'v1', resource: 'endpoints' },
  EndpointSlice: { apiVersion: 'discovery.k8s.io/v1', resource: 'endpointslices' },
  Deployment: { apiVersion: 'apps/v1', resource: 'deployments' },
  StatefulSet: { apiVersion: 'apps/v1', resource: 'statefulsets' },
  DaemonSet: { apiVersion: 'apps/v1', resource: 'daemonsets' },
  ControllerRevision: { apiVersion: 'apps/v1', resource: 'controllerrevisions' },
  Job: { apiVersion: 'batch/v1', resource: 'jobs' },
  PodDisruptionBudget: { apiVersion: 'policy/v1', resource: 'poddisruptionbudgets' },
};

/** The resource a dump object is resumed as (events.k8s.io/v1 Events as core Events), or undefined. */
export function resumedResource(kind: string, apiVersion: string): Resource | undefined {
  if (kind === 'Event' && apiVersion === 'events.k8s.io/v1') return 'events';
  const row = RESUMED_KINDS[kind];
  return row !== undefined && row.apiVersion === apiVersion ? row.resource : undefined;
}
