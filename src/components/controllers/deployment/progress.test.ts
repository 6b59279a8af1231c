/**
 * W64 — progress.go syncRolloutStatus / requeueStuckDeployment and deployment_util.go's
 * DeploymentComplete, DeploymentProgressing, DeploymentTimedOut, SetDeploymentCondition, as pure
 * functions over a Deployment and the status a sync computed.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { toTime } from '../../../apimachinery/object';
import type { Deployment, DeploymentStatus } from '../../../apimachinery/types';
import {
  deploymentTimedOut,
  getProgressing,
  hasProgressDeadline,
  newCondition,
  setCondition,
  stuckRequeueAfter,
  updateProgressing,
} from './progress';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => T0 + s * 1000;

function deployment(status: DeploymentStatus, o: { deadline?: number | null; generation?: number } = {}): Deployment {
  return {
    metadata: { name: 'web', namespace: 'default', generation: o.generation ?? 2 },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {},
      ...(o.deadline === null ? {} : { progressDeadlineSeconds: o.deadline ?? 600 }),
    },
    status,
  } as Deployment;
}

const progressing = (reason: string, status: 'True' | 'False', lastUpdate: number) => ({
  type: 'Progressing',
  status,
  reason,
  message: '',
  lastUpdateTime: toTime(at(lastUpdate)),
  lastTransitionTime: toTime(at(0)),
});

describe('Deployment progress deadlines (progress.go)', () => {
  it('W64 HasProgressDeadline: set and not MaxInt32', () => {
    expect(hasProgressDeadline(deployment({}))).to.equal(true);
    expect(hasProgressDeadline(deployment({}, { deadline: 2 ** 31 - 1 }))).to.equal(false);
    expect(hasProgressDeadline(deployment({}, { deadline: null }))).to.equal(false);
  });

  it('W64 SetDeploymentCondition: same status and reason left alone; same status keeps lastTransitionTime; the new one goes last', () => {
    const status: DeploymentStatus = {
      conditions: [progressing('ReplicaSetUpdated', 'True', 10), newCondition('Available', 'True', 'A', '', at(0))],
    };
    setCondition(status, newCondition('Progressing', 'True', 'ReplicaSetUpdated', 'x', at(50)));
    expect(getProgressing(status)?.lastUpdateTime).to.equal(toTime(at(10)));
    setCondition(status, newCondition('Progressing', 'True', 'NewReplicaSetAvailable', 'x', at(60)));
    expect(status.conditions!.map((c) => c.type)).to.deep.equal(['Available', 'Progressing']);
    expect(getProgressing(status)).to.include({
      lastUpdateTime: toTime(at(60)),
      lastTransitionTime: toTime(at(0)),
    });
  });

  it('W64 a sync with more ready replicas is progress: ReplicaSetUpdated with lastUpdateTime now, the transition time kept', () => {
    const d = deployment({
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 1,
      readyReplicas: 1,
      conditions: [progressing('ReplicaSetUpdated', 'True', 10)],
    });
    const s: DeploymentStatus = { ...d.status, readyReplicas: 2, conditions: [...d.status!.conditions!] };
    expect(updateProgressing(d, s, 'web-1', at(100))).to.deep.equal({ timedOut: false });
    expect(getProgressing(s)).to.include({
      reason: 'ReplicaSetUpdated',
      message: 'ReplicaSet "web-1" is progressing.',
      lastUpdateTime: toTime(at(100)),
      lastTransitionTime: toTime(at(0)),
    });
  });

  it('W64 no progress for longer than the deadline: False ProgressDeadlineExceeded, once; never after NewReplicaSetAvailable', () => {
    const d = deployment({
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 1,
      conditions: [progressing('NewReplicaSetCreated', 'True', 0)],
    });
    const s = (): DeploymentStatus => ({ ...d.status, conditions: [...d.status!.conditions!] });
    expect(deploymentTimedOut(d, s(), at(600))).to.equal(false);
    const late = s();
    expect(updateProgressing(d, late, 'web-1', at(601))).to.deep.equal({ timedOut: true });
    expect(getProgressing(late)).to.include({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "web-1" has timed out progressing.',
    });
    const done = deployment({ conditions: [progressing('NewReplicaSetAvailable', 'True', 0)] });
    expect(deploymentTimedOut(done, done.status!, at(10_000))).to.equal(false);
  });

  it('W64 requeueStuckDeployment: at lastUpdateTime + deadline + 1 s; "now" once less than a second is left; nothing when complete or timed out', () => {
    const d = deployment({
      observedGeneration: 2,
      replicas: 2,
      updatedReplicas: 1,
      conditions: [progressing('ReplicaSetUpdated', 'True', 0)],
    });
    expect(stuckRequeueAfter(d, d.status!, at(180))).to.equal(421_000);
    expect(stuckRequeueAfter(d, d.status!, at(599.5))).to.equal('now');
    const complete = { observedGeneration: 2, replicas: 2, updatedReplicas: 2, availableReplicas: 2 };
    expect(stuckRequeueAfter(d, complete, at(180))).to.equal(undefined);
    const timedOut = deployment({ conditions: [progressing('ProgressDeadlineExceeded', 'False', 0)] });
    expect(stuckRequeueAfter(timedOut, timedOut.status!, at(180))).to.equal(undefined);
  });
});
