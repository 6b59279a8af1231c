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

  it('files what it caches already in an index added after start, refuses a second index of a name, names one that does not exist', () => {
    const { clock, api, factory } = setup();
    const informer = factory.informerFor('pods');
    factory.start();
    api.create(USER, 'pods', 'default', pod('web', { app: 'web' }));
    clock.tick(0);
    informer.addIndexer('app', (p) => (p.metadata.labels?.app ? [p.metadata.labels.app] : []));
    expect(informer.byIndex('app', 'web').map(keyOf)).to.deep.equal(['default/web']);
    expect(() => informer.addIndexer('app', () => [])).to.throw('the pods informer has an index "app" already');
    expect(() => informer.byIndex('nope', 'v')).to.throw('the pods informer has no index "nope"');
  });

  it('runs handlers in rank order whenever they were added; unranked ones last, in the order added', () => {
    const { clock, api, factory } = setup();
    const informer = factory.informerFor('pods');
    factory.start();
    const seen: string[] = [];
    informer.addEventHandler(() => seen.push('unranked'));
    factory.registering(2, () => informer.addEventHandler(() => seen.push('rank 2')));
    factory.registering(0, () => informer.addEventHandler(() => seen.push('rank 0')));
    factory.registering(1, () => informer.addEventHandler(() => seen.push('rank 1')));
    api.create(USER, 'pods', 'default', pod('web'));
    clock.tick(0);
    expect(seen).to.deep.equal(['rank 0', 'rank 1', 'rank 2', 'unranked']);
  });

  it('fires a trigger once, before the cache takes in the first object it matches: a handler added then sees that object once', () => {
    const { clock, api, factory } = setup();
    const informer = factory.informerFor('pods');
    factory.start();
    const seen: string[] = [];
    informer.beforeFirst(
      (p) => p.metadata.labels?.app === 'web',
      () => {
        seen.push(`started, cache ${informer.list().map(keyOf).join(',') || 'empty'}`);
        informer.addEventHandler((key, old) => seen.push(`${key} ${old ? 'update' : 'add'}`));
      },
    );
    api.create(USER, 'pods', 'default', pod('db', { app: 'db' }));
    api.create(USER, 'pods', 'default', pod('web', { app: 'web' }));
    api.create(USER, 'pods', 'default', pod('web-2', { app: 'web' }));
    clock.tick(0);
    expect(seen).to.deep.equal(['started, cache default/db', 'default/db add', 'default/web add', 'default/web-2 add']);
  });

  it("scans one namespace through its namespace index, in the order the cache first saw each object, and visits no other namespace's objects", () => {
    const { clock, api, factory } = setup();
    const informer = factory.informerFor('pods');
    factory.start();
    for (const name of ['c', 'a', 'b']) api.create(USER, 'pods', 'default', pod(name));
    for (let i = 0; i < 50; i++) api.create(USER, 'pods', 'other', pod(`p${i}`));
    clock.tick(0);
    api.delete(USER, 'pods', 'default', 'a', { gracePeriodSeconds: 0 });
    api.create(USER, 'pods', 'default', pod('a'));
    api.patch(USER, 'pods', 'default', 'c', 'merge', { metadata: { labels: { x: 'y' } } });
    clock.tick(0);
    // An update keeps its place; a deleted and re-created key goes last, as in the cache itself.
    expect([...informer.scan('default')].map(keyOf)).to.deep.equal(['default/c', 'default/b', 'default/a']);
    expect([...informer.scan('default')].map((p) => p.metadata.labels?.x)).to.deep.equal(['y', undefined, undefined]);
    expect([...informer.scan('nowhere')]).to.deep.equal([]);
    expect([...informer.scan()].length).to.equal(53);
    // Walking one namespace reads that namespace's objects only (not the 50 of "other").
    let read = 0;
    const cache = (informer as unknown as { cache: Map<string, unknown> }).cache;
    const get = cache.get.bind(cache);
    cache.get = (k: string) => {
      read += 1;
      return get(k);
    };
    const values = cache.values.bind(cache);
    cache.values = () => {
      read += cache.size;
      return values();
    };
    expect([...informer.scan('default')].length).to.equal(3);
    expect(read).to.equal(3);
    for (const name of ['a', 'b', 'c']) api.delete(USER, 'pods', 'default', name, { gracePeriodSeconds: 0 });
    clock.tick(0);
    expect([...informer.scan('default')]).to.deep.equal([]);
  });

  it('splits keys as cache.SplitMetaNamespaceKey does', () => {
    expect(splitKey('default/web')).to.deep.equal({ namespace: 'default', name: 'web' });
    expect(splitKey('node-1')).to.deep.equal({ namespace: undefined, name: 'node-1' });
  });
});
