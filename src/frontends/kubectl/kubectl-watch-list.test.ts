import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../../cluster/cluster';
import { Release } from '../../foundation/release';
import { podManifest } from '../server/testing';
import { runKubectl } from './kubectl';

/**
 * V73 — the wait of the built-in `kubectl delete` by release: kubectl v1.35+ (client-go's
 * WatchListClient on) asks for a streaming list, which a server with WatchList on serves and one
 * with it off (v1.33) refuses with 422, after which kubectl lists and watches; kubectl up to v1.34
 * lists and watches from the start. The real kubectl's requests are the same
 * (kubectl.differential.test.ts); this file needs no binary.
 */
function cluster(server: number): Cluster {
  const c = new Cluster({ release: Release.of(server) });
  c.addNode('node-1');
  c.apiserver.create(USER, 'pods', 'default', podManifest('web'));
  c.advance(60_000);
  return c;
}

/** The wait's requests after the DELETE and the GET, as `verb query`. */
function waitRequests(kubectl: number, server: number): string[] {
  const result = runKubectl(cluster(server), 'kubectl delete pod web', { release: Release.of(kubectl) });
  expect(result.exitCode, result.stderr).to.equal(0);
  expect(result.stdout).to.equal('pod "web" deleted from default namespace');
  expect(result.requests.slice(0, 2).map((r) => r.method)).to.deep.equal(['DELETE', 'GET']);
  return result.requests.slice(2).map((r) => `${r.method} ${r.path}?${r.query}`);
}

const STREAMING =
  'GET /api/v1/namespaces/default/pods?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dweb&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true';
const LIST =
  /^GET \/api\/v1\/namespaces\/default\/pods\?fieldSelector=metadata.name%3Dweb&limit=500&resourceVersion=0$/;
const WATCH =
  /^GET \/api\/v1\/namespaces\/default\/pods\?allowWatchBookmarks=true&fieldSelector=metadata.name%3Dweb&resourceVersion=\d+&watch=true$/;

describe('the built-in kubectl waits on a streaming list from v1.35 (V73)', () => {
  it('kubectl v1.36 against a v1.36 server: the streaming list alone, no LIST', () => {
    expect(waitRequests(36, 36)).to.deep.equal([STREAMING]);
  });

  it('kubectl v1.35 against a v1.34 server: the streaming list alone', () => {
    expect(waitRequests(35, 34)).to.deep.equal([STREAMING]);
  });

  it('kubectl v1.36 against a v1.33 server (WatchList off): refused, then LIST and WATCH', () => {
    const requests = waitRequests(36, 33);
    expect(requests).to.have.length(3);
    expect(requests[0]).to.equal(STREAMING);
    expect(requests[1]).to.match(LIST);
    expect(requests[2]).to.match(WATCH);
  });

  it('kubectl v1.34 (WatchListClient off) against a v1.34 server: LIST and WATCH', () => {
    const requests = waitRequests(34, 34);
    expect(requests).to.have.length(2);
    expect(requests[0]).to.match(LIST);
    expect(requests[1]).to.match(WATCH);
  });

  it('the server refuses the streaming list where its WatchList gate is turned off', () => {
    const requests = waitRequests(36, 36);
    expect(requests).to.deep.equal([STREAMING]);
    const off = new Cluster({ release: Release.of(36, { WatchList: false }) });
    off.addNode('node-1');
    off.apiserver.create(USER, 'pods', 'default', podManifest('web'));
    off.advance(60_000);
    const result = runKubectl(off, 'kubectl delete pod web', { release: Release.of(36) });
    expect(result.exitCode).to.equal(0);
    expect(result.requests.slice(2).map((r) => r.query.includes('sendInitialEvents'))).to.deep.equal([
      true,
      false,
      false,
    ]);
  });
});
