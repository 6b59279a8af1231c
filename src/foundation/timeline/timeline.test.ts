import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../clock';
import { diff, Etcd } from '../../apiserver/etcd';
import type { TimelineEvent } from './event';
import { Timeline, type RevisionReader } from './timeline';

const KEY = '/registry/pods/default/web';

/** A reader that counts how often it is asked, to show text and patches are built only when read. */
function countingReader(): RevisionReader & { texts: number; patches: number } {
  const reader = {
    texts: 0,
    patches: 0,
    text(revision: number): string {
      reader.texts += 1;
      return `PUT ${KEY} rev=${revision}`;
    },
    patch(revision: number) {
      reader.patches += 1;
      return [{ op: 'replace' as const, path: '/spec/x', value: revision }];
    },
  };
  return reader;
}

describe('Timeline records', () => {
  it('builds a revision event’s text and patch only when someone reads them', () => {
    const timeline = new Timeline(new Clock());
    const reader = countingReader();
    for (let rev = 2; rev < 1002; rev++) timeline.recordRevision('etcd', rev, reader, 'store.go GuaranteedUpdate');
    expect(reader.texts + reader.patches).to.equal(0);
    const e = timeline.all()[41];
    expect(e.text).to.equal(`PUT ${KEY} rev=43`);
    expect(e.patch).to.deep.equal([{ op: 'replace', path: '/spec/x', value: 43 }]);
    expect([reader.texts, reader.patches]).to.deep.equal([1, 1]);
  });

  it('gives an etcd write the text and patch it had when they were built at write time', () => {
    const clock = new Clock();
    const timeline = new Timeline(clock);
    const etcd = new Etcd(timeline, () => clock.now());
    const v1 = etcd.create(KEY, { metadata: { name: 'web' }, spec: { x: 1 } });
    clock.tick(1500);
    const v2 = etcd.update(KEY, { metadata: { name: 'web' }, spec: { x: 2, y: [1] } }, 2);
    etcd.delete(KEY, 3);
    const [create, update, del] = timeline.all();
    expect([create.text, update.text, del.text]).to.deep.equal([
      `PUT ${KEY} rev=2`,
      `PUT ${KEY} rev=3`,
      `DELETE ${KEY} rev=4`,
    ]);
    expect(create.patch).to.equal(undefined);
    expect(update.patch).to.deep.equal(diff(v1, v2));
    expect(update.patch).to.deep.include({ op: 'replace', path: '/spec/x', value: 2 });
    expect(del.patch).to.equal(undefined);
    expect(update.at).to.equal(clock.now());
  });

  it('serialises an event as the plain object it stands for (what run-against-run comparisons read)', () => {
    const clock = new Clock();
    const timeline = new Timeline(clock);
    clock.tick(2000);
    const plain = timeline.record(
      'kubelet',
      'SyncTerminatingPod pods/web gracePeriod=30',
      'pkg/kubelet/kubelet.go SyncTerminatingPod',
      { actor: 'node-1' },
    );
    const request = timeline.record('apiserver', 'DELETE pods/web', 'delete.go DeleteResource');
    request.requestId = 7;
    timeline.annotate(request, '200');
    const write = timeline.recordRevision('etcd', 5, countingReader(), 'store.go GuaranteedUpdate');
    expect(JSON.parse(JSON.stringify(timeline.all()))).to.deep.equal([
      {
        seq: 1,
        at: clock.now(),
        component: 'kubelet',
        text: plain.text,
        source: 'pkg/kubelet/kubelet.go SyncTerminatingPod',
        actor: 'node-1',
      },
      {
        seq: 2,
        at: clock.now(),
        component: 'apiserver',
        text: 'DELETE pods/web',
        source: 'delete.go DeleteResource',
        requestId: 7,
        outcome: '200',
      },
      {
        seq: 3,
        at: clock.now(),
        component: 'etcd',
        text: write.text,
        source: 'store.go GuaranteedUpdate',
        patch: write.patch,
      },
    ]);
  });

  it('in summary mode counts events per component and keeps none', () => {
    const timeline = new Timeline(new Clock(), 'summary');
    const reader = countingReader();
    timeline.record('kubelet', 'x', 'y');
    timeline.recordRevision('etcd', 2, reader, 'z');
    expect(timeline.all()).to.have.length(0);
    expect(timeline.recorded).to.equal(2);
    expect([...timeline.countsByComponent()]).to.deep.equal([
      ['kubelet', 1],
      ['etcd', 1],
    ]);
    expect(reader.texts).to.equal(0);
  });

  it('keeps thousands of events in order, each readable and annotatable; since(t) starts at the first at or after t', () => {
    const clock = new Clock();
    const timeline = new Timeline(clock);
    const t0 = clock.now();
    for (let i = 0; i < 3000; i++) {
      const e = timeline.record(
        i % 2 === 0 ? 'kubelet' : 'apiserver',
        `event ${i}`,
        `source ${i % 7}`,
        i % 3 === 0 ? { actor: `node-${i % 5}` } : {},
      );
      if (i % 2 === 1) {
        e.requestId = i;
        timeline.annotate(e, i % 4 === 1 ? '200' : '409 Conflict');
      }
      if (i % 10 === 9) clock.tick(1000);
    }
    const all = timeline.all();
    expect(all).to.have.length(3000);
    const fields = (e: TimelineEvent): unknown[] => [
      e.seq,
      e.at - t0,
      e.component,
      e.text,
      e.source,
      e.actor,
      e.requestId,
      e.outcome,
    ];
    expect(fields(all[2001])).to.deep.equal([
      2002,
      200_000,
      'apiserver',
      'event 2001',
      'source 6',
      'node-1',
      2001,
      '200',
    ]);
    expect(fields(all[2003])).to.deep.equal([
      2004,
      200_000,
      'apiserver',
      'event 2003',
      'source 1',
      undefined,
      2003,
      '409 Conflict',
    ]);
    expect(fields(all[2004])).to.deep.equal([
      2005,
      200_000,
      'kubelet',
      'event 2004',
      'source 2',
      'node-4',
      undefined,
      undefined,
    ]);
    expect([all[2997].actor, all[2997].requestId, all[2997].outcome]).to.deep.equal(['node-2', 2997, '200']);
    const later = timeline.since(t0 + 250_000);
    expect(later[0].seq).to.equal(2501);
    expect(later).to.have.length(500);
    expect(timeline.since(t0 + 250_500)[0].seq).to.equal(2511);
    expect(timeline.since(t0 + 10_000_000)).to.deep.equal([]);
  });
});
