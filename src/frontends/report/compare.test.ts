import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Component, TimelineEvent } from '../../foundation/timeline/event';
import { alignTimelines, formatComparison, renderComparison } from './compare';
import type { ScenarioReport } from './model';
import { toScenarioTimeline } from './scenario-timeline';

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
const older = timeline(
  [0, 'apiserver', 'DELETE pods/web', { outcome: '200' }],
  [0, 'etcd', 'PUT /registry/pods/default/web rev=12', { patch: stamp('2025-01-01T00:01:30Z') }],
  [1, 'status', 'DELETE pods/web gracePeriodSeconds=0 preconditions.uid=0b0f5a3e-1111-4222-8333-444455556666'],
  [1, 'etcd', 'DELETE /registry/pods/default/web rev=13'],
);
const newer = timeline(
  [0, 'apiserver', 'DELETE pods/web', { outcome: '200' }],
  [
    0,
    'etcd',
    'PUT /registry/pods/default/web rev=20',
    {
      patch: [
        ...stamp('2025-01-01T00:01:30Z'),
        { op: 'add', path: '/status/conditions/0', value: { type: 'DisruptionTarget' } },
      ],
    },
  ],
  [0, 'kubelet', 'SyncTerminatingPod pods/web'],
  [2, 'status', 'DELETE pods/web gracePeriodSeconds=0 preconditions.uid=99999999-1111-4222-8333-444455556666'],
  [2, 'etcd', 'DELETE /registry/pods/default/web rev=22'],
);

function scenario(location: string, events: TimelineEvent[]): ScenarioReport {
  return {
    location,
    uri: 'features/v.feature',
    line: 1,
    feature: 'V',
    name: `on ${location}`,
    status: 'passed',
    steps: [],
    timeline: toScenarioTimeline(events, T0, { rows: [], expected: [] }, ''),
  };
}

describe('alignTimelines', () => {
  const rows = alignTimelines(older, T0, newer, T0);
  it('pairs the same events (revisions and uids aside) and leaves the rest to one side', () => {
    expect(rows.map((r) => [r.a?.seq, r.b?.seq])).to.deep.equal([
      [1, 1],
      [2, 2],
      [undefined, 3],
      [3, 4],
      [4, 5],
    ]);
  });
  it('pairs the same event with other numbers, and flags its text', () => {
    const r = alignTimelines(
      timeline([0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=30']),
      T0,
      timeline([0, 'kubelet', 'SyncTerminatingPod pods/web gracePeriod=5']),
      T0,
    );
    expect(r.map((x) => [x.a?.text, x.b?.text, x.textDiffers])).to.deep.equal([
      ['SyncTerminatingPod pods/web gracePeriod=30', 'SyncTerminatingPod pods/web gracePeriod=5', true],
    ]);
    expect(rows.every((x) => !x.textDiffers)).to.equal(true);
  });
  it('flags pairs at another time and writes whose field changes differ (timestamps by their offset)', () => {
    expect(rows.map((r) => r.timeDiffers)).to.deep.equal([false, false, false, true, true]);
    expect(rows[1]!.fieldDiffs).to.deep.equal(['/status/conditions/0/type: (unchanged) | "DisruptionTarget"']);
    const condition = (t: string) => [
      { op: 'add' as const, path: '/status/conditions/1', value: { type: 'Ready', lastTransitionTime: t } },
    ];
    const [pair] = alignTimelines(
      timeline([0, 'etcd', 'PUT x rev=1', { patch: condition('2025-01-01T00:01:45Z') }]),
      T0,
      timeline([0, 'etcd', 'PUT x rev=2', { patch: condition('2025-01-01T00:01:55Z') }]),
      T0,
    );
    expect(pair!.fieldDiffs, 'an object value is compared field by field').to.deep.equal([
      '/status/conditions/1/lastTransitionTime: "T+45s" | "T+55s"',
    ]);
    const later = older.map((e) => ({ ...e, at: e.at + 5000, patch: e.patch && stamp('2025-01-01T00:01:35Z') }));
    expect(
      alignTimelines(older, T0, later, T0 + 5000).every(
        (r) => r.a && r.b && !r.timeDiffers && r.fieldDiffs.length === 0,
      ),
    ).to.equal(true);
  });
});

describe('formatComparison and renderComparison', () => {
  const a = scenario('features/v.feature:10', older);
  const b = scenario('features/v.feature:11', newer);
  it('writes one line per aligned row with its sign, both times, and the differing fields', () => {
    const text = formatComparison(a, b);
    expect(text).to.contain('~ T+0s       T+0s       etcd      PUT /registry/pods/default/web rev=12');
    expect(text).to.contain('/status/conditions/0/type: (unchanged) | "DisruptionTarget"');
    expect(text).to.contain('+            T+0s       kubelet   SyncTerminatingPod pods/web');
    expect(text).to.contain('~ T+1s       T+2s       status');
    expect(text).to.match(
      /4 events in both \(0 with other values, 2 at another time, 1 writes with other field changes\), 0 only in A, 1 only in B$/,
    );
  });
  it('highlights the same rows in HTML', () => {
    const html = renderComparison(a, b);
    expect(html.match(/<tr class="only-b">/g)).to.have.length(1);
    expect(html.match(/<tr class="moved">/g)).to.have.length(2);
    expect(html).to.contain(
      'fields differ (A | B): /status/conditions/0/type: (unchanged) | &quot;DisruptionTarget&quot;',
    );
  });
});
