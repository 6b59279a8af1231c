import { describe, it } from 'node:test';
import { expect } from 'chai';
import { causes, requestsOf } from './causality';
import type { Component, TimelineEvent } from './event';

function timeline(...rows: Array<[Component, string, Partial<TimelineEvent>?]>): TimelineEvent[] {
  return rows.map(([component, text, extra], i) => ({
    seq: i + 1,
    at: 0,
    component,
    text,
    source: 'x.go F',
    ...extra,
  }));
}

/** The graceful flow as the simulation records it (texts from a real run). */
const graceful = timeline(
  ['kubectl', 'delete pod web', { actor: 'kubectl' }], // 1
  ['apiserver', 'DELETE pods/web propagationPolicy=Background', { actor: 'kubectl', requestId: 7 }], // 2
  ['etcd', 'PUT /registry/pods/default/web rev=12'], // 3
  ['watch', 'MODIFIED pods/web rv=12'], // 4
  ['kubelet', 'DELETE pods/web', { actor: 'node-1' }], // 5
  ['kubelet', 'SyncTerminatingPod pods/web gracePeriod=30', { actor: 'node-1' }], // 6
  ['runtime', 'SIGTERM app pods/web', { actor: 'node-1' }], // 7
  ['runtime', 'exited app code=143 pods/web', { actor: 'node-1' }], // 8
  ['apiserver', 'PATCH pods/web/status', { actor: 'kubelet/node-1', requestId: 8 }], // 9
  ['etcd', 'PUT /registry/pods/default/web rev=14'], // 10
  ['watch', 'MODIFIED pods/web rv=14'], // 11
  ['status', 'DELETE pods/web gracePeriodSeconds=0 preconditions.uid=u', { actor: 'node-1' }], // 12
  ['apiserver', 'DELETE pods/web gracePeriodSeconds=0 preconditions.uid=u', { actor: 'kubelet/node-1', requestId: 9 }], // 13
  ['etcd', 'PUT /registry/pods/default/web rev=16'], // 14
  ['watch', 'MODIFIED pods/web rv=16'], // 15
  ['etcd', 'DELETE /registry/pods/default/web rev=17'], // 16
  ['watch', 'DELETED pods/web rv=17'], // 17
  ['kubelet', 'pod worker finished pods/web', { actor: 'node-1' }], // 18
  ['kubelet', 'REMOVE pods/web', { actor: 'node-1' }], // 19
  ['gc', 'delete pods/web: owner is gone'], // 20
  ['apiserver', 'DELETE pods/other', { actor: 'garbage-collector', requestId: 10 }], // 21
);

describe('causes', () => {
  const c = causes(graceful);
  it("draws each request from its client, the status manager for a kubelet's status writes and DELETEs", () => {
    expect(c.get(2)).to.deep.equal({ from: 'kubectl' });
    expect(c.get(9)).to.deep.equal({ from: 'status' });
    expect(c.get(13)).to.deep.equal({ from: 'status' });
    expect(c.get(21)).to.deep.equal({ from: 'gc' });
  });
  it('links a write to its request, a watch event to the write of its revision, a pod update to the watch', () => {
    expect(c.get(3)).to.deep.equal({ from: 'apiserver', by: 2 });
    expect(c.get(16)).to.deep.equal({ from: 'apiserver', by: 13 });
    expect(c.get(4)).to.deep.equal({ from: 'etcd', by: 3 });
    expect(c.get(17)).to.deep.equal({ from: 'etcd', by: 16 });
    expect(c.get(5)).to.deep.equal({ from: 'watch', by: 4 });
    expect(c.get(19)).to.deep.equal({ from: 'watch', by: 17 });
  });
  it('draws a CRI call from the kubelet, and leaves what a component did on its own without a sender', () => {
    expect(c.get(7)).to.deep.equal({ from: 'kubelet' });
    for (const own of [1, 6, 8, 12, 18, 20]) expect(c.get(own), `#${own}`).to.equal(undefined);
  });
  it('does not invent a watch for a pod update no watch event delivered', () => {
    expect(causes(timeline(['kubelet', 'ADD pods/web', { actor: 'node-1' }])).get(1)).to.equal(undefined);
  });
});

describe('requestsOf', () => {
  it('folds the etcd writes and watch events right after a request, at the same instant, into it', () => {
    const r = requestsOf(graceful);
    expect([...r.entries()]).to.deep.equal([
      [3, 2],
      [4, 2],
      [10, 9],
      [11, 9],
      [14, 13],
      [15, 13],
      [16, 13],
      [17, 13],
    ]);
  });
  it('leaves a write alone when another event or another instant came in between', () => {
    const later = timeline(
      ['apiserver', 'DELETE pods/web', { requestId: 1 }],
      ['etcd', 'PUT x rev=2', { at: 1000 }],
      ['kubelet', 'x'],
      ['etcd', 'PUT y rev=3'],
    );
    expect(requestsOf(later).size).to.equal(0);
  });
});
