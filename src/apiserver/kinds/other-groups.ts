import type { KubeObject } from '../../apimachinery/object';
import type { EndpointSlice, Lease, PodDisruptionBudget } from '../../apimachinery/types';
import { genericStrategy } from '../generic-strategy';
import { podDisruptionBudgetStrategies } from '../pdb-strategy';
import { endpointSlicePrinter, leasePrinter } from '../printers/core';
import { podDisruptionBudgetPrinter } from '../printers/workloads';
import { ALL_VERBS, type BuiltinKind, NO_RESET_FIELDS, STATUS } from './kind';
import { endpointSliceRules } from '../kind-rules/discovery';

/** The groups of one kind each: networking.k8s.io, policy, discovery.k8s.io, coordination.k8s.io. */

// P19 — networking.k8s.io/v1 Ingress: stored and served only (kubectl's default prune kinds).
export const ingresses: BuiltinKind<KubeObject, 'ingresses'> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'Ingress',
  resource: 'ingresses',
  singularName: 'ingress',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['ing'],
  subresources: { status: STATUS },
  strategies: () => ({
    main: genericStrategy<KubeObject>({
      kind: 'Ingress',
      apiVersion: 'networking.k8s.io/v1',
      resource: 'ingresses',
      namespaced: true,
    }),
  }),
  quiet: true,
  openapi: 'V1Ingress',
  protobuf: 'k8s.io.api.networking.v1.Ingress',
};

// pkg/registry/policy/poddisruptionbudget: policy/v1, with a status subresource.
export const podDisruptionBudgets: BuiltinKind<PodDisruptionBudget, 'poddisruptionbudgets'> = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  resource: 'poddisruptionbudgets',
  singularName: 'poddisruptionbudget',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['pdb'],
  subresources: { status: STATUS },
  strategies: ({ release }) => podDisruptionBudgetStrategies(release),
  printer: podDisruptionBudgetPrinter,
  openapi: 'V1PodDisruptionBudget',
  protobuf: 'k8s.io.api.policy.v1.PodDisruptionBudget',
  resumed: true,
};

// pkg/registry/discovery/endpointslice: a plain generic store.
export const endpointSlices: BuiltinKind<EndpointSlice, 'endpointslices'> = {
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  resource: 'endpointslices',
  singularName: 'endpointslice',
  namespaced: true,
  verbs: ALL_VERBS,
  subresources: {},
  strategies: () => ({
    main: genericStrategy<EndpointSlice>({
      kind: 'EndpointSlice',
      apiVersion: 'discovery.k8s.io/v1',
      resource: 'endpointslices',
      namespaced: true,
    }),
  }),
  rules: endpointSliceRules,
  printer: endpointSlicePrinter,
  openapi: 'V1EndpointSlice',
  protobuf: 'k8s.io.api.discovery.v1.EndpointSlice',
  resumed: true,
};

// Node heartbeats (pkg/kubelet/nodelease): one Lease per node in kube-node-lease.
export const leases: BuiltinKind<Lease, 'leases'> = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  resource: 'leases',
  singularName: 'lease',
  namespaced: true,
  verbs: ALL_VERBS,
  subresources: {},
  strategies: () => ({
    // R344 — lease/strategy.go sets no metadata.generation (PrepareForCreate and PrepareForUpdate
    // leave it alone), so a renewal does not bump one.
    main: genericStrategy<Lease>({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      resource: 'leases',
      namespaced: true,
      generation: false,
    }),
  }),
  resetFields: NO_RESET_FIELDS,
  quiet: true,
  printer: leasePrinter,
  openapi: 'V1Lease',
  protobuf: 'k8s.io.api.coordination.v1.Lease',
  resumed: true,
};
