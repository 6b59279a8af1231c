/**
 * Graceful node shutdown (K51) and the kubelet's own kills that wait with a timeout (K52), through
 * a whole cluster: the shutdown manager kills pods by priority group through killPodNow, the pod
 * worker hands the kill's status function to SyncTerminatingPod, and the status manager writes
 * phase Failed, reason Terminated and DisruptionTarget; nothing deletes the pods.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Event, Pod } from '../../apimachinery/types';
import type { Cluster } from '../../cluster/cluster';
import { Release } from '../../foundation/release';
import { groupByPriority, migrateConfig, NODE_SHUTDOWN_MESSAGE, podPriority } from './nodeshutdown';
import {
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
  WARMUP_MS,
} from './testing';

const PERIODS = { shutdownGracePeriodSeconds: 30, shutdownGracePeriodCriticalPodsSeconds: 10 };
const events = (c: Cluster, reason: string): Event[] => {
  const r = c.apiserver.list('events', 'default', (e) => e.reason === reason);
  return r.ok ? r.object.items : [];
};

/** A cluster whose pods (by name → options) have been running for a minute; returns T+0. */
function pods(specs: Record<string, Parameters<typeof createPod>[2]>) {
  const { c, node } = newCluster();
  for (const [name, o] of Object.entries(specs)) createPod(c, name, o);
  c.advance(WARMUP_MS);
  return { c, node, t0: c.clock.now() };
}

