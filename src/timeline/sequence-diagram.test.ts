import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Operation } from 'fast-json-patch';
import type { Component, TimelineEvent } from './event';
import { describePatch, escapeXml, formatDuration, formatOffset, renderSequenceDiagram } from './sequence-diagram';

const T0 = Date.UTC(2025, 0, 1);

function timeline(...rows: Array<[number, Component, string, Partial<TimelineEvent>?]>): TimelineEvent[] {
  return rows.map(([dt, component, text, extra], seq) => ({ seq, at: T0 + dt, component, text, source: 'pkg/test.go F', ...extra }));
}

/** Fails unless every opened tag is closed in order (self-closing tags count as both). */
function expectWellFormed(svg: string): void {
  const stack: string[] = [];
  for (const [, close, name, selfClose] of svg.matchAll(/<(\/?)([A-Za-z][\w:-]*)[^<>]*?(\/?)>/g)) {
    if (close === '/') expect(stack.pop(), `closing </${name}>`).to.equal(name);
    else if (selfClose !== '/') stack.push(name!);
  }
  expect(stack, 'unclosed tags').to.deep.equal([]);
  expect(svg.replace(/<[^<>]*>/g, ''), 'stray < or > in text').not.to.match(/[<>]/);
  expect(svg, 'bare ampersand').not.to.match(/&(?!(amp|lt|gt|quot|apos);)/);
  expect(svg).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
  expect(svg.trimEnd().endsWith('</svg>')).to.equal(true);
}

