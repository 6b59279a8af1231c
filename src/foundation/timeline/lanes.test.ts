import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Component, TimelineEvent } from './event';
import { diagramLanes, podOf } from './lanes';

const ev = (seq: number, component: Component, text: string, extra: Partial<TimelineEvent> = {}): TimelineEvent => ({
  seq,
  at: 0,
  component,
  text,
  source: 'x.go F',
  ...extra,
});

describe('diagramLanes', () => {
  it('reads the pod an event is about from its text', () => {
    expect([
      podOf('SIGTERM app pods/web-1'),
      podOf('DELETE /registry/pods/default/web'),
      podOf('kubelet started on node node-1'),
    ]).to.deep.equal(['web-1', undefined, undefined]);
  });
  it('gives each component one lane while one pod takes part', () => {
    const { lanes } = diagramLanes([
      ev(1, 'apiserver', 'DELETE pods/web', { requestId: 1 }),
      ev(2, 'runtime', 'SIGTERM app pods/web'),
    ]);
    expect(lanes).to.deep.equal([{ component: 'apiserver' }, { component: 'runtime' }]);
  });
  it('splits a component acting on one pod at a time into a lane per pod, but not the apiserver and its echoes, nor a component named only by a sender', () => {
    const events = [
      ev(1, 'apiserver', 'DELETE pods/web', { requestId: 1 }),
      ev(2, 'etcd', 'PUT /registry/pods/default/web rev=3'),
      ev(3, 'apiserver', 'DELETE pods/api', { requestId: 2 }),
      ev(4, 'etcd', 'PUT /registry/pods/default/api rev=4'),
      ev(5, 'kubelet', 'kubelet started on node node-1'),
      ev(6, 'kubelet', 'DELETE pods/web'),
      ev(7, 'kubelet', 'DELETE pods/api'),
      ev(8, 'runtime', 'SIGTERM app pods/web'),
      ev(9, 'runtime', 'SIGTERM app pods/api'),
    ];
    const { lanes, laneOf, laneOfComponent } = diagramLanes(events, ['kubectl']);
    expect(lanes).to.deep.equal([
      { component: 'kubectl' },
      { component: 'apiserver' },
      { component: 'etcd' },
      { component: 'kubelet' },
      { component: 'kubelet', pod: 'api' },
      { component: 'kubelet', pod: 'web' },
      { component: 'runtime', pod: 'api' },
      { component: 'runtime', pod: 'web' },
    ]);
    expect([laneOf(events[5]!), laneOf(events[4]!), laneOf(events[7]!), laneOfComponent('runtime')]).to.deep.equal([
      5, 3, 7, 6,
    ]);
  });
});
