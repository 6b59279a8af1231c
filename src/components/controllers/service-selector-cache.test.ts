/**
 * N7 — the ServiceSelectorCache (staging/src/k8s.io/endpointslice/util/controller_utils.go
 * ServiceSelectorCache, GetPodServiceMemberships): which pods each service selects, kept from the
 * informers' events.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod, Service } from '../../apimachinery/types';
import { selectorMatches, ServiceSelectorCache } from './service-selector-cache';

const pod = (name: string, labels: Record<string, string>, namespace = 'default'): Pod => ({
  metadata: { name, namespace, labels },
});
const svc = (name: string, selector?: Record<string, string>): Service => ({
  metadata: { name, namespace: 'default' },
  spec: selector ? { selector } : {},
});

describe('N7 ServiceSelectorCache', () => {
  it('labels.SelectorFromSet: every pair must be a label of the pod; an empty selector selects every pod', () => {
    expect(selectorMatches({ app: 'web' }, { app: 'web', tier: 'a' })).to.equal(true);
    expect(selectorMatches({ app: 'web', tier: 'b' }, { app: 'web', tier: 'a' })).to.equal(false);
    expect(selectorMatches({}, undefined)).to.equal(true);
  });

  it("a service gets its members from the namespace's pods; a pod change names the services it leaves or joins; no service: nothing to do", () => {
    const pods = [pod('a', { app: 'web' }), pod('b', { app: 'api' })];
    const cache = new ServiceSelectorCache(() => pods);
    expect(cache.podChanged('default/a', undefined, pods[0])).to.deep.equal([]);
    cache.serviceChanged('default/web', svc('web', { app: 'web' }));
    cache.serviceChanged('default/all', svc('all'));
    expect(cache.podsOf('default/web').map((p) => p.metadata.name)).to.deep.equal(['a']);
    expect(cache.podsOf('default/all')).to.deep.equal([]);
    const relabelled = pod('b', { app: 'web' });
    expect(cache.podChanged('default/b', pods[1], relabelled)).to.deep.equal(['default/web']);
    expect(cache.podsOf('default/web').map((p) => p.metadata.name)).to.deep.equal(['a', 'b']);
    expect(cache.podChanged('default/a', pods[0], undefined)).to.deep.equal(['default/web']);
    expect(cache.podsOf('default/web').map((p) => p.metadata.name)).to.deep.equal(['b']);
    expect(cache.podChanged('other/c', undefined, pod('c', { app: 'web' }, 'other'))).to.deep.equal([]);
    cache.serviceChanged('default/web', undefined);
    expect(cache.podsOf('default/web')).to.deep.equal([]);
  });
});
