import { When } from '@cucumber/cucumber';
import { USER } from '../../src/cluster/cluster';
import type { TerminatingWorld } from '../support/world';

/**
 * Cordoning (K82): the user marks the node unschedulable with the strategic merge patch kubectl
 * cordon sends (`{"spec":{"unschedulable":true}}`); the node lifecycle controller then taints it
 * node.kubernetes.io/unschedulable:NoSchedule. Nothing is evicted: that is `kubectl drain`.
 */
When('node {string} is cordoned', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node);
  this.lastResponse = this.cluster.apiserver.patch(USER, 'nodes', undefined, node, 'strategic', {
    spec: { unschedulable: true },
  });
  this.cluster.flush();
});

/** The node is schedulable again (`kubectl uncordon`'s patch, `{"spec":{"unschedulable":null}}`); the taint goes. */
When('node {string} is uncordoned', function (this: TerminatingWorld, node: string) {
  this.ensureStarted();
  this.cluster.node(node);
  this.lastResponse = this.cluster.apiserver.patch(USER, 'nodes', undefined, node, 'strategic', {
    spec: { unschedulable: null },
  });
  this.cluster.flush();
});
