import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { expect } from 'chai';
import { request, startServer, type TestServer } from './testing';

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('hex').toUpperCase();

describe('R322 the OpenAPI documents are cached as kube-openapi lets clients cache them', () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  it('R322 the root has an ETag, the SHA-512 of its bytes, and an If-None-Match naming it is a 304', async () => {
    const root = await request(s.base, 'GET', '/openapi/v3');
    expect(root.status).to.equal(200);
    expect(root.headers.etag).to.equal(`"${sha512(root.bytes)}"`);
    expect(root.headers['cache-control']).to.equal(undefined);
    expect(root.headers.vary).to.equal(undefined);
    const again = await request(s.base, 'GET', '/openapi/v3', { headers: { 'If-None-Match': root.headers.etag! } });
    expect(again.status).to.equal(304);
    expect(again.bytes.length).to.equal(0);
    expect(again.headers.etag).to.equal(root.headers.etag);
    const other = await request(s.base, 'GET', '/openapi/v3', { headers: { 'If-None-Match': '"0123"' } });
    expect(other.status).to.equal(200);
    expect(other.bytes.equals(root.bytes)).to.equal(true);
  });

  it('R322 a group/version by its hashed URL is immutable for a year; its hash is its ETag; a stale hash is a 301', async () => {
    const root = await request(s.base, 'GET', '/openapi/v3');
    const url: string = root.json.paths['apis/apps/v1'].serverRelativeURL;
    const hash = url.split('hash=')[1];
    const doc = await request(s.base, 'GET', url);
    expect(doc.status).to.equal(200);
    expect(doc.headers['content-type']).to.equal('application/json');
    expect(hash).to.equal(sha512(doc.bytes));
    expect(doc.headers).to.include({ etag: `"${hash}"`, vary: 'Accept', 'cache-control': 'public, immutable' });
    const lifetime = Date.parse(doc.headers.expires!) - Date.parse(doc.headers.date!);
    expect(lifetime).to.be.within(365 * 86_400_000, 366 * 86_400_000);
    const revalidated = await request(s.base, 'GET', url, { headers: { 'If-None-Match': `W/"${hash}"` } });
    expect(revalidated.status).to.equal(304);
    expect(revalidated.headers).to.include({ 'cache-control': 'public, immutable', vary: 'Accept' });
    // Without the hash: the same document and ETag, but nothing says it may be kept.
    const plain = await request(s.base, 'GET', '/openapi/v3/apis/apps/v1');
    expect(plain.bytes.equals(doc.bytes)).to.equal(true);
    expect(plain.headers).to.include({ etag: `"${hash}"`, vary: 'Accept' });
    expect(plain.headers['cache-control']).to.equal(undefined);
    expect(plain.headers.expires).to.equal(undefined);
    const stale = await request(s.base, 'GET', '/openapi/v3/apis/apps/v1?hash=0123');
    expect(stale.status).to.equal(301);
    expect(stale.headers.location).to.equal(url);
  });

  it('R322 /openapi/v2 has one ETag for JSON and protobuf, Vary: Accept, and answers If-None-Match with a 304', async () => {
    const json = await request(s.base, 'GET', '/openapi/v2', { headers: { Accept: 'application/json' } });
    expect(json.headers.etag).to.equal(`"${sha512(json.bytes)}"`);
    expect(json.headers.vary).to.equal('Accept');
    const proto = await request(s.base, 'GET', '/openapi/v2', { headers: { Accept: PROTOBUF } });
    expect(proto.headers['content-type']).to.equal('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(proto.headers.etag).to.equal(json.headers.etag);
    const cached = await request(s.base, 'GET', '/openapi/v2', {
      headers: { Accept: PROTOBUF, 'If-None-Match': json.headers.etag! },
    });
    expect(cached.status).to.equal(304);
    expect(cached.bytes.length).to.equal(0);
  });
});
