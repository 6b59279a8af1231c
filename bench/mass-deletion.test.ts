import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Cluster, USER } from '../src/cluster';
import { massDeletion } from './mass-deletion';

describe('scale mode (record: summary)', () => {
  it('ends a mass deletion in the same etcd contents as full recording, with the same number of events', () => {
    const full = massDeletion(120, 3, 'full');
    const summary = massDeletion(120, 3, 'summary');
    expect(summary.finalState).to.equal(full.finalState);
    expect(summary.events).to.equal(full.events);
    expect(summary.virtualMs).to.equal(full.virtualMs);
  });

  it('keeps counts instead of events, and only the last request record', () => {
    const c = new Cluster({ record: 'summary' });
    c.addNode('n1');
    c.apiserver.create(USER, 'pods', 'default', { metadata: { name: 'web' }, spec: { nodeName: 'n1', containers: [{ name: 'app' }] } });
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
