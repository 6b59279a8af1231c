import { Given, Then, When } from '@cucumber/cucumber';
import { USER } from '../src/cluster';
import { TAINT_OUT_OF_SERVICE } from '../src/controllers/pod-gc';
import { formatTimeline } from '../src/timeline/text';
import type { TerminatingWorld } from './world';

Given('a replicaset {string} owning pods {string} and {string}', function (this: TerminatingWorld, rs: string, a: string, b: string) {
  const node = this.firstNode();
  this.planReplicaSet(rs);
  for (const pod of [a, b]) {
    this.planPod(pod, node);
    this.planOwnership(pod, rs);
  }
});

Given('a replicaset {string} with:', function (this: TerminatingWorld, rs: string, manifest: string) {
  this.planReplicaSet(rs, manifest);
});

Given('pod {string} is owned by replicaset {string}', function (this: TerminatingWorld, pod: string, rs: string) {
  this.planOwnership(pod, rs);
});

Given('pod {string} is owned by replicaset {string} without blocking its deletion', function (this: TerminatingWorld, pod: string, rs: string) {
  this.planOwnership(pod, rs, false);
});

Given('the terminated-pod GC threshold is {int}', function (this: TerminatingWorld, threshold: number) {
  this.cluster.podGC.config.terminatedPodThreshold = threshold;
});

When('the user deletes replicaset {string} with propagation {word}', function (this: TerminatingWorld, rs: string, policy: string) {
  this.ensureStarted();
  this.lastResponse = this.cluster.apiserver.delete(USER, 'replicasets', 'default', rs, { propagationPolicy: policy });
  this.lastKubectl = undefined;
  this.cluster.flush();
});

When('node {string} is deleted', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node);
  this.lastResponse = this.cluster.apiserver.delete(USER, 'nodes', undefined, node, {});
  this.cluster.flush();
});

When('node {string} is tainted out-of-service', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('nodes', undefined, this.cluster.node(node).name);
  if (!got.ok) throw new Error(`node "${node}" has no Node object to taint: ${got.status.message}`);
  const taints = [...(got.object.spec?.taints ?? []), { key: TAINT_OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute' }];
  this.lastResponse = this.cluster.apiserver.patch(USER, 'nodes', undefined, node, 'merge', { spec: { taints } });
  this.cluster.flush();
});

Then('replicaset {string} is gone', function (this: TerminatingWorld, rs: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('replicasets', 'default', rs);
  if (got.ok) throw new Error(`replicaset "${rs}" still exists (finalizers ${JSON.stringify(got.object.metadata.finalizers ?? [])}).\nTimeline from T+0:\n${formatTimeline(this.cluster.timeline.since(this.start), this.start)}`);
});

Then('replicaset {string} exists', function (this: TerminatingWorld, rs: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('replicasets', 'default', rs);
  if (!got.ok) throw new Error(`replicaset "${rs}" does not exist.\nTimeline from T+0:\n${formatTimeline(this.cluster.timeline.since(this.start), this.start)}`);
});

Then('pod {string} has no owner references', function (this: TerminatingWorld, pod: string) {
  this.ensureStarted();
  const got = this.cluster.apiserver.get('pods', 'default', pod);
  if (!got.ok) throw new Error(`pod "${pod}" does not exist`);
  if ((got.object.metadata.ownerReferences ?? []).length > 0) throw new Error(`pod "${pod}" still has owner references: ${JSON.stringify(got.object.metadata.ownerReferences)}`);
});
