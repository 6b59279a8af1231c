/**
 * The timelines S1–S12 (docs/rules/kubelet.md), reproduced on the virtual clock with this
 * simulation's latencies (watch delivery 0, PLEG relist every 1 s, status sync right after the caller, unmount
 * 100 ms): every row is [seconds from T+0, component, text prefix], in order. T+0 falls on a whole
 * second, so the kubelet's first wait w1 is 0 and each later PLEG wait rounds up to the next second.
 * The apiserver rules K1–K8 are checked through the same cluster.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { toTime } from '../../apimachinery/object';
import type { Pod } from '../../apimachinery/types';
import { CONTROLLER, USER } from '../../cluster/cluster';
import { runKubectl } from '../../frontends/kubectl/kubectl';
import {
  at,
  condition,
  count,
  createPod,
  del,
  expectNo,
  expectTimeline,
  newCluster,
  PRESTOP,
  running,
  stored,
  versions,
} from './testing';
import { UNSERVED_SCHEDULER } from '../scheduler/scheduler';

const app = (p: Pod | undefined) => p?.status?.containerStatuses?.find((s) => s.name === 'app');

describe('S1 graceful delete, app exits 2 s after SIGTERM (grace 30, no preStop)', () => {
  it('S1 SIGTERM at once; at +2 one PATCH with the terminated container and phase Succeeded; containers removed and final DELETE at the next relist (+3), REMOVE, housekeeping, sandbox at container GC', () => {
    const { c, t0 } = running({
      spec: { volumes: [{ name: 'data' }] },
      containers: { app: { sigterm: { kind: 'exits', afterMs: 2000 } } },
    });
    del(c, 'web');
    c.advance(2500);
    // K33: SyncTerminatingPod's last status (podIsTerminal) is merged after completeTerminating,
    // so the containers and the terminal phase reach the API in one PATCH.
    const mid = stored(c, 'web');
    expect(mid?.status?.phase).to.equal('Succeeded');
    expect(app(mid)?.state?.terminated).to.include({ exitCode: 0, reason: 'Completed' });
    expect([condition(mid, 'Ready')?.status, condition(mid, 'ContainersReady')?.status]).to.deep.equal([
      'False',
      'False',
    ]);
    c.advance(120_000);
    expectTimeline(c, t0, [
      [0, 'apiserver', 'DELETE pods/web'],
      [0, 'etcd', 'PUT /registry/pods/default/web'],
      [0, 'watch', 'MODIFIED pods/web'],
      [0, 'kubelet', 'DELETE pods/web'],
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [0, 'events', 'Killing pods/web: Stopping container app'],
      [0, 'runtime', 'SIGTERM app'],
      [2, 'runtime', 'exited app code=0'],
      [2, 'runtime', 'sandbox stopped pods/web'],
      [2, 'apiserver', 'PATCH pods/web/status'],
      [2.1, 'volumes', 'unmount data'],
      [2.2, 'volumes', 'unmounted data'],
      // K41: the relist that sees the container dead (ContainerDied) finds the worker terminated.
      [3, 'runtime', 'removed app pods/web'],
      [3, 'kubelet', 'SyncTerminatedPod pods/web'],
      [3, 'status', 'resources reclaimed pods/web'],
      [3, 'status', 'DELETE pods/web gracePeriodSeconds=0 preconditions.uid='],
      [3, 'apiserver', 'DELETE pods/web gracePeriodSeconds=0 preconditions.uid='],
      [3, 'watch', 'MODIFIED pods/web'],
      [3, 'etcd', 'DELETE /registry/pods/default/web'],
      [3, 'watch', 'DELETED pods/web'],
      [3, 'kubelet', 'DELETE pods/web'],
      [3, 'kubelet', 'REMOVE pods/web'],
      [4, 'kubelet', 'housekeeping removed worker pods/web'],
      [60, 'runtime', 'sandbox removed pods/web'],
    ]);
    // Step 1 of SyncTerminatingPod and SyncTerminatedPod send nothing (status unchanged): one status PATCH.
    expect(count(c, t0, 'apiserver', 'PATCH pods/web/status')).to.equal(1);
    const last = versions(c, 'web').at(-1);
    expect(last?.status?.phase).to.equal('Succeeded');
    expect(condition(last, 'Ready')).to.include({ status: 'False', reason: 'PodCompleted' });
    // V1 (v1.33, kubernetes#122646): the final DELETE at +3 stamps the time it is sent, not T+0.
    expect(last?.metadata).to.include({ deletionTimestamp: toTime(t0 + 3000), deletionGracePeriodSeconds: 0 });
  });
});

describe('S2 container ignores SIGTERM (grace 30)', () => {
  it('S2 SIGKILL at +30 (137 Error) and phase Failed in the same PATCH; the final DELETE at +31: the pod outlives its deletionTimestamp', () => {
    const { c, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    del(c, 'web');
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(toTime(t0 + 30_000));
    c.advance(30_500);
    expect(stored(c, 'web')?.status?.phase).to.equal('Failed');
    expect(app(stored(c, 'web'))?.state?.terminated).to.include({ exitCode: 137, reason: 'Error' });
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [0, 'runtime', 'SIGTERM app'],
      [30, 'runtime', 'SIGKILL app'],
      [30, 'runtime', 'exited app code=137'],
      [30, 'apiserver', 'PATCH pods/web/status'],
      [31, 'runtime', 'removed app pods/web'],
      [31, 'kubelet', 'SyncTerminatedPod pods/web'],
      [31, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
      [31, 'etcd', 'DELETE /registry/pods/default/web'],
    ]);
    const last = versions(c, 'web').at(-1);
    expect(last?.status?.phase).to.equal('Failed');
    expect(condition(last, 'Ready')).to.include({ status: 'False', reason: 'PodFailed' });
  });
});

describe('S3 preStop 10 s, app exits 1 s after SIGTERM (grace 30)', () => {
  it('S3 hook from +0, SIGTERM at +10, exit at +11, then as S1', () => {
    const { c, t0 } = running({
      spec: { containers: [{ name: 'app', lifecycle: PRESTOP }] },
      containers: { app: { preStopMs: 10_000, sigterm: { kind: 'exits', afterMs: 1000 } } },
    });
    del(c, 'web');
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'events', 'Killing pods/web: Stopping container app'],
      [0, 'runtime', 'preStop app'],
      [10, 'runtime', 'SIGTERM app'],
      [11, 'runtime', 'exited app code=0'],
      [11, 'runtime', 'sandbox stopped pods/web'],
      [12, 'kubelet', 'SyncTerminatedPod pods/web'],
      [12, 'status', 'DELETE pods/web'],
    ]);
  });

  it('S3 if the app ignored SIGTERM: SIGKILL at +30 (10 of hook + remaining 20)', () => {
    const { c, t0 } = running({
      spec: { containers: [{ name: 'app', lifecycle: PRESTOP }] },
      containers: { app: { preStopMs: 10_000, sigterm: { kind: 'ignores' } } },
    });
    del(c, 'web');
    c.advance(60_000);
    expectTimeline(c, t0, [
      [10, 'runtime', 'SIGTERM app'],
      [30, 'runtime', 'SIGKILL app'],
      [30, 'runtime', 'exited app code=137'],
      [31, 'status', 'DELETE pods/web'],
    ]);
  });
});

describe('S4 preStop hook longer than the grace period (30)', () => {
  it('S4 a hanging hook: the kubelet stops waiting at +30, SIGTERM, SIGKILL 2 s later (floor), final DELETE at +33', () => {
    const { c, t0 } = running({
      spec: { containers: [{ name: 'app', lifecycle: PRESTOP }] },
      containers: { app: { preStopMs: Number.POSITIVE_INFINITY, sigterm: { kind: 'ignores' } } },
    });
    del(c, 'web');
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'preStop app'],
      [30, 'runtime', 'SIGTERM app'],
      [32, 'runtime', 'SIGKILL app'],
      [32, 'runtime', 'exited app code=137'],
      [33, 'kubelet', 'SyncTerminatedPod pods/web'],
      [33, 'status', 'DELETE pods/web'],
    ]);
  });

  it('S4 a 29.6 s hook: floor(29.6)=29 leaves max(1, 2)=2 s: SIGTERM at +29.6, SIGKILL at +31.6', () => {
    const { c, t0 } = running({
      spec: { containers: [{ name: 'app', lifecycle: PRESTOP }] },
      containers: { app: { preStopMs: 29_600, sigterm: { kind: 'ignores' } } },
    });
    del(c, 'web');
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'preStop app'],
      [29.6, 'runtime', 'SIGTERM app'],
      [31.6, 'runtime', 'SIGKILL app'],
      [32, 'kubelet', 'SyncTerminatedPod pods/web'],
      [32, 'status', 'DELETE pods/web'],
    ]);
  });
});

describe('S5 several containers with a sidecar pair (grace 30)', () => {
  const spec = {
    initContainers: [
      { name: 'log', restartPolicy: 'Always' },
      { name: 'mesh', restartPolicy: 'Always' },
    ],
    containers: [{ name: 'a' }, { name: 'b' }],
  };

  it('S5 regular containers get SIGTERM at once; the sidecars only when their turn or their grace runs out (+30), SIGKILL +32; Failed because of b', () => {
    const { c, t0 } = running({
      spec,
      containers: {
        a: { sigterm: { kind: 'exits', afterMs: 5000 } },
        b: { sigterm: { kind: 'ignores' } },
        log: { sigterm: { kind: 'ignores' } },
        mesh: { sigterm: { kind: 'ignores' } },
      },
    });
    del(c, 'web');
    c.advance(60_000);
    for (const name of ['log', 'mesh', 'a', 'b'])
      expect(at(c, t0, 'events', `Killing pods/web: Stopping container ${name}`)).to.equal(0);
    expectTimeline(c, t0, [
      [0, 'runtime', 'SIGTERM a'],
      [0, 'runtime', 'SIGTERM b'],
      [5, 'runtime', 'exited a code=0'],
      [30, 'runtime', 'SIGKILL b'],
      [32, 'runtime', 'SIGKILL mesh'],
      [32, 'runtime', 'sandbox stopped pods/web'],
      [33, 'kubelet', 'SyncTerminatedPod pods/web'],
      [33, 'status', 'DELETE pods/web'],
    ]);
    expect([
      at(c, t0, 'runtime', 'SIGTERM mesh'),
      at(c, t0, 'runtime', 'SIGTERM log'),
      at(c, t0, 'runtime', 'SIGKILL log'),
    ]).to.deep.equal([30, 30, 32]);
    expect(versions(c, 'web').at(-1)?.status?.phase).to.equal('Failed');
  });

  it('S5 sidecars stop in reverse order once the regular containers are gone; their exit codes do not decide the phase (K32)', () => {
    const { c, t0 } = running({
      spec,
      containers: {
        a: { sigterm: { kind: 'exits', afterMs: 3000 } },
        b: { sigterm: { kind: 'exits', afterMs: 1000 } },
        mesh: { sigterm: { kind: 'exits', afterMs: 1000 } },
      },
    });
    del(c, 'web');
    c.advance(60_000);
    expectTimeline(c, t0, [
      [1, 'runtime', 'exited b code=0'],
      [3, 'runtime', 'exited a code=0'],
      [3, 'runtime', 'SIGTERM mesh'],
      [4, 'runtime', 'exited mesh code=0'],
      [4, 'runtime', 'SIGTERM log'],
      [4, 'runtime', 'exited log code=143'],
      [4, 'runtime', 'sandbox stopped pods/web'],
      [5, 'status', 'DELETE pods/web'],
    ]);
    expect(versions(c, 'web').at(-1)?.status?.phase).to.equal('Succeeded');
  });
});

describe('S6 force delete (--grace-period=0 --force), app ignores SIGTERM, spec grace 30', () => {
  it('S6 the object goes at once; the kubelet kills with G=1 (StopContainer(2)): SIGKILL at +2; no status is written for the vanished pod', () => {
    const { c, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    del(c, 'web', { gracePeriodSeconds: 0 });
    expect(stored(c, 'web')).to.equal(undefined);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'apiserver', 'DELETE pods/web gracePeriodSeconds=0'],
      [0, 'watch', 'MODIFIED pods/web'],
      [0, 'watch', 'DELETED pods/web'],
      [0, 'kubelet', 'DELETE pods/web'],
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=1'],
      [0, 'events', 'Killing pods/web: Stopping container app'],
      [0, 'runtime', 'SIGTERM app'],
      [0, 'kubelet', 'REMOVE pods/web'],
      [2, 'runtime', 'SIGKILL app'],
      [2, 'runtime', 'exited app code=137'],
      [3, 'kubelet', 'SyncTerminatedPod pods/web'],
      [3, 'kubelet', 'pod worker finished pods/web'],
      [4, 'kubelet', 'housekeeping removed worker pods/web'],
    ]);
    expect(count(c, t0, 'kubelet', 'SyncTerminatingPod')).to.equal(1);
    expectNo(c, t0, 'apiserver', 'PATCH pods/web/status');
    expectNo(c, t0, 'status', 'DELETE');
  });
});

describe('S7 a volume that cannot be unmounted', () => {
  it('S7 phase terminal at +0, unmount retried with back-off 0.5 s doubling to 122 s, WaitForUnmount times out after 123 s and is retried 10 s later, forever; the pod stays Terminating', () => {
    const { c, t0 } = running({
      spec: { volumes: [{ name: 'data' }] },
      volumes: { data: { unmountMs: 0, neverUnmounts: true } },
    });
    del(c, 'web');
    c.advance(280_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'exited app code=143'],
      [0, 'apiserver', 'PATCH pods/web/status'],
      [0.1, 'volumes', 'unmount data'],
      [0.1, 'volumes', 'unmount failed data pods/web: retry in 0.5s'],
      [0.7, 'volumes', 'unmount failed data pods/web: retry in 1s'],
      [1, 'runtime', 'removed app pods/web'],
      [1, 'kubelet', 'SyncTerminatedPod pods/web'],
      [1.8, 'volumes', 'unmount failed data pods/web: retry in 2s'],
      [3.9, 'volumes', 'unmount failed data pods/web: retry in 4s'],
      [8, 'volumes', 'unmount failed data pods/web: retry in 8s'],
      [16.1, 'volumes', 'unmount failed data pods/web: retry in 16s'],
      [32.2, 'volumes', 'unmount failed data pods/web: retry in 32s'],
      [60, 'runtime', 'sandbox removed pods/web'],
      [64.3, 'volumes', 'unmount failed data pods/web: retry in 64s'],
      [
        124,
        'kubelet',
        'sync error pods/web: timed out waiting for volumes to unmount: unmounted volumes=[data]; retry in 10s',
      ],
      [128.4, 'volumes', 'unmount failed data pods/web: retry in 122s'],
      [134, 'kubelet', 'SyncTerminatedPod pods/web'],
      [250.5, 'volumes', 'unmount failed data pods/web: retry in 122s'],
      [257, 'kubelet', 'sync error pods/web: timed out'],
      [267, 'kubelet', 'SyncTerminatedPod pods/web'],
    ]);
    const pod = stored(c, 'web');
    expect(pod?.metadata.deletionTimestamp).to.equal(toTime(t0 + 30_000));
    expect(pod?.status?.phase).to.equal('Failed');
    expectNo(c, t0, 'status', 'DELETE');
    expect(c.settle().settled).to.equal(false);
  });

  it('S7 a force delete removes the object; the kubelet keeps retrying as an orphan (housekeeping re-drives it at once), the pod directory stays while mounted', () => {
    const { c, node, uid, t0 } = running({
      spec: { volumes: [{ name: 'data' }] },
      volumes: { data: { unmountMs: 0, neverUnmounts: true } },
    });
    del(c, 'web');
    c.advance(300_000);
    del(c, 'web', { gracePeriodSeconds: 0 });
    expect(stored(c, 'web')).to.equal(undefined);
    c.advance(100_000);
    expectTimeline(c, t0, [
      [267, 'kubelet', 'SyncTerminatedPod pods/web'],
      [300, 'apiserver', 'DELETE pods/web gracePeriodSeconds=0'],
      [300, 'kubelet', 'DELETE pods/web'],
      [300, 'kubelet', 'REMOVE pods/web'],
      [
        390,
        'kubelet',
        'sync error pods/web: timed out waiting for volumes to unmount: unmounted volumes=[data]; a newer update is queued',
      ],
      [391, 'kubelet', 'SyncTerminatedPod pods/web'],
    ]);
    expect(node.volumes.hasPod(uid)).to.equal(true);
    expect(node.kubelet.workers.status(uid)?.orphan).to.equal(true);
  });
});

describe('S8 a pod with a finalizer', () => {
  const finalizers = ['example.com/hold'];

  it('S8 the kubelet finishes as in S1 and its DELETE (200) leaves the object (grace 0, terminal); it is removed in the update that takes the finalizer off', () => {
    const { c, t0 } = running({ metadata: { finalizers } });
    del(c, 'web');
    c.advance(100_000);
    const pod = stored(c, 'web');
    // V1: the kubelet's DELETE (at +1) stamps its own time.
    expect(pod?.metadata).to.include({ deletionTimestamp: toTime(t0 + 1000), deletionGracePeriodSeconds: 0 });
    expect(pod?.status?.phase).to.equal('Failed');
    // The kubelet forgot the status and its worker is finished: no request after its DELETE.
    const kubeletRequests = c.timeline
      .since(t0)
      .filter((e) => e.component === 'apiserver' && e.actor === 'kubelet/node-1');
    expect(kubeletRequests.at(-1)?.text).to.match(/^DELETE pods\/web gracePeriodSeconds=0/);
    expect(kubeletRequests.at(-1)?.outcome).to.equal('200');
    const got = stored(c, 'web')!;
    got.metadata.finalizers = [];
    c.apiserver.update(CONTROLLER, 'pods', 'default', got);
    c.flush();
    c.advance(10_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [1, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
      [1, 'kubelet', 'DELETE pods/web'],
      [100, 'apiserver', 'UPDATE pods/web'],
      [100, 'etcd', 'DELETE /registry/pods/default/web'],
      [100, 'kubelet', 'REMOVE pods/web'],
      [102, 'kubelet', 'housekeeping removed worker pods/web'],
    ]);
    expect(stored(c, 'web')).to.equal(undefined);
  });

  it('S8 a force delete of a pod with a finalizer: object kept with grace 0, the kubelet kills with G=1, its DELETE changes nothing', () => {
    const { c, t0 } = running({ metadata: { finalizers }, containers: { app: { sigterm: { kind: 'ignores' } } } });
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=1'],
      [2, 'runtime', 'SIGKILL app'],
      [3, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
    ]);
    expect(stored(c, 'web')?.metadata).to.include({ deletionGracePeriodSeconds: 0 });
    expect(stored(c, 'web')?.status?.phase).to.equal('Failed');
  });
});

describe('S9 node unreachable, then the pod is deleted at T+0', () => {
  it('S9 nobody acts (Terminating past the deadline, K7); when the node returns after a long outage it relists: DELETE op, G=30 from then', () => {
    const { c, node, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    node.setReachable(false);
    del(c, 'web');
    c.advance(600_000);
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(toTime(t0 + 30_000));
    expect(count(c, t0, 'kubelet', 'SyncTerminatingPod')).to.equal(0);
    node.setReachable(true);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'apiserver', 'DELETE pods/web'],
      [600, 'kubelet', 'watch expired'],
      [600, 'kubelet', 'DELETE pods/web'],
      [600, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [600, 'runtime', 'SIGTERM app'],
      [630, 'runtime', 'SIGKILL app'],
      [631, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
      [631, 'etcd', 'DELETE /registry/pods/default/web'],
    ]);
  });

  it('S9 force deleted meanwhile, back after a long outage: the relist gives only REMOVE, so the kubelet kills with the spec grace (K44)', () => {
    const { c, node, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    node.setReachable(false);
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(600_000);
    node.setReachable(true);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [600, 'kubelet', 'REMOVE pods/web'],
      [600, 'kubelet', 'terminating pods/web (kill requested)'],
      [600, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [630, 'runtime', 'SIGKILL app'],
      [631, 'kubelet', 'SyncTerminatedPod pods/web'],
    ]);
    expectNo(c, t0, 'kubelet', 'DELETE pods/web');
  });

  it('S9 force deleted meanwhile, back after a short outage: the resumed watch replays MODIFIED (G=1) before DELETED', () => {
    const { c, node, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    node.setReachable(false);
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(20_000);
    node.setReachable(true);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [20, 'kubelet', 'watch resumed'],
      [20, 'kubelet', 'DELETE pods/web'],
      [20, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=1'],
      [20, 'kubelet', 'REMOVE pods/web'],
      [22, 'runtime', 'SIGKILL app'],
    ]);
  });
});

describe('S10 kubelet restart during termination (grace 60, app needs 40 s)', () => {
  it('S10 the new kubelet sees ADD, terminates with the full 60 again (second SIGTERM); the app still exits after its own 40 s', () => {
    const { c, node, t0 } = running({
      spec: { terminationGracePeriodSeconds: 60 },
      containers: { app: { sigterm: { kind: 'exits', afterMs: 40_000 } } },
    });
    del(c, 'web');
    c.advance(20_000);
    node.restartKubelet();
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=60'],
      [0, 'runtime', 'SIGTERM app'],
      [20, 'kubelet', 'kubelet stopped'],
      [20, 'kubelet', 'kubelet started'],
      [20, 'kubelet', 'ADD pods/web'],
      [20, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=60'],
      [20, 'events', 'Killing pods/web: Stopping container app'],
      [20, 'runtime', 'SIGTERM app'],
      [40, 'runtime', 'exited app code=0'],
      [41, 'kubelet', 'SyncTerminatedPod pods/web'],
      [41, 'status', 'DELETE pods/web'],
    ]);
  });

  it('S10 the SIGKILL timer restarts with the new kubelet: an app ignoring SIGTERM is killed at 20+60, not at 60', () => {
    const { c, node, t0 } = running({
      spec: { terminationGracePeriodSeconds: 60 },
      containers: { app: { sigterm: { kind: 'ignores' } } },
    });
    del(c, 'web');
    c.advance(20_000);
    node.restartKubelet();
    c.advance(80_000);
    expect(at(c, t0, 'runtime', 'SIGKILL app')).to.equal(80);
    expect(count(c, t0, 'runtime', 'SIGKILL app')).to.equal(1);
  });
});

describe('S11 grace shortened while terminating (30, then 5)', () => {
  it('S11 V1 the second DELETE would put deletionTimestamp at T0+5, in the past: v1.33 stores now with grace 1, the kubelet computes G=1, but the running kill keeps its 30 s (#83916)', () => {
    const { c, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    del(c, 'web');
    c.advance(10_000);
    del(c, 'web', { gracePeriodSeconds: 5 });
    expect(stored(c, 'web')?.metadata).to.include({
      deletionTimestamp: toTime(t0 + 10_000),
      deletionGracePeriodSeconds: 1,
    });
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [0, 'runtime', 'SIGTERM app'],
      [10, 'apiserver', 'DELETE pods/web gracePeriodSeconds=5'],
      [10, 'kubelet', 'DELETE pods/web'],
      [10, 'kubelet', 'grace shortened pods/web to 1s'],
      [30, 'runtime', 'SIGKILL app'],
      [31, 'kubelet', 'SyncTerminatedPod pods/web'],
      [31, 'status', 'DELETE pods/web'],
    ]);
    expect(count(c, t0, 'kubelet', 'SyncTerminatingPod')).to.equal(1);
  });
});

describe('S12 pod deleted while Pending (image still pulling), grace 30', () => {
  /** The pod is created at the cluster's start; its image pull takes 20 s; it is deleted 5 s later. */
  function pulling(pullFails: boolean) {
    const { c } = newCluster();
    createPod(c, 'web', { containers: { app: { pullMs: 20_000, pullFails } } });
    c.advance(5000);
    expect(stored(c, 'web')?.status?.phase).to.equal('Pending');
    expect(app(stored(c, 'web'))?.state?.waiting?.reason).to.equal('ContainerCreating');
    const t0 = c.clock.now();
    del(c, 'web');
    c.advance(60_000);
    return { c, t0 };
  }

  it('S12 the pull fails: nothing started, only the sandbox is stopped; TerminatePod turns Waiting into ContainerStatusUnknown 137 and Pending into Failed', () => {
    const { c, t0 } = pulling(true);
    expectTimeline(c, t0, [
      [0, 'apiserver', 'DELETE pods/web'],
      [0, 'kubelet', 'DELETE pods/web'],
      [0, 'kubelet', 'terminating pods/web (deletionTimestamp set)'],
      [15, 'runtime', 'pull failed app'],
      [16, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [16, 'runtime', 'sandbox stopped pods/web'],
      [17, 'kubelet', 'SyncTerminatedPod pods/web'],
      [17, 'apiserver', 'PATCH pods/web/status'],
      [17, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
      [17, 'etcd', 'DELETE /registry/pods/default/web'],
    ]);
    expectNo(c, t0, 'runtime', 'SIGTERM');
    const last = versions(c, 'web').at(-1);
    expect(last?.status?.phase).to.equal('Failed');
    expect(app(last)?.state?.terminated).to.include({ exitCode: 137, reason: 'ContainerStatusUnknown' });
  });

  it('S12 the pull completes: the runtime call is not cancelled, so the container starts and is then killed', () => {
    const { c, t0 } = pulling(false);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'terminating pods/web (deletionTimestamp set)'],
      [15, 'runtime', 'started app'],
      [16, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [16, 'runtime', 'SIGTERM app'],
      [16, 'runtime', 'exited app code=143'],
      [17, 'kubelet', 'SyncTerminatedPod pods/web'],
      [17, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
    ]);
    expect(versions(c, 'web').at(-1)?.status?.phase).to.equal('Failed');
  });
});

