import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Component, TimelineEvent } from './event';
import { checkExactOrder, checkInOrder, parseAt, parseComponent, TableError, type EventRow } from './match';

const T0 = 1_000_000;

function ev(seq: number, atS: number, component: Component, text: string): TimelineEvent {
  return { seq, at: T0 + atS * 1000, component, text, source: 'test.go F' };
}

const timeline: TimelineEvent[] = [
  ev(1, 0, 'apiserver', 'DELETE pods/web propagationPolicy=Background'),
  ev(2, 0, 'etcd', 'PUT /registry/pods/default/web rev=4'),
  ev(3, 0, 'kubelet', 'DELETE pods/web'),
  ev(4, 0.5, 'runtime', 'SIGTERM app pods/web'),
  ev(5, 30.9, 'runtime', 'SIGKILL app pods/web'),
  ev(6, 31, 'status', 'DELETE pods/web gracePeriodSeconds=0'),
];

const row = (component: Component, text: string, at?: { from: number; to: number }): EventRow => ({
  component,
  text,
  at,
});

describe('parseAt', () => {
  it('reads one second, a range, and units', () => {
    expect(parseAt('T+30s')).to.deep.equal({ from: 30, to: 30 });
    expect(parseAt('T+30s..T+33s')).to.deep.equal({ from: 30, to: 33 });
    expect(parseAt('T+1m30s')).to.deep.equal({ from: 90, to: 90 });
  });
  it('refuses bad cells with a message naming the cell', () => {
    expect(() => parseAt('30s')).to.throw(TableError, /"30s"/);
    expect(() => parseAt('T+5s..T+2s')).to.throw(TableError, /ends before it starts/);
  });
});

describe('parseComponent', () => {
  it('lists the components when one is unknown', () => {
    expect(() => parseComponent('kube-proxy')).to.throw(TableError, /unknown component "kube-proxy".*apiserver/);
  });
});

describe('checkInOrder', () => {
  it('matches rows in order with gaps, by prefix, and by whole seconds', () => {
    const r = checkInOrder(
      timeline,
      [
        row('apiserver', 'DELETE pods/web'),
        row('runtime', 'SIGKILL app', { from: 30, to: 30 }),
        row('status', 'DELETE pods/web'),
      ],
      T0,
    );
    expect(r.failure).to.equal(undefined);
    expect(r.marks).to.deep.equal({
      rows: [
        { seq: 1, kind: 'matched', note: 'row 1' },
        { seq: 5, kind: 'matched', note: 'row 2' },
        { seq: 6, kind: 'matched', note: 'row 3' },
      ],
      expected: [],
    });
  });
  it('on the wrong second, says where the text matched, and prints the actual timeline with the matched rows marked', () => {
    const r = checkInOrder(
      timeline,
      [row('apiserver', 'DELETE pods/web'), row('runtime', 'SIGKILL app', { from: 120, to: 120 })],
      T0,
    );
    expect(r.failure).to.match(
      /^row 2 \| T\+2m \| runtime \| SIGKILL app \| found no matching event after the previous row's match: the text matched #5 but at T\+30.9s, not T\+2m\./,
    );
    expect(r.failure).to.contain('✓  #1');
    expect(r.failure).to.contain('≈  #5');
    expect(r.marks.rows).to.deep.include({
      seq: 5,
      kind: 'mismatch',
      note: "row 2's text, at T+30.9s instead of T+2m",
    });
    expect(r.marks.expected).to.deep.equal([
      { beforeSeq: undefined, component: 'runtime', note: 'expected row 2 | T+2m | runtime | SIGKILL app |' },
    ]);
  });
  it('shows where a row was looked for when no text matches', () => {
    const r = checkInOrder(
      timeline,
      [row('apiserver', 'DELETE pods/web'), row('runtime', 'SIGSTOP', { from: 30, to: 31 })],
      T0,
    );
    expect(r.failure).to.contain('no event of the timeline matches it at all');
    expect(r.marks.rows).to.deep.include({ seq: 5, kind: 'mismatch', note: 'row 2 was looked for from here' });
    expect(r.marks.expected[0]!.beforeSeq).to.equal(5);
  });
  it('says when a row matches only before the previous match', () => {
    const r = checkInOrder(timeline, [row('status', 'DELETE'), row('apiserver', 'DELETE')], T0);
    expect(r.failure).to.match(/matches it at #1, but before/);
  });
});

describe('checkExactOrder', () => {
  it('matches a contiguous run once narrowed to the named components', () => {
    const r = checkExactOrder(timeline, [row('apiserver', 'DELETE'), row('etcd', 'PUT'), row('status', 'DELETE')], T0);
    expect(r.failure).to.equal(undefined);
    expect(r.marks.rows.map((m) => m.seq)).to.deep.equal([1, 2, 6]);
  });
  it('fails when another event of a named component sits between, marking the longest run', () => {
    const r = checkExactOrder(timeline, [row('runtime', 'SIGTERM'), row('status', 'DELETE')], T0);
    const msg = r.failure;
    expect(r.marks.rows).to.deep.equal([
      { seq: 4, kind: 'matched', note: 'row 1' },
      { seq: 5, kind: 'mismatch', note: 'here row 2 was expected' },
    ]);
    expect(r.marks.expected).to.deep.equal([
      { beforeSeq: 5, component: 'status', note: 'expected row 2 | status | DELETE |' },
    ]);
    expect(msg).to.contain('rows 1..1');
    expect(msg).to.contain('✗  #5');
    expect(msg).to.contain('narrowed to runtime, status');
  });
  it('names the row where a run near the end of the timeline broke, with both sides (not "row 1 matches no event")', () => {
    const r = checkExactOrder(
      timeline,
      [
        row('runtime', 'SIGTERM'),
        row('runtime', 'SIGKILL'),
        row('status', 'DELETE'),
        row('status', 'resources reclaimed'),
      ],
      T0,
    );
    expect(r.failure).to.match(
      /^The longest contiguous run starts at #4 and matched rows 1\.\.3 \(marked ✓\); it broke at row 4:\n  expected: row 4 \| status \| resources reclaimed \|\n  found:    nothing: the narrowed timeline ends after #6/,
    );
    const wrong = checkExactOrder(timeline, [row('runtime', 'SIGTERM'), row('status', 'DELETE')], T0);
    expect(wrong.failure).to.contain(
      '  expected: row 2 | status | DELETE |\n  found:    #5 | T+30.9s | runtime | SIGKILL app pods/web |  (marked ✗)',
    );
  });
  it('says where the timeline ends, and which step lets time run on, when a row lies past it', () => {
    const end = { now: T0 + 500, nextDue: T0 + 2000 };
    const r = checkExactOrder(
      timeline.slice(0, 4),
      [row('runtime', 'SIGTERM'), row('runtime', 'SIGKILL', { from: 2, to: 2 })],
      T0,
      end,
    );
    expect(r.failure).to.contain('The timeline ends at T+0.5s');
    expect(r.failure).to.contain('the next scheduled work is due at T+2s');
    expect(r.failure).to.contain('When 2s pass  or  When the cluster settles');
    const inOrder = checkInOrder(timeline.slice(0, 4), [row('runtime', 'SIGKILL', { from: 2, to: 2 })], T0, end);
    expect(inOrder.failure).to.contain('no event of the timeline matches it at all.\nThe timeline ends at T+0.5s');
    expect(
      checkInOrder(timeline, [row('runtime', 'SIGKILL app', { from: 120, to: 120 })], T0, { now: T0 + 31_000 }).failure,
      'a text seen at another time is not about time that did not pass',
    ).to.not.contain('The timeline ends');
  });
});
