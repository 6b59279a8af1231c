import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../foundation/clock';
import { Timeline } from '../foundation/timeline/timeline';
import { ApiServer, DEFAULT_APISERVER_OPTIONS } from './apiserver';
import { NS, ok, podManifest, USER } from './testing';

const MINUTE = 60_000;

function session(drop: boolean) {
  const clock = new Clock();
  const timeline = new Timeline(clock);
  const api = new ApiServer(clock, timeline, { ...DEFAULT_APISERVER_OPTIONS, dropCompactedHistory: drop });
  return { clock, timeline, api };
}

/** Creates and deletes `n` pods at the current instant. */
function churn(api: ApiServer, prefix: string, n: number): void {
  for (let i = 0; i < n; i++) {
    ok(api.create(USER, 'pods', NS, podManifest(`${prefix}-${i}`, { spec: { nodeName: undefined } })));
    ok(api.delete(USER, 'pods', NS, `${prefix}-${i}`, { gracePeriodSeconds: 0 }));
  }
}

describe('etcd compaction that drops history (R207; storage/etcd3/compact.go; a serve session)', () => {
  it('every 5 minutes drops the history, timeline events and request records from before the revision of one interval earlier', () => {
    const { clock, timeline, api } = session(true);
    churn(api, 'a', 10);
    const revisionAtStart = api.etcd.currentRevision;
    clock.tick(5 * MINUTE); // T+5m: compacts to the revision of T+0
    expect(api.etcd.compacted).to.equal(revisionAtStart);
    churn(api, 'b', 10);
    const revisionAtFirstTick = api.etcd.currentRevision;
    clock.tick(5 * MINUTE); // T+10m: compacts to the revision of T+5m
    expect(api.etcd.compacted).to.equal(revisionAtFirstTick);
    expect(api.compactedRevision()).to.equal(revisionAtFirstTick);
    expect(api.etcd.fullHistory()).to.deep.equal([]);
    expect(api.etcd.keyHistory(api.keyFor('pods', NS, 'a-0'))).to.deep.equal([]);
    expect(timeline.all()).to.deep.equal([]);
    expect(timeline.recorded).to.be.greaterThan(0);
    churn(api, 'c', 1);
    expect(api.etcd.fullHistory()[0].revision).to.equal(revisionAtFirstTick + 1);
    expect(api.lastRequest && api.request(api.lastRequest.id)?.name).to.equal('c-0');
    expect(timeline.all()[0].seq).to.equal(timeline.forgotten + 1);
    // A watch from before the compaction is expired; one from the compacted revision replays what follows.
    const old = api.watch('pods', NS, { resourceVersion: String(revisionAtFirstTick - 1) }, () => {});
    expect(!old.ok && old.code).to.equal(410);
    const events: string[] = [];
    ok(api.watch('pods', NS, { resourceVersion: String(revisionAtFirstTick) }, (e) => events.push(e.type)));
    clock.tick(0);
    expect(events[0]).to.equal('ADDED');
    expect(events.at(-1)).to.equal('DELETED');
  });

  it('off (scenarios): compaction stays logical and everything is kept', () => {
    const { clock, timeline, api } = session(false);
    churn(api, 'a', 3);
    clock.tick(11 * MINUTE);
    expect(api.etcd.compacted).to.equal(0);
    const writes = api.etcd.currentRevision - 1;
    expect(api.etcd.fullHistory()).to.have.length(writes);
    expect(timeline.forgotten).to.equal(0);
    expect(api.compactedRevision()).to.equal(api.etcd.currentRevision);
  });
});

describe('Events expire after --event-ttl in a serve session (R207)', () => {
  it('an Event leaves etcd at the first compaction an hour after its last write, and watchers see it DELETED', () => {
    const { clock, api } = session(true);
    const event = {
      metadata: { name: 'web.1' },
      involvedObject: { kind: 'Pod', name: 'web', namespace: NS },
      reason: 'Killing',
      message: 'Stopping container app',
      type: 'Normal',
    };
    ok(api.create(USER, 'events', NS, event));
    const seen: string[] = [];
    ok(api.watch('events', NS, {}, (e) => seen.push(e.type)));
    clock.tick(55 * MINUTE);
    expect(api.get('events', NS, 'web.1').ok).to.equal(true);
    clock.tick(5 * MINUTE);
    expect(api.get('events', NS, 'web.1').ok).to.equal(false);
    expect(seen).to.deep.equal(['DELETED']);
  });
});
