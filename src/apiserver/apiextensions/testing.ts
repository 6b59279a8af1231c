import type { CustomResourceDefinition } from './types';

/** A namespaced CRD `databases.example.com` (kind Database, one version v1 with a status subresource and a printer column), for tests. */
export function databaseCRD(
  overrides: { scope?: 'Namespaced' | 'Cluster'; status?: boolean; scale?: boolean } = {},
): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'databases.example.com' },
    spec: {
      group: 'example.com',
      scope: overrides.scope ?? 'Namespaced',
      names: { plural: 'databases', singular: 'database', kind: 'Database', shortNames: ['db'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { engine: { type: 'string' }, replicas: { type: 'integer' } } },
                status: { type: 'object', properties: { phase: { type: 'string' } } },
              },
            },
          },
          ...(overrides.status === false
            ? {}
            : {
                subresources: {
                  status: {},
                  ...(overrides.scale
                    ? {
                        scale: {
                          specReplicasPath: '.spec.replicas',
                          statusReplicasPath: '.status.replicas',
                          labelSelectorPath: '.status.selector',
                        },
                      }
                    : {}),
                },
              }),
          additionalPrinterColumns: [{ name: 'Engine', type: 'string', jsonPath: '.spec.engine' }],
        },
      ],
    },
  };
}
