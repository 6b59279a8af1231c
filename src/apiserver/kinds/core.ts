import { invalid } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import type {
  ConfigMap,
  Endpoints,
  Event,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  Secret,
  Service,
  ServiceAccount,
  StorageClass,
} from '../../apimachinery/types';
import { admitDefaultTolerationSeconds } from '../admission';
import { configMapStrategy } from '../configmap-strategy';
import { eventFromEventsV1, eventToEventsV1 } from '../events-v1';
import { genericStrategy } from '../generic-strategy';
import { defaultNameLabel, deleteNamespace, namespaceStrategies } from '../namespace-strategy';
import { nodeStrategies } from '../node-strategy';
import { namespaceNameErrors, serviceNameErrors } from '../object-names';
import { podStatusStrategy, podStrategyFor, setPodDefaults } from '../pod-strategy';
import {
  configMapPrinter,
  endpointsPrinter,
  eventPrinter,
  namespacePrinter,
  nodePrinter,
  podPrinter,
  secretPrinter,
  serviceAccountPrinter,
  servicePrinter,
} from '../printers/core';
import { persistentVolumeClaimPrinter, persistentVolumePrinter } from '../printers/storage';
import { secretStrategy } from '../secret-strategy';
import {
  allocateServiceAddresses,
  serviceStrategy,
  setServiceDefaults,
  setServiceSchemeDefaults,
} from '../service-strategy';
import {
  admitDefaultStorageClass,
  admitStorageObjectInUseProtection,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
} from '../storage-admission';
import { persistentVolumeClaimStrategies, persistentVolumeStrategies } from '../storage-strategies';
import { ALL_VERBS, type BuiltinKind, NO_RESET_FIELDS, SCALE, STATUS } from './kind';
import {
  configMapRules,
  endpointsRules,
  nodeRules,
  podRules,
  secretRules,
  serviceAccountRules,
  serviceRules,
} from '../kind-rules/core';

/** The core group (""), v1: pkg/registry/core/<kind>/storage. */
const core = { group: '', version: 'v1' } as const;

export const configMaps: BuiltinKind<ConfigMap, 'configmaps'> = {
  ...core,
  kind: 'ConfigMap',
  resource: 'configmaps',
  singularName: 'configmap',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['cm'],
  subresources: {},
  strategies: () => ({ main: configMapStrategy() }),
  rules: configMapRules,
  resetFields: NO_RESET_FIELDS,
  quiet: true,
  printer: configMapPrinter,
  openapi: 'V1ConfigMap',
  protobuf: 'k8s.io.api.core.v1.ConfigMap',
  resumed: true,
};

// pkg/registry/core/endpoint: a plain generic store, under /registry/services/endpoints.
export const endpoints: BuiltinKind<Endpoints, 'endpoints'> = {
  ...core,
  kind: 'Endpoints',
  resource: 'endpoints',
  singularName: 'endpoints',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['ep'],
  subresources: {},
  etcdPrefix: 'services/endpoints',
  strategies: () => ({
    main: genericStrategy<Endpoints>({
      kind: 'Endpoints',
      apiVersion: 'v1',
      resource: 'endpoints',
      etcdPrefix: 'services/endpoints',
      namespaced: true,
    }),
  }),
  rules: endpointsRules,
  printer: endpointsPrinter,
  openapi: 'V1Endpoints',
  protobuf: 'k8s.io.api.core.v1.Endpoints',
  resumed: true,
};

// Events: also served as events.k8s.io/v1 (events-v1.ts); the garbage collector ignores them.
export const events: BuiltinKind<Event, 'events'> = {
  ...core,
  kind: 'Event',
  resource: 'events',
  singularName: 'event',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['ev'],
  subresources: {},
  alsoServedAs: [
    {
      group: 'events.k8s.io',
      version: 'v1',
      toServed: eventToEventsV1,
      fromServed: eventFromEventsV1,
      openapi: 'EventsV1Event',
      protobuf: 'k8s.io.api.events.v1.Event',
    },
  ],
  strategies: () => ({
    main: genericStrategy<Event>({ kind: 'Event', apiVersion: 'v1', resource: 'events', namespaced: true }),
  }),
  resetFields: NO_RESET_FIELDS,
  quiet: true,
  gcIgnored: true,
  printer: eventPrinter,
  openapi: 'CoreV1Event',
  protobuf: 'k8s.io.api.core.v1.Event',
  resumed: true,
};

