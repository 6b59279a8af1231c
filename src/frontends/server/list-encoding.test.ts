import * as http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import type { KubeObject } from '../../apimachinery/object';
import { USER } from '../../cluster/cluster';
import { encodedItem, encodedObject } from './caching-object';
import { CHUNK_BYTES } from './list-encoding';
import { encodeProtobuf } from './protobuf';
import { toTable } from './table';
import { findResource, groupVersionString, SERVED_RESOURCES, type ServedResource } from '../../apiserver/resources';
import { KUBECTL_UA, podManifest, request, startServer, type TestServer } from './testing';

const PODS = findResource('', 'v1', 'pods')!;
const EVENTS_V1 = findResource('events.k8s.io', 'v1', 'events')!;

/** What the list handler answered before items were encoded one by one: JSON.stringify of the whole list. */
function stringifiedList(s: TestServer, r: ServedResource, query: Record<string, string> = {}): string {
  const page = s.cluster.apiserver.listPage(r.storage, 'default', query);
  if (!page.ok) throw new Error(page.status.message);
  const { items, resourceVersion, continue: next, remainingItemCount } = page.object;
  const metadata: Record<string, unknown> = { resourceVersion };
  if (next !== undefined) metadata.continue = next;
  if (remainingItemCount !== undefined) metadata.remainingItemCount = remainingItemCount;
  const served = (o: KubeObject) => ({
    ...(r.toServed ? r.toServed(o) : o),
    apiVersion: groupVersionString(r.group, r.version),
    kind: r.kind,
  });
  const item = (o: KubeObject) => {
    const { apiVersion: _a, kind: _k, ...rest } = served(o);
    return rest;
  };
  return JSON.stringify({
    kind: `${r.kind}List`,
    apiVersion: groupVersionString(r.group, r.version),
    metadata,
    items: (items as KubeObject[]).map(item),
  });
}

/** The first line of a watch stream, as raw text. */
function firstWatchLine(base: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { headers: { 'User-Agent': KUBECTL_UA } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
        const nl = text.indexOf('\n');
        if (nl < 0) return;
        resolve(text.slice(0, nl + 1));
        req.destroy();
      });
    });
    req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
  });
}

const UNICODE = 'naïve – 日本語 ✓ 😀 "quoted" \\ back\u2028slash\u0001';

function createEvent(s: TestServer, name: string): void {
  const r = s.cluster.apiserver.create(USER, 'events', 'default', {
    metadata: { name },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' },
    reason: 'Tested',
    message: UNICODE,
    type: 'Normal',
    source: { component: 'test' },
  } as never);
  if (!r.ok) throw new Error(r.status.message);
}

