import { deleteCustomResourceDefinition } from '../apiextensions/crd-delete';
import { customResourceDefinitionStrategies, setCustomResourceDefinitionDefaults } from '../apiextensions/crd-strategy';
import type { CustomResourceDefinition } from '../apiextensions/types';
import { ALL_VERBS, type BuiltinKind, STATUS } from './kind';

// apiextensions-apiserver pkg/registry/customresourcedefinition: cluster-scoped, with status, short
// names crd and crds, category api-extensions; its own REST.Delete (crd-delete.ts). Not served as
// protobuf (apiextensions-apiserver's types are not among the descriptors).
export const customResourceDefinitions: BuiltinKind<CustomResourceDefinition, 'customresourcedefinitions'> = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  resource: 'customresourcedefinitions',
  singularName: 'customresourcedefinition',
  namespaced: false,
  verbs: ALL_VERBS,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  subresources: { status: STATUS },
  etcdPrefix: 'apiextensions.k8s.io/customresourcedefinitions',
  strategies: ({ release }) => customResourceDefinitionStrategies(release),
  schemeDefaults: setCustomResourceDefinitionDefaults,
  restDelete: deleteCustomResourceDefinition,
  openapi: 'V1CustomResourceDefinition',
};

export const APIEXTENSIONS_KINDS = [customResourceDefinitions] as const;
