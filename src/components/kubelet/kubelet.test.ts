/**
 * The kubelet's own loops through a whole cluster: the syncLoop's handling of config ops, the
 * sync functions, retries, housekeeping, container GC and restarts (rules K9–K45).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Event, Pod, PodCondition, PodStatus } from '../../apimachinery/types';
import { USER } from '../../cluster/cluster';
import { Release } from '../../foundation/release';
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
  WARMUP_MS,
} from './testing';

const app = (p: Pod | undefined) => p?.status?.containerStatuses?.find((s) => s.name === 'app');

describe('syncLoop: config ops (K11–K13)', () => {
  it('K11 a DELETE op is handled as an update: the worker learns the deletionTimestamp and starts terminating with its grace', () => {
    const { c, node, uid, t0 } = running();
    del(c, 'web', { gracePeriodSeconds: 20 });
    expectTimeline(c, t0, [
      [0, 'kubelet', 'DELETE pods/web'],
      [0, 'kubelet', 'terminating pods/web (deletionTimestamp set)'],
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=20'],
    ]);
    expect(node.kubelet.workers.status(uid)?.deleted).to.equal(true);
  });

  it('K12 an UPDATE goes straight to the worker (no admission): it holds the new pod and keeps syncing', () => {
    const { c, node, uid, t0 } = running();
    const pod = stored(c, 'web')!;
    pod.metadata.labels = { release: 'two' };
    c.apiserver.update(USER, 'pods', 'default', pod);
    c.flush();
    expectTimeline(c, t0, [[0, 'kubelet', 'UPDATE pods/web']]);
    expectNo(c, t0, 'kubelet', 'ADD');
    expect(node.kubelet.workers.status(uid)?.pod.metadata.labels).to.deep.equal({ release: 'two' });
    expect(node.kubelet.workers.status(uid)?.workType).to.equal('sync');
  });

  it('K13 REMOVE: the worker gets a kill without options (spec grace); directories are left to housekeeping', () => {
    const { c, node, uid, t0 } = running({
      spec: { volumes: [{ name: 'data' }] },
      containers: { app: { sigterm: { kind: 'exits', afterMs: 3000 } } },
    });
    node.setReachable(false);
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(600_000);
    node.setReachable(true);
    c.advance(3_500);
    expect(node.volumes.hasPod(uid)).to.equal(true);
    c.advance(10_000);
    expectTimeline(c, t0, [
      [600, 'kubelet', 'REMOVE pods/web'],
      [600, 'kubelet', 'terminating pods/web (kill requested)'],
      [600, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [603, 'runtime', 'exited app code=0'],
      [603.2, 'volumes', 'unmounted data'],
      [604, 'kubelet', 'SyncTerminatedPod pods/web'],
      [604, 'kubelet', 'pod worker finished pods/web'],
      [606, 'kubelet', 'housekeeping removed worker pods/web'],
    ]);
    expect(node.volumes.hasPod(uid)).to.equal(false);
  });
});

describe('retries (K19, K31)', () => {
  it('K31 a kill after which a container still runs is a CRI violation: SyncTerminatingPod fails and (K19) is retried 10 s later at a sync tick, for a pod still in config', () => {
    const { c, node, t0 } = running();
    const real = node.runtime.stopContainer.bind(node.runtime);
    let lie = true;
    node.runtime.stopContainer = (uid, name, timeout, onExit) => {
      if (!lie) return real(uid, name, timeout, onExit);
      lie = false;
      onExit();
      return () => undefined;
    };
    del(c, 'web');
    c.advance(30_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [
        0,
        'kubelet',
        'sync error pods/web: detected running containers after a successful KillPod, CRI violation; retry in 10s',
      ],
      [10, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30'],
      [10, 'runtime', 'SIGTERM app'],
      [11, 'kubelet', 'SyncTerminatedPod pods/web'],
      [11, 'status', 'DELETE pods/web'],
    ]);
  });

  it('K19 a pod no longer in config is not retried by the work queue: housekeeping (every 2 s) re-drives it', () => {
    const { c, node, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    // The first two StopContainer calls return after 2.5 s without stopping anything.
    const real = node.runtime.stopContainer.bind(node.runtime);
    let lies = 2;
    node.runtime.stopContainer = (uid, name, timeout, onExit) => {
      if (lies === 0) return real(uid, name, timeout, onExit);
      lies -= 1;
      c.clock.after(2500, onExit);
      return () => undefined;
    };
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(30_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=1'],
      [0, 'kubelet', 'REMOVE pods/web'],
      // The REMOVE's kill was queued meanwhile: it runs at the next relist.
      [
        2.5,
        'kubelet',
        'sync error pods/web: detected running containers after a successful KillPod, CRI violation; a newer update is queued',
      ],
      [3, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=1'],
      // Housekeeping (at 4) found the orphan terminating and replayed its last update: it runs right after the failure.
      [
        5.5,
        'kubelet',
        'sync error pods/web: detected running containers after a successful KillPod, CRI violation; a newer update is queued',
      ],
      [6, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=1'],
      [8, 'runtime', 'SIGKILL app'],
      [9, 'kubelet', 'SyncTerminatedPod pods/web'],
    ]);
    expect(count(c, t0, 'kubelet', 'SyncTerminatingPod')).to.equal(3);
  });
});

describe('SyncTerminatingPod and SyncTerminatedPod (K24, K31, K39, K40)', () => {
  it('K24 the Killing event is a Kubernetes Event (Normal, "Stopping container app") about the pod, recorded even when the pod is gone', () => {
    const { c, t0 } = running();
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(10_000);
    const events = c.apiserver.list('events', 'default');
    const items: Event[] = events.ok ? events.object.items : [];
    expect(
      items.map((e) => [
        e.type,
        e.reason,
        e.message,
        e.involvedObject.name,
        e.involvedObject.fieldPath,
        e.source?.component,
      ]),
    ).to.deep.equal([['Normal', 'Killing', 'Stopping container app', 'web', 'spec.containers{app}', 'kubelet']]);
    expect(at(c, t0, 'events', 'Killing pods/web')).to.equal(0);
  });

  it('K31 K33 the status is handed over first (unchanged: no PATCH), then the kill; the stopped status (podIsTerminal) goes out after completeTerminating: one PATCH with terminated containers and the terminal phase', () => {
    const { c, t0 } = running({ containers: { app: { sigterm: { kind: 'exits', afterMs: 2000 } } } });
    del(c, 'web');
    c.advance(2500);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web'],
      [0, 'runtime', 'SIGTERM app'],
      [2, 'runtime', 'exited app code=0'],
      [2, 'apiserver', 'PATCH pods/web/status'],
    ]);
    expect(count(c, t0, 'apiserver', 'PATCH')).to.equal(1);
    // kubelet.go SyncTerminatingPod ends with generateAPIPodStatus(podIsTerminal=true); the status
    // manager's goroutine merges it after completeTerminating (real v1.31/v1.32 kubelet logs show one PATCH).
    expect(stored(c, 'web')?.status?.phase).to.equal('Succeeded');
    expect(app(stored(c, 'web'))?.state?.terminated).to.include({ exitCode: 0, reason: 'Completed' });
  });

  it('K39 volumes are unmounted only once the containers have stopped (the worker is terminated)', () => {
    const { c, t0 } = running({
      spec: { volumes: [{ name: 'data' }] },
      containers: { app: { sigterm: { kind: 'exits', afterMs: 10_000 } } },
    });
    del(c, 'web');
    c.advance(20_000);
    expect(at(c, t0, 'volumes', 'unmount data')).to.equal(10.1);
  });

  it('K40 SyncTerminatedPod re-pushes the terminal status (unchanged: no PATCH), waits for the unmount (polled every 300 ms), and only then TerminatePod lets the DELETE go', () => {
    const { c, t0 } = running({ spec: { volumes: [{ name: 'data' }] }, volumes: { data: { unmountMs: 5000 } } });
    del(c, 'web');
    c.advance(3000);
    expect(stored(c, 'web')?.status?.phase).to.equal('Failed');
    c.advance(10_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'exited app code=143'],
      [0, 'apiserver', 'PATCH pods/web/status'],
      [0.1, 'volumes', 'unmount data'],
      [1, 'kubelet', 'SyncTerminatedPod pods/web'],
      [5.1, 'volumes', 'unmounted data'],
      [5.2, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
    ]);
    expect(count(c, t0, 'apiserver', 'PATCH pods/web/status')).to.equal(1);
  });
});

describe('container GC and pod directories (K41, K42)', () => {
  it("K41 a deleted pod's exited containers are removed at the PLEG relist after they died, once the worker is terminated (cleanUpContainersInPod); the sandbox goes at container GC", () => {
    const { c, node, uid, t0 } = running();
    del(c, 'web');
    c.advance(59_000);
    expect(at(c, t0, 'runtime', 'removed app pods/web')).to.equal(1);
    expect(node.runtime.sandbox(uid)?.containers.size).to.equal(0);
    expect(node.runtime.sandbox(uid)?.state).to.equal('notready');
    c.advance(2000);
    expect(at(c, t0, 'runtime', 'sandbox removed pods/web')).to.equal(60);
    expect(node.runtime.sandbox(uid)).to.equal(undefined);
  });

  it('K41 a container that died while the pod was still terminating is kept (not removable yet) and removed with the last one, at the relist after the worker terminated', () => {
    const { c, t0 } = running({
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
      containers: { a: { sigterm: { kind: 'exits', afterMs: 5000 } }, b: { sigterm: { kind: 'ignores' } } },
    });
    del(c, 'web');
    c.advance(40_000);
    expectTimeline(c, t0, [
      [5, 'runtime', 'exited a code=0'],
      [30, 'runtime', 'exited b code=137'],
      [31, 'runtime', 'removed a pods/web'],
      [31, 'runtime', 'removed b pods/web'],
    ]);
  });

  it('K41 a pod that is not deleted keeps its exited containers (for logs)', () => {
    const { c, node } = newCluster();
    const { metadata } = createPod(c, 'job', {
      spec: { restartPolicy: 'Never' },
      containers: { app: { exitsOnItsOwn: 0 } },
    });
    c.advance(300_000);
    expect(node.runtime.sandbox(metadata.uid!)?.containers.get('app')?.state).to.equal('exited');
    expectNo(c, 0, 'runtime', 'removed app');
  });

  it('K41 a pod that completed by itself keeps its containers while it is in the API; once it is deleted GC removes them', () => {
    const { c, node } = newCluster();
    const { metadata } = createPod(c, 'job', {
      spec: { restartPolicy: 'Never' },
      containers: { app: { exitsOnItsOwn: 0 } },
    });
    c.advance(300_000);
    expect(stored(c, 'job')?.status?.phase).to.equal('Succeeded');
    expect(node.runtime.sandbox(metadata.uid!)).to.not.equal(undefined);
    const t0 = c.clock.now();
    del(c, 'job');
    c.advance(120_000);
    expectTimeline(c, t0, [
      [0, 'etcd', 'DELETE /registry/pods/default/job'],
      [0, 'kubelet', 'REMOVE pods/job'],
      [2, 'kubelet', 'housekeeping removed worker pods/job'],
      // No container died after the deletion (no PLEG event): container GC removes it, then the sandbox.
      [60, 'runtime', 'removed app pods/job'],
      [60, 'runtime', 'sandbox removed pods/job'],
    ]);
  });

  it('K42 the directory of a pod gone from config is kept while a volume is mounted, and removed by the first housekeeping pass after', () => {
    const slow = running({ spec: { volumes: [{ name: 'data' }] }, volumes: { data: { unmountMs: 5000 } } });
    del(slow.c, 'web', { gracePeriodSeconds: 0 });
    slow.c.advance(4500);
    expect(slow.node.volumes.hasPod(slow.uid)).to.equal(true);
    slow.c.advance(2000);
    expect(slow.node.volumes.hasPod(slow.uid)).to.equal(false);

    const stuck = running({
      spec: { volumes: [{ name: 'data' }] },
      volumes: { data: { neverUnmounts: true, unmountMs: 0 } },
    });
    del(stuck.c, 'web', { gracePeriodSeconds: 0 });
    stuck.c.advance(600_000);
    expect(stuck.node.volumes.hasPod(stuck.uid)).to.equal(true);
  });
});

describe('status reconcile (K35, K46)', () => {
  it('K35 K46 a node back before eviction: the pod Ready=False written by MarkPodsNotReady differs from the cached status, so the next 10 s full sync re-sends it (syncBatch(all) → needsReconcile) and Ready is True again', () => {
    const { c, node, t0 } = running();
    node.setReachable(false);
    c.advance(70_000);
    expect(stored(c, 'web')?.status?.conditions?.find((x) => x.type === 'Ready')?.status).to.equal('False');
    node.setReachable(true);
    c.advance(15_000);
    expectTimeline(c, t0, [
      [55, 'nodelifecycle', 'pods/web Ready=False: node node-1 is not ready'],
      [70, 'kubelet', 'node node-1 reaches the apiserver again'],
      [70, 'kubelet', 'RECONCILE pods/web'],
      // The status manager's 10 s ticker (grid from the kubelet's start) comes next at T+80.
      [80, 'apiserver', 'PATCH pods/web/status'],
    ]);
    const ready = stored(c, 'web')?.status?.conditions?.find((x) => x.type === 'Ready');
    expect(ready).to.include({ status: 'True' });
    expect(ready?.reason).to.equal(undefined);
    // The API copy now matches the cache: no further reconcile PATCH.
    c.advance(60_000);
    expect(count(c, t0, 'apiserver', 'PATCH pods/web/status')).to.equal(1);
  });
});

describe('housekeeping (K43)', () => {
  it('K43 a force-deleted pod: its status is dropped, its worker driven to the end and then forgotten', () => {
    const { c, node, uid, t0 } = running();
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(1000);
    // SetPodStatus got NotFound (nothing sent); the cached status goes at the next housekeeping pass.
    expect(node.kubelet.statusManager.getPodStatus(uid)).to.not.equal(undefined);
    c.advance(1500);
    expect(node.kubelet.statusManager.getPodStatus(uid)).to.equal(undefined);
    c.advance(10_000);
    expectTimeline(c, t0, [
      [1, 'kubelet', 'pod worker finished pods/web'],
      [2, 'kubelet', 'housekeeping removed worker pods/web (no longer in config)'],
    ]);
    expect(node.kubelet.workers.status(uid)).to.equal(undefined);
  });

  it('K43 a terminal, deleted pod that no worker knows (e.g. rejected at admission) is sent a Kill so that the final DELETE happens (filterTerminalPodsToDelete)', () => {
    const { c, node } = newCluster();
    createPod(c, 'job', {
      metadata: { finalizers: ['example.com/hold'] },
      spec: { restartPolicy: 'Never' },
      containers: { app: { exitsOnItsOwn: 1 } },
    });
    c.advance(WARMUP_MS);
    del(c, 'job');
    expect(stored(c, 'job')?.metadata).to.include({ deletionGracePeriodSeconds: 0 });
    // The workers forget the pod, as if it had never been admitted.
    node.kubelet.workers.syncKnownPods(new Set());
    const t0 = c.clock.now();
    node.kubelet['handlePodCleanups']();
    c.advance(5000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'housekeeping kills pods/job (terminal, deleted, unknown to the pod workers)'],
      [0, 'kubelet', 'pods/job is Failed and nothing runs: its worker starts as terminated'],
      [0, 'kubelet', 'SyncTerminatedPod pods/job'],
      [0, 'status', 'DELETE pods/job gracePeriodSeconds=0'],
    ]);
  });
});

describe('orphans and restarts (K21, K30, K44, K45)', () => {
  it('K30 containers of a pod force-deleted while the kubelet was down are orphans: killed with grace 1 (StopContainer(2)) by housekeeping, no status, no DELETE', () => {
    const { c, node, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    node.kubelet.stop();
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(10_000);
    node.restartKubelet();
    c.advance(120_000);
    expectTimeline(c, t0, [
      [10, 'kubelet', 'kubelet started'],
      [12, 'kubelet', 'terminating pods/web (orphaned runtime pod)'],
      [12, 'kubelet', 'SyncTerminatingRuntimePod pods/web gracePeriod=1'],
      [12, 'runtime', 'SIGTERM app'],
      [14, 'runtime', 'SIGKILL app'],
      [14, 'runtime', 'sandbox stopped pods/web'],
      [70, 'runtime', 'sandbox removed pods/web'],
    ]);
    expect(
      c.timeline
        .since(t0)
        .filter((e) => e.component === 'apiserver' && e.actor === 'kubelet/node-1' && e.text.includes(' pods/')),
    ).to.deep.equal([]);
    expect(count(c, t0, 'runtime', 'SIGTERM')).to.equal(1);
  });

  it('K44 seen only as REMOVE (the watch expired while the pod was force-deleted): the kill uses the spec grace, 30 s', () => {
    const { c, node, t0 } = running({ containers: { app: { sigterm: { kind: 'ignores' } } } });
    node.setReachable(false);
    del(c, 'web', { gracePeriodSeconds: 0 });
    c.advance(600_000);
    node.setReachable(true);
    c.advance(60_000);
    expect(at(c, t0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30')).to.equal(600);
    expect(at(c, t0, 'runtime', 'SIGKILL app')).to.equal(630);
  });

  it('K45 after a restart the ADD starts terminating with the full deletionGracePeriodSeconds; preStop runs again; containers already stopped are skipped', () => {
    const { c, node, t0 } = running({
      spec: { terminationGracePeriodSeconds: 60, containers: [{ name: 'a' }, { name: 'b', lifecycle: PRESTOP }] },
      containers: { b: { preStopMs: 5000, sigterm: { kind: 'ignores' } } },
    });
    del(c, 'web');
    c.advance(20_000);
    node.restartKubelet();
    c.advance(80_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'exited a code=143'],
      [0, 'runtime', 'preStop b'],
      [5, 'runtime', 'SIGTERM b'],
      [20, 'kubelet', 'ADD pods/web'],
      [20, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=60'],
      [20, 'events', 'Killing pods/web: Stopping container b'],
      [20, 'runtime', 'preStop b'],
      [25, 'runtime', 'SIGTERM b'],
      [80, 'runtime', 'SIGKILL b'],
      [81, 'status', 'DELETE pods/web'],
    ]);
    expect(count(c, t0, 'events', 'Killing pods/web: Stopping container a')).to.equal(1);
  });

  it('K21 a restarted kubelet that finds the pod terminal with nothing running skips SyncTerminatingPod', () => {
    const { c, node, t0 } = running({
      spec: { volumes: [{ name: 'data' }] },
      volumes: { data: { neverUnmounts: true, unmountMs: 0 } },
    });
    del(c, 'web');
    c.advance(5000);
    expect(stored(c, 'web')?.status?.phase).to.equal('Failed');
    node.restartKubelet();
    c.advance(10_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web'],
      [5, 'kubelet', 'ADD pods/web'],
      [5, 'kubelet', 'pods/web is Failed and nothing runs: its worker starts as terminated'],
      [5, 'kubelet', 'SyncTerminatedPod pods/web'],
    ]);
    expect(count(c, t0, 'kubelet', 'SyncTerminatingPod')).to.equal(1);
  });
});

describe('release differences in the kubelet (V20, V25, V26)', () => {
  it('V20 K36 before v1.27 the final DELETE waits for PodResourcesAreReclaimed only: the pod (restartPolicy Always) leaves the API still Running; from v1.27 it is Failed first (#115331)', () => {
    for (const [minor, phase] of [
      [26, 'Running'],
      [27, 'Failed'],
    ] as const) {
      const { c, t0 } = running({ release: Release.of(minor), spec: { volumes: [{ name: 'data' }] } });
      del(c, 'web');
      c.advance(30_000);
      expect(stored(c, 'web'), `v1.${minor}`).to.equal(undefined);
      const last = versions(c, 'web').at(-1);
      expect(last?.status?.phase, `v1.${minor}`).to.equal(phase);
      expect(app(last)?.state?.terminated?.exitCode, `v1.${minor}`).to.equal(143);
      expect(at(c, t0, 'status', 'DELETE pods/web'), `v1.${minor}`).to.equal(1);
      expect(count(c, t0, 'apiserver', 'PATCH pods/web/status'), `v1.${minor}`).to.equal(1);
    }
  });

  it('V20 before v1.27 the DELETE still waits for the volumes (PodResourcesAreReclaimed asks for them, and for the pod cgroup removed at the end of SyncTerminatedPod)', () => {
    const { c, t0 } = running({
      release: Release.of(26),
      spec: { volumes: [{ name: 'data' }] },
      volumes: { data: { unmountMs: 5000 } },
    });
    del(c, 'web');
    c.advance(30_000);
    expectTimeline(c, t0, [
      [5.1, 'volumes', 'unmounted data'],
      [5.2, 'status', 'resources reclaimed pods/web'],
      [5.2, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
    ]);
    expect(versions(c, 'web').at(-1)?.status?.phase).to.equal('Running');
  });

  it("V25 with PodObservedGenerationTracking (on from v1.34) the terminal status carries status.observedGeneration and the kubelet conditions' observedGeneration (the generation the DELETE bumped); not on v1.33", () => {
    const seen = (minor: number) => {
      const { c } = running({ release: Release.of(minor), metadata: { finalizers: ['example.com/hold'] } });
      del(c, 'web');
      c.advance(30_000);
      const pod = stored(c, 'web');
      const status: PodStatus | undefined = pod?.status;
      const ready: PodCondition | undefined = status?.conditions?.find((x) => x.type === 'Ready');
      return [pod?.metadata.generation, status?.observedGeneration, ready?.observedGeneration];
    };
    expect(seen(34)).to.deep.equal([2, 2, 2]);
    expect(seen(33)).to.deep.equal([2, undefined, undefined]);
  });
});

describe('image pull back-off (K54): images.go EnsureImageExists, kubelet.go reasonCache', () => {
  it('K54 a failing pull shows ErrImagePull, then ImagePullBackOff while the back-off (10 s doubling) lasts; a back-off sync is retried at the 1 min resync', () => {
    const { c } = newCluster();
    const t0 = c.clock.now();
    createPod(c, 'web', { containers: { app: { pullMs: 1000, pullFails: true } } });
    c.advance(200_000);
    // Pulls at 0 (fails at 1: 10 s), 11 (10 s since the failure: not < 10 s; fails at 12: 20 s),
    // 22 in back-off (no error: resync 60 s later), 82 (fails at 83: 40 s), 93 back-off, 153 …
    expectTimeline(c, t0, [
      [0, 'runtime', 'pulling image for app pods/web'],
      [1, 'kubelet', 'sync error pods/web: ErrImagePull; retry in 10s'],
      [11, 'runtime', 'pulling image for app pods/web'],
      [12, 'runtime', 'pull failed app pods/web: ErrImagePull'],
      [22, 'events', 'BackOff pods/web: Back-off pulling image "registry.k8s.io/e2e-test-images/agnhost:2.53"'],
      [82, 'runtime', 'pulling image for app pods/web'],
      [93, 'events', 'BackOff pods/web'],
      [153, 'runtime', 'pulling image for app pods/web'],
      [164, 'events', 'BackOff pods/web'],
    ]);
    expect(count(c, t0, 'runtime', 'pulling image')).to.equal(4);
    // The status written at each sync shows the reason the previous one left in the reasonCache.
    const reasons = versions(c, 'web')
      .map((v) => app(v)?.state?.waiting?.reason)
      .filter((r) => r !== undefined);
    expect(reasons).to.deep.equal([
      'ContainerCreating',
      'ErrImagePull',
      'ImagePullBackOff',
      'ErrImagePull',
      'ImagePullBackOff',
      'ErrImagePull',
    ]);
    expect(app(stored(c, 'web'))?.state?.waiting?.message).to.match(
      /^rpc error: code = NotFound desc = failed to pull and unpack image "registry.k8s.io\/e2e-test-images\/agnhost:2.53"/,
    );
    expect(stored(c, 'web')?.status?.phase).to.equal('Pending');
  });

  it('K54 deleted in ImagePullBackOff: no pull is tried any more; the waiting container ends as ContainerStatusUnknown 137, the pod Failed', () => {
    const { c } = newCluster();
    createPod(c, 'web', { containers: { app: { pullMs: 1000, pullFails: true } } });
    c.advance(30_000);
    expect(app(stored(c, 'web'))?.state?.waiting?.reason).to.equal('ErrImagePull');
    const t0 = c.clock.now();
    del(c, 'web');
    c.advance(120_000);
    expect(stored(c, 'web')).to.equal(undefined);
    expectNo(c, t0, 'runtime', 'pulling image');
    const last = versions(c, 'web').at(-1);
    expect(last?.status?.phase).to.equal('Failed');
    expect(app(last)?.state?.terminated).to.include({ exitCode: 137, reason: 'ContainerStatusUnknown' });
  });
});

describe('restarts and CrashLoopBackOff (K55): kuberuntime_manager.go computePodActions, doBackOff', () => {
  it('K55 a crashing container is restarted at once, then held back while its back-off (10 s, 20 s, 40 s … from its finish) lasts; restartCount and lastState follow the runs', () => {
    const { c } = newCluster();
    const t0 = c.clock.now();
    createPod(c, 'web', { containers: { app: { exitsOnItsOwn: 1, runsForMs: 5000 } } });
    c.advance(140_000);
    // Runs 0–5, 6–11 (first restart: no back-off yet), held back at 12 (11 + 10 s > 12), resync at
    // 72: 61 s after the finish ≥ 10 s, restarted (back-off now 20 s); held at 78; restarted at 138.
    expectTimeline(c, t0, [
      [5, 'runtime', 'exited app code=1'],
      [6, 'runtime', 'started app'],
      [11, 'runtime', 'exited app code=1'],
      [12, 'events', 'BackOff pods/web: Back-off restarting failed container app in pod web_default('],
      [72, 'runtime', 'started app'],
      [78, 'events', 'BackOff pods/web'],
      [138, 'runtime', 'started app'],
    ]);
    expect(count(c, t0, 'runtime', 'started app')).to.equal(3);
    const waiting = versions(c, 'web')
      .map((v) => app(v))
      .filter((s) => s?.state?.waiting?.reason === 'CrashLoopBackOff');
    expect(waiting.map((s) => s?.state?.waiting?.message?.replace(/\(.*\)/, ''))).to.deep.equal([
      'back-off 10s restarting failed container=app pod=web_default',
      'back-off 20s restarting failed container=app pod=web_default',
    ]);
    expect(waiting[0]?.lastState?.terminated).to.include({
      exitCode: 1,
      reason: 'Error',
      finishedAt: '2025-01-01T00:00:11Z',
    });
    const now = app(stored(c, 'web'));
    expect(now?.restartCount).to.equal(3);
    expect(now?.state?.running).to.not.equal(undefined);
    expect(now?.lastState?.terminated).to.include({ exitCode: 1, finishedAt: '2025-01-01T00:01:17Z' });
    expect(stored(c, 'web')?.status?.phase).to.equal('Running');
  });

  it('K55 restartPolicy OnFailure does not restart a container that exited 0 (the pod Succeeds); Never restarts nothing', () => {
    for (const [restartPolicy, code, phase] of [
      ['OnFailure', 0, 'Succeeded'],
      ['Never', 1, 'Failed'],
    ] as const) {
      const { c } = newCluster();
      const t0 = c.clock.now();
      createPod(c, 'web', { spec: { restartPolicy }, containers: { app: { exitsOnItsOwn: code, runsForMs: 5000 } } });
      c.advance(30_000);
      expect(count(c, t0, 'runtime', 'started app'), restartPolicy).to.equal(0);
      expect(stored(c, 'web')?.status?.phase, restartPolicy).to.equal(phase);
    }
  });

  it('K55 deleted in CrashLoopBackOff: no restart, nothing to SIGTERM; the last run shows as terminated (no waiting reason once deleted), the phase Failed', () => {
    const { c } = newCluster();
    createPod(c, 'web', { containers: { app: { exitsOnItsOwn: 1, runsForMs: 5000 } } });
    c.advance(20_000);
    const t0 = c.clock.now();
    del(c, 'web');
    c.advance(120_000);
    expect(stored(c, 'web')).to.equal(undefined);
    expectNo(c, t0, 'runtime', 'started app');
    expectNo(c, t0, 'runtime', 'SIGTERM');
    const last = versions(c, 'web').at(-1);
    expect(last?.status?.phase).to.equal('Failed');
    expect(app(last)?.state?.terminated).to.include({ exitCode: 1, reason: 'Error' });
    expect(app(last)?.restartCount).to.equal(1);
  });
});

describe('regular init containers (K56–K58): kuberuntime_manager.go computePodActions → computeInitContainerActions', () => {
  const init = (p: Pod | undefined, name = 'setup') => p?.status?.initContainerStatuses?.find((s) => s.name === name);

  it('K56 init containers run one at a time in spec order, each started by the sync after the PLEG saw the previous one exit 0; then the app', () => {
    const { c } = newCluster();
    const t0 = c.clock.now();
    createPod(c, 'web', {
      spec: { initContainers: [{ name: 'fetch' }, { name: 'migrate' }] },
      containers: { fetch: { exitsOnItsOwn: 0, runsForMs: 5000 }, migrate: { exitsOnItsOwn: 0, runsForMs: 3000 } },
    });
    c.advance(20_000);
    expectTimeline(c, t0, [
      [5, 'runtime', 'exited fetch code=0'],
      [6, 'runtime', 'started migrate'],
      [9, 'runtime', 'exited migrate code=0'],
      [10, 'runtime', 'started app'],
    ]);
    const phases = versions(c, 'web').map((v) => v.status?.phase);
    expect(phases.filter((p, i) => p !== phases[i - 1])).to.deep.equal(['Pending', 'Running']);
    const pod = stored(c, 'web');
    expect(
      pod?.status?.initContainerStatuses?.map((s) => [s.name, s.state?.terminated?.reason, s.ready]),
    ).to.deep.equal([
      ['fetch', 'Completed', true],
      ['migrate', 'Completed', true],
    ]);
    expect(condition(pod, 'Initialized')?.status).to.equal('True');
  });

  it('K56 a regular init container without an exit of its own completes (exit 0) as soon as it starts', () => {
    const { c } = newCluster();
    const t0 = c.clock.now();
    createPod(c, 'web', { spec: { initContainers: [{ name: 'setup' }] } });
    c.advance(5_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'exited setup code=0'],
      [1, 'runtime', 'started app'],
    ]);
  });

  it('K56 K55 a failing init container with restartPolicy Always is restarted at once, then held back by its crash-loop back-off (Init:CrashLoopBackOff); the app never starts and the pod stays Pending', () => {
    const { c } = newCluster();
    const t0 = c.clock.now();
    createPod(c, 'web', {
      spec: { initContainers: [{ name: 'setup' }] },
      containers: { setup: { exitsOnItsOwn: 1, runsForMs: 10_000 } },
    });
    c.advance(100_000);
    expectTimeline(c, t0, [
      [10, 'runtime', 'exited setup code=1'],
      [11, 'runtime', 'started setup'],
      [21, 'runtime', 'exited setup code=1'],
      [22, 'events', 'BackOff pods/web: Back-off restarting failed container setup in pod web_default('],
      [82, 'runtime', 'started setup'],
      [92, 'runtime', 'exited setup code=1'],
    ]);
    expectNo(c, t0, 'runtime', 'started app');
    const waiting = versions(c, 'web')
      .map((v) => init(v))
      .find((s) => s?.state?.waiting?.reason === 'CrashLoopBackOff');
    expect(waiting?.lastState?.terminated).to.include({ exitCode: 1, reason: 'Error' });
    expect(versions(c, 'web').every((v) => v.status?.phase === 'Pending')).to.equal(true);
    expect(init(stored(c, 'web'))?.restartCount).to.equal(2);
  });

  it('K56 a sidecar before a regular init container: the sidecar starts first, the init container once the sidecar runs, the app once the init container exited 0; the sidecar keeps running', () => {
    const { c } = newCluster();
    const t0 = c.clock.now();
    createPod(c, 'web', {
      spec: { initContainers: [{ name: 'log', restartPolicy: 'Always' }, { name: 'setup' }] },
      containers: { setup: { exitsOnItsOwn: 0, runsForMs: 5000 } },
    });
    c.advance(10_000);
    expectTimeline(c, t0, [
      [1, 'runtime', 'started setup'],
      [6, 'runtime', 'exited setup code=0'],
      [7, 'runtime', 'started app'],
    ]);
    const pod = stored(c, 'web');
    expect(
      pod?.status?.initContainerStatuses?.map((s) => [s.name, Object.keys(s.state ?? {})[0], s.ready]),
    ).to.deep.equal([
      ['log', 'running', true],
      ['setup', 'terminated', true],
    ]);
    expect([pod?.status?.phase, condition(pod, 'Initialized')?.status, condition(pod, 'Ready')?.status]).to.deep.equal([
      'Running',
      'True',
      'True',
    ]);
  });

  it('K56 K45 a kubelet restarted while an init container runs waits for it and then starts the app; the init container is not run again', () => {
    const { c, node, t0 } = running({
      spec: { initContainers: [{ name: 'setup' }] },
      containers: { setup: { exitsOnItsOwn: 0, runsForMs: 90_000 } },
    });
    node.restartKubelet();
    c.advance(40_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'ADD pods/web'],
      [30, 'runtime', 'exited setup code=0'],
      [31, 'runtime', 'started app'],
    ]);
    expectNo(c, t0, 'runtime', 'started setup');
    expect(stored(c, 'web')?.status?.phase).to.equal('Running');
  });

  it('K57 a failed init container with restartPolicy Never: the pod is Failed (held back until the worker terminated it, K33), nothing else starts, the pod stays in the API', () => {
    const { c } = newCluster();
    const t0 = c.clock.now();
    createPod(c, 'web', {
      spec: { restartPolicy: 'Never', initContainers: [{ name: 'setup' }] },
      containers: { setup: { exitsOnItsOwn: 1, runsForMs: 10_000 } },
    });
    c.advance(30_000);
    expectTimeline(c, t0, [
      [10, 'runtime', 'exited setup code=1'],
      [11, 'kubelet', 'terminating pods/web (pod is terminal)'],
      [12, 'kubelet', 'SyncTerminatingPod pods/web'],
      [12, 'runtime', 'sandbox stopped pods/web'],
      [13, 'kubelet', 'SyncTerminatedPod pods/web'],
    ]);
    expectNo(c, t0, 'runtime', 'started');
    expectNo(c, t0, 'status', 'DELETE');
    const pod = stored(c, 'web');
    expect(pod?.status?.phase).to.equal('Failed');
    expect(condition(pod, 'Initialized')).to.include({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [setup]',
    });
    expect(app(pod)?.state?.waiting?.reason).to.equal('PodInitializing');
  });

  it('K58 deleted while an init container runs: it gets Killing and SIGTERM with the pod grace (no preStop: the API forbids lifecycle on init containers); the status after the kill is Pending, TerminatePod makes it Failed, then the final DELETE', () => {
    const { c, t0 } = running({
      spec: { initContainers: [{ name: 'setup' }] },
      containers: { setup: { exitsOnItsOwn: 0, runsForMs: 300_000, sigterm: { kind: 'ignores' } } },
    });
    del(c, 'web');
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'events', 'Killing pods/web: Stopping container setup'],
      [0, 'runtime', 'SIGTERM setup'],
      [30, 'runtime', 'SIGKILL setup'],
      [30, 'runtime', 'exited setup code=137'],
      [30, 'apiserver', 'PATCH pods/web/status'],
      [31, 'kubelet', 'SyncTerminatedPod pods/web'],
      [31, 'apiserver', 'PATCH pods/web/status'],
      [31, 'status', 'DELETE pods/web'],
    ]);
    const [afterKill, terminated] = versions(c, 'web').filter((v) => init(v)?.state?.terminated);
    expect([afterKill.status?.phase, terminated.status?.phase]).to.deep.equal(['Pending', 'Failed']);
    expect(init(terminated)?.state?.terminated).to.include({ exitCode: 137, reason: 'Error' });
    expect(app(terminated)?.state?.waiting?.reason).to.equal('PodInitializing');
    expectNo(c, t0, 'runtime', 'started app');
  });

  it('K58 deleted after initialization: the init container status stays terminated/Completed through the deletion, also once the runtime removed the container', () => {
    const { c, t0 } = running({ spec: { initContainers: [{ name: 'setup' }] } });
    del(c, 'web');
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'SIGTERM app'],
      [1, 'runtime', 'removed setup'],
      [1, 'status', 'DELETE pods/web'],
    ]);
    expectNo(c, t0, 'runtime', 'SIGTERM setup');
    const deleting = versions(c, 'web').filter((v) => v.metadata.deletionTimestamp);
    expect(deleting.length).to.be.greaterThan(2);
    for (const v of deleting)
      expect(init(v)?.state?.terminated?.reason, v.metadata.resourceVersion).to.equal('Completed');
    expect(versions(c, 'web').at(-1)?.status?.phase).to.equal('Failed');
  });
});

describe('release differences for init containers (V20)', () => {
  it('V20 K58 deleted while an init container runs: a v1.26 kubelet sends its final DELETE with the pod still Pending (PodResourcesAreReclaimed); from v1.27 TerminatePod makes it Failed first', () => {
    for (const [minor, last] of [
      [26, 'Pending'],
      [27, 'Failed'],
    ] as const) {
      const { c } = running({
        release: Release.of(minor),
        spec: { initContainers: [{ name: 'setup' }] },
        containers: { setup: { exitsOnItsOwn: 0, runsForMs: 300_000 } },
      });
      del(c, 'web');
      c.advance(60_000);
      expect(stored(c, 'web'), `v1.${minor}`).to.equal(undefined);
      const final = versions(c, 'web').at(-1);
      expect(final?.status?.phase, `v1.${minor}`).to.equal(last);
      expect(final?.status?.initContainerStatuses?.[0].state?.terminated?.exitCode, `v1.${minor}`).to.equal(143);
    }
  });
});
