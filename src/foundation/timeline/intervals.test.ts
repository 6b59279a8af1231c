import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Component, TimelineEvent } from './event';
import { findIntervals } from './intervals';

const T0 = Date.UTC(2025, 0, 1, 0, 1);
function timeline(...rows: Array<[number, Component, string, Partial<TimelineEvent>?]>): TimelineEvent[] {
  return rows.map(([s, component, text, extra], i) => ({
    seq: i + 1,
    at: T0 + s * 1000,
    component,
    text,
    source: 'x.go F',
    ...extra,
  }));
}
const stamp = (t: string) => [{ op: 'add' as const, path: '/metadata/deletionTimestamp', value: t }];

describe('findIntervals', () => {
  it('draws the grace period from the request that stamped deletionTimestamp to that moment, or to the removal when it comes first', () => {
    const events = timeline(
      [0, 'apiserver', 'DELETE pods/web', { requestId: 1 }],
      [0, 'etcd', 'PUT /registry/pods/default/web rev=5', { patch: stamp('2025-01-01T00:01:30Z') }],
      [0, 'apiserver', 'DELETE pods/api', { requestId: 2 }],
      [0, 'etcd', 'PUT /registry/pods/default/api rev=6', { patch: stamp('2025-01-01T00:01:30Z') }],
      [2, 'etcd', 'DELETE /registry/pods/default/api rev=7'],
    );
    expect(findIntervals(events, T0)).to.deep.equal([
      { kind: 'grace', startSeq: 1, endAt: T0 + 30_000, label: 'grace period of pods/web: deletionTimestamp T+30s' },
      { kind: 'grace', startSeq: 3, endSeq: 5, label: 'grace period of pods/api: deletionTimestamp T+30s' },
    ]);
  });
  it('draws no grace period for a deadline already reached (a forced delete)', () => {
    expect(
      findIntervals(
        timeline([0, 'etcd', 'PUT /registry/pods/default/web rev=5', { patch: stamp('2025-01-01T00:01:00Z') }]),
        T0,
      ),
    ).to.deep.equal([]);
  });
  it("draws a preStop hook to its container's SIGTERM, a partition to the reconnection, a back-off to its retry", () => {
    const events = timeline(
      [0, 'runtime', 'preStop app pods/web'],
      [0, 'kubelet', 'node node-1 cannot reach the apiserver'],
      [5, 'runtime', 'SIGTERM app pods/web'],
      [6, 'volumes', 'unmount failed data pods/web: retry in 2s'],
      [9, 'kubelet', 'node node-1 reaches the apiserver again'],
      [10, 'runtime', 'preStop side pods/web'],
    );
    expect(findIntervals(events, T0)).to.deep.equal([
      { kind: 'prestop', startSeq: 1, endSeq: 3, label: 'preStop hook of app pods/web' },
      { kind: 'unreachable', startSeq: 2, endSeq: 5, label: 'node node-1 cannot reach the apiserver' },
      { kind: 'backoff', startSeq: 4, endAt: T0 + 8000, label: 'back-off 2s: unmount failed data pods/web' },
      { kind: 'prestop', startSeq: 6, endSeq: undefined, label: 'preStop hook of side pods/web' },
    ]);
  });
});
