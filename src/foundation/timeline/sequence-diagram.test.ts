import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Component, TimelineEvent } from './event';
import { describeOperation, escapeHtml, renderSequenceDiagram } from './sequence-diagram';

const T0 = Date.UTC(2025, 0, 1);

function timeline(...rows: Array<[number, Component, string, Partial<TimelineEvent>?]>): TimelineEvent[] {
  return rows.map(([dt, component, text, extra], i) => ({
    seq: i + 1,
    at: T0 + dt,
    component,
    text,
    source: 'pkg/test.go F',
    ...extra,
  }));
}

/** Fails unless every opened tag is closed in order (void elements excepted). */
function expectWellFormed(html: string): void {
  const stack: string[] = [];
  for (const [, close, name] of html.matchAll(/<(\/?)([A-Za-z][\w-]*)[^<>]*>/g)) {
    if (close === '/') expect(stack.pop(), `closing </${name}>`).to.equal(name);
    else stack.push(name!);
  }
  expect(stack, 'unclosed tags').to.deep.equal([]);
  expect(html.replace(/<[^<>]*>/g, ''), 'stray < or > in text').not.to.match(/[<>]/);
}

function laneHeaders(html: string): string[] {
  return [...html.matchAll(/<span class="sd-lane"[^>]*>([^<]*)<\/span>/g)].map((m) => m[1]!);
}

