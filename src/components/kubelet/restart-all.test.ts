/**
 * V70 — the kubelet's side of container restart rules beyond regular containers: init containers
 * (ContainerRestartRules, v1.35+), 1.36's RestartAllContainers action (in-place restart of the whole
 * pod, RestartAllContainersOnContainerExits β on from v1.36, α off in v1.35), the probe worker and
 * the liveness kill.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';

import type { Pod, PodStatus } from '../../apimachinery/types';
import { Release } from '../../foundation/release';
import { Clock, type Scheduler } from '../../foundation/clock';
import { Timeline } from '../../foundation/timeline/timeline';
import { ProbeWorker, probeSpec } from './prober/worker';
import { Cluster } from '../../cluster/cluster';
import {
  NODE,
  condition,
  count,
  createPod,
  eventsSince,
  expectNo,
  expectTimeline,
  newCluster,
  stored,
  versions,
} from './testing';

const RESTART_ALL_88 = [{ action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [88] } }];
/** A Restart rule for the exit code `code`. */
const restartOn = (code: number) => [{ action: 'Restart', exitCodes: { operator: 'In', values: [code] } }];
/** Container `app`, restartPolicy Never, brought back by its rule when it exits 42. */
const APP_RESTARTED_ON_42 = { name: 'app', restartPolicy: 'Never', restartPolicyRules: restartOn(42) };

/**
 * A Never pod with init container `setup`, regular container `app` and a `watcher` (container
 * restartPolicy Never) that exits 88 twenty seconds after each start, under a RestartAllContainers rule.
 */
function watched(
  release: Release,
  app: Record<string, unknown> = {},
  appSpec: Record<string, unknown> = {},
  kubelet?: Release,
) {
  const c = kubelet ? new Cluster({ release }) : newCluster(release).c;
  if (kubelet) c.addNode(NODE, { release: kubelet });
  const t0 = c.clock.now();
  const pod = createPod(c, 'job', {
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 30,
      initContainers: [{ name: 'setup' }],
      containers: [
        { name: 'app', ...appSpec },
        { name: 'watcher', restartPolicy: 'Never', restartPolicyRules: RESTART_ALL_88 } as never,
      ],
    },
    containers: { watcher: { exitsOnItsOwn: 88, runsForMs: 20_000 }, app },
  });
  return { c, t0, uid: pod.metadata.uid! };
}

const restartingConditions = (c: ReturnType<typeof newCluster>['c'], name = 'job') =>
  versions(c, name)
    .map((v) => condition(v, 'AllContainersRestarting'))
    .filter((x) => x !== undefined)
    .map((x) => [x.status, x.reason ?? '', x.message ?? '']);

