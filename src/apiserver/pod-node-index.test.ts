import { describe, it } from 'node:test';
import { expect } from 'chai';
import { Clock } from '../foundation/clock';
import { Timeline } from '../foundation/timeline/timeline';
import { Etcd } from './etcd';
import { readListPage } from './list-page';
import { PodNodeIndex } from './pod-node-index';

function pod(namespace: string, name: string, nodeName?: string): Record<string, unknown> {
  return { metadata: { name, namespace }, spec: nodeName === undefined ? {} : { nodeName } };
}

function names(page: { items: unknown[] }): string[] {
  return page.items.map((p) => {
    const m = (p as { metadata: { namespace: string; name: string } }).metadata;
    return `${m.namespace}/${m.name}`;
  });
}

describe('PodNodeIndex (the watch cache index of pods by spec.nodeName)', () => {
  it('a LIST by spec.nodeName answers what the scan of every pod answers, in key order, as pods come, bind and go', () => {
    const clock = new Clock();
    const etcd = new Etcd(new Timeline(clock), () => clock.now());
    // Built before the pods exist, then kept current by etcd's writes; a second one built afterwards reads the store.
    const early = new PodNodeIndex(etcd);
    const key = (ns: string, name: string) => `/registry/pods/${ns}/${name}`;
    for (const [ns, name, node] of [
      ['b', 'p2', 'n1'],
      ['a', 'p9', 'n1'],
      ['a', 'p1', undefined],
      ['a', 'p3', 'n2'],
      ['b', 'p0', 'n1'],
    ] as const) {
      etcd.create(key(ns, name), pod(ns, name, node));
    }
    // Binding: '' → n1; a deletion leaves n1; a pod on another resource's prefix is not a pod.
    etcd.update(key('a', 'p1'), pod('a', 'p1', 'n1'), etcd.get(key('a', 'p1'))!.modRevision);
    etcd.delete(key('b', 'p0'), etcd.get(key('b', 'p0'))!.modRevision);
    etcd.create('/registry/podtemplates/a/t', pod('a', 't', 'n1'));
    const late = new PodNodeIndex(etcd);
    const cases: [string, string][] = [
      ['/registry/pods/', 'spec.nodeName=n1'],
      ['/registry/pods/a/', 'spec.nodeName=n1'],
      ['/registry/pods/', 'spec.nodeName='],
      ['/registry/pods/', 'spec.nodeName=n1,metadata.name!=p9'],
      ['/registry/pods/', 'spec.nodeName=none'],
    ];
    for (const [prefix, fieldSelector] of cases) {
      const scanned = readListPage(etcd, () => 0, 'pods', prefix, { fieldSelector });
      for (const index of [early, late]) {
        const indexed = readListPage(
          etcd,
          () => 0,
          'pods',
          prefix,
          { fieldSelector },
          () => index,
        );
        expect(names(indexed), `${prefix} ${fieldSelector}`).to.deep.equal(names(scanned));
      }
    }
    const all = readListPage(
      etcd,
      () => 0,
      'pods',
      '/registry/pods/',
      { fieldSelector: 'spec.nodeName=n1' },
      () => late,
    );
    expect(names(all)).to.deep.equal(['a/p1', 'a/p9', 'b/p2']);
  });
});
