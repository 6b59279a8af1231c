/**
 * activeDeadlineSeconds in the kubelet (K70, pkg/kubelet/active_deadline.go): at the first sync tick
 * at or after startTime + activeDeadlineSeconds the pod is synced, generateAPIPodStatus makes it
 * Failed with reason DeadlineExceeded, SyncPod reports it terminal and the pod worker kills it with
 * its own grace period; nothing deletes it.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Event, Pod } from '../../apimachinery/types';
import { USER, type Cluster } from '../../cluster/cluster';
import {
  activeDeadline,
  ActiveDeadlineHandler,
  DEADLINE_EXCEEDED_MESSAGE,
  DEADLINE_EXCEEDED_REASON,
} from './active-deadline';
import { count, expectNo, expectTimeline, running, stored } from './testing';

const events = (c: Cluster, reason: string): Event[] => {
  const r = c.apiserver.list('events', 'default', (e) => e.reason === reason);
  return r.ok ? r.object.items : [];
};

describe('K70 activeDeadlineSeconds (pkg/kubelet/active_deadline.go)', () => {
  it('K70 pastActiveDeadline: no deadline or no startTime is never past; otherwise now − startTime ≥ the deadline, the cached status first', () => {
    const pod = (seconds: number | undefined, startTime?: string): Pod => ({
      metadata: { name: 'p', uid: 'u' },
      spec: { containers: [], activeDeadlineSeconds: seconds },
      status: startTime ? { startTime } : {},
    });
    let now = Date.parse('2025-01-01T00:01:30Z');
    const cached = new Map<string, { startTime: string }>();
    const sent: string[] = [];
    const handler = new ActiveDeadlineHandler(
      (uid) => cached.get(uid),
      () => now,
      (p, reason) => sent.push(`${p.metadata.name} ${reason}`),
    );
    expect(handler.pastActiveDeadline(pod(undefined, '2025-01-01T00:00:00Z'))).to.equal(false);
    expect(handler.pastActiveDeadline(pod(30))).to.equal(false);
    expect(handler.pastActiveDeadline(pod(90, '2025-01-01T00:00:00Z'))).to.equal(true);
    expect(handler.pastActiveDeadline(pod(91, '2025-01-01T00:00:00Z'))).to.equal(false);
    expect(activeDeadline(pod(91, '2025-01-01T00:00:00Z'), undefined)).to.equal(Date.parse('2025-01-01T00:01:31Z'));
    // The status manager's copy wins over the API's.
    cached.set('u', { startTime: '2025-01-01T00:00:30Z' });
    expect(handler.pastActiveDeadline(pod(90, '2025-01-01T00:00:00Z'))).to.equal(false);
    now += 30_000;
    expect(handler.shouldEvict(pod(90, '2025-01-01T00:00:00Z'))).to.deep.equal({
      reason: DEADLINE_EXCEEDED_REASON,
      message: DEADLINE_EXCEEDED_MESSAGE,
    });
    handler.shouldEvict(pod(90));
    expect(sent).to.deep.equal(['p DeadlineExceeded']);
  });

  it('K70 a pod with activeDeadlineSeconds 90 that has run for 60 s: at T+30s the sync tick syncs it, it turns Failed/DeadlineExceeded, app gets SIGTERM with the 30 s grace, and it stays in the API', () => {
    const { c, t0 } = running({ spec: { activeDeadlineSeconds: 90 } });
    c.advance(60_000);
    expectTimeline(c, t0, [
      [30, 'kubelet', 'pods/web is past its active deadline (activeDeadlineSeconds=90): sync'],
      [30, 'events', 'DeadlineExceeded pods/web: Pod was active on the node longer than the specified deadline'],
      [30, 'kubelet', 'terminating pods/web (pod is terminal)'],
      [31, 'kubelet', "SyncTerminatingPod pods/web gracePeriod=30 (the pod's own)"],
      [31, 'runtime', 'SIGTERM app'],
      [31, 'runtime', 'exited app code=143'],
      [31, 'apiserver', 'PATCH pods/web/status'],
      [32, 'kubelet', 'SyncTerminatedPod pods/web'],
    ]);
    expectNo(c, t0, 'status', 'DELETE pods/web');
    const pod = stored(c, 'web')!;
    expect(pod.metadata.deletionTimestamp).to.equal(undefined);
    expect(pod.status).to.include({ phase: 'Failed', reason: 'DeadlineExceeded', message: DEADLINE_EXCEEDED_MESSAGE });
    expect(pod.status?.conditions?.find((x) => x.type === 'Ready')).to.include({
      status: 'False',
      reason: 'PodFailed',
    });
    expect(events(c, 'DeadlineExceeded').map((e) => [e.type, e.message, e.involvedObject.name])).to.deep.equal([
      ['Normal', DEADLINE_EXCEEDED_MESSAGE, 'web'],
    ]);
    // The Always pod is not restarted: a terminal pod stays terminated.
    expect(count(c, t0, 'runtime', 'started app')).to.equal(0);
  });

  it('K70 the status PATCH that makes the pod Failed carries the reason and message only once the containers stopped (mergePodStatus holds the terminal phase back, K33)', () => {
    const { c, t0 } = running({
      spec: { activeDeadlineSeconds: 90 },
      containers: { app: { sigterm: { kind: 'exits', afterMs: 5000 } } },
    });
    c.advance(60_000);
    const patches = c.apiserver.etcd
      .keyHistory(c.apiserver.keyFor('pods', 'default', 'web'))
      .filter((e) => e.type === 'PUT');
    const phases = patches
      .map((e) => e.value as unknown as Pod)
      .filter((p) => p.status?.reason === 'DeadlineExceeded')
      .map((p) => p.status?.phase);
    expect(phases[0]).to.equal('Failed');
    expectTimeline(c, t0, [
      [31, 'runtime', 'SIGTERM app'],
      [36, 'runtime', 'exited app code=0'],
      [36, 'apiserver', 'PATCH pods/web/status'],
    ]);
  });

  it('K70 a deadline lowered by an update (activeDeadlineSeconds may only shrink) is checked at its new time', () => {
    const { c, t0 } = running({ spec: { activeDeadlineSeconds: 600 } });
    const pod = stored(c, 'web')!;
    pod.spec!.activeDeadlineSeconds = 70;
    const r = c.apiserver.update(USER, 'pods', 'default', pod);
    c.flush();
    expect(r.ok, r.ok ? '' : r.status.message).to.equal(true);
    c.advance(20_000);
    expectTimeline(c, t0, [[10, 'kubelet', 'pods/web is past its active deadline (activeDeadlineSeconds=70): sync']]);
    expect(stored(c, 'web')!.status?.phase).to.equal('Failed');
  });

  it('K70 a pod without activeDeadlineSeconds is never touched', () => {
    const { c, t0 } = running();
    c.advance(600_000);
    expectNo(c, t0, 'kubelet', 'terminating pods/web');
    expect(stored(c, 'web')!.status?.phase).to.equal('Running');
  });
});