describe('K51 graceful node shutdown', () => {
  it('K51 configuration: shutdownGracePeriod 30 s with 10 s for critical pods gives groups 0 → 20 s and 2000000000 → 10 s; 0 turns the feature off', () => {
    expect(migrateConfig(PERIODS)).to.deep.equal([
      { priority: 0, shutdownGracePeriodSeconds: 20 },
      { priority: 2_000_000_000, shutdownGracePeriodSeconds: 10 },
    ]);
    expect(migrateConfig({ shutdownGracePeriodSeconds: 0, shutdownGracePeriodCriticalPodsSeconds: 0 })).to.deep.equal(
      [],
    );
    expect(migrateConfig({ shutdownGracePeriodSeconds: 5, shutdownGracePeriodCriticalPodsSeconds: 10 })).to.deep.equal(
      [],
    );
    const pod = (name: string, spec: Partial<Pod['spec']>): Pod => ({
      metadata: { name },
      spec: { containers: [], ...spec },
    });
    const groups = groupByPriority(migrateConfig(PERIODS), [
      pod('plain', {}),
      pod('cluster', { priorityClassName: 'system-cluster-critical' }),
      pod('node', { priorityClassName: 'system-node-critical' }),
      pod('high', { priority: 1_000_000 }),
      pod('negative', { priority: -5 }),
    ]);
    expect(groups.map((g) => g.pods.map((p) => p.metadata.name))).to.deep.equal([
      ['plain', 'high', 'negative'],
      ['cluster', 'node'],
    ]);
    expect(podPriority(pod('node', { priorityClassName: 'system-node-critical' }))).to.equal(2_000_001_000);
  });

  it('K51 a regular pod: killed with min(spec grace, 20 s), then Failed with reason Terminated and DisruptionTarget TerminationByKubelet; the pod stays in the API', () => {
    const { c, node, t0 } = pods({ web: { spec: { volumes: [{ name: 'data' }] } } });
    node.shutdown(PERIODS);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [
        0,
        'kubelet',
        'node shutdown: shutdown event detected (shutdownGracePeriod=30s, shutdownGracePeriodCriticalPods=10s)',
      ],
      [0, 'events', 'NodeShutdown nodes/node-1: Shutdown manager detected shutdown event'],
      [0, 'apiserver', 'PATCH nodes/node-1/status'],
      [0, 'kubelet', 'node shutdown: killing priority group 0 (pods/web) within 20s'],
      [0, 'kubelet', 'killPodNow pods/web gracePeriod=20 (waits at most 30s)'],
      [0, 'kubelet', 'terminating pods/web (kill requested)'],
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=20'],
      [0, 'runtime', 'SIGTERM app'],
      [0, 'runtime', 'exited app code=143'],
      [0, 'apiserver', 'PATCH pods/web/status'],
      [0.2, 'volumes', 'unmounted data'],
      [0.3, 'kubelet', 'node shutdown: done waiting for all pods in priority group 0 to terminate'],
      [0.3, 'kubelet', 'node shutdown: completed processing shutdown event, node will shutdown shortly'],
      [1, 'kubelet', 'SyncTerminatedPod pods/web'],
      [2.3, 'kubelet', 'node node-1 powered off'],
    ]);
    const pod = stored(c, 'web');
    expect(pod, 'the pod is not deleted').to.not.equal(undefined);
    expect(pod?.metadata.deletionTimestamp).to.equal(undefined);
    expect(pod?.status).to.include({ phase: 'Failed', reason: 'Terminated', message: NODE_SHUTDOWN_MESSAGE });
    expect(condition(pod, 'DisruptionTarget')).to.include({
      status: 'True',
      reason: 'TerminationByKubelet',
      message: NODE_SHUTDOWN_MESSAGE,
    });
    expect(condition(pod, 'Ready')).to.include({ status: 'False', reason: 'PodFailed' });
    expectNo(c, t0, 'status', 'DELETE');
    expectNo(c, t0, 'apiserver', 'DELETE pods/web');
  });

  it('K51 the terminal phase, reason and DisruptionTarget reach the API together, once nothing runs (K33): not with the first status, but with the stopped containers', () => {
    const { c, node, t0 } = pods({ web: { containers: { app: { sigterm: { kind: 'exits', afterMs: 5000 } } } } });
    node.shutdown(PERIODS);
    c.advance(3000);
    const mid = stored(c, 'web');
    expect(mid?.status?.phase).to.equal('Running');
    expect(mid?.status?.reason).to.equal(undefined);
    expect(condition(mid, 'DisruptionTarget')).to.equal(undefined);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [5, 'runtime', 'exited app code=0'],
      [5, 'apiserver', 'PATCH pods/web/status'],
      [6, 'kubelet', 'SyncTerminatedPod pods/web'],
    ]);
    expectNo(c, t0 + 5500, 'apiserver', 'PATCH pods/web/status');
    const pod = stored(c, 'web');
    // The status function made the cached status Failed before the kill; the stopped status keeps it
    // only if getPhase agrees — an app that exits 0 is Succeeded (the func never overrides that).
    expect(pod?.status?.phase).to.be.oneOf(['Failed', 'Succeeded']);
    expect(condition(pod, 'DisruptionTarget')).to.include({ status: 'True', reason: 'TerminationByKubelet' });
  });

  it('K51 grace is min(spec terminationGracePeriodSeconds, group period): spec 60 → 20, spec 5 → 5', () => {
    const ignores = { app: { sigterm: { kind: 'ignores' as const } } };
    const { c, node, t0 } = pods({
      long: { spec: { terminationGracePeriodSeconds: 60 }, containers: ignores },
      short: { spec: { terminationGracePeriodSeconds: 5 }, containers: ignores },
    });
    node.shutdown(PERIODS);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/long gracePeriod=20'],
      [0, 'kubelet', 'SyncTerminatingPod pods/short gracePeriod=5'],
      [5, 'runtime', 'SIGKILL app pods/short'],
      // The group's timer and the runtime's SIGKILL fall due at the same instant; the group timer
      // was set first, so the group times out just before the kill completes.
      [20, 'kubelet', 'node shutdown: pod killing time out for priority group 0 after 20s'],
      [20, 'runtime', 'SIGKILL app pods/long'],
    ]);
    for (const name of ['long', 'short'])
      expect(stored(c, name)?.status).to.include({ phase: 'Failed', reason: 'Terminated' });
  });

  it('K51 critical pods (system-cluster-critical) are killed only after the regular group, with the critical period', () => {
    const { c, node, t0 } = pods({
      web: { containers: { app: { sigterm: { kind: 'exits', afterMs: 3000 } } } },
      dns: {
        spec: { priorityClassName: 'system-cluster-critical', terminationGracePeriodSeconds: 30 },
        containers: { app: { sigterm: { kind: 'ignores' } } },
      },
    });
    node.shutdown(PERIODS);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'node shutdown: killing priority group 0 (pods/web) within 20s'],
      [0, 'runtime', 'SIGTERM app pods/web'],
      [3, 'runtime', 'exited app code=0 pods/web'],
      [3, 'kubelet', 'node shutdown: done waiting for all pods in priority group 0'],
      [3, 'kubelet', 'node shutdown: killing priority group 2000000000 (pods/dns) within 10s'],
      [3, 'kubelet', 'SyncTerminatingPod pods/dns gracePeriod=10'],
      [3, 'runtime', 'SIGTERM app pods/dns'],
      [13, 'kubelet', 'node shutdown: pod killing time out for priority group 2000000000 after 10s'],
      [13, 'kubelet', 'node shutdown: completed processing shutdown event'],
      [13, 'runtime', 'SIGKILL app pods/dns'],
      [14, 'kubelet', 'SyncTerminatedPod pods/dns'],
      [15, 'kubelet', 'node node-1 powered off'],
    ]);
    expect(stored(c, 'dns')?.status).to.include({ phase: 'Failed', reason: 'Terminated' });
    expect(condition(stored(c, 'dns'), 'DisruptionTarget')).to.include({
      status: 'True',
      reason: 'TerminationByKubelet',
    });
  });

  it('K51 each group waits at most its own period: a hanging preStop holds the regular pod past 20 s, the critical group starts at 20 anyway', () => {
    const { c, node, t0 } = pods({
      web: {
        spec: { containers: [{ name: 'app', lifecycle: PRESTOP }] },
        containers: { app: { preStopMs: Number.POSITIVE_INFINITY, sigterm: { kind: 'ignores' } } },
      },
      dns: { spec: { priorityClassName: 'system-node-critical' } },
    });
    node.shutdown(PERIODS);
    c.advance(60_000);
    expectTimeline(c, t0, [
      [0, 'runtime', 'preStop app pods/web'],
      [20, 'kubelet', 'node shutdown: pod killing time out for priority group 0 after 20s'],
      [20, 'kubelet', 'node shutdown: killing priority group 2000000000 (pods/dns) within 10s'],
      [20, 'runtime', 'exited app code=143 pods/dns'],
      [20, 'kubelet', 'node shutdown: completed processing shutdown event'],
      [20, 'runtime', 'SIGTERM app pods/web'],
      [21, 'kubelet', 'SyncTerminatedPod pods/dns'],
      [22, 'kubelet', 'node node-1 powered off'],
    ]);
    // The machine went down while pods/web was still being killed: its terminal status was never
    // sent, so the API keeps the last status the kubelet could report (phase held back, K33).
    expectNo(c, t0, 'kubelet', 'SyncTerminatedPod pods/web');
    expect(stored(c, 'web')?.status?.phase).to.equal('Running');
    expect(condition(stored(c, 'web'), 'DisruptionTarget')).to.equal(undefined);
    expect(stored(c, 'dns')?.status).to.include({ phase: 'Failed', reason: 'Terminated' });
  });

  it('K51 the node reports Ready=False (KubeletNotReady, "node is shutting down"); after power-off its heartbeats stop and it becomes Unknown', () => {
    const { c, node, t0 } = running();
    node.shutdown(PERIODS);
    c.flush();
    const ready = () =>
      c.apiserver.get('nodes', undefined, 'node-1').ok &&
      (
        c.apiserver.get('nodes', undefined, 'node-1') as {
          object: { status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] } };
        }
      ).object.status?.conditions?.find((x) => x.type === 'Ready');
    expect(ready()).to.include({ status: 'False', reason: 'KubeletNotReady', message: 'node is shutting down' });
    c.advance(120_000);
    expect(node.poweredOff).to.equal(true);
    expect(node.reachable).to.equal(false);
    expect(ready()).to.include({ status: 'Unknown' });
    expectTimeline(c, t0, [
      [2, 'kubelet', 'node node-1 powered off'],
      [undefined, 'nodelifecycle', 'node node-1 Ready=Unknown'],
    ]);
    expect(() => node.restartKubelet()).to.throw(/powered off/);
  });

  it('K51 with shutdownGracePeriod 0 (the default) the shutdown is immediate: no pod is killed or changed', () => {
    const { c, node, t0 } = running();
    node.shutdown();
    c.advance(60_000);
    expectTimeline(c, t0, [
      [
        0,
        'kubelet',
        'node shutdown: no graceful configuration (shutdownGracePeriod=0s), node shutdown will be immediate',
      ],
      [2, 'kubelet', 'node node-1 powered off'],
    ]);
    expectNo(c, t0, 'runtime', 'SIGTERM');
    expect(stored(c, 'web')?.status?.phase).to.equal('Running');
  });

  it('K51 terminal pods are not active and are left alone', () => {
    const { c, node, t0 } = pods({
      done: { spec: { restartPolicy: 'Never' }, containers: { app: { exitsOnItsOwn: 0 } } },
      web: {},
    });
    expect(stored(c, 'done')?.status?.phase).to.equal('Succeeded');
    node.shutdown(PERIODS);
    c.advance(30_000);
    expectTimeline(c, t0, [[0, 'kubelet', 'node shutdown: killing priority group 0 (pods/web) within 20s']]);
    expectNo(c, t0, 'kubelet', 'killPodNow pods/done');
    expect(stored(c, 'done')?.status?.reason).to.equal(undefined);
  });
});

