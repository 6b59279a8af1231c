import type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from '../../apimachinery/types';
import {
  deploymentStrategies,
  replicaSetStrategies,
  setDeploymentDefaults,
  setReplicaSetDefaults,
} from '../apps-strategy';
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  statefulSetPrinter,
} from '../printers/workloads';
import {
  controllerRevisionStrategy,
  daemonSetStrategies,
  setDaemonSetDefaults,
  setStatefulSetDefaults,
  statefulSetStrategies,
} from '../workload-strategy';
import { ALL_VERBS, type BuiltinKind, SCALE, STATUS } from './kind';
import { daemonSetRules, deploymentRules, replicaSetRules, statefulSetRules } from '../kind-rules/apps';

/** apps/v1: pkg/registry/apps/<kind>/storage. */
const apps = { group: 'apps', version: 'v1' } as const;

export const replicaSets: BuiltinKind<ReplicaSet, 'replicasets'> = {
  ...apps,
  kind: 'ReplicaSet',
  resource: 'replicasets',
  singularName: 'replicaset',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['rs'],
  categories: ['all'],
  subresources: { scale: SCALE, status: STATUS },
  strategies: () => replicaSetStrategies(),
  rules: replicaSetRules,
  schemeDefaults: setReplicaSetDefaults,
  printer: replicaSetPrinter,
  openapi: 'V1ReplicaSet',
  protobuf: 'k8s.io.api.apps.v1.ReplicaSet',
  resumed: true,
};

export const deployments: BuiltinKind<Deployment, 'deployments'> = {
  ...apps,
  kind: 'Deployment',
  resource: 'deployments',
  singularName: 'deployment',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['deploy'],
  categories: ['all'],
  subresources: { scale: SCALE, status: STATUS },
  strategies: () => deploymentStrategies(),
  rules: deploymentRules,
  schemeDefaults: setDeploymentDefaults,
  printer: deploymentPrinter,
  openapi: 'V1Deployment',
  protobuf: 'k8s.io.api.apps.v1.Deployment',
  resumed: true,
};

export const controllerRevisions: BuiltinKind<ControllerRevision, 'controllerrevisions'> = {
  ...apps,
  kind: 'ControllerRevision',
  resource: 'controllerrevisions',
  singularName: 'controllerrevision',
  namespaced: true,
  verbs: ALL_VERBS,
  subresources: {},
  strategies: () => ({ main: controllerRevisionStrategy() }),
  printer: controllerRevisionPrinter,
  openapi: 'V1ControllerRevision',
  protobuf: 'k8s.io.api.apps.v1.ControllerRevision',
  resumed: true,
};

export const daemonSets: BuiltinKind<DaemonSet, 'daemonsets'> = {
  ...apps,
  kind: 'DaemonSet',
  resource: 'daemonsets',
  singularName: 'daemonset',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['ds'],
  categories: ['all'],
  subresources: { status: STATUS },
  strategies: () => daemonSetStrategies(),
  rules: daemonSetRules,
  schemeDefaults: setDaemonSetDefaults,
  printer: daemonSetPrinter,
  openapi: 'V1DaemonSet',
  protobuf: 'k8s.io.api.apps.v1.DaemonSet',
  resumed: true,
};

export const statefulSets: BuiltinKind<StatefulSet, 'statefulsets'> = {
  ...apps,
  kind: 'StatefulSet',
  resource: 'statefulsets',
  singularName: 'statefulset',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['sts'],
  categories: ['all'],
  subresources: { scale: SCALE, status: STATUS },
  strategies: ({ release }) => statefulSetStrategies(release),
  rules: statefulSetRules,
  schemeDefaults: setStatefulSetDefaults,
  printer: statefulSetPrinter,
  openapi: 'V1StatefulSet',
  protobuf: 'k8s.io.api.apps.v1.StatefulSet',
  resumed: true,
};

/** The apps group's kinds, in the order discovery lists them. */
export const APPS_KINDS = [replicaSets, deployments, controllerRevisions, daemonSets, statefulSets] as const;