describe('V70 RestartAllContainers: the whole pod restarts in place', () => {
  it('V70 v1.36: the watcher exits 88 — AllContainersRestarting True, app killed, every container removed, condition False, setup re-runs, app and watcher start again', () => {
    const { c, t0, uid } = watched(Release.of(36));
    c.advance(28_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'exited setup code=0'],
      [21, 'runtime', 'exited watcher code=88'],
      [22, 'kubelet', 'pods/job: container watcher exited 88 (a RestartAllContainers rule)'],
      [22, 'events', 'Killing pods/job: Stopping container app'],
      [22, 'runtime', 'exited app code=143'],
      [22, 'runtime', 'removed setup'],
      [22, 'runtime', 'removed app'],
      [22, 'runtime', 'removed watcher'],
      [23, 'runtime', 'started setup'],
      [24, 'runtime', 'started app'],
      [24, 'runtime', 'started watcher'],
    ]);
    expect(restartingConditions(c)).to.deep.include.members([
      ['True', 'RestartAllContainersStarted', 'container exited with restart policy rule'],
      ['False', '', ''],
    ]);
    const p = stored(c, 'job')!;
    // Same pod, sandbox and IP; never Failed on the way.
    expect([p.metadata.uid, p.status?.podIP, p.status?.phase]).to.deep.equal([uid, '10.244.0.2', 'Running']);
    expect(versions(c, 'job').some((v) => v.status?.phase === 'Failed')).to.equal(false);
    const app = p.status?.containerStatuses?.find((s) => s.name === 'app');
    expect(app?.restartCount).to.equal(1);
    expect(app?.lastState?.terminated).to.deep.include({ exitCode: 137, reason: 'RestartingAllContainers' });
    // The condition carries no observedGeneration (GenerateAllContainersRestartingCondition).
    expect(condition(p, 'AllContainersRestarting')).to.not.have.property('observedGeneration');
  });

  it('V70 v1.36: while removed, a container waits with RestartingAllContainers and a synthesized 137 end', () => {
    const { c } = watched(Release.of(36));
    c.advance(28_000);
    const removed = versions(c, 'job')
      .flatMap((v) => v.status?.containerStatuses ?? [])
      .find((s) => s.state?.waiting?.reason === 'RestartingAllContainers');
    expect(removed?.state?.waiting?.message).to.equal('The container is removed because RestartAllContainers in place');
    expect(removed?.lastState?.terminated).to.deep.equal({
      exitCode: 137,
      reason: 'RestartingAllContainers',
      message: 'The container is removed because RestartAllContainers in place',
    });
  });

  it('V70 v1.36: the kill skips preStop and the grace period: SIGKILL after the 2 s floor, not after 30 s', () => {
    const { c, t0 } = watched(
      Release.of(36),
      { sigterm: { kind: 'ignores' }, preStopMs: 10_000 },
      { lifecycle: { preStop: { exec: { command: ['sleep', '10'] } } } },
    );
    c.advance(30_000);
    expectTimeline(c, t0, [
      [22, 'events', 'Killing pods/job: Stopping container app'],
      [22, 'runtime', 'SIGTERM app'],
      [24, 'runtime', 'SIGKILL app'],
      [24, 'runtime', 'removed app'],
      [24, 'runtime', 'started setup'],
    ]);
    expectNo(c, t0, 'runtime', 'preStop app');
  });

  it('V70 v1.36: a kubelet restarted while the reset kills goes on from the AllContainersRestarting condition (KEP-5532 kubelet restarts)', () => {
    const { c, t0 } = watched(Release.of(36), { sigterm: { kind: 'ignores' } });
    c.advance(23_000); // the watcher exited at T+21s; app got SIGTERM at T+22s and ignores it
    c.node(NODE).restartKubelet();
    c.advance(15_000);
    // The old process's StopContainer wait is gone with it; the new kubelet reads the condition,
    // kills app again and finishes the reset.
    expect(count(c, t0, 'runtime', 'exited app')).to.equal(1);
    expect(count(c, t0, 'runtime', 'removed app')).to.equal(1);
    expect(count(c, t0, 'runtime', 'exited setup')).to.equal(2);
    expect(stored(c, 'job')?.status?.containerStatuses?.find((s) => s.name === 'app')?.state?.running).to.not.equal(
      undefined,
    );
  });

  it('V70 v1.35 (gate off by default): kube-apiserver refuses the action (V51), so no kubelet of that release sees it', () => {
    expect(() => watched(Release.of(35))).to.throw(
      'spec.containers[1].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"',
    );
  });

  it('V70 v1.36 with RestartAllContainersOnContainerExits=false: a kubelet without the gate treats the action as no match — no condition, nothing killed', () => {
    // The pod is admitted by a v1.36 kube-apiserver; only the kubelet's gate is off.
    const { c, t0 } = watched(Release.of(36), {}, {}, Release.of(36, { RestartAllContainersOnContainerExits: false }));
    c.advance(40_000);
    expect(restartingConditions(c)).to.deep.equal([]);
    expect(count(c, t0, 'events', 'Killing')).to.equal(0);
    expect(count(c, t0, 'runtime', 'started watcher')).to.equal(1); // its first start only
    const p = stored(c, 'job')!;
    expect(p.status?.phase).to.equal('Running');
    expect(p.status?.containerStatuses?.find((s) => s.name === 'watcher')?.state?.terminated?.exitCode).to.equal(88);
  });

  it('V70 v1.35 with RestartAllContainersOnContainerExits=true: restarts in place as v1.36 does', () => {
    const { c, t0 } = watched(Release.of(35, { RestartAllContainersOnContainerExits: true }));
    c.advance(28_000);
    expect(count(c, t0, 'runtime', 'exited setup')).to.equal(2);
    expect(restartingConditions(c)[0]).to.deep.equal(['False', '', '']);
  });

  it('V70 v1.36: a pod without a RestartAllContainers rule has no AllContainersRestarting condition', () => {
    const { c } = newCluster(Release.of(36));
    createPod(c, 'web');
    c.advance(5_000);
    expect(condition(stored(c, 'web'), 'AllContainersRestarting')).to.equal(undefined);
  });

  it('V70 v1.36: an init container can trigger it too — the pod starts over from the first init container', () => {
    const { c } = newCluster(Release.of(36));
    const t0 = c.clock.now();
    createPod(c, 'job', {
      spec: {
        restartPolicy: 'Never',
        initContainers: [
          { name: 'first' },
          { name: 'fetch', restartPolicy: 'Never', restartPolicyRules: RESTART_ALL_88 } as never,
        ],
      },
      containers: { fetch: { exitsOnItsOwn: 88, runsForMs: 5_000 } },
    });
    c.advance(20_000);
    expect(count(c, t0, 'runtime', 'exited first')).to.be.greaterThan(1);
    expect(count(c, t0, 'runtime', 'started app')).to.equal(0);
    expect(versions(c, 'job').some((v) => v.status?.phase === 'Failed')).to.equal(false);
  });
});