function laneHeaders(svg: string): string[] {
  return [...svg.matchAll(/<text class="sd-head"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
}

function svgWidth(svg: string): number {
  return Number(/width="(\d+)"/.exec(svg)![1]);
}

const graceful = timeline(
  [-5000, 'apiserver', 'CREATE pods/web'],
  [0, 'apiserver', 'DELETE pods/web'],
  [0, 'etcd', 'PUT /registry/pods/default/web', { patch: [{ op: 'add', path: '/metadata/deletionTimestamp', value: '2025-01-01T00:00:30Z' }] }],
  [0, 'watch', 'MODIFIED pods/web'],
  [300, 'kubelet', 'DELETE pods/web', { actor: 'node-1' }],
  [300, 'runtime', 'SIGTERM app'],
  [1500, 'runtime', 'exited app 143'],
  [30_000, 'status', 'DELETE pods/web gracePeriodSeconds=0'],
  [30_000, 'etcd', 'DELETE /registry/pods/default/web'],
  [123_000, 'kubelet', 'REMOVE pods/web', { actor: 'node-1' }],
);

describe('renderSequenceDiagram', () => {
  it('draws one lane per component present, in COMPONENTS order', () => {
    const svg = renderSequenceDiagram(
      timeline([0, 'kubelet', 'ADD pods/web'], [1, 'apiserver', 'DELETE pods/web'], [2, 'etcd', 'PUT /registry/pods/default/web'], [3, 'kubectl', 'kubectl delete pod web']),
      { t0: T0 },
    );
    expect(laneHeaders(svg)).to.deep.equal(['kubectl', 'apiserver', 'etcd', 'kubelet']);
    expectWellFormed(svg);
  });

  it('orders rows by seq, not by array position', () => {
    const events = timeline([0, 'apiserver', 'FIRST'], [0, 'etcd', 'SECOND']);
    const svg = renderSequenceDiagram([events[1]!, events[0]!], { t0: T0 });
    expect(svg.indexOf('>FIRST<')).to.be.greaterThan(0).and.lessThan(svg.indexOf('>SECOND<'));
  });

  it('XML-escapes every text, attribute and title', () => {
    const nasty = `<script>alert("x" & 'y')</script>`;
    const svg = renderSequenceDiagram(timeline([0, 'apiserver', nasty, { actor: '<n&1>', source: 'a"b' }]), { t0: T0, title: 'Scenario: <a> & "b"' });
    expect(svg).not.to.include('<script');
    expect(svg).to.include('&lt;script&gt;alert(&quot;x&quot; &amp; &apos;y&apos;)&lt;/script&gt;');
    expect(svg).to.include('&lt;n&amp;1&gt;');
    expect(svg).to.include('<title>Scenario: &lt;a&gt; &amp; &quot;b&quot;</title>');
    expect(escapeXml('a\u0000b\u001fc')).to.equal('a\uFFFDb\uFFFDc');
    expectWellFormed(svg);
  });

  it('labels rows with the time since t0, negative for setup', () => {
    const svg = renderSequenceDiagram(graceful, { t0: T0 });
    for (const label of ['T-5s', 'T+0s', 'T+0.3s', 'T+1.5s', 'T+30s', 'T+2m3s']) expect(svg).to.include(`>${label}</text>`);
    expect(svg).to.match(/<g class="sd-setup"><title>CREATE pods\/web/);
    expect(svg.match(/class="sd-setup"/g)).to.have.length(1);
  });

  it('drops setup events with dropBeforeT0', () => {
    const svg = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true });
    expect(svg).not.to.include('CREATE pods/web');
    expect(svg).not.to.include('T-5s');
    expect(svg).not.to.include('sd-setup"');
  });

  it('formats offsets and durations', () => {
    expect([0, 300, 1500, 30_000, 123_000, 120_000, 3_600_000, 3_605_250, 1].map(formatOffset)).to.deep.equal([
      'T+0s', 'T+0.3s', 'T+1.5s', 'T+30s', 'T+2m3s', 'T+2m', 'T+1h', 'T+1h0m5.25s', 'T+0.001s',
    ]);
    expect(formatOffset(-1500)).to.equal('T-1.5s');
    expect(formatDuration(29_000)).to.equal('29s');
  });

  it('separates rows with a gap label when time jumps by a second or more', () => {
    const svg = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true });
    const gaps = [...svg.matchAll(/class="sd-gap sd-halo"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(gaps).to.deep.equal(['… 1.2s later', '… 28.5s later', '… 1m33s later']);
  });

  it('labels writes with their field changes', () => {
    expect(describePatch([{ op: 'replace', path: '/metadata/deletionTimestamp', value: '2025-01-01T00:00:30Z' }])).to.equal(
      '~ /metadata/deletionTimestamp: "2025-01-01T00:00:30Z"',
    );
    expect(describePatch([{ op: 'add', path: '/metadata/finalizers/0', value: 'example.com/x' }, { op: 'remove', path: '/metadata/finalizers/0' }])).to.equal(
      '+ /metadata/finalizers/0: "example.com/x", - /metadata/finalizers/0',
    );
    const five: Operation[] = ['a', 'b', 'c', 'd', 'e'].map((k) => ({ op: 'remove', path: `/metadata/labels/${k}` }));
    expect(describePatch(five)).to.equal('- /metadata/labels/a, - /metadata/labels/b, - /metadata/labels/c, +2 more');
    expect(describePatch(five, 30)).to.equal('- /metadata/labels/a, +4 more');
    expect(describePatch([])).to.equal('no field changes');
    const long = describePatch([{ op: 'add', path: '/status', value: { conditions: [{ type: 'Ready', status: 'False', reason: 'PodCompleted' }] } }]);
    expect(long).to.match(/^\+ \/status: \{"conditions":.*…$/);

    const svg = renderSequenceDiagram(graceful, { t0: T0 });
    expect(svg).to.include('>+ /metadata/deletionTimestamp: &quot;2025-01-01T00:00:30Z&quot;</text>');
  });

  it('draws an arrow for each change of lane', () => {
    const svg = renderSequenceDiagram(timeline([0, 'apiserver', 'a'], [0, 'etcd', 'b'], [0, 'etcd', 'c'], [0, 'apiserver', 'd']), { t0: T0 });
    expect(svg.match(/<path /g)).to.have.length(2);
  });

  it('truncates long texts with an ellipsis and keeps the full text in <title>', () => {
    const long = `DELETE pods/web ${'preconditions.uid=0123456789abcdef '.repeat(10)}`.trim();
    const svg = renderSequenceDiagram(timeline([0, 'nodelifecycle', long], [0, 'kubectl', 'x']), { t0: T0 });
    expect(svg).to.include(`<title>${long}\n`);
    const shown = /<text class="sd-halo"[^>]*>(DELETE pods\/web [^<]*)<\/text>/.exec(svg)![1]!;
    expect(shown.endsWith('…')).to.equal(true);
    expect(shown.length).to.be.lessThan(80);
    expect(svgWidth(svg)).to.be.at.most(1000);
    expectWellFormed(svg);
  });

  it('stays within 1600 px even with every lane', () => {
    const all: Component[] = ['kubectl', 'user', 'controller', 'apiserver', 'etcd', 'watch', 'kubelet', 'runtime', 'volumes', 'status', 'gc', 'podgc', 'nodelifecycle'];
    const svg = renderSequenceDiagram(timeline(...all.map((c, i): [number, Component, string] => [i, c, `${c} ${'x'.repeat(200)}`])), { t0: T0 });
    expect(laneHeaders(svg)).to.have.length(13);
    expect(svgWidth(svg)).to.be.at.most(1600);
  });

  it('is deterministic, self-contained and well-formed', () => {
    const a = renderSequenceDiagram(graceful, { t0: T0, title: 'Scenario: graceful' });
    const b = renderSequenceDiagram([...graceful].reverse(), { t0: T0, title: 'Scenario: graceful' });
    expect(a).to.equal(b);
    expect(a).not.to.match(/<script|href|url\(|@import|\bon\w+=/i);
    expect(svgWidth(a)).to.be.at.most(1000);
    expectWellFormed(a);
  });

  it('renders an empty timeline as a small SVG saying "no events"', () => {
    const svg = renderSequenceDiagram([], { t0: T0 });
    expect(svg).to.include('>no events</text>');
    expect(svgWidth(svg)).to.be.at.most(400);
    expectWellFormed(svg);
    expect(renderSequenceDiagram(timeline([-1, 'apiserver', 'CREATE pods/web']), { t0: T0, dropBeforeT0: true })).to.include('no events');
  });
});
