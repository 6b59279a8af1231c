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

  it("answers as trying every service of the namespace in the order first seen would, while looking only at the services filed under the pod's labels", () => {
    // A reference: GetPodServiceMemberships over every service, in a Map's order (a changed service keeps its place).
    const reference = new Map<string, Record<string, string>>();
    const referenceChanged = (old: Pod | undefined, p: Pod | undefined): string[] =>
      [...reference]
        .filter(
          ([, sel]) =>
            (old !== undefined && selectorMatches(sel, old.metadata.labels)) ||
            (p !== undefined && selectorMatches(sel, p.metadata.labels)),
        )
        .map(([k]) => k);
    const cache = new ServiceSelectorCache(() => []);
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const labelsOf = (): Record<string, string> => {
      const l: Record<string, string> = { app: `a${next(4)}` };
      if (next(2) === 0) l.tier = `t${next(3)}`;
      return l;
    };
    const current = new Map<string, Pod>();
    for (let step = 0; step < 2000; step++) {
      const roll = next(10);
      if (roll === 0) {
        const name = `s${next(8)}`;
        const key = `default/${name}`;
        const kind = next(4);
        if (kind === 0) {
          reference.delete(key);
          cache.serviceChanged(key, undefined);
        } else {
          const selector: Record<string, string> =
            kind === 1 ? {} : kind === 2 ? { app: `a${next(4)}` } : { tier: `t${next(3)}`, app: `a${next(4)}` };
          reference.set(key, selector);
          cache.serviceChanged(key, svc(name, selector));
        }
        continue;
      }
      const name = `p${next(12)}`;
      const key = `default/${name}`;
      const old = current.get(key);
      const p = roll === 1 ? undefined : pod(name, roll === 2 && old ? old.metadata.labels! : labelsOf());
      if (p) current.set(key, p);
      else current.delete(key);
      if (!old && !p) continue;
      expect(cache.podChanged(key, old, p), `step ${step}`).to.deep.equal(referenceChanged(old, p));
    }
  });
});
