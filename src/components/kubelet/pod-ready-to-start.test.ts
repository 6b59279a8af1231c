/**
 * V47 — the PodReadyToStartContainers condition by release: absent while its gate is off (up to
 * v1.28), False until the status is generated from a pod cache that has the sandbox — after the
 * SyncPod that created it, image pulls included — up to v1.35, and True right after the sandbox
 * from v1.36 (OnPodSandboxReady, kubernetes#134660).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';

import { fromTime } from '../../apimachinery/object';
import { Release } from '../../foundation/release';
import { createPod, newCluster, versions } from './testing';

/** The pod's stored PodReadyToStartContainers values, each with the seconds from creation of its last transition. */
function readyToStart(release: Release, pullMs: number): { values: string[]; trueAt: number | undefined } {
  const { c } = newCluster(release);
  const t0 = c.clock.now();
  createPod(c, 'web', { containers: { app: { pullMs } } });
  c.advance(20_000);
  const values: string[] = [];
  let trueAt: number | undefined;
  for (const v of versions(c, 'web')) {
    const cond = v.status?.conditions?.find((x) => x.type === 'PodReadyToStartContainers');
    if (!v.status?.conditions) continue;
    const value = cond?.status ?? 'absent';
    if (values[values.length - 1] !== value) values.push(value);
    if (value === 'True' && trueAt === undefined) trueAt = (fromTime(cond!.lastTransitionTime!) - t0) / 1000;
  }
  return { values, trueAt };
}

describe('V47 PodReadyToStartContainers by release', () => {
  it('V47 v1.27 and v1.28: the gate is off, the kubelet does not write the condition', () => {
    for (const minor of [27, 28]) expect(readyToStart(Release.of(minor), 0).values).to.deep.equal(['absent']);
  });

  it('V47 v1.28 with PodReadyToStartContainersCondition=true: written', () => {
    const r = readyToStart(Release.of(28, { PodReadyToStartContainersCondition: true }), 0);
    expect(r.values).to.deep.equal(['False', 'True']);
  });

  it('V47 v1.29–v1.35: False until the SyncPod that made the sandbox has pulled its image and returned, True at the next sync', () => {
    for (const minor of [29, 35]) {
      const r = readyToStart(Release.of(minor), 5000);
      expect(r.values, `v1.${minor}`).to.deep.equal(['False', 'True']);
      expect(r.trueAt, `v1.${minor}`).to.be.within(5, 7);
    }
  });

  it('V47 v1.35 without a pull: True at the sync PLEG brings a second later', () => {
    const r = readyToStart(Release.of(35), 0);
    expect(r.values).to.deep.equal(['False', 'True']);
    expect(r.trueAt).to.be.within(0.5, 2);
  });

  it('V47 v1.36: True right after the sandbox, while the image is still being pulled (OnPodSandboxReady)', () => {
    const r = readyToStart(Release.of(36), 5000);
    expect(r.values).to.deep.equal(['True']);
    expect(r.trueAt).to.equal(0);
  });
});
