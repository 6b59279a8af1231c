/**
 * Well-known names that components on both sides of the apiserver agree on (they live in k8s.io/api
 * upstream), here so that no component imports another for a constant.
 */

/** core/v1 NamespaceNodeLease: the namespace of node heartbeats (staging/src/k8s.io/api/core/v1/types.go). */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** discovery/v1 well-known labels (staging/src/k8s.io/api/discovery/v1/well_known_labels.go). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