describe('V70 RestartAllContainers triggered by a sidecar', () => {
  it('V70 v1.36: a sidecar (restartPolicy Always) that exits 88 restarts the whole pod, not just itself', () => {
    const { c } = newCluster(Release.of(36));
    const t0 = c.clock.now();
    createPod(c, 'web', {
      spec: {
        initContainers: [{ name: 'proxy', restartPolicy: 'Always', restartPolicyRules: RESTART_ALL_88 } as never],
      },
      containers: { proxy: { exitsOnItsOwn: 88, runsForMs: 10_000 } },
    });
    c.advance(16_000);
    expectTimeline(c, t0, [
      [10, 'runtime', 'exited proxy code=88'],
      [11, 'kubelet', 'pods/web: container proxy exited 88 (a RestartAllContainers rule)'],
      [11, 'events', 'Killing pods/web: Stopping container app'],
      [11, 'runtime', 'removed app'],
      [11, 'runtime', 'removed proxy'],
      [undefined, 'runtime', 'started proxy'],
      [undefined, 'runtime', 'started app'],
    ]);
    expect(restartingConditions(c, 'web').map((x) => x[0])).to.include('True');
  });
});

describe('V70 init containers under ContainerRestartRules', () => {
  const failingInit = (release: Release, init: Record<string, unknown>, podPolicy: string) => {
    const { c } = newCluster(release);
    const t0 = c.clock.now();
    createPod(c, 'web', {
      spec: { restartPolicy: podPolicy, initContainers: [{ name: 'init', ...init }] },
      containers: { init: { exitsOnItsOwn: 1, runsForMs: 1_000 } },
    });
    c.advance(30_000);
    return { phase: stored(c, 'web')?.status?.phase, runs: count(c, t0, 'runtime', 'exited init') };
  };

  it('V70 v1.35: an init container with restartPolicy Never fails a restartPolicy Always pod at its first failure', () => {
    expect(failingInit(Release.of(35), { restartPolicy: 'Never' }, 'Always')).to.deep.equal({
      phase: 'Failed',
      runs: 1,
    });
  });

  it("V70 v1.34 (gate off): the init container's Never is dropped; the pod's Always retries it", () => {
    const r = failingInit(Release.of(34), { restartPolicy: 'Never' }, 'Always');
    expect(r.phase).to.equal('Pending');
    expect(r.runs).to.be.greaterThan(1);
  });

  it('V70 v1.35: a matching Restart rule retries an init container in a Never pod; an exit it does not match fails the pod', () => {
    const rules = (code: number) => ({
      restartPolicy: 'Never',
      restartPolicyRules: restartOn(code),
    });
    const retried = failingInit(Release.of(35), rules(1), 'Never');
    expect(retried.phase).to.equal('Pending');
    expect(retried.runs).to.be.greaterThan(1);
    expect(failingInit(Release.of(35), rules(2), 'Never')).to.deep.equal({ phase: 'Failed', runs: 1 });
  });
});

