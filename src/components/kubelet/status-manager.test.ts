import { describe, it } from 'node:test';
import { expect } from 'chai';
import { ApiServer } from '../../apiserver/apiserver';
import { ApiClient } from '../../client/client';
import type { ContainerStatus, DeleteOptions, Pod, PodStatus } from '../../apimachinery/types';
import { Clock } from '../../foundation/clock';
import { DEFAULT_RELEASE, Release } from '../../foundation/release';
import { CONTROLLER, USER } from '../../cluster/cluster';
import { Timeline } from '../../foundation/timeline/timeline';
import { mergePodStatus, StatusManager } from './status-manager';

const KUBELET = { name: 'kubelet/n1', component: 'kubelet' } as const;

/**
 * A status manager talking to a real apiserver (no kubelet); `couldRun` stands for the pod
 * workers' CouldHaveRunningContainers, `connected` for the node's network.
 */
function harness(options: { release?: Release } = {}) {
  const clock = new Clock();
  const start = clock.now();
  const timeline = new Timeline(clock);
  const api = new ApiServer(clock, timeline);
  const state = { connected: true, couldRun: true, reclaimed: false };
  const client = new ApiClient(api, KUBELET, () => state.connected);
  // Each call is followed by the status manager's goroutine (podStatusChannel), as if the caller
  // then waited; the test 'K33 the sync runs after the caller moved on' checks the hand-off itself.
  class Synced extends StatusManager {
    override setPodStatus(pod: Pod, s: PodStatus): void {
      super.setPodStatus(pod, s);
      clock.tick(0);
    }
    override terminatePod(pod: Pod): void {
      super.terminatePod(pod);
      clock.tick(0);
    }
  }
  // The pod manager's copy: what the API holds now (a kubelet whose watch is up to date).
  const podManagerPod = (uid: string): Pod | undefined => {
    const r = api.get('pods', 'default', 'web');
    return r.ok && r.object.metadata.uid === uid ? r.object : undefined;
  };
  // PodResourcesAreReclaimed (before v1.27): `reclaimed` stands for volumes and cgroup gone.
  const deletionSafety = {
    release: options.release ?? DEFAULT_RELEASE,
    podResourcesAreReclaimed: () => !state.couldRun && state.reclaimed,
  };
  const manager = new Synced(
    clock,
    timeline,
    client,
    'n1',
    () => state.couldRun,
    10_000,
    podManagerPod,
    deletionSafety,
  );
  const unsynced = new StatusManager(
    clock,
    timeline,
    client,
    'n1',
    () => state.couldRun,
    10_000,
    podManagerPod,
    deletionSafety,
  );
  const h = {
    clock,
    api,
    manager,
    unsynced,
    state,
    create(meta: Partial<Pod['metadata']> = {}, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod {
      const r = api.create(USER, 'pods', 'default', {
        metadata: { name: 'web', ...meta },
        spec: { nodeName: 'n1', containers: [{ name: 'app' }], ...spec },
      });
      if (!r.ok) return expect.fail(r.status.message);
      return structuredClone(r.object);
    },
    /** The pod as the kubelet's pod manager would hand it over now. */
    pod: (): Pod => {
      const r = api.get('pods', 'default', 'web');
      if (!r.ok) return expect.fail('pod gone');
      return structuredClone(r.object);
    },
    gone: () => !api.get('pods', 'default', 'web').ok,
    del: (options: DeleteOptions = {}) => api.delete(USER, 'pods', 'default', 'web', options),
    /** The kubelet's requests from now on, as [seconds, text]. */
    requests: () =>
      timeline
        .all()
        .filter((e) => e.component === 'apiserver' && e.actor === KUBELET.name)
        .map(
          (e) => [(e.at - start) / 1000, e.text.replace(/preconditions\.uid=\S+/, 'preconditions.uid=UID')] as const,
        ),
  };
  return h;
}

const running = (name = 'app'): ContainerStatus => ({
  name,
  image: '',
  imageID: '',
  ready: true,
  restartCount: 0,
  started: true,
  state: { running: { startedAt: '2025-01-01T00:00:00Z' } },
});
const exited = (code: number, name = 'app'): ContainerStatus => ({
  name,
  image: '',
  imageID: '',
  ready: false,
  restartCount: 0,
  started: false,
  state: { terminated: { exitCode: code, reason: code === 0 ? 'Completed' : 'Error' } },
});
const waiting = (name = 'app'): ContainerStatus => ({
  name,
  image: '',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { waiting: { reason: 'ContainerCreating' } },
});
const ready = (ok: boolean, t = '2025-01-01T00:00:00Z') => [
  { type: 'Ready', status: ok ? 'True' : 'False', lastTransitionTime: t },
  { type: 'ContainersReady', status: ok ? 'True' : 'False', lastTransitionTime: t },
];
const status = (
  phase: string,
  cs: ContainerStatus[],
  ok = phase === 'Running' && cs.every((c) => c.ready),
): PodStatus => ({ phase, conditions: ready(ok), containerStatuses: cs });

describe('status manager: when it talks to the API (K35)', () => {
  it('K35 a changed status is sent as one PATCH of pods/status; an unchanged one sends nothing (GET only)', () => {
    const h = harness();
    h.create();
    h.manager.setPodStatus(h.pod(), status('Running', [running()]));
    h.manager.setPodStatus(h.pod(), status('Running', [running()]));
    expect(h.requests()).to.deep.equal([[0, 'PATCH pods/web/status']]);
    expect(h.pod().status?.phase).to.equal('Running');
  });

  it('K35 while the pod has a deletionTimestamp every SetPodStatus is forced: an unchanged status still syncs and finds the pod deletable (K36)', () => {
    const h = harness();
    h.create({ finalizers: ['example.com/hold'] });
    h.state.couldRun = false;
    h.manager.setPodStatus(h.pod(), status('Succeeded', [exited(0)]));
    h.manager.terminatePod(h.pod());
    h.manager.setPodStatus(h.pod(), status('Succeeded', [exited(0)]));
    // Completed by itself, not deleted: no DELETE (K37).
    expect(h.requests()).to.deep.equal([[0, 'PATCH pods/web/status']]);
    h.clock.tick(5000);
    h.del();
    h.manager.setPodStatus(h.pod(), status('Succeeded', [exited(0)]));
    expect(h.requests().at(-1)).to.deep.equal([5, 'DELETE pods/web gracePeriodSeconds=0 preconditions.uid=UID']);
  });

  it('K35 a pod gone from the API (GET NotFound) gets no request; its status stays cached until housekeeping removes orphaned statuses', () => {
    const h = harness();
    const pod = h.create();
    h.del({ gracePeriodSeconds: 0 });
    h.manager.setPodStatus(pod, status('Running', [running()]));
    h.manager.terminatePod(pod);
    expect(h.requests()).to.deep.equal([]);
    expect(h.manager.getPodStatus(pod.metadata.uid!)?.phase).to.equal('Failed');
    h.manager.removeOrphanedStatuses(new Set());
    expect(h.manager.getPodStatus(pod.metadata.uid!)).to.equal(undefined);
  });

  it('K35 a pod re-created under the same name (another uid) is left alone and the old status is forgotten', () => {
    const h = harness();
    const old = h.create();
    h.del({ gracePeriodSeconds: 0 });
    h.create();
    h.manager.setPodStatus(old, status('Running', [running()]));
    expect(h.requests()).to.deep.equal([]);
    expect(h.manager.getPodStatus(old.metadata.uid!)).to.equal(undefined);
  });
});

describe('status manager: the sync goroutine (K33)', () => {
  it('K33 SetPodStatus only wakes the sync goroutine (podStatusChannel): the merge sees the pod worker state of after the caller moved on, so one PATCH carries the terminated containers and the terminal phase', () => {
    const h = harness();
    h.create();
    h.del();
    // SyncTerminatingPod hands over the stopped status while CouldHaveRunningContainers is still true…
    h.unsynced.setPodStatus(h.pod(), status('Failed', [exited(137)]));
    expect(h.requests()).to.deep.equal([]);
    // …and returns; completeTerminating marks the worker terminated before the goroutine runs.
    h.state.couldRun = false;
    h.clock.tick(0);
    expect(h.requests()).to.deep.equal([[0, 'PATCH pods/web/status']]);
    expect(h.pod().status?.phase).to.equal('Failed');
    expect(h.pod().status?.containerStatuses?.[0].state?.terminated?.exitCode).to.equal(137);
  });

  it('K33 a sync that runs while containers could still run holds the phase back (the race the goroutine can still lose)', () => {
    const h = harness();
    h.create();
    h.del();
    h.unsynced.setPodStatus(h.pod(), status('Failed', [exited(137)]));
    h.clock.tick(0);
    // The API's phase (this pod never reported one: Pending) stays; the containers go out.
    expect(h.pod().status?.phase).to.equal('Pending');
    expect(h.pod().status?.containerStatuses?.[0].state?.terminated?.exitCode).to.equal(137);
  });
});

describe('status manager: reconcile with the API copy (K35)', () => {
  it('K35 needsReconcile: another writer flipping a kubelet-owned condition is undone at the next 10 s full sync; a condition the kubelet does not own is left alone', () => {
    const h = harness();
    h.create();
    h.manager.setPodStatus(h.pod(), status('Running', [running()]));
    const patches = () => h.requests().filter(([, t]) => t === 'PATCH pods/web/status').length;
    expect(patches()).to.equal(1);
    // A controller adds its own condition: nothing for the kubelet to reconcile.
    const p = h.pod();
    p.status!.conditions!.push({ type: 'example.com/Gate', status: 'True' });
    h.api.update(CONTROLLER, 'pods', 'default', p, { subresource: 'status' });
    h.manager.podStatusChangedInApi(h.pod());
    h.clock.tick(20_000);
    expect(patches()).to.equal(1);
    // MarkPodsNotReady flips Ready: the next tick of the 10 s grid re-sends the kubelet's view.
    const q = h.pod();
    q.status!.conditions = q.status!.conditions!.map((c) => (c.type === 'Ready' ? { ...c, status: 'False' } : c));
    h.api.update(CONTROLLER, 'pods', 'default', q, { subresource: 'status' });
    h.manager.podStatusChangedInApi(h.pod());
    h.clock.tick(10_000);
    expect(h.requests().at(-1)).to.deep.equal([30, 'PATCH pods/web/status']);
    expect(h.pod().status?.conditions?.find((c) => c.type === 'Ready')?.status).to.equal('True');
    expect(h.pod().status?.conditions?.find((c) => c.type === 'example.com/Gate')?.status).to.equal('True');
  });
});

describe('mergePodStatus (K33, K38)', () => {
  it('K33 a terminal phase is held back (phase, reason, message) while containers could still run; kubelet conditions go out anyway', () => {
    const old: PodStatus = { phase: 'Running', conditions: ready(true) };
    const merged = mergePodStatus(old, { ...status('Failed', [exited(137)]), reason: 'X', message: 'Y' }, true);
    expect([merged.phase, merged.reason, merged.message]).to.deep.equal(['Running', undefined, undefined]);
    expect(merged.conditions?.find((c) => c.type === 'Ready')?.status).to.equal('False');
    expect(mergePodStatus(old, status('Failed', [exited(137)]), false).phase).to.equal('Failed');
  });

  it('K33 a terminal phase forces Ready and ContainersReady to False (PodFailed / PodCompleted)', () => {
    const merged = mergePodStatus({ phase: 'Running' }, { phase: 'Succeeded', conditions: ready(true) }, false);
    expect(merged.conditions?.map((c) => [c.type, c.status, c.reason])).to.deep.equal([
      ['Ready', 'False', 'PodCompleted'],
      ['ContainersReady', 'False', 'PodCompleted'],
    ]);
  });

  it('K38 conditions the kubelet does not own stay as the API has them; a DisruptionTarget the kubelet set is only sent with the terminal phase', () => {
    const api: PodStatus = {
      phase: 'Running',
      conditions: [
        { type: 'example.com/Gate', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
    };
    const mine: PodStatus = {
      phase: 'Failed',
      conditions: [
        { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' },
        { type: 'Ready', status: 'False' },
      ],
    };
    expect(mergePodStatus(api, mine, true).conditions?.map((c) => c.type)).to.deep.equal(['example.com/Gate', 'Ready']);
    expect(mergePodStatus(api, mine, false).conditions?.map((c) => c.type)).to.deep.equal([
      'example.com/Gate',
      'DisruptionTarget',
      'Ready',
    ]);
  });

  it("K38 through the API: a controller's condition survives the kubelet's patches, and LastTransitionTime only moves when the status flips", () => {
    const h = harness();
    h.create();
    h.manager.setPodStatus(h.pod(), status('Running', [running()]));
    const p = h.pod();
    p.status!.conditions!.push({ type: 'example.com/Gate', status: 'True' });
    h.api.update(CONTROLLER, 'pods', 'default', p, { subresource: 'status' });
    h.clock.tick(5000);
    h.manager.setPodStatus(h.pod(), {
      ...status('Running', [running()]),
      conditions: ready(true, '2025-01-01T00:00:05Z'),
    });
    h.clock.tick(5000);
    h.manager.setPodStatus(h.pod(), {
      ...status('Running', [exited(1)]),
      conditions: ready(false, '2025-01-01T00:00:10Z'),
    });
    const conditions = h.pod().status?.conditions?.map((c) => [c.type, c.status, c.lastTransitionTime]);
    expect(conditions).to.deep.include(['example.com/Gate', 'True', undefined]);
    expect(conditions).to.deep.include(['Ready', 'False', '2025-01-01T00:00:10Z']);
    expect(h.requests().map(([t]) => t)).to.deep.equal([0, 10]);
  });
});

describe('TerminatePod (K34)', () => {
  it('K34 every container not terminated becomes ContainerStatusUnknown (137) and a Pending or Running phase becomes Failed; the result is pushed at once', () => {
    const h = harness();
    h.create({}, { containers: [{ name: 'app' }, { name: 'other' }] });
    h.state.couldRun = false;
    h.manager.setPodStatus(h.pod(), status('Pending', [exited(0), waiting('other')]));
    h.manager.terminatePod(h.pod());
    const pod = h.pod();
    expect(pod.status?.phase).to.equal('Failed');
    expect(
      pod.status?.containerStatuses?.map((c) => [c.name, c.state?.terminated?.exitCode, c.state?.terminated?.reason]),
    ).to.deep.equal([
      ['app', 0, 'Completed'],
      ['other', 137, 'ContainerStatusUnknown'],
    ]);
    expect(h.requests()).to.have.length(2);
  });

  it('K34 with init containers not yet done, regular containers stay Waiting; of the init containers only the trailing never-started ones stay Waiting', () => {
    const h = harness();
    h.create({}, { initContainers: [{ name: 'i1' }, { name: 'i2' }, { name: 'i3' }] });
    h.state.couldRun = false;
    h.manager.setPodStatus(h.pod(), {
      phase: 'Pending',
      initContainerStatuses: [exited(0, 'i1'), { ...running('i2'), ready: false }, waiting('i3')],
      containerStatuses: [waiting()],
    });
    h.manager.terminatePod(h.pod());
    const s = h.pod().status!;
    expect(s.phase).to.equal('Failed');
    expect(
      s.initContainerStatuses?.map((c) => [c.name, c.state?.terminated?.reason ?? Object.keys(c.state ?? {})[0]]),
    ).to.deep.equal([
      ['i1', 'Completed'],
      ['i2', 'ContainerStatusUnknown'],
      ['i3', 'waiting'],
    ]);
    expect(s.containerStatuses?.[0].state?.waiting).to.not.equal(undefined);
  });

  it('K34 the status it starts from is left as it was (it works on a copy, as upstream on a DeepCopy)', () => {
    const h = harness();
    h.create({}, { containers: [{ name: 'app' }, { name: 'other' }] });
    h.state.couldRun = false;
    const before = status('Running', [running(), exited(0, 'other')]);
    const kept = JSON.stringify(before);
    h.manager.setPodStatus(h.pod(), before);
    h.manager.terminatePod(h.pod());
    expect(JSON.stringify(before)).to.equal(kept);
    expect(h.manager.getPodStatus(h.pod().metadata.uid!)?.containerStatuses?.[0].state?.terminated?.reason).to.equal(
      'ContainerStatusUnknown',
    );
  });
});

describe('the final DELETE (K36, K37)', () => {
  /** A deleted pod whose containers stopped; the worker is terminated (couldRun false). */
  function deletedAndStopped(meta: Partial<Pod['metadata']> = {}) {
    const h = harness();
    h.create(meta);
    h.manager.setPodStatus(h.pod(), status('Running', [running()]));
    h.del();
    h.state.couldRun = false;
    h.manager.setPodStatus(h.pod(), status('Failed', [exited(143)]));
    return h;
  }

  it('K36 only after TerminatePod (podIsFinished) and with a terminal API phase: DELETE grace 0 with the uid precondition; the status is then dropped', () => {
    const h = deletedAndStopped();
    const uid = h.pod().metadata.uid!;
    expect(h.pod().status?.phase).to.equal('Failed');
    expect(h.requests().filter(([, t]) => t.startsWith('DELETE'))).to.deep.equal([]);
    h.manager.terminatePod(h.pod());
    expect(h.requests().at(-1)).to.deep.equal([0, 'DELETE pods/web gracePeriodSeconds=0 preconditions.uid=UID']);
    expect(h.gone()).to.equal(true);
    expect(h.manager.getPodStatus(uid)).to.equal(undefined);
  });

  it('K36 no DELETE while the API phase is still non-terminal, even after TerminatePod, when containers could still run', () => {
    const h = harness();
    h.create();
    h.manager.setPodStatus(h.pod(), status('Running', [running()]));
    h.del();
    h.manager.terminatePod(h.pod());
    expect(h.pod().status?.phase).to.equal('Running');
    expect(h.requests().map(([, t]) => t)).to.deep.equal(['PATCH pods/web/status', 'PATCH pods/web/status']);
  });

  it('K36 a DELETE that cannot be sent is retried at the next full sync (every 10 s)', () => {
    const h = deletedAndStopped();
    h.clock.tick(1000);
    h.state.connected = false;
    h.manager.terminatePod(h.pod());
    h.clock.tick(14_000);
    h.state.connected = true;
    h.clock.tick(20_000);
    expect(h.requests().map(([t, text]) => [t, text.split(' ')[0]])).to.deep.equal([
      [0, 'PATCH'],
      [0, 'PATCH'],
      [20, 'DELETE'],
    ]);
    expect(h.gone()).to.equal(true);
  });

  it('K37 no DELETE for a mirror pod, nor for a pod without a deletionTimestamp', () => {
    const mirror = deletedAndStopped({ annotations: { 'kubernetes.io/config.mirror': 'hash' } });
    mirror.manager.terminatePod(mirror.pod());
    expect(mirror.gone()).to.equal(false);
    const h = harness();
    h.create();
    h.state.couldRun = false;
    h.manager.setPodStatus(h.pod(), status('Failed', [exited(1)]));
    h.manager.terminatePod(h.pod());
    expect(h.requests().filter(([, t]) => t.startsWith('DELETE'))).to.deep.equal([]);
    expect(h.pod().status?.phase).to.equal('Failed');
  });

  it('K43 RemoveOrphanedStatuses drops the statuses of pods no longer in config', () => {
    const h = harness();
    const pod = h.create();
    h.manager.setPodStatus(pod, status('Running', [running()]));
    h.manager.removeOrphanedStatuses(new Set([pod.metadata.uid!]));
    expect(h.manager.getPodStatus(pod.metadata.uid!)).to.not.equal(undefined);
    h.manager.removeOrphanedStatuses(new Set());
    expect(h.manager.getPodStatus(pod.metadata.uid!)).to.equal(undefined);
  });
});