// pkg/registry/core/namespace: cluster-scoped, with the status and finalize subresources, no
// deletecollection; DELETE stamps them Terminating and their controller empties them (R120–R122).
export const namespaces: BuiltinKind<Namespace, 'namespaces'> = {
  ...core,
  kind: 'Namespace',
  resource: 'namespaces',
  singularName: 'namespace',
  namespaced: false,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['ns'],
  subresources: { finalize: { rest: 'FinalizeREST', verbs: ['update'] }, status: STATUS },
  strategies: () => namespaceStrategies(),
  schemeDefaults: defaultNameLabel,
  restDelete: deleteNamespace,
  validateName: namespaceNameErrors,
  // A namespace's deletion and its controller's writes are shown (their etcd writes stay quiet);
  // the system namespaces kube-apiserver creates are not.
  quiet: { requestsShown: (verb) => verb !== 'CREATE' },
  printer: namespacePrinter,
  openapi: 'V1Namespace',
  protobuf: 'k8s.io.api.core.v1.Namespace',
  resumed: true,
};

// pkg/registry/core/node/storage: nodes live under /registry/minions, with their status subresource.
export const nodes: BuiltinKind<Node, 'nodes'> = {
  ...core,
  kind: 'Node',
  resource: 'nodes',
  singularName: 'node',
  namespaced: false,
  verbs: ALL_VERBS,
  shortNames: ['no'],
  // R321 — NewREST's StatusREST (pkg/registry/core/node/storage); nodes/proxy is not served.
  subresources: { status: STATUS },
  etcdPrefix: 'minions',
  strategies: () => nodeStrategies(),
  rules: nodeRules,
  printer: nodePrinter,
  openapi: 'V1Node',
  protobuf: 'k8s.io.api.core.v1.Node',
  resumed: true,
};

// The storage kinds (storage-strategies.ts, P1–P6): the StorageObjectInUseProtection admission
// plugin gives each new one its protection finalizer; a claim gets the default StorageClass.
export const persistentVolumeClaims: BuiltinKind<PersistentVolumeClaim, 'persistentvolumeclaims'> = {
  ...core,
  kind: 'PersistentVolumeClaim',
  resource: 'persistentvolumeclaims',
  singularName: 'persistentvolumeclaim',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['pvc'],
  subresources: { status: STATUS },
  strategies: ({ release }) => persistentVolumeClaimStrategies(release),
  beforeCreate: (pvc, cluster) => {
    admitDefaultStorageClass(pvc, cluster.list('storageclasses') as StorageClass[]);
    admitStorageObjectInUseProtection(pvc, PVC_PROTECTION_FINALIZER);
  },
  printer: persistentVolumeClaimPrinter,
  openapi: 'V1PersistentVolumeClaim',
  protobuf: 'k8s.io.api.core.v1.PersistentVolumeClaim',
};

export const persistentVolumes: BuiltinKind<PersistentVolume, 'persistentvolumes'> = {
  ...core,
  kind: 'PersistentVolume',
  resource: 'persistentvolumes',
  singularName: 'persistentvolume',
  namespaced: false,
  verbs: ALL_VERBS,
  shortNames: ['pv'],
  subresources: { status: STATUS },
  strategies: ({ release, now }) => persistentVolumeStrategies(release, now),
  beforeCreate: (pv) => admitStorageObjectInUseProtection(pv, PV_PROTECTION_FINALIZER),
  printer: persistentVolumePrinter,
  openapi: 'V1PersistentVolume',
  protobuf: 'k8s.io.api.core.v1.PersistentVolume',
};

// pods/log and pods/exec are listed (as upstream lists them) and answer that the simulated
// containers have neither (R97). The DefaultTolerationSeconds admission plugin handles pods.
export const pods: BuiltinKind<Pod, 'pods'> = {
  ...core,
  kind: 'Pod',
  resource: 'pods',
  singularName: 'pod',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['po'],
  categories: ['all'],
  subresources: {
    eviction: { rest: 'EvictionREST', verbs: ['create'], kind: { group: 'policy', version: 'v1', kind: 'Eviction' } },
    exec: { rest: 'ExecREST', verbs: ['create', 'get'], kind: { group: '', version: 'v1', kind: 'PodExecOptions' } },
    log: { rest: 'LogREST', verbs: ['get'] },
    status: STATUS,
  },
  strategies: ({ release }) => ({ main: podStrategyFor(release), status: podStatusStrategy }),
  rules: podRules,
  schemeDefaults: setPodDefaults,
  beforeCreate: (pod) => admitDefaultTolerationSeconds(pod),
  // podStatusStrategy.GetResetFields: a status write never sets the spec, deletionTimestamp or ownerReferences.
  resetFields: {
    main: [[{ field: 'status' }]],
    status: [
      [{ field: 'spec' }],
      [{ field: 'metadata' }, { field: 'deletionTimestamp' }],
      [{ field: 'metadata' }, { field: 'ownerReferences' }],
    ],
  },
  printer: podPrinter,
  openapi: 'V1Pod',
  protobuf: 'k8s.io.api.core.v1.Pod',
  resumed: true,
};

