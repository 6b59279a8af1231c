import { Given, Then, When } from '@cucumber/cucumber';
import { USER } from '../../src/cluster/cluster';
import { TAINT_OUT_OF_SERVICE } from '../../src/components/controllers/pod-gc';
import { formatTimeline } from '../../src/foundation/timeline/text';
import type { TerminatingWorld } from '../support/world';

/**
 * A ReplicaSet and two default pods on the first node declared, each owned by it (controller,
 * blockOwnerDeletion true), with spec.replicas 2, so its controller leaves them as they are
 * (and replaces one that is deleted while the ReplicaSet stays).
 */
Given(
  'a replicaset {string} owning pods {string} and {string}',
  function (this: TerminatingWorld, rs: string, a: string, b: string) {
    const node = this.firstNode();
    this.planReplicaSet(rs);
    for (const pod of [a, b]) {
      this.planPod(pod, node);
      this.planOwnership(pod, rs);
    }
  },
);

/**
 * Gives a declared pod an ownerReference to the ReplicaSet (controller, blockOwnerDeletion true,
 * as the ReplicaSet controller sets it). Before T+0 only.
 */
Given('pod {string} is owned by replicaset {string}', function (this: TerminatingWorld, pod: string, rs: string) {
  this.planOwnership(pod, rs);
});

/**
 * The same with blockOwnerDeletion false: a foreground deletion of the ReplicaSet deletes the pod
 * but does not wait for it (C2).
 */
Given(
  'pod {string} is owned by replicaset {string} without blocking its deletion',
  function (this: TerminatingWorld, pod: string, rs: string) {
    this.planOwnership(pod, rs, false);
  },
);

/**
 * kube-controller-manager's `--terminated-pod-gc-threshold` (12500 by default; 0 turns that part
 * of pod GC off): pod GC deletes the terminated pods beyond it (K50).
 */
Given('the terminated-pod GC threshold is {int}', function (this: TerminatingWorld, threshold: number) {
  this.plan.terminatedPodGCThreshold(threshold);
});

/**
 * DELETE replicasets/NAME with `propagationPolicy` Foreground, Background or Orphan; the garbage
 * collector then handles its pods (C1–C3).
 */
When(
  'the user deletes replicaset {string} with propagation {word}',
  function (this: TerminatingWorld, rs: string, policy: string) {
    this.ensureStarted();
    this.lastResponse = this.cluster.apiserver.delete(USER, 'replicasets', 'default', rs, {
      propagationPolicy: policy,
    });
    this.lastKubectl = undefined;
    this.cluster.flush();
  },
);

/**
 * The user deletes the Node object; the node's kubelet is not told (it keeps running). Pod GC
 * deletes the pods bound to it after its 40 s quarantine (K48).
 */
When('node {string} is deleted', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node);
  this.lastResponse = this.cluster.apiserver.delete(USER, 'nodes', undefined, node, {});
  this.cluster.flush();
});

/**
 * Adds the taint `node.kubernetes.io/out-of-service=nodeshutdown:NoExecute` to the Node (a merge
 * PATCH): the non-graceful shutdown signal pod GC acts on when the node is not Ready (K49).
 */
When('node {string} is tainted out-of-service', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('nodes', undefined, this.cluster.node(node).name);
  if (!got.ok) throw new Error(`node "${node}" has no Node object to taint: ${got.status.message}`);
  const taints = [
    ...(got.object.spec?.taints ?? []),
    { key: TAINT_OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute' },
  ];
  this.lastResponse = this.cluster.apiserver.patch(USER, 'nodes', undefined, node, 'merge', { spec: { taints } });
  this.cluster.flush();
});

/**
 * The ReplicaSet is no longer stored.
 */
Then('replicaset {string} is gone', function (this: TerminatingWorld, rs: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('replicasets', 'default', rs);
  if (got.ok)
    throw new Error(
      `replicaset "${rs}" still exists (finalizers ${JSON.stringify(got.object.metadata.finalizers ?? [])}).\nTimeline from T+0:\n${formatTimeline(this.cluster.timeline.since(this.start), this.start)}`,
    );
});

/**
 * The ReplicaSet is still stored.
 */
Then('replicaset {string} exists', function (this: TerminatingWorld, rs: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('replicasets', 'default', rs);
  if (!got.ok)
    throw new Error(
      `replicaset "${rs}" does not exist.\nTimeline from T+0:\n${formatTimeline(this.cluster.timeline.since(this.start), this.start)}`,
    );
});

/**
 * The stored pod's `metadata.ownerReferences` is empty or absent (e.g. after an orphaning
 * deletion, C3).
 */
Then('pod {string} has no owner references', function (this: TerminatingWorld, pod: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('pods', this.podNamespace(pod), pod);
  if (!got.ok) throw new Error(`pod "${pod}" does not exist`);
  if ((got.object.metadata.ownerReferences ?? []).length > 0)
    throw new Error(`pod "${pod}" still has owner references: ${JSON.stringify(got.object.metadata.ownerReferences)}`);
});