describe('apiserver side of DELETE, through the cluster (K1–K8)', () => {
  it("K1 the grace is the request's, else the spec's; forced to 0 for unscheduled or terminal pods; a negative one becomes 1", () => {
    const { c } = newCluster();
    createPod(c, 'spec45', { spec: { terminationGracePeriodSeconds: 45 } });
    createPod(c, 'asked10');
    createPod(c, 'negative');
    c.apiserver.create(USER, 'pods', 'default', {
      metadata: { name: 'unscheduled' },
      spec: { containers: [{ name: 'app' }], schedulerName: UNSERVED_SCHEDULER },
    });
    createPod(c, 'done', { spec: { restartPolicy: 'Never' }, containers: { app: { exitsOnItsOwn: 0 } } });
    c.advance(10_000);
    expect(stored(c, 'done')?.status?.phase).to.equal('Succeeded');
    const grace = (name: string, options = {}) => {
      const r = del(c, name, options);
      return r.ok ? r.object.metadata.deletionGracePeriodSeconds : undefined;
    };
    expect(grace('spec45')).to.equal(45);
    expect(grace('asked10', { gracePeriodSeconds: 10 })).to.equal(10);
    expect(grace('negative', { gracePeriodSeconds: -5 })).to.equal(1);
    expect(grace('unscheduled', { gracePeriodSeconds: 30 })).to.equal(0);
    expect(grace('done')).to.equal(0);
    expect([stored(c, 'unscheduled'), stored(c, 'done')]).to.deep.equal([undefined, undefined]);
  });

  it('K2 the first graceful delete is an update: deletionTimestamp = now + grace (whole seconds), grace recorded, generation bumped, object readable, MODIFIED', () => {
    const { c, t0 } = running();
    c.advance(400);
    const r = del(c, 'web');
    expect(r.ok && r.code).to.equal(200);
    expect(stored(c, 'web')?.metadata).to.include({
      deletionTimestamp: toTime(t0 + 30_000),
      deletionGracePeriodSeconds: 30,
      generation: 2,
    });
    expectTimeline(c, t0, [
      [0.4, 'apiserver', 'DELETE pods/web'],
      [0.4, 'etcd', 'PUT /registry/pods/default/web'],
      [0.4, 'watch', 'MODIFIED pods/web'],
    ]);
    expectNo(c, t0, 'etcd', 'DELETE');
  });

  it('K3 grace 0: MODIFIED (grace 0) then DELETED, in that order', () => {
    const { c, t0 } = running();
    del(c, 'web', { gracePeriodSeconds: 0 });
    expectTimeline(c, t0, [
      [0, 'watch', 'MODIFIED pods/web'],
      [0, 'watch', 'DELETED pods/web'],
    ]);
    expect(versions(c, 'web').at(-1)?.metadata.deletionGracePeriodSeconds).to.equal(0);
  });

  it('K4 later deletes may only shorten: equal or longer change nothing; shorter moves deletionTimestamp to first-request time + new grace', () => {
    const { c, node, t0 } = running();
    node.setReachable(false);
    del(c, 'web', { gracePeriodSeconds: 30 });
    const writes = () => count(c, t0, 'etcd', 'PUT /registry/pods/default/web');
    c.advance(3000);
    del(c, 'web', { gracePeriodSeconds: 30 });
    del(c, 'web', { gracePeriodSeconds: 60 });
    del(c, 'web');
    expect(writes()).to.equal(1);
    del(c, 'web', { gracePeriodSeconds: 10 });
    expect(writes()).to.equal(2);
    expect(stored(c, 'web')?.metadata).to.include({
      deletionTimestamp: toTime(t0 + 10_000),
      deletionGracePeriodSeconds: 10,
    });
  });

  it('K5 a UID precondition that does not match is a 409 Conflict and changes nothing', () => {
    const { c, t0 } = running();
    const r = del(c, 'web', { preconditions: { uid: 'not-the-uid' } });
    expect(r.ok ? r.code : [r.code, r.status.reason]).to.deep.equal([409, 'Conflict']);
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(undefined);
    expectNo(c, t0, 'etcd', 'PUT');
  });

  it('K6 finalizers block removal, not the bookkeeping; emptying them at grace 0 deletes in that update, at grace > 0 it does not', () => {
    const { c, node } = newCluster();
    node.setReachable(false);
    createPod(c, 'zero', { metadata: { finalizers: ['example.com/hold'] } });
    createPod(c, 'thirty', { metadata: { finalizers: ['example.com/hold'] } });
    del(c, 'zero', { gracePeriodSeconds: 0 });
    del(c, 'thirty');
    expect(stored(c, 'zero')?.metadata.deletionGracePeriodSeconds).to.equal(0);
    for (const name of ['zero', 'thirty']) {
      const p = stored(c, name)!;
      p.metadata.finalizers = [];
      c.apiserver.update(CONTROLLER, 'pods', 'default', p);
    }
    expect(stored(c, 'zero')).to.equal(undefined);
    expect(stored(c, 'thirty')?.metadata.deletionGracePeriodSeconds).to.equal(30);
  });

  it('K7 the server never enforces the deadline: with no kubelet to finish it the pod stays Terminating', () => {
    const { c, node, t0 } = running();
    node.setReachable(false);
    del(c, 'web');
    c.advance(3_600_000);
    expect(stored(c, 'web')?.metadata.deletionTimestamp).to.equal(toTime(t0 + 30_000));
    expectNo(c, t0, 'etcd', 'DELETE');
  });

  it('K8 kubectl turns --now and --grace-period=0 into 1, --force into 0, and sends no grace without flags', () => {
    const sent = (line: string) => {
      const { c, t0 } = running();
      runKubectl(c, line);
      return c.timeline.since(t0).find((e) => e.component === 'apiserver' && e.text.startsWith('DELETE'))?.text;
    };
    expect(sent('kubectl delete pod web --now --wait=false')).to.equal(
      'DELETE pods/web gracePeriodSeconds=1 propagationPolicy=Background',
    );
    expect(sent('kubectl delete pod web --grace-period=0 --wait=false')).to.equal(
      'DELETE pods/web gracePeriodSeconds=1 propagationPolicy=Background',
    );
    expect(sent('kubectl delete pod web --force --wait=false')).to.equal(
      'DELETE pods/web gracePeriodSeconds=0 propagationPolicy=Background',
    );
    expect(sent('kubectl delete pod web --wait=false')).to.equal('DELETE pods/web propagationPolicy=Background');
  });
});
