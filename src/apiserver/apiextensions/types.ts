import type { KubeObject } from '../../apimachinery/object';

/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as far as it is modelled
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go). The schema of a
 * version stays opaque here: its algorithms live in ./schema.
 */
export interface CustomResourceDefinition extends KubeObject {
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: 'Namespaced' | 'Cluster' | string;
  versions: CustomResourceDefinitionVersion[];
  conversion?: { strategy?: string; webhook?: unknown };
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: { jsonPath: string }[];
}

export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceDefinitionCondition {
  type:
    | 'Established'
    | 'NamesAccepted'
    | 'NonStructuralSchema'
    | 'Terminating'
    | 'KubernetesAPIApprovalPolicyConformant'
    | string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

/** The finalizer the CRD's REST Delete adds (apiextensions CustomResourceCleanupFinalizer). */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** apihelpers.FindCRDCondition. */
export function findCondition(
  crd: CustomResourceDefinition,
  type: string,
): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** apihelpers.IsCRDConditionTrue. */
export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/**
 * apihelpers.SetCRDCondition: replaces the condition of that type, keeping its
 * lastTransitionTime while the status stays the same; conditions are kept in the order they
 * were first set.
 */
export function setCondition(
  crd: CustomResourceDefinition,
  condition: CustomResourceDefinitionCondition,
  now: string,
): void {
  const conditions = [...(crd.status?.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === condition.type);
  const existing = i >= 0 ? conditions[i] : undefined;
  const lastTransitionTime = existing && existing.status === condition.status ? existing.lastTransitionTime : now;
  const next: CustomResourceDefinitionCondition = {
    type: condition.type,
    status: condition.status,
    ...(lastTransitionTime ? { lastTransitionTime } : {}),
    ...(condition.reason ? { reason: condition.reason } : {}),
    ...(condition.message ? { message: condition.message } : {}),
  };
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  crd.status = { ...crd.status, conditions };
}

/** The storage version's name (validation guarantees exactly one). */
export function storageVersion(crd: CustomResourceDefinition): CustomResourceDefinitionVersion | undefined {
  return crd.spec.versions.find((v) => v.storage);
}
