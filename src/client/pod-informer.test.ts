import { describe, it } from 'node:test';
import { expect } from 'chai';
import { ApiServer } from '../apiserver/apiserver';
import type { Pod } from '../apimachinery/types';
import { Clock } from '../foundation/clock';
import { USER } from '../cluster/cluster';
import { Timeline } from '../foundation/timeline/timeline';
import { SharedInformerFactory } from './informer';
import { podInformer, podsAssignedToNode, type PodInformer } from './pod-informer';

function setup(): { clock: Clock; api: ApiServer; informer: PodInformer; changes: string[] } {
  const clock = new Clock();
  const api = new ApiServer(clock, new Timeline(clock));
  const factory = new SharedInformerFactory(api);
  const informer = podInformer(factory);
  const changes: string[] = [];
  informer.addEventHandler((key, old, pod) =>
    changes.push(`${key} ${old?.spec?.nodeName ?? '-'} → ${pod?.spec?.nodeName ?? '-'}`),
  );
  factory.start();
  return { clock, api, informer, changes };
}

const names = (pods: Pod[]) => pods.map((p) => p.metadata.name);

describe('podInformer (the shared pod informer with the spec.nodeName index)', () => {
  it("keeps each node's pods, in namespace/name order, as the watch delivers them; a handler sees the change after the cache has it", () => {
    const { clock, api, informer, changes } = setup();
    for (const [name, nodeName] of [
      ['web-b', 'n1'],
      ['web-a', 'n1'],
      ['db', 'n2'],
      ['pending', undefined],
    ] as const) {
      api.create(USER, 'pods', 'default', { metadata: { name }, spec: { nodeName, containers: [{ name: 'app' }] } });
    }
    expect(names(podsAssignedToNode(informer, 'n1')), 'nothing before the watch events are delivered').to.deep.equal(
      [],
    );
    clock.tick(0);
    expect(names(podsAssignedToNode(informer, 'n1'))).to.deep.equal(['web-a', 'web-b']);
    expect(names(podsAssignedToNode(informer, 'n2'))).to.deep.equal(['db']);
    expect(informer.get('default/pending')?.metadata.name, 'an unbound pod is cached, in no node').to.equal('pending');
    api.bind(USER, 'default', 'pending', 'n2');
    // A bound pod deleted with grace 0: its deletionTimestamp is written, then the pod removed.
    api.delete(USER, 'pods', 'default', 'web-b', { gracePeriodSeconds: 0 });
    clock.tick(0);
    expect(names(podsAssignedToNode(informer, 'n1'))).to.deep.equal(['web-a']);
    expect(names(podsAssignedToNode(informer, 'n2'))).to.deep.equal(['db', 'pending']);
    expect(informer.get('default/web-b')).to.equal(undefined);
    expect(changes).to.deep.equal([
      'default/web-b - → n1',
      'default/web-a - → n1',
      'default/db - → n2',
      'default/pending - → -',
      'default/pending - → n2',
      'default/web-b n1 → n1',
      'default/web-b n1 → -',
    ]);
  });
});
