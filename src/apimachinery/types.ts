import type * as core from 'kubernetes-types/core/v1';
import type * as apps from 'kubernetes-types/apps/v1';
import type * as meta from 'kubernetes-types/meta/v1';
import type * as coordination from 'kubernetes-types/coordination/v1';
import type * as discovery from 'kubernetes-types/discovery/v1';
import type * as policy from 'kubernetes-types/policy/v1';
import type * as batch from 'kubernetes-types/batch/v1';

/**
 * kubernetes-types declares every field readonly; the registry mutates its private copies the way
 * upstream's strategies do, so the simulation works on these deep-mutable views of the same types.
 */
export type Mutable<T> = T extends readonly (infer U)[]
  ? Mutable<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Mutable<T[K]> }
    : T;

export type ObjectMeta = Mutable<meta.ObjectMeta>;
export type DeleteOptions = Mutable<meta.DeleteOptions>;
export type Status = Mutable<meta.Status>;
export type OwnerReference = Mutable<meta.OwnerReference>;
export type Container = Mutable<core.Container>;
export type ContainerStatus = Mutable<core.ContainerStatus>;
/** observedGeneration (KEP-5067, v1.33+) is newer than the kubernetes-types release used here. */
export type PodCondition = Mutable<core.PodCondition> & { observedGeneration?: number };
export type PodSpec = Mutable<core.PodSpec>;
export type PodStatus = Mutable<core.PodStatus> & { observedGeneration?: number };
export type Volume = Mutable<core.Volume>;
export type Pod = Mutable<core.Pod> & { metadata: ObjectMeta };
export type Node = Mutable<core.Node> & { metadata: ObjectMeta };
export type Event = Mutable<core.Event> & { metadata: ObjectMeta };
export type ReplicaSet = Mutable<apps.ReplicaSet> & { metadata: ObjectMeta };
export type Namespace = Mutable<core.Namespace> & { metadata: ObjectMeta };
export type Lease = Mutable<coordination.Lease> & { metadata: ObjectMeta };
export type PodDisruptionBudget = Mutable<policy.PodDisruptionBudget> & { metadata: ObjectMeta };
export type PodDisruptionBudgetStatus = Mutable<policy.PodDisruptionBudgetStatus>;
export type Condition = Mutable<meta.Condition>;
export type Secret = Mutable<core.Secret> & { metadata: ObjectMeta };
export type ConfigMap = Mutable<core.ConfigMap> & { metadata: ObjectMeta };
export type ServiceAccount = Mutable<core.ServiceAccount> & { metadata: ObjectMeta };
export type Taint = Mutable<core.Taint>;
export type NodeCondition = Mutable<core.NodeCondition>;
export type Toleration = Mutable<core.Toleration>;

import type * as admissionregistration from 'kubernetes-types/admissionregistration/v1';
export type ValidatingWebhookConfiguration = Omit<
  Mutable<admissionregistration.ValidatingWebhookConfiguration>,
  'webhooks'
> & { metadata: ObjectMeta; webhooks?: ValidatingWebhook[] };
export type MutatingWebhookConfiguration = Omit<
  Mutable<admissionregistration.MutatingWebhookConfiguration>,
  'webhooks'
> & { metadata: ObjectMeta; webhooks?: MutatingWebhook[] };
export type ValidatingWebhook = Omit<Mutable<admissionregistration.ValidatingWebhook>, 'rules'> & {
  rules?: RuleWithOperations[];
};
export type MutatingWebhook = Omit<Mutable<admissionregistration.MutatingWebhook>, 'rules'> & {
  rules?: RuleWithOperations[];
};
/** kubernetes-types' RuleWithOperations lacks the Rule fields it embeds (resources, scope). */
export type RuleWithOperations = Mutable<admissionregistration.RuleWithOperations> & {
  resources?: string[];
  scope?: string;
};
export type LabelSelectorSpec = Mutable<meta.LabelSelector>;
/** A policy's rule: a RuleWithOperations limited to some object names. */
export type NamedRuleWithOperations = RuleWithOperations & { resourceNames?: string[] };
export type MatchResources = Omit<
  Mutable<admissionregistration.MatchResources>,
  'resourceRules' | 'excludeResourceRules'
> & { resourceRules?: NamedRuleWithOperations[]; excludeResourceRules?: NamedRuleWithOperations[] };
export type ValidatingAdmissionPolicySpec = Omit<
  Mutable<admissionregistration.ValidatingAdmissionPolicySpec>,
  'matchConstraints'
