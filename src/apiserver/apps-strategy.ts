import { setPodDefaults } from './pod-strategy';
import type { Strategy } from './strategy';
import type { Deployment, Pod, PodTemplateSpec, ReplicaSet } from '../apimachinery/types';
import { workloadStrategy } from './workload-strategy';

/** Defaults run on every decode, so on updates too (a patched template is defaulted before it is stored). */
function defaultedOnUpdate<T extends ReplicaSet | Deployment>(
  strategies: { main: Strategy<T>; status: Strategy<T> },
  defaults: (obj: T) => void,
): { main: Strategy<T>; status: Strategy<T> } {
  const { main } = strategies;
  return {
    ...strategies,
    main: {
      ...main,
      prepareForUpdate(next, old) {
        defaults(next);
        main.prepareForUpdate(next, old);
      },
    },
  };
}

/** The defaulters of a pod template (SetDefaults_PodSpec and SetDefaults_Container run on every nested PodTemplateSpec). */
function setTemplateDefaults(template: PodTemplateSpec | undefined): void {
  if (!template) return;
  // metav1.Time decodes null as the zero time, which is not written back: `creationTimestamp: null`
  // in a template (as kubectl sends Go structs) is no field at all.
  if (template.metadata && template.metadata.creationTimestamp === null)
    template.metadata = { ...template.metadata, creationTimestamp: undefined };
  const pod = { metadata: {}, spec: template.spec } as Pod;
  setPodDefaults(pod);
  // Only a missing spec is a new object; a stored (shared) template is defaulted in place, where a
  // default is missing.
  if (template.spec !== pod.spec) template.spec = pod.spec;
}

/**
 * pkg/apis/apps/v1/defaults.go SetDefaults_ReplicaSet: replicas 1; the template's pod spec
 * defaulted as a pod's. pkg/registry/apps/replicaset/strategy.go: apps/v1 ReplicaSets delete their
 * dependents (in the background) by default; the status subresource keeps the spec and the main
 * resource the status.
 */
export function replicaSetStrategies(): { main: Strategy<ReplicaSet>; status: Strategy<ReplicaSet> } {
  return defaultedOnUpdate(
    workloadStrategy<ReplicaSet>(
      { kind: 'ReplicaSet', apiVersion: 'apps/v1', resource: 'replicasets', gcPolicy: 'DeleteDependents' },
      setReplicaSetDefaults,
    ),
    setReplicaSetDefaults,
  );
}

export function setReplicaSetDefaults(rs: ReplicaSet): void {
  if (!rs.spec) return;
  rs.spec.replicas ??= 1;
  setTemplateDefaults(rs.spec.template);
}

/**
 * SetDefaults_Deployment (apps/v1): replicas 1, strategy RollingUpdate with maxUnavailable and
 * maxSurge 25 %, revisionHistoryLimit 10, progressDeadlineSeconds 600; the template defaulted.
 * pkg/registry/apps/deployment/strategy.go: dependents deleted in the background by default.
 */
export function setDeploymentDefaults(d: Deployment): void {
  if (!d.spec) return;
  const spec = d.spec;
  spec.replicas ??= 1;
  spec.strategy ??= {};
  spec.strategy.type ??= 'RollingUpdate';
  if (spec.strategy.type === 'RollingUpdate') {
    spec.strategy.rollingUpdate ??= {};
    spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
    spec.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  setTemplateDefaults(spec.template);
}

export function deploymentStrategies(): { main: Strategy<Deployment>; status: Strategy<Deployment> } {
  return defaultedOnUpdate(
    workloadStrategy<Deployment>(
      { kind: 'Deployment', apiVersion: 'apps/v1', resource: 'deployments', gcPolicy: 'DeleteDependents' },
      setDeploymentDefaults,
    ),
    setDeploymentDefaults,
  );
}
