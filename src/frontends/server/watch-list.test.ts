import * as http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { decodeProtobufBody, messageFor } from './protobuf';
import { expect } from 'chai';
import { Release } from '../../foundation/release';
import { USER } from '../../cluster/cluster';
import { openWatch, podManifest, request, startServer, type TestServer } from './testing';

const STREAMING_LIST =
  '/api/v1/namespaces/default/pods?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan';
const GATE_OFF =
  'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled';

describe('HTTP API: streaming lists, WatchList on (R318)', () => {
  let s: TestServer;
  before(async () => (s = await startServer(['web-b', 'web-a', 'web-c'])));
  after(() => s.close());

  it('sends the state as ADDED in key order, then the initial-events-end BOOKMARK, then live events', async () => {
    const revision = s.cluster.apiserver.etcd.currentRevision;
    const w = await openWatch(s.base, STREAMING_LIST);
    expect(w.status).to.equal(200);
    await w.until(4);
    expect(w.events.slice(0, 3).map((e) => [e.type, e.object.metadata.name])).to.deep.equal([
      ['ADDED', 'web-a'],
      ['ADDED', 'web-b'],
      ['ADDED', 'web-c'],
    ]);
    expect(w.events[3]).to.deep.equal({
      type: 'BOOKMARK',
      object: {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(revision), annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
    });
    s.cluster.apiserver.create(USER, 'pods', 'default', podManifest('web-d'));
    s.cluster.settle();
    await w.until(5);
    expect([w.events[4].type, w.events[4].object.metadata.name]).to.deep.equal(['ADDED', 'web-d']);
    expect(Number(w.events[4].object.metadata.resourceVersion)).to.be.greaterThan(revision);
    w.close();
  });

  it('the initial events are written within the request: no clock step is needed to deliver them', async () => {
    const now = s.cluster.clock.now();
    const w = await openWatch(s.base, `${STREAMING_LIST}&labelSelector=app%3Dweb-b`);
    await w.until(2);
    expect(w.events.map((e) => e.type)).to.deep.equal(['ADDED', 'BOOKMARK']);
    expect(s.cluster.clock.now()).to.equal(now);
    w.close();
  });

  it('without allowWatchBookmarks the initial events come without the bookmark (cacher: no bookmark asked)', async () => {
    const w = await openWatch(
      s.base,
      '/api/v1/namespaces/default/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&fieldSelector=metadata.name%3Dweb-a',
    );
    await w.until(1);
    await new Promise((r) => setTimeout(r, 50));
    expect(w.events.map((e) => e.type)).to.deep.equal(['ADDED']);
    w.close();
  });

  it('sendInitialEvents=false starts at the most recent state: no initial events', async () => {
    const w = await openWatch(
      s.base,
      '/api/v1/namespaces/default/pods?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    );
    s.cluster.apiserver.create(USER, 'pods', 'default', podManifest('web-e'));
    s.cluster.settle();
    await w.until(1);
    expect([w.events[0].type, w.events[0].object.metadata.name]).to.deep.equal(['ADDED', 'web-e']);
    w.close();
  });

  it('in protobuf the bookmark is a length-prefixed WatchEvent too, its object a Pod with only the resourceVersion and the annotation', async () => {
    const frames: Buffer[] = [];
    let buffered = Buffer.alloc(0);
    const req = http.get(
      `${s.base}${STREAMING_LIST}&fieldSelector=metadata.name%3Dweb-a`,
      { headers: { Accept: 'application/vnd.kubernetes.protobuf;stream=watch, application/json' } },
      (res) =>
        res.on('data', (chunk: Buffer) => {
          buffered = Buffer.concat([buffered, chunk]);
          while (buffered.length >= 4 && buffered.length >= 4 + buffered.readUInt32BE(0)) {
            frames.push(buffered.subarray(4, 4 + buffered.readUInt32BE(0)));
            buffered = buffered.subarray(4 + buffered.readUInt32BE(0));
          }
        }),
    );
    for (let i = 0; i < 200 && frames.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    req.destroy();
    const watchEvent = messageFor('v1', 'WatchEvent')!;
    const events = frames.map(
      (f) => watchEvent.toObject(watchEvent.decode(f)) as { type: string; object: { raw: Uint8Array } },
    );
    const bodies = events.map(
      (e) => decodeProtobufBody(Buffer.from(e.object.raw)) as { metadata: Record<string, unknown> },
    );
    expect(events.map((e) => e.type)).to.deep.equal(['ADDED', 'BOOKMARK']);
    expect(bodies[0].metadata.name).to.equal('web-a');
    expect(bodies[1].metadata).to.deep.include({
      resourceVersion: String(s.cluster.apiserver.etcd.currentRevision),
      annotations: { 'k8s.io/initial-events-end': 'true' },
    });
  });

  it('a compacted resourceVersion is no 410: NotOlderThan is a lower bound, and the current state meets it', async () => {
    s.cluster.advance(11 * 60_000);
    const w = await openWatch(s.base, `${STREAMING_LIST}&resourceVersion=1&fieldSelector=metadata.name%3Dweb-a`);
    await w.until(2);
    expect(w.events.map((e) => e.type)).to.deep.equal(['ADDED', 'BOOKMARK']);
    w.close();
  });

  it('refuses the combinations validateWatchOptions refuses, all causes in one 422', async () => {
    const noMatch = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?watch=true&sendInitialEvents=true');
    expect(noMatch.status).to.equal(422);
    expect(noMatch.json.message).to.equal(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
    const exact = await request(s.base, 'GET', '/api/v1/namespaces/default/pods?watch=true&resourceVersionMatch=Exact');
    expect(exact.status).to.equal(422);
    expect(exact.json.message).to.equal(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    );
    const bad = await request(
      s.base,
      'GET',
      '/api/v1/namespaces/default/pods?watch=true&sendInitialEvents=yes&resourceVersionMatch=NotOlderThan',
    );
    expect(bad.status).to.equal(400);
  });
});

describe('HTTP API: streaming lists by release (WatchList gate, V68)', () => {
  for (const [minor, on] of [
    [31, false],
    [32, true],
    [33, false],
    [34, true],
    [36, true],
  ] as const) {
    it(`1.${minor}: ${on ? 'served' : 'refused with 422'}`, async () => {
      const s = await startServer(['web'], {}, { release: Release.of(minor) });
      try {
        if (on) {
          const w = await openWatch(s.base, STREAMING_LIST);
          await w.until(2);
          expect(w.events.map((e) => e.type)).to.deep.equal(['ADDED', 'BOOKMARK']);
          w.close();
        } else {
          const r = await request(s.base, 'GET', STREAMING_LIST);
          expect(r.status).to.equal(422);
          expect(r.json.message).to.equal(GATE_OFF);
        }
      } finally {
        await s.close();
      }
    });
  }

  it('--feature-gates WatchList=false at 1.36 refuses it as 1.33 does', async () => {
    const s = await startServer(['web'], {}, { release: Release.of(36, { WatchList: false }) });
    try {
      const r = await request(s.base, 'GET', STREAMING_LIST);
      expect(r.status).to.equal(422);
      expect(r.json.message).to.equal(GATE_OFF);
    } finally {
      await s.close();
    }
  });
});