> & { matchConstraints?: MatchResources };
export type ValidatingAdmissionPolicy = Omit<
  Mutable<admissionregistration.ValidatingAdmissionPolicy>,
  'spec' | 'status'
> & {
  metadata: ObjectMeta;
  spec?: ValidatingAdmissionPolicySpec;
  status?: Mutable<admissionregistration.ValidatingAdmissionPolicyStatus>;
};
export type ValidatingAdmissionPolicyBinding = Omit<
  Mutable<admissionregistration.ValidatingAdmissionPolicyBinding>,
  'spec'
> & {
  metadata: ObjectMeta;
  spec?: Omit<Mutable<admissionregistration.ValidatingAdmissionPolicyBindingSpec>, 'matchResources'> & {
    matchResources?: MatchResources;
  };
};
/**
 * admissionregistration.k8s.io/v1 MutatingAdmissionPolicy (GA in 1.36; kubernetes-types has no
 * model of it yet): the fields of staging/src/k8s.io/api/admissionregistration/v1/types.go.
 */
export interface MutatingAdmissionPolicySpec {
  paramKind?: ValidatingAdmissionPolicySpec['paramKind'];
  matchConstraints?: MatchResources;
  variables?: { name: string; expression: string }[];
  mutations?: {
    patchType?: string;
    applyConfiguration?: { expression?: string };
    jsonPatch?: { expression?: string };
  }[];
  failurePolicy?: string;
  matchConditions?: ValidatingAdmissionPolicySpec['matchConditions'];
  reinvocationPolicy?: string;
}
export interface MutatingAdmissionPolicy {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: MutatingAdmissionPolicySpec;
}
export interface MutatingAdmissionPolicyBinding {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: {
    policyName?: string;
    paramRef?: NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef'];
    matchResources?: MatchResources;
  };
}
export type Service = Mutable<core.Service> & { metadata: ObjectMeta };
export type ServicePort = Mutable<core.ServicePort>;
export type Endpoints = Mutable<core.Endpoints> & { metadata: ObjectMeta };
export type EndpointSubset = Mutable<core.EndpointSubset>;
export type EndpointAddress = Mutable<core.EndpointAddress>;
export type EndpointPort = Mutable<core.EndpointPort>;
export type EndpointSlice = Mutable<discovery.EndpointSlice> & { metadata: ObjectMeta };
export type Endpoint = Mutable<discovery.Endpoint>;
export type Probe = Mutable<core.Probe>;
export type Job = Mutable<batch.Job> & { metadata: ObjectMeta };
export type JobSpec = Mutable<batch.JobSpec>;
export type JobStatus = Mutable<batch.JobStatus>;
export type JobCondition = Mutable<batch.JobCondition>;
export type PodFailurePolicy = Mutable<batch.PodFailurePolicy>;
export type PodFailurePolicyRule = Mutable<batch.PodFailurePolicyRule>;
export type StatefulSet = Mutable<apps.StatefulSet> & { metadata: ObjectMeta };
export type DaemonSet = Mutable<apps.DaemonSet> & { metadata: ObjectMeta };
export type ControllerRevision = Mutable<apps.ControllerRevision> & { metadata: ObjectMeta };
export type PodTemplateSpec = Mutable<core.PodTemplateSpec>;
export type LabelSelector = Mutable<meta.LabelSelector>;
export type Deployment = Mutable<apps.Deployment> & { metadata: ObjectMeta };
export type DeploymentStatus = Mutable<apps.DeploymentStatus> & { terminatingReplicas?: number };
export type DeploymentCondition = Mutable<apps.DeploymentCondition>;

import type * as storage from 'kubernetes-types/storage/v1';
export type PersistentVolume = Mutable<core.PersistentVolume> & { metadata: ObjectMeta };
export type PersistentVolumeClaim = Mutable<core.PersistentVolumeClaim> & { metadata: ObjectMeta };
export type StorageClass = Mutable<storage.StorageClass> & { metadata: ObjectMeta };
export type CSIDriver = Mutable<storage.CSIDriver> & { metadata: ObjectMeta };
export type CSINode = Mutable<storage.CSINode> & { metadata: ObjectMeta };
export type VolumeAttachment = Mutable<storage.VolumeAttachment> & { metadata: ObjectMeta };
