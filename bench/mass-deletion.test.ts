import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../src/cluster/cluster';
import { massDeletion, parseMassDeletionArgs } from './mass-deletion';

describe('scale mode (record: summary)', () => {
  it('ends a mass deletion in the same etcd contents as full recording, with the same number of events', () => {
    const full = massDeletion(120, 3, 'full');
    const summary = massDeletion(120, 3, 'summary');
    expect(summary.finalState).to.equal(full.finalState);
    expect(summary.events).to.equal(full.events);
    expect(summary.virtualMs).to.equal(full.virtualMs);
  });

  it('says on the way what it has done (the script prints it on standard error)', () => {
    const lines: string[] = [];
    massDeletion(20, 2, 'summary', (line) => lines.push(line));
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(
      /^20 pods created on 2 nodes and running for a virtual minute \(\d+\.\d s\); deleting them all$/,
    );
    expect(lines[1]).to.match(/^every pod gone after 2 virtual s \(\d+\.\d s in all\); hashing the final state$/);
  });

  it('keeps counts instead of events, and only the last request record', () => {
    const c = new Cluster({ record: 'summary' });
    c.addNode('n1');
    c.apiserver.create(USER, 'pods', 'default', {
      metadata: { name: 'web' },
      spec: { nodeName: 'n1', containers: [{ name: 'app' }] },
    });
    c.advance(5_000);
    const del = c.apiserver.delete(USER, 'pods', 'default', 'web', { gracePeriodSeconds: 0 });
    expect(c.timeline.all()).to.deep.equal([]);
    expect(c.timeline.recorded).to.be.greaterThan(10);
    expect(c.timeline.countsByComponent().get('apiserver')).to.be.greaterThan(1);
    expect(c.apiserver.lastRequest?.id).to.equal(del.requestId);
    expect(c.apiserver.request(del.requestId)?.verb).to.equal('DELETE');
    expect(c.apiserver.request(1)).to.equal(undefined);
  });
});

describe('what a run keeps per pod (full recording)', () => {
  /** Pods on two nodes, created, run, deleted gracefully and gone: history entries and request records kept. */
  function kept(pods: number): { history: number; requests: number } {
    const c = new Cluster();
    for (const n of ['n1', 'n2']) c.addNode(n);
    for (let i = 0; i < pods; i++)
      c.apiserver.create(USER, 'pods', 'default', {
        metadata: { name: `p${i}` },
        spec: { nodeName: `n${1 + (i % 2)}`, containers: [{ name: 'app' }] },
      });
    c.advance(60_000);
    for (let i = 0; i < pods; i++) c.apiserver.delete(USER, 'pods', 'default', `p${i}`, {});
    c.advance(60_000);
    expect(c.apiserver.etcd.list('/registry/pods/')).to.deep.equal([]);
    return { history: c.apiserver.etcd.fullHistory().length, requests: c.apiserver.lastRequest!.id };
  }

  it('etcd history and request records grow by the same few entries for every pod, whatever the pod count', () => {
    const small = kept(10);
    const large = kept(40);
    const perPod = { history: (large.history - small.history) / 30, requests: (large.requests - small.requests) / 30 };
    expect(perPod).to.deep.equal(perPodOf(kept(25), small, 15));
    // Today: create, status Running, the stamp, the Killing Event, status Succeeded, the kubelet's
    // grace-0 DELETE (a PUT, then the removal) — 7 revisions from 6 requests.
    expect(perPod.history).to.be.at.most(7);
    expect(perPod.requests).to.be.at.most(7);
  });
});

function perPodOf(
  a: { history: number; requests: number },
  b: { history: number; requests: number },
  pods: number,
): { history: number; requests: number } {
  return { history: (a.history - b.history) / pods, requests: (a.requests - b.requests) / pods };
}

describe('bench/mass-deletion.ts arguments', () => {
  it('reads PODS [NODES] [--record full|summary], with 1 000 pods on 100 nodes and full recording by default', () => {
    expect(parseMassDeletionArgs([])).to.deep.equal({ pods: 1000, nodes: 100, record: 'full' });
    expect(parseMassDeletionArgs(['100000', '1000', '--record', 'summary'])).to.deep.equal({
      pods: 100000,
      nodes: 1000,
      record: 'summary',
    });
    expect(parseMassDeletionArgs(['--record=summary', '50'])).to.deep.equal({
      pods: 50,
      nodes: 100,
      record: 'summary',
    });
  });

  it('names the argument that is wrong, in one line', () => {
    expect(() => parseMassDeletionArgs(['ten'])).to.throw('PODS is a whole number of at least 1, not "ten"');
    expect(() => parseMassDeletionArgs(['10', '0'])).to.throw('NODES is a whole number of at least 1, not "0"');
    expect(() => parseMassDeletionArgs(['10', '2', '3'])).to.throw('expected PODS [NODES], got 3 arguments: 10 2 3');
    expect(() => parseMassDeletionArgs(['10', '--record', 'all'])).to.throw('--record is full or summary, not "all"');
    expect(() => parseMassDeletionArgs(['10', '--nodes', '3'])).to.throw("Unknown option '--nodes'");
  });
});
