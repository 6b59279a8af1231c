import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Component, TimelineEvent } from '../../foundation/timeline/event';
import { POD_ROWS, renderOverview, SERVICE_ROWS, wantsOverview, type OverviewRowSource } from './overview';

const T0 = Date.UTC(2025, 0, 1, 0, 1);

function timeline(...rows: [number, Component, string, Partial<TimelineEvent>?][]): TimelineEvent[] {
  return rows.map(([ms, component, text, extra], i) => ({
    seq: i + 1,
    at: T0 + ms,
    component,
    text,
    source: 'x.go F',
    ...extra,
  }));
}

const put = (
  ms: number,
  pod: string,
  patch?: TimelineEvent['patch'],
): [number, Component, string, Partial<TimelineEvent>?] => [
  ms,
  'etcd',
  `PUT /registry/pods/default/${pod} rev=1`,
  patch ? { patch } : {},
];

const rollout = timeline(
  put(-60_000, 'web-1'),
  put(-60_000, 'web-1', [{ op: 'add', path: '/status/conditions', value: [{ type: 'PodScheduled', status: 'True' }] }]),
  put(-59_000, 'web-1', [
    { op: 'add', path: '/status/conditions/1', value: { type: 'Ready', status: 'True' } },
    { op: 'replace', path: '/status/phase', value: 'Running' },
  ]),
  [-59_000, 'endpointslice', 'created web-abcde: web-1 ready=true serving=true terminating=false'],
  [-59_000, 'loadbalancer', 'load balancer of web sends to: web-1'],
  put(0, 'web-2'),
  put(0, 'web-1', [{ op: 'add', path: '/metadata/deletionTimestamp', value: '2025-01-01T00:01:30Z' }]),
  [0, 'endpointslice', 'updated web-abcde: web-1 ready=false serving=true terminating=true'],
  [500, 'endpointslice', 'updated web-abcde: web-1 removed'],
  [999, 'traffic', '3 failed requests to web (3 connection refused: web-1)'],
  [1000, 'etcd', 'DELETE /registry/pods/default/web-1 rev=9'],
  [2000, 'loadbalancer', 'load balancer of web sends to: nothing (502)'],
);

describe('the overview', () => {
  it("reads each pod's states from the etcd writes: Running and Ready, Terminating, gone; a pod created later Pending", () => {
    const rows = POD_ROWS.rows(rollout, T0);
    expect(rows.map((r) => r.object)).to.deep.equal(['pods/web-1', 'pods/web-2']);
    expect(rows[0]!.segments.map((s) => [s.cls, s.toSeq])).to.deep.equal([
      ['s-pending', 3],
      ['s-running s-ready', 7],
      ['s-terminating s-ready', 11],
      ['s-gone', undefined],
    ]);
    expect(rows[1]!.segments.map((s) => s.cls)).to.deep.equal(['s-pending']);
  });

  it("judges what a Service's consumer sends to by the EndpointSlices: ready, terminating, gone", () => {
    const rows = SERVICE_ROWS.rows(rollout, T0);
    expect(rows.map((r) => [r.object, r.consumer])).to.deep.equal([
      ['services/web', undefined],
      ['services/web', 'load balancer'],
    ]);
    const lb = rows[1]!;
    expect(lb.segments.map((s) => s.cls)).to.deep.equal(['c-ready', 'c-terminating', 'c-stale', 'c-none']);
    expect(lb.segments[2]!.title).to.match(
      /^sends to 1: web-1; no longer in the EndpointSlice: web-1 \(from T\+0\.5s to T\+2s\)$/,
    );
    expect(lb.marks).to.deep.equal([
      { seq: 10, cls: 'm-failed', title: 'T+0.999s: 3 failed requests to web (3 connection refused: web-1)' },
    ]);
  });

  it('is drawn for several pods, a workload or a Service, not for one pod alone', () => {
    expect(wantsOverview(rollout)).to.equal(true);
    expect(wantsOverview(timeline(put(0, 'web')))).to.equal(false);
    expect(renderOverview(timeline(put(0, 'web')), T0)).to.equal('');
    const html = renderOverview(rollout, T0);
    expect(html).to.match(/^<div class="overview"/);
    expect(html).to.include('data-object="pods/web-1"');
    expect(html).to.include('data-consumer="load balancer"');
    expect(html).to.include('class="ov-mark m-failed"');
  });

  it('takes a new kind of row from its source', () => {
    const invariant: OverviewRowSource = {
      kind: 'invariants',
      rows: () => [
        {
          object: 'invariants/no-502',
          label: 'no 502',
          segments: [{ fromSeq: 6, cls: 'x-held', title: 'held' }],
          marks: [],
        },
      ],
    };
    expect(renderOverview(rollout, T0, [invariant, POD_ROWS])).to.match(
      /data-object="invariants\/no-502".*data-object="pods\/web-1"/,
    );
  });

  it('shows at most 150 rows and says how many more there are', () => {
    const many = timeline(...Array.from({ length: 200 }, (_, i) => put(i, `p-${i}`)));
    const html = renderOverview(many, T0);
    expect(html.match(/data-object="pods\//g)).to.have.length(150);
    expect(html).to.include('and 50 more objects');
  });
});