describe('K52 killPodNow waits with a timeout', () => {
  it('K52 returns once the worker has terminated the pod (completeTerminating), with no event', () => {
    const { c, node, pod } = running({ containers: { app: { sigterm: { kind: 'exits', afterMs: 4000 } } } });
    const results: { at: number; err?: string }[] = [];
    const t0 = c.clock.now();
    node.kubelet.killPodNow(pod, false, 20, undefined, (err) => results.push({ at: c.clock.now() - t0, err }));
    c.advance(60_000);
    expect(results).to.deep.equal([{ at: 4000, err: undefined }]);
    expect(events(c, 'ExceededGracePeriod')).to.have.length(0);
    // Without a status function the pod keeps the phase its containers give it.
    expect(stored(c, 'web')?.status?.reason).to.equal(undefined);
  });

  it('K52 a kill already running keeps its longer grace (#83916): killPodNow gives up after max(10, 1.5×20) = 30 s with Warning ExceededGracePeriod', () => {
    const { c, node, t0 } = running({
      spec: { terminationGracePeriodSeconds: 60 },
      containers: { app: { sigterm: { kind: 'ignores' } } },
    });
    del(c, 'web');
    c.advance(5000);
    const results: { at: number; err?: string }[] = [];
    node.kubelet.killPodNow(stored(c, 'web')!, false, 20, undefined, (err) =>
      results.push({ at: c.clock.now() - t0, err }),
    );
    c.advance(120_000);
    expect(results).to.deep.equal([{ at: 35_000, err: 'timeout waiting to kill pod' }]);
    expectTimeline(c, t0, [
      [0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=60'],
      [5, 'kubelet', 'killPodNow pods/web gracePeriod=20 (waits at most 30s)'],
      [5, 'kubelet', 'grace shortened pods/web to 20s'],
      [
        35,
        'events',
        'ExceededGracePeriod pods/web: Container runtime did not kill the pod within specified grace period.',
      ],
      [35, 'kubelet', 'killPodNow pods/web: timeout waiting to kill pod after 30s'],
      [60, 'runtime', 'SIGKILL app'],
    ]);
    const [event] = events(c, 'ExceededGracePeriod');
    expect(event).to.deep.include({
      type: 'Warning',
      message: 'Container runtime did not kill the pod within specified grace period.',
    });
    expect(event.involvedObject).to.include({ kind: 'Pod', name: 'web' });
    expect(event.involvedObject.fieldPath).to.equal(undefined);
    expect(count(c, t0, 'events', 'ExceededGracePeriod')).to.equal(1);
  });

  it('K52 the wait is at least 10 s: a pod whose SyncPod is stuck pulling an image is not killed within max(10, 1.5×2)', () => {
    const { c, node } = newCluster();
    createPod(c, 'web', { containers: { app: { pullMs: 300_000 } } });
    c.advance(WARMUP_MS);
    const t0 = c.clock.now();
    const results: { at: number; err?: string }[] = [];
    node.kubelet.killPodNow(stored(c, 'web')!, false, 2, undefined, (err) =>
      results.push({ at: c.clock.now() - t0, err }),
    );
    c.advance(30_000);
    expect(results).to.deep.equal([{ at: 10_000, err: 'timeout waiting to kill pod' }]);
    expect(events(c, 'ExceededGracePeriod')).to.have.length(1);
  });

  it('K52 kills queued while the worker is busy: SyncTerminatingPod applies the newest status function; the evict flag of the first kill sticks', () => {
    // SyncPod is blocked on an image pull until T+3 (S12); both kills wait behind it.
    const { c, node } = newCluster();
    createPod(c, 'web', { containers: { app: { pullMs: WARMUP_MS + 3000 } } });
    c.advance(WARMUP_MS);
    const pod = stored(c, 'web')!;
    const uid = pod.metadata.uid!;
    const mark = (reason: string) => (s: NonNullable<Pod['status']>) => {
      s.phase = 'Failed';
      s.reason = reason;
    };
    const results: (string | undefined)[] = [];
    node.kubelet.killPodNow(pod, false, 10, mark('First'), (err) => results.push(err));
    node.kubelet.killPodNow(pod, true, 5, mark('Second'), (err) => results.push(err));
    expect(node.kubelet.workers.status(uid)?.evicted).to.equal(false);
    c.advance(60_000);
    expect(stored(c, 'web')?.status).to.include({ phase: 'Failed', reason: 'Second' });
    // Both waiters are told when termination completes (T+3 pull, then the kill): neither times out.
    expect(results).to.deep.equal([undefined, undefined]);
  });
});

describe('release differences in node shutdown (V26)', () => {
  it('V26 K51 the DisruptionTarget condition (TerminationByKubelet) comes with PodDisruptionConditions, on by default from v1.26 (#112360); with the gate off only phase, reason and message are set', () => {
    for (const on of [true, false]) {
      const { c, node } = running({ release: Release.of(26, { PodDisruptionConditions: on }) });
      node.shutdown({ shutdownGracePeriodSeconds: 30, shutdownGracePeriodCriticalPodsSeconds: 10 });
      c.advance(10_000);
      const pod = stored(c, 'web');
      expect(pod?.status).to.include({ phase: 'Failed', reason: 'Terminated' });
      expect(condition(pod, 'DisruptionTarget')?.reason, `gate ${on}`).to.equal(
        on ? 'TerminationByKubelet' : undefined,
      );
    }
  });
});