// P19 — stored and served only, so that `kubectl apply --prune` finds its default kinds: no
// controller acts on them (a ReplicationController creates no pods).
export const replicationControllers: BuiltinKind<KubeObject, 'replicationcontrollers'> = {
  ...core,
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  singularName: 'replicationcontroller',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['rc'],
  categories: ['all'],
  subresources: { scale: SCALE, status: STATUS },
  etcdPrefix: 'controllers',
  strategies: () => ({
    main: genericStrategy<KubeObject>({
      kind: 'ReplicationController',
      apiVersion: 'v1',
      resource: 'replicationcontrollers',
      etcdPrefix: 'controllers',
      namespaced: true,
    }),
  }),
  quiet: true,
  openapi: 'V1ReplicationController',
  protobuf: 'k8s.io.api.core.v1.ReplicationController',
};

export const secrets: BuiltinKind<Secret, 'secrets'> = {
  ...core,
  kind: 'Secret',
  resource: 'secrets',
  singularName: 'secret',
  namespaced: true,
  verbs: ALL_VERBS,
  subresources: {},
  strategies: () => ({ main: secretStrategy() }),
  rules: secretRules,
  resetFields: NO_RESET_FIELDS,
  quiet: true,
  printer: secretPrinter,
  openapi: 'V1Secret',
  protobuf: 'k8s.io.api.core.v1.Secret',
  resumed: true,
};

// pkg/registry/core/serviceaccount: metadata only here (no token controller, no secrets).
export const serviceAccounts: BuiltinKind<ServiceAccount, 'serviceaccounts'> = {
  ...core,
  kind: 'ServiceAccount',
  resource: 'serviceaccounts',
  singularName: 'serviceaccount',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['sa'],
  subresources: {},
  strategies: () => ({
    main: genericStrategy<ServiceAccount>({
      kind: 'ServiceAccount',
      apiVersion: 'v1',
      resource: 'serviceaccounts',
      namespaced: true,
      generation: false,
    }),
  }),
  rules: serviceAccountRules,
  resetFields: NO_RESET_FIELDS,
  quiet: true,
  printer: serviceAccountPrinter,
  openapi: 'V1ServiceAccount',
  protobuf: 'k8s.io.api.core.v1.ServiceAccount',
  resumed: true,
};

// pkg/registry/core/service/storage: no deletecollection; services live under
// /registry/services/specs; N2 — the REST storage allocates the cluster IP (and node ports)
// before storing a new one.
export const services: BuiltinKind<Service, 'services'> = {
  ...core,
  kind: 'Service',
  resource: 'services',
  singularName: 'service',
  namespaced: true,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['svc'],
  categories: ['all'],
  subresources: { status: STATUS },
  etcdPrefix: 'services/specs',
  strategies: () => ({ main: serviceStrategy() }),
  rules: serviceRules,
  schemeDefaults: setServiceSchemeDefaults,
  beforeCreate: (svc, cluster) => {
    setServiceDefaults(svc);
    const errs = allocateServiceAddresses(svc, cluster.list('services') as Service[]);
    if (errs.length > 0) throw invalid('Service', svc.metadata.name ?? '', errs);
  },
  validateName: serviceNameErrors,
  printer: servicePrinter,
  openapi: 'V1Service',
  protobuf: 'k8s.io.api.core.v1.Service',
  resumed: true,
};

/** The core group's kinds, in the order discovery lists them. */
export const CORE_KINDS = [
  configMaps,
  endpoints,
  events,
  namespaces,
  nodes,
  persistentVolumeClaims,
  persistentVolumes,
  pods,
  replicationControllers,
  secrets,
  serviceAccounts,
  services,
] as const;