/** Each row's arrow as `sender → receiver` (checked against its geometry), or `dot`. */
function glyphs(html: string): string[] {
  return [
    ...html.matchAll(/<div class="sd-row[^"]*" data-seq="(\d+)"[^>]*>.*?<div class="sd-lanes"[^>]*>(.*?)<\/div>/g),
  ].map(([, seq, g]) => {
    const arrow = /sd-arrow (sd-right|sd-left)" style="left:(\d+)px;width:(\d+)px" title="(\w+) → (\w+)"/.exec(g!);
    if (!arrow) return `#${seq} dot`;
    const [, dir, left, width, from, to] = arrow;
    const dot = Number(/sd-dot[^"]*" style="left:(\d+)px/.exec(g!)![1]);
    // The arrow ends 6 px before the receiver's dot, on the side it comes from.
    expect(dir === 'sd-right' ? Number(left) + Number(width) + 6 : Number(left) - 6, `#${seq} arrow end`).to.equal(dot);
    return `#${seq} ${from} → ${to}`;
  });
}

const graceful = timeline(
  [-5000, 'apiserver', 'CREATE pods/web', { actor: 'user', requestId: 1 }],
  [0, 'kubectl', 'delete pod web', { actor: 'kubectl' }],
  [0, 'apiserver', 'DELETE pods/web', { actor: 'kubectl', requestId: 2, outcome: '200' }],
  [
    0,
    'etcd',
    'PUT /registry/pods/default/web rev=5',
    { patch: [{ op: 'add', path: '/metadata/deletionTimestamp', value: '2025-01-01T00:00:30Z' }] },
  ],
  [0, 'watch', 'MODIFIED pods/web rv=5'],
  [300, 'kubelet', 'DELETE pods/web', { actor: 'node-1' }],
  [300, 'runtime', 'SIGTERM app pods/web', { actor: 'node-1' }],
  [1500, 'runtime', 'exited app code=143 pods/web', { actor: 'node-1' }],
  [30_000, 'status', 'DELETE pods/web gracePeriodSeconds=0', { actor: 'node-1' }],
  [30_000, 'apiserver', 'DELETE pods/web gracePeriodSeconds=0', { actor: 'kubelet/node-1', requestId: 3 }],
  [30_000, 'etcd', 'DELETE /registry/pods/default/web rev=6'],
  [123_000, 'kubelet', 'REMOVE pods/web', { actor: 'node-1' }],
);

describe('renderSequenceDiagram', () => {
  it('draws one lane per component present or sending, in COMPONENTS order', () => {
    const html = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true });
    expect(laneHeaders(html)).to.deep.equal(['kubectl', 'apiserver', 'etcd', 'watch', 'kubelet', 'runtime', 'status']);
    expectWellFormed(html);
  });

  it('draws each arrow from the component that acted to the receiver, and a dot where nothing sent', () => {
    const html = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true });
    expect(glyphs(html)).to.deep.equal([
      '#2 dot', // kubectl's own command
      '#3 kubectl → apiserver',
      '#4 apiserver → etcd',
      '#5 etcd → watch',
      '#6 watch → kubelet',
      '#7 kubelet → runtime', // a CRI call
      '#8 dot', // the container exits on its own
      '#9 dot', // the status manager decides
      '#10 status → apiserver', // right to left
      '#11 apiserver → etcd',
      '#12 watch → kubelet', // the pod's latest watch event
    ]);
  });

  it('orders rows by seq, not by array position', () => {
    const events = timeline([0, 'apiserver', 'FIRST'], [0, 'etcd', 'SECOND']);
    const html = renderSequenceDiagram([events[1]!, events[0]!], { t0: T0 });
    expect(html.indexOf('>FIRST<')).to.be.greaterThan(0).and.lessThan(html.indexOf('>SECOND<'));
  });

  it('escapes every text and attribute', () => {
    const nasty = `<script>alert("x" & 'y')</script>`;
    const html = renderSequenceDiagram(timeline([0, 'apiserver', nasty, { actor: '<n&1>', source: 'a"b' }]), {
      t0: T0,
    });
    expect(html).not.to.include('<script');
    expect(html).to.include('&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;');
    expect(html).to.include('&lt;n&amp;1&gt;');
    expect(html, 'the upstream source is in the text timeline, not on the row').not.to.include('a"b');
    expect(escapeHtml('a&b')).to.equal('a&amp;b');
    expectWellFormed(html);
  });

  it('labels rows with the time since T+0 and marks setup rows', () => {
    const html = renderSequenceDiagram(graceful, { t0: T0 });
    for (const label of ['T-5s', 'T+0s', 'T+0.3s', 'T+1.5s', 'T+30s', 'T+2m3s'])
      expect(html).to.include(`<span class="sd-t">${label}</span>`);
    expect(html.match(/sd-setup/g)).to.have.length(1);
    const dropped = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true });
    expect(dropped).not.to.include('CREATE pods/web');
  });

  it('separates rows with a gap label when time jumps by a second or more', () => {
    const html = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true });
    expect([...html.matchAll(/<div class="sd-gap">([^<]*)</g)].map((m) => m[1])).to.deep.equal([
      '… 1.2s later',
      '… 28.5s later',
      '… 1m33s later',
    ]);
  });

  it('keeps long texts whole (the page wraps them)', () => {
    const long = `DELETE pods/web ${'preconditions.uid=0123456789abcdef '.repeat(10)}`.trim();
    const html = renderSequenceDiagram(timeline([0, 'nodelifecycle', long]), { t0: T0 });
    expect(html).to.include(`<span class="sd-text">${long}</span>`);
    expect(html).not.to.include('…<');
  });

  it('labels writes with every field change, timestamps with their T+ offset, long patches folded after three', () => {
    const html = renderSequenceDiagram(graceful, { t0: T0 });
    expect(html).to.include(
      '<div class="sd-patch"><div>+ /metadata/deletionTimestamp: &quot;2025-01-01T00:00:30Z&quot; (T+30s)</div></div>',
    );
    const five = ['a', 'b', 'c', 'd', 'e'].map((k) => ({ op: 'remove' as const, path: `/metadata/labels/${k}` }));
    const big = renderSequenceDiagram(timeline([0, 'etcd', 'PUT x rev=1', { patch: five }]), { t0: T0 });
    expect(big).to.include(
      '<details><summary>2 more changes</summary><div>- /metadata/labels/d</div><div>- /metadata/labels/e</div></details>',
    );
    expect(describeOperation({ op: 'replace', path: '/status/phase', value: 'Failed' }, T0)).to.equal(
      '~ /status/phase: "Failed"',
    );
  });

  it('marks echo rows and summarises them on their request, for the compact view', () => {
    const html = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true });
    expect([...html.matchAll(/class="sd-row sd-echo[^"]*" data-seq="(\d+)"/g)].map((m) => Number(m[1]))).to.deep.equal([
      4, 5, 11,
    ]);
    const marked = renderSequenceDiagram(graceful, {
      t0: T0,
      dropBeforeT0: true,
      marks: { rows: [{ seq: 11, kind: 'matched', note: 'row 1' }], expected: [] },
    });
    expect(marked, 'a marked echo row stays in view').to.match(/class="sd-row sd-same sd-matched" data-seq="11"/);
    expect(html).to.include(
      '<div class="sd-fold"><span class="sd-via">→ etcd PUT /registry/pods/default/web rev=5, watch MODIFIED pods/web rv=5</span><div class="sd-patch">',
    );
  });

  it('marks matched rows, the event found where a row was expected, and the expected row itself', () => {
    const html = renderSequenceDiagram(graceful, {
      t0: T0,
      dropBeforeT0: true,
      marks: {
        rows: [
          { seq: 3, kind: 'matched', note: 'row 1' },
          { seq: 8, kind: 'mismatch', note: 'row 2 looked here' },
        ],
        expected: [{ beforeSeq: 8, component: 'runtime', note: 'row 2 | runtime | SIGKILL app |' }],
      },
    });
    expect(html).to.match(/class="sd-row[^"]* sd-matched" data-seq="3"/);
    expect(html).to.match(
      /class="sd-row sd-mismatch" data-seq="8"[^>]*>.*<span class="sd-badge">✗ row 2 looked here<\/span>/,
    );
    expect(html.indexOf('row 2 | runtime | SIGKILL app |')).to.be.lessThan(html.indexOf('data-seq="8"'));
    expectWellFormed(html);
  });

  it('is deterministic', () => {
    expect(renderSequenceDiagram(graceful, { t0: T0 })).to.equal(
      renderSequenceDiagram([...graceful].reverse(), { t0: T0 }),
    );
  });

  it('says "no events" for an empty timeline', () => {
    expect(renderSequenceDiagram([], { t0: T0 })).to.include('no events');
    expect(
      renderSequenceDiagram(timeline([-1, 'apiserver', 'CREATE pods/web']), { t0: T0, dropBeforeT0: true }),
    ).to.include('no events');
  });

  it('puts each step on the time axis before the events it caused, with the time it let pass', () => {
    const steps = [
      { keyword: 'When', text: 'I run `kubectl delete pod web`', fromMs: 0, toMs: 30_000, afterSeq: 1, toSeq: 11 },
      { keyword: 'Then', text: 'pod "web" is gone', fromMs: 30_000, toMs: 30_000, afterSeq: 11, toSeq: 11 },
    ];
    const html = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true, steps });
    const step = html.indexOf('<div class="sd-row sd-step">');
    expect(step).to.be.greaterThan(0).and.lessThan(html.indexOf('data-seq="2"'));
    expect(html).to.include('<b>When</b> I run `kubectl delete pod web` <span class="sd-took">T+0s → T+30s</span>');
    expect(html.lastIndexOf('<b>Then</b> pod &quot;web&quot; is gone'))
      .to.be.greaterThan(html.indexOf('data-seq="11"'))
      .and.lessThan(html.indexOf('data-seq="12"'));
    expectWellFormed(html);
  });

  it('draws the grace period as a bar from its request to the deadline, and marks a moment nothing else happens at', () => {
    const html = renderSequenceDiagram(graceful, { t0: T0, dropBeforeT0: true });
    expect(html).to.match(/data-seq="3"[^>]*>.*?<i class="sd-bar k-grace sd-bar-from"/);
    expect(html).to.include('<span class="sd-ibar k-grace">grace period of pods/web: deletionTimestamp T+30s</span>');
    const early = renderSequenceDiagram(
      graceful.filter((e) => e.at < T0 + 30_000),
      { t0: T0, dropBeforeT0: true },
    );
    expect(early).to.include('<div class="sd-row sd-tick"><span class="sd-t">T+30s</span>');
    expect(early).to.include(
      'ends: grace period of pods/web: deletionTimestamp T+30s</span> <span class="sd-due">(due after the end of the timeline)</span>',
    );
    const ran = renderSequenceDiagram(
      graceful.filter((e) => e.at < T0 + 30_000),
      {
        t0: T0,
        dropBeforeT0: true,
        steps: [{ keyword: 'When', text: '40s pass', fromMs: 0, toMs: 40_000, afterSeq: 1, toSeq: 8 }],
      },
    );
    expect(ran, 'reached by a step that let time run').to.not.include('sd-due');
  });

  it('gives each pod its own lanes where several take part', () => {
    const two = timeline([0, 'runtime', 'SIGTERM app pods/web'], [0, 'runtime', 'SIGTERM app pods/api']);
    expect(
      [
        ...renderSequenceDiagram(two, { t0: T0 }).matchAll(
          /<span class="sd-lane sd-pod"[^>]*>(\w+)<small>(\w+)<\/small>/g,
        ),
      ].map((m) => `${m[1]} ${m[2]}`),
    ).to.deep.equal(['runtime api', 'runtime web']);
  });

  it('folds a long run of rows that only repeat earlier events', () => {
    const loop = timeline(
      ...Array.from({ length: 12 }, (_, i): [number, Component, string] => [
        i * 60_000,
        'kubelet',
        `sync error pods/web: attempt ${i}`,
      ]),
    );
    const html = renderSequenceDiagram(loop, { t0: T0 });
    expect(html).to.match(
      /<details class="sd-idle"><summary>10 rows that repeat earlier events, T\+2m to T\+11m \(9m\)<\/summary>/,
    );
    expectWellFormed(html);
  });
});
