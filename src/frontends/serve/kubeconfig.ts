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
    // Plain HTTP: @kubernetes/client-node (1.x) refuses an http:// server unless the cluster says
    // insecure-skip-tls-verify; kubectl and client-go accept it as well (there is no TLS to skip).
    clusters: [{ name, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: {} }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