describe('V70 probes and the liveness kill under ContainerRestartRules', () => {
  /** A worker on a fake host: the pod's container `app` has terminated with `exitCode`. */
  function worker(rules: boolean, exitCode: number) {
    const pod: Pod = {
      metadata: { name: 'job', uid: 'u1' },
      spec: {
        restartPolicy: 'Never',
        containers: [APP_RESTARTED_ON_42 as never],
      },
    };
    const status: PodStatus = {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          image: '',
          imageID: '',
          restartCount: 0,
          ready: false,
          containerID: 'containerd://1',
          state: { terminated: { exitCode } },
        },
      ],
    };
    const scheduler = { now: () => 0, after: () => ({}), cancel: () => undefined } as unknown as Scheduler;
    return new ProbeWorker(
      scheduler,
      new Timeline(new Clock()),
      {
        pod: () => pod,
        status: () => status,
        probe: () => 'Success',
        setResult: () => undefined,
        restartRules: { rules, restartAll: rules },
      },
      'u1',
      'pods/job',
      'app',
      'readiness',
      probeSpec({}),
      'node-1',
    );
  }

  it("V70 worker.go doProbe: with the rules (v1.35+) the worker of a Never pod's container goes on when a Restart rule brings it back, and ends when none does", () => {
    expect([worker(true, 42).doProbe(), worker(true, 1).doProbe()]).to.deep.equal([true, false]);
  });

  it("V70 worker.go doProbe: without them the pod's restartPolicy Never ends it whatever the exit code", () => {
    expect([worker(false, 42).doProbe(), worker(false, 1).doProbe()]).to.deep.equal([false, false]);
  });

  it('V70 v1.35: a readiness-probed container restarted by its rule is probed again and becomes Ready again', () => {
    const { c } = newCluster(Release.of(35));
    createPod(c, 'job', {
      spec: {
        restartPolicy: 'Never',
        containers: [
          {
            ...APP_RESTARTED_ON_42,
            readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 1 },
          } as never,
        ],
      },
      containers: { app: { exitsOnItsOwn: 42, runsForMs: 15_000 } },
    });
    c.advance(25_000);
    const p = stored(c, 'job')!;
    expect(p.status?.containerStatuses?.[0]?.restartCount).to.equal(1);
    expect(condition(p, 'Ready')?.status).to.equal('True');
  });

  it('N12 V70 a liveness failure in a Never pod kills without ", will be restarted"; a container restartPolicy Always (v1.35) restarts it', () => {
    const liveness = (release: Release, container: Record<string, unknown>) => {
      const { c } = newCluster(release);
      const t0 = c.clock.now();
      createPod(c, 'web', {
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'app',
              livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 1, failureThreshold: 1 },
              ...container,
            } as never,
          ],
        },
        containers: { app: { hangsAfterMs: 3_000 } },
      });
      c.advance(15_000);
      return eventsSince(c, t0).find((e) => e.component === 'events' && e.text.startsWith('Killing'))?.text;
    };
    expect(liveness(Release.of(33), {})).to.equal('Killing pods/web: Container app failed liveness probe');
    expect(liveness(Release.of(35), { restartPolicy: 'Always' })).to.equal(
      'Killing pods/web: Container app failed liveness probe, will be restarted',
    );
  });
});
