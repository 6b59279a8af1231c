import { stringify } from 'yaml';

/**
 * A kubeconfig for a served cluster: one cluster (plain HTTP on loopback, no TLS), one user
 * without credentials (the served API does no authentication), one context with namespace
 * default, selected. kubectl, client-go and @kubernetes/client-node read it as it is.
 */
export function kubeconfig(server: string, name = 'terminating'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server } }],
    users: [{ name, user: {} }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
