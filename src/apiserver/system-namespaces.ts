import type { ApiServer } from './apiserver';

/**
 * The namespaces kube-apiserver creates at start (pkg/controlplane/controller/systemnamespaces:
 * kube-system, kube-public, kube-node-lease; the bootstrap controller adds default).
 */
export const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'] as const;

/**
 * The system namespaces that are missing, created as kube-apiserver's start-up controllers
 * create them, each with the ServiceAccount "default" its serviceaccounts controller gives it.
 */
export function createSystemNamespaces(api: Pick<ApiServer, 'get' | 'create'>): void {
  for (const name of SYSTEM_NAMESPACES) {
    const existing = api.get('namespaces', undefined, name);
    if (existing.ok) continue;
    api.create({ name: 'kube-apiserver', component: 'apiserver' }, 'namespaces', undefined, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
    // R246: a cluster that is serving has had its serviceaccounts controller run long before:
    // each system namespace already has its ServiceAccount "default" (the controller makes the
    // ones of namespaces created later).
    api.create({ name: 'service-account-controller', component: 'controller' }, 'serviceaccounts', name, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace: name },
    });
  }
}
