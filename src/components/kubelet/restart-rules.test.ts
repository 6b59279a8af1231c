/**
 * V51 — container restart rules (KEP-5307): a regular container's own restartPolicy and its
 * restartPolicyRules decide whether it restarts, from v1.35 (ContainerRestartRules on); on v1.34
 * (the gate off) kube-apiserver drops them and the pod's restartPolicy decides.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';

import type { Pod } from '../../apimachinery/types';
import { Release } from '../../foundation/release';
import { containerShouldRestart } from '../../helpers/container-restart';
import { createPod, newCluster, stored } from './testing';

const RULES = [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }];

/** A pod (restartPolicy Never) whose container exits by itself with `exitCode` 5 s after each start. */
function exiting(minor: number, exitCode: number) {
  const { c } = newCluster(Release.of(minor));
  createPod(c, 'job', {
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'app', restartPolicy: 'Never', restartPolicyRules: RULES } as never],
    },
    containers: { app: { exitsOnItsOwn: exitCode, runsForMs: 5000 } },
  });
  c.advance(30_000);
  return stored(c, 'job');
}

const restarts = (p: Pod | undefined) => p?.status?.containerStatuses?.[0]?.restartCount ?? 0;

describe('V51 container restart rules', () => {
  it('V51 ContainerShouldRestart: the first matching rule with Restart, else the container policy, else the pod policy', () => {
    const c = { restartPolicy: 'Never', restartPolicyRules: RULES };
    expect([42, 1, 0].map((code) => containerShouldRestart(c, 'Never', code))).to.deep.equal([true, false, false]);
    const notIn = {
      restartPolicy: 'Never',
      restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'NotIn', values: [0] } }],
    };
    expect([0, 3].map((code) => containerShouldRestart(notIn, 'Never', code))).to.deep.equal([false, true]);
    // RestartAllContainers is not Restart: the container policy decides.
    const all = {
      restartPolicy: 'OnFailure',
      restartPolicyRules: [{ action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [7] } }],
    };
    expect([containerShouldRestart(all, 'Never', 7), containerShouldRestart(all, 'Never', 0)]).to.deep.equal([
      true,
      false,
    ]);
    expect([
      containerShouldRestart({}, 'OnFailure', 1),
      containerShouldRestart({}, 'Never', 1),
      containerShouldRestart({}, undefined, 0),
    ]).to.deep.equal([true, false, true]);
  });

  it('V51 v1.35: exit 42 matches the rule and the kubelet restarts the container of a Never pod', () => {
    const pod = exiting(35, 42);
    expect(pod?.spec?.containers[0]).to.have.property('restartPolicyRules');
    expect(restarts(pod)).to.be.greaterThan(0);
    expect(pod?.status?.phase).to.not.equal('Failed');
  });

  it('V51 v1.35: exit 1 matches no rule; the container policy Never leaves the pod Failed', () => {
    const pod = exiting(35, 1);
    expect([restarts(pod), pod?.status?.phase]).to.deep.equal([0, 'Failed']);
  });

  it('V51 v1.34 (gate off): kube-apiserver drops the container policy and rules; the pod policy Never decides', () => {
    const pod = exiting(34, 42);
    expect(pod?.spec?.containers[0]).to.not.have.property('restartPolicyRules');
    expect(pod?.spec?.containers[0]).to.not.have.property('restartPolicy');
    expect([restarts(pod), pod?.status?.phase]).to.deep.equal([0, 'Failed']);
  });

  it('V51 v1.34 with ContainerRestartRules=true: kept and applied', () => {
    const { c } = newCluster(Release.of(34, { ContainerRestartRules: true }));
    createPod(c, 'job', {
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'app', restartPolicy: 'Never', restartPolicyRules: RULES } as never],
      },
      containers: { app: { exitsOnItsOwn: 42, runsForMs: 5000 } },
    });
    c.advance(30_000);
    expect(restarts(stored(c, 'job'))).to.be.greaterThan(0);
  });
});