describe('LIST bodies from cached per-object encodings, byte for byte JSON.stringify of the list', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer(['db', 'web']);
    const uni = podManifest('uni', { app: 'uni' });
    uni.metadata.annotations = { note: UNICODE };
    s.cluster.apiserver.create(USER, 'pods', 'default', uni);
    // One item larger than a whole write chunk.
    const big = podManifest('big', { app: 'big' });
    big.metadata.annotations = { blob: 'x'.repeat(CHUNK_BYTES + 100) };
    s.cluster.apiserver.create(USER, 'pods', 'default', big);
    // Enough items to span several chunks.
    createEvent(s, 'web.1');
    for (let i = 0; i < 150; i++)
      s.cluster.apiserver.create(
        USER,
        'pods',
        'default',
        podManifest(`many-${String(i).padStart(3, '0')}`, { app: 'many' }),
      );
    s.cluster.advance(1_000);
  });
  after(() => s.close());

  const get = (path: string) => request(s.base, 'GET', path);

  it('the whole list, with a unicode pod, an item over a chunk and several chunks', async () => {
    const r = await get('/api/v1/namespaces/default/pods');
    expect(r.status).to.equal(200);
    expect(r.text).to.equal(stringifiedList(s, PODS));
    expect(r.text.length).to.be.greaterThan(3 * CHUNK_BYTES);
    expect(Number(r.headers['content-length'])).to.equal(Buffer.byteLength(r.text));
    expect(r.json.items.find((p: KubeObject) => p.metadata.name === 'uni').metadata.annotations.note).to.equal(UNICODE);
  });

  it('pages: continue token with remainingItemCount, continue token alone under a selector, and the last page', async () => {
    const first = await get('/api/v1/namespaces/default/pods?limit=2');
    expect(first.text).to.equal(stringifiedList(s, PODS, { limit: '2' }));
    expect(first.json.metadata).to.have.keys('resourceVersion', 'continue', 'remainingItemCount');
    const selected = await get('/api/v1/namespaces/default/pods?limit=2&labelSelector=app%3Dmany');
    expect(selected.text).to.equal(stringifiedList(s, PODS, { limit: '2', labelSelector: 'app=many' }));
    expect(selected.json.metadata).to.have.keys('resourceVersion', 'continue');
    const next = encodeURIComponent(selected.json.metadata.continue);
    const last = await get(`/api/v1/namespaces/default/pods?limit=1000&labelSelector=app%3Dmany&continue=${next}`);
    expect(last.text).to.equal(
      stringifiedList(s, PODS, { limit: '1000', labelSelector: 'app=many', continue: selected.json.metadata.continue }),
    );
    expect(last.json.items).to.have.length(148);
  });

  it('an empty list, one item, and a converted resource (events.k8s.io/v1 over stored core Events)', async () => {
    const none = await get('/api/v1/namespaces/default/pods?labelSelector=app%3Dnone');
    expect(none.text).to.equal(stringifiedList(s, PODS, { labelSelector: 'app=none' }));
    expect(none.json.items).to.deep.equal([]);
    const one = await get('/api/v1/namespaces/default/pods?labelSelector=app%3Duni');
    expect(one.text).to.equal(stringifiedList(s, PODS, { labelSelector: 'app=uni' }));
    const events = await get('/apis/events.k8s.io/v1/namespaces/default/events');
    expect(events.json.items.length).to.be.greaterThan(0);
    expect(events.text).to.equal(stringifiedList(s, EVENTS_V1));
  });

  it("a Table (as kubectl get asks for it): rows with their objects' metadata written from cached encodings, byte for byte toTable, a Completed row included", async () => {
    s.cluster.apiserver.patch(
      USER,
      'pods',
      'default',
      'many-000',
      'merge',
      { status: { phase: 'Succeeded' } },
      { subresource: 'status' },
    );
    const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
    for (const query of ['', '?limit=3', '?includeObject=Metadata']) {
      const r = await request(s.base, 'GET', `/api/v1/namespaces/default/pods${query}`, { headers: { Accept: TABLE } });
      const page = s.cluster.apiserver.listPage('pods', 'default', query === '?limit=3' ? { limit: '3' } : {});
      if (!page.ok) throw new Error(page.status.message);
      const { items, resourceVersion, continue: next, remainingItemCount } = page.object;
      const expected = toTable('pods', items as KubeObject[], {
        now: s.cluster.clock.now(),
        release: s.cluster.apiserver.options.release,
        resourceVersion,
        ...(next ? { continue: next, remainingItemCount } : {}),
      });
      expect(r.text, query).to.equal(JSON.stringify(expected));
      expect(Number(r.headers['content-length'])).to.equal(Buffer.byteLength(r.text));
    }
    const completed = (
      await request(s.base, 'GET', '/api/v1/namespaces/default/pods', { headers: { Accept: TABLE } })
    ).json.rows.find((row: { object: KubeObject }) => row.object.metadata.name === 'many-000');
    expect(completed.conditions).to.deep.equal([
      { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
    ]);
  });

  it('a protobuf list streamed in chunks is byte for byte the encoding of the whole list, with its Content-Length', async () => {
    const PROTOBUF = 'application/vnd.kubernetes.protobuf';
    for (const query of ['', '?limit=3', '?labelSelector=app%3Dnone']) {
      const r = await request(s.base, 'GET', `/api/v1/namespaces/default/pods${query}`, {
        headers: { Accept: `${PROTOBUF},application/json` },
      });
      expect(r.status, query).to.equal(200);
      expect(r.headers['content-type'], query).to.equal(PROTOBUF);
      const whole = JSON.parse(
        stringifiedList(
          s,
          PODS,
          query === '?limit=3' ? { limit: '3' } : query === '' ? {} : { labelSelector: 'app=none' },
        ),
      );
      const expected = encodeProtobuf(whole)!;
      if (query === '') expect(r.bytes.length).to.be.greaterThan(3 * CHUNK_BYTES);
      expect(Buffer.compare(r.bytes, expected), query).to.equal(0);
      expect(Number(r.headers['content-length'])).to.equal(r.bytes.length);
    }
  });

  it('a watch event carries the same bytes as JSON.stringify of the event', async () => {
    const line = await firstWatchLine(
      s.base,
      '/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Duni',
    );
    const stored = s.cluster.apiserver.get('pods', 'default', 'uni');
    if (!stored.ok) throw new Error('uni is gone');
    expect(line).to.equal(
      `${JSON.stringify({ type: 'ADDED', object: { ...stored.object, apiVersion: 'v1', kind: 'Pod' } })}\n`,
    );
  });

  it('a client that goes away mid-body leaves the server serving', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${s.base}/api/v1/namespaces/default/pods`, (res) => res.once('data', () => req.destroy()));
      req.on('close', resolve);
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(e)));
    });
    const r = await get('/api/v1/namespaces/default/pods?labelSelector=app%3Duni');
    expect(r.json.items).to.have.length(1);
  });
});

describe('cachingObject: one encoding per stored version and served form', () => {
  it('reuses the encoding of a version, encodes the next version anew, keeps served forms apart', async () => {
    const s = await startServer(['web']);
    try {
      const v1 = s.cluster.apiserver.get('pods', 'default', 'web');
      if (!v1.ok) throw new Error('no pod');
      const pod = v1.object as KubeObject;
      expect(encodedItem(PODS, pod)).to.equal(encodedItem(PODS, pod));
      expect(encodedObject(PODS, pod)).to.equal(encodedObject(PODS, pod));
      expect(encodedObject(PODS, pod).toString()).to.equal(JSON.stringify({ ...pod, apiVersion: 'v1', kind: 'Pod' }));
      const updated = s.cluster.apiserver.update(USER, 'pods', 'default', {
        ...v1.object,
        metadata: { ...v1.object.metadata, labels: { app: 'changed' } },
      });
      if (!updated.ok) throw new Error(updated.status.message);
      expect(encodedItem(PODS, updated.object as KubeObject).toString()).to.include('"app":"changed"');
      expect(encodedItem(PODS, pod).toString()).to.include('"app":"web"');
      createEvent(s, 'web.1');
      const stored = s.cluster.apiserver.get('events', 'default', 'web.1');
      if (!stored.ok) throw new Error(stored.status.message);
      const event = stored.object as KubeObject;
      const core = SERVED_RESOURCES.find((r) => r.storage === 'events' && r.group === '')!;
      expect(encodedObject(core, event).toString()).to.include('"involvedObject"');
      expect(encodedObject(EVENTS_V1, event).toString()).to.include('"regarding"');
    } finally {
      await s.close();
    }
  });

  it('does not keep the encoding of an object that is not frozen (it could change)', () => {
    const loose = podManifest('loose') as KubeObject;
    const first = encodedItem(PODS, loose);
    loose.metadata.labels = { app: 'moved' };
    expect(encodedItem(PODS, loose)).to.not.equal(first);
    expect(encodedItem(PODS, loose).toString()).to.include('"app":"moved"');
  });
});
