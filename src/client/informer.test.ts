import { describe, it } from 'node:test';
import { expect } from 'chai';
import { ApiServer } from '../apiserver/apiserver';
import { Clock } from '../foundation/clock';
import { USER } from '../cluster/cluster';
import { Timeline } from '../foundation/timeline/timeline';
import { keyOf, SharedInformerFactory, splitKey } from './informer';

function setup() {
  const clock = new Clock();
  const api = new ApiServer(clock, new Timeline(clock));
  return { clock, api, factory: new SharedInformerFactory(api) };
}

const pod = (name: string, labels: Record<string, string> = {}) => ({
  metadata: { name, labels },
  spec: { containers: [{ name: 'app' }] },
});

describe('SharedInformer (client-go tools/cache shared_informer.go)', () => {
  it('lists what exists at start as additions, then follows the watch; handlers run after the cache and indexes changed', () => {
    const { clock, api, factory } = setup();
    api.create(USER, 'pods', 'default', pod('b', { app: 'web' }));
    const informer = factory.informerFor('pods');
    informer.addIndexer('app', (p) => (p.metadata.labels?.app ? [p.metadata.labels.app] : []));
    const seen: string[] = [];
    informer.addEventHandler((key, old, obj) =>
      seen.push(
        `${key} ${old ? 'old' : '-'} ${obj ? 'new' : '-'} ${informer.byIndex('app', 'web').map(keyOf).join(',')}`,
      ),
    );
    factory.start();
    api.create(USER, 'pods', 'default', pod('a', { app: 'web' }));
    api.create(USER, 'pods', 'other', pod('c', { app: 'db' }));
    clock.tick(0);
    api.delete(USER, 'pods', 'default', 'b', { gracePeriodSeconds: 0 });
    clock.tick(0);
    expect(seen).to.deep.equal([
      'default/b - new default/b',
      'default/a - new default/a,default/b',
      'other/c - new default/a,default/b',
      'default/b old new default/a,default/b',
      'default/b old - default/a',
    ]);
    expect(informer.list().map(keyOf)).to.deep.equal(['default/a', 'other/c']);
    expect(informer.list('other').map(keyOf)).to.deep.equal(['other/c']);
    expect(informer.byIndex('app', 'db').map(keyOf)).to.deep.equal(['other/c']);
  });

  it('is shared: one informer (one watch) per resource, and a late handler gets the cache replayed as additions', () => {
    const { clock, api, factory } = setup();
    expect(factory.informerFor('pods')).to.equal(factory.informerFor('pods'));
    factory.start();
    api.create(USER, 'pods', 'default', pod('web'));
    clock.tick(0);
    const late: string[] = [];
    factory.informerFor('pods').addEventHandler((key, old) => late.push(`${key} ${old ? 'update' : 'add'}`));
    expect(late).to.deep.equal(['default/web add']);
    expect(factory.informerFor('nodes').list(), 'an informer asked for after start lists at once').to.deep.equal([]);
  });

  it('refuses an indexer added after start, and names an index that does not exist', () => {
    const { factory } = setup();
    const informer = factory.informerFor('pods');
    factory.start();
    expect(() => informer.addIndexer('x', () => [])).to.throw(
      'indexer "x" added to the pods informer after it started',
    );
    expect(() => informer.byIndex('nope', 'v')).to.throw('the pods informer has no index "nope"');
  });

  it('splits keys as cache.SplitMetaNamespaceKey does', () => {
    expect(splitKey('default/web')).to.deep.equal({ namespace: 'default', name: 'web' });
    expect(splitKey('node-1')).to.deep.equal({ namespace: undefined, name: 'node-1' });
  });
});
