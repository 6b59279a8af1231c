import { applyOperation, type Operation } from 'fast-json-patch';
import type { TimelineEvent } from '../../foundation/timeline/event';
import { escapeHtml } from '../../foundation/timeline/sequence-diagram';
import { formatDuration, formatOffset } from '../../foundation/timeline/time';

/**
 * A scenario's story at a glance: one row per object that took part, on the diagram's own time
 * axis, read from what the timeline recorded (the etcd writes with their field changes, the
 * EndpointSlice controller's, kube-proxy's and the load balancer's events, the clients' failed
 * requests), never from running anything again.
 *
 * The time axis is the diagram's: events in their order, one column per change the chart shows
 * (so a rollout that happens within one virtual millisecond still reads step by step), and a
 * stretch of time in which nothing changed is a break labelled with its length (the diagram's
 * `… 30s later`). Every segment and mark names the event it starts at, and a click on it scrolls
 * the diagram to that event's row.
 *
 * What rows there are is open: each kind of row is an OverviewRowSource in OVERVIEW_ROWS (pods,
 * services today); a new kind (an invariant, a perturbation) adds its source there.
 */

/** A stretch of a row, from the event it starts at to the event the next one starts at. */
export interface OverviewSegment {
  readonly fromSeq: number;
  /** The seq the stretch ends at (exclusive); undefined: to the end of the chart. */
  readonly toSeq?: number;
  /** CSS classes (`s-running`, `s-ready`…), which give the colour. */
  readonly cls: string;
  /** Shown inside the segment when it is wide enough. */
  readonly text?: string;
  /** The whole story of the stretch, as a tooltip. */
  readonly title: string;
}

/** A moment on a row (a failed request, an instant something gave up). */
export interface OverviewMark {
  readonly seq: number;
  readonly cls: string;
  readonly title: string;
}

export interface OverviewRow {
  /** `pods/web-1`, `services/web`: what the row is about (`data-object`). */
  readonly object: string;
  /** For a row about one consumer of a Service: `load balancer`, `kube-proxy node-1`. */
  readonly consumer?: string;
  /** The row's name as shown. */
  readonly label: string;
  readonly segments: readonly OverviewSegment[];
  readonly marks: readonly OverviewMark[];
}

/** One kind of row: reads the whole timeline (setup included) and gives the rows of the objects that took part from T+0 on. */
export interface OverviewRowSource {
  readonly kind: string;
  rows(events: readonly TimelineEvent[], t0: number): OverviewRow[];
}

/** The event seq that starts T+0's part of the timeline (the first at or after t0). */
function firstSeqFrom(events: readonly TimelineEvent[], t0: number): number {
  return events.find((e) => e.at >= t0)?.seq ?? Number.POSITIVE_INFINITY;
}

/** A pod's state as its writes left it. */
type PodState = 'Pending' | 'Running' | 'Terminating' | 'Succeeded' | 'Failed' | 'gone';

interface PodDoc {
  metadata?: { deletionTimestamp?: string };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

function podState(doc: PodDoc): { state: PodState; ready: boolean } {
  const phase = doc.status?.phase;
  const ready = (doc.status?.conditions ?? []).some((c) => c?.type === 'Ready' && c.status === 'True');
  if (doc.metadata?.deletionTimestamp) return { state: 'Terminating', ready };
  if (phase === 'Running' || phase === 'Succeeded' || phase === 'Failed') return { state: phase, ready };
  return { state: 'Pending', ready };
}

/** The fields the chart reads: the phase, the conditions, the deletionTimestamp (or the whole status or metadata). */
const READ = /^\/(?:status(?:$|\/phase$|\/conditions(?:$|\/))|metadata(?:$|\/deletionTimestamp$))/;

/**
 * A write's changes of the fields the chart reads, applied to what the earlier writes built. Only
 * those: a change under a field the create set (its body is not in the timeline) cannot be placed,
 * and a refused operation throws, which costs (a served session's thousands of pods).
 */
function applyOps(doc: PodDoc, ops: readonly Operation[]): void {
  for (const op of ops) {
    if (!READ.test(op.path)) continue;
    try {
      applyOperation(doc, op, false, true, false);
    } catch {
      // The create's body is not in the timeline: a change under a field it set cannot be placed, and this chart does not need it.
    }
  }
}

/** Segments built as a value changes: a new segment each time the value's key differs from the open one's. */
class SegmentTrack {
  readonly segments: OverviewSegment[] = [];
  private open?: { fromSeq: number; key: string; cls: string; text?: string; title: string; fromAt: number };

  set(seq: number, at: number, key: string, cls: string, title: string, text?: string): void {
    if (this.open?.key === key) return;
    this.close(seq, at);
    this.open = { fromSeq: seq, key, cls, title, fromAt: at, ...(text !== undefined ? { text } : {}) };
  }

  close(seq: number | undefined, at: number | undefined): void {
    const o = this.open;
    if (!o) return;
    this.open = undefined;
    if (seq === o.fromSeq) return;
    this.segments.push({
      fromSeq: o.fromSeq,
      ...(seq !== undefined ? { toSeq: seq } : {}),
      cls: o.cls,
      title: `${o.title} (from ${formatOffset(o.fromAt)}${at !== undefined ? ` to ${formatOffset(at)}` : ''})`,
      ...(o.text !== undefined ? { text: o.text } : {}),
    });
  }
}

interface PodEntry {
  doc: PodDoc;
  track: SegmentTrack;
  name: string;
  /** Written at or after T+0. */
  seen: boolean;
  /** Deleted from etcd before T+0: no part of the scenario. */
  goneBefore: boolean;
}

/** Pods: Pending, Running, Terminating, Succeeded/Failed, then gone; Ready in a darker shade. */
export const POD_ROWS: OverviewRowSource = {
  kind: 'pods',
  rows(events, t0) {
    const start = firstSeqFrom(events, t0);
    const live = new Map<string, PodEntry>();
    const all: PodEntry[] = [];
    for (const e of events) {
      if (e.component !== 'etcd') continue;
      const m = /^(PUT|DELETE) \/registry\/pods\/([^/\s]+)\/(\S+)/.exec(e.text);
      if (!m) continue;
      const key = `${m[2]}/${m[3]}`;
      let pod = live.get(key);
      if (!pod) {
        pod = {
          doc: { metadata: {}, status: {} },
          track: new SegmentTrack(),
          name: m[3]!,
          seen: false,
          goneBefore: false,
        };
        live.set(key, pod);
        all.push(pod);
      }
      if (e.seq >= start) pod.seen = true;
      const at = e.at - t0;
      if (m[1] === 'DELETE') {
        pod.track.set(e.seq, at, 'gone', 's-gone', 'gone: deleted from etcd', 'gone');
        pod.track.close(undefined, undefined);
        pod.goneBefore = e.seq < start;
        live.delete(key);
        continue;
      }
      if (e.patch) applyOps(pod.doc, e.patch);
      const { state, ready } = podState(pod.doc);
      const cls = `s-${state.toLowerCase()}${ready ? ' s-ready' : ''}`;
      pod.track.set(
        e.seq,
        at,
        `${state} ${ready}`,
        cls,
        `${state}${ready ? ', Ready' : state === 'Running' || state === 'Terminating' ? ', not Ready' : ''}`,
        state,
      );
    }
    for (const pod of live.values()) pod.track.close(undefined, undefined);
    return all
      .filter((p) => p.seen || !p.goneBefore)
      .map((p) => ({ object: `pods/${p.name}`, label: `pods/${p.name}`, segments: p.track.segments, marks: [] }));
  },
};

/** An endpoint's conditions in its EndpointSlice (`ready=true serving=true terminating=false`). */
interface EndpointConditions {
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

/**
 * Services: one row for the endpoints their EndpointSlices list (with ready/serving/terminating),
 * and one per consumer of them — the load balancer, each node's kube-proxy — for the endpoints it
 * sends to, coloured by what those endpoints are at that moment: all ready (green), some only
 * serving while terminating (amber), some no longer in a slice at all (red: a request sent there
 * fails). The clients' failed requests are marks on the load balancer's row (or the service's).
 */
export const SERVICE_ROWS: OverviewRowSource = {
  kind: 'services',
  rows(events, t0) {
    const start = firstSeqFrom(events, t0);
    interface Svc {
      name: string;
      endpoints: Map<string, EndpointConditions>;
      track: SegmentTrack;
      consumers: Map<string, { track: SegmentTrack; sendsTo: string[]; marks: OverviewMark[] }>;
      marks: OverviewMark[];
      seen: boolean;
    }
    const services = new Map<string, Svc>();
    const svc = (name: string, seq: number): Svc => {
      let s = services.get(name);
      if (!s)
        services.set(
          name,
          (s = { name, endpoints: new Map(), track: new SegmentTrack(), consumers: new Map(), marks: [], seen: false }),
        );
      if (seq >= start) s.seen = true;
      return s;
    };
    /** What a consumer's endpoints are now, by the slices' conditions: the colour and the words. */
    const judge = (s: Svc, sendsTo: readonly string[]): { key: string; cls: string; title: string; text: string } => {
      if (sendsTo.length === 0) return { key: 'none', cls: 'c-none', title: 'sends to no endpoint', text: '0' };
      const gone = sendsTo.filter((p) => !s.endpoints.has(p));
      const terminating = sendsTo.filter((p) => s.endpoints.get(p)?.terminating);
      const cls = gone.length > 0 ? 'c-stale' : terminating.length > 0 ? 'c-terminating' : 'c-ready';
      const words = [`sends to ${sendsTo.length}: ${sendsTo.join(', ')}`];
      if (terminating.length > 0) words.push(`terminating: ${terminating.join(', ')}`);
      if (gone.length > 0) words.push(`no longer in the EndpointSlice: ${gone.join(', ')}`);
      const text = `${sendsTo.length}${terminating.length > 0 ? ` · ${terminating.length} term.` : ''}${gone.length > 0 ? ` · ${gone.length} gone` : ''}`;
      return {
        key: `${sendsTo.join(',')} ${cls} ${terminating.length} ${gone.length}`,
        cls,
        title: words.join('; '),
        text,
      };
    };
    const refresh = (s: Svc, seq: number, at: number) => {
      const eps = [...s.endpoints];
      const ready = eps.filter(([, c]) => c.ready).length;
      const terminating = eps.filter(([, c]) => c.terminating);
      const cls = eps.length === 0 ? 'c-none' : terminating.length > 0 ? 'c-terminating' : 'c-ready';
      const title =
        eps.length === 0
          ? 'no endpoints'
          : eps
              .map(
                ([p, c]) =>
                  `${p} ${c.ready ? 'ready' : 'not ready'}${c.serving ? ', serving' : ''}${c.terminating ? ', terminating' : ''}`,
              )
              .join('; ');
      s.track.set(
        seq,
        at,
        title,
        cls,
        `EndpointSlices: ${title}`,
        `${ready} ready${terminating.length > 0 ? ` · ${terminating.length} terminating` : ''}`,
      );
      for (const c of s.consumers.values()) {
        const j = judge(s, c.sendsTo);
        c.track.set(seq, at, j.key, j.cls, j.title, j.text);
      }
    };
    const consumer = (s: Svc, name: string) => {
      let c = s.consumers.get(name);
      if (!c) s.consumers.set(name, (c = { track: new SegmentTrack(), sendsTo: [], marks: [] }));
      return c;
    };
    for (const e of events) {
      const at = e.at - t0;
      let m: RegExpExecArray | null;
      if (
        e.component === 'endpointslice' &&
        (m = /^(created|updated|deleted) (\S+?)-[a-z0-9]{5}: (.*)$/.exec(e.text))
      ) {
        const s = svc(m[2]!, e.seq);
        for (const part of m[3]!.split(', ')) {
          const c =
            /^(\S+) (?:ready=(\w+) serving=(\w+) terminating=(\w+)|removed)$/.exec(part) ??
            (m[1] === 'deleted' ? /^(\S+)$/.exec(part) : null);
          if (!c) continue;
          if (c[2] === undefined || m[1] === 'deleted') s.endpoints.delete(c[1]!);
          else
            s.endpoints.set(c[1]!, { ready: c[2] === 'true', serving: c[3] === 'true', terminating: c[4] === 'true' });
        }
        refresh(s, e.seq, at);
      } else if (e.component === 'loadbalancer' && (m = /^load balancer of (\S+) sends to: (.*)$/.exec(e.text))) {
        const s = svc(m[1]!, e.seq);
        consumer(s, 'load balancer').sendsTo = m[2]!.startsWith('nothing') ? [] : m[2]!.split(', ');
        refresh(s, e.seq, at);
      } else if (e.component === 'proxy' && (m = /^node (\S+) applied (\S+): (.*)$/.exec(e.text))) {
        const s = svc(m[2]!, e.seq);
        const list = m[3]!.replace(/ \(serving, terminating: .*\)$/, '');
        consumer(s, `kube-proxy ${m[1]}`).sendsTo = /^(no endpoints|service removed)/.test(list)
          ? []
          : list.split(', ');
        refresh(s, e.seq, at);
      } else if (e.component === 'traffic' && (m = /^(\d+) failed requests? to (\S+)/.exec(e.text))) {
        const s = svc(m[2]!, e.seq);
        const mark = { seq: e.seq, cls: 'm-failed', title: `${formatOffset(at)}: ${e.text}` };
        (s.consumers.get('load balancer')?.marks ?? s.marks).push(mark);
      }
    }
    const rows: OverviewRow[] = [];
    for (const s of [...services.values()].filter((x) => x.seen).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      s.track.close(undefined, undefined);
      rows.push({
        object: `services/${s.name}`,
        label: `services/${s.name} endpoints`,
        segments: s.track.segments,
        marks: s.marks,
      });
      for (const [name, c] of [...s.consumers].sort(([a], [b]) => (a < b ? -1 : 1))) {
        c.track.close(undefined, undefined);
        rows.push({
          object: `services/${s.name}`,
          consumer: name,
          label: `└ ${name}`,
          segments: c.track.segments,
          marks: c.marks,
        });
      }
    }
    return rows;
  },
};

/** The kinds of rows, in the order the chart shows them. Another kind of row adds its source here. */
export const OVERVIEW_ROWS: OverviewRowSource[] = [SERVICE_ROWS, POD_ROWS];

/** Whether a scenario gets an overview: more than one pod, or any workload or service. */
export function wantsOverview(events: readonly TimelineEvent[]): boolean {
  const pods = new Set<string>();
  for (const e of events) {
    if (e.component !== 'etcd') continue;
    const m = /^(?:PUT|DELETE) \/registry\/(\w+)\/(\S+)/.exec(e.text);
    if (!m) continue;
    if (['services', 'deployments', 'replicasets', 'statefulsets', 'daemonsets', 'jobs'].includes(m[1]!)) return true;
    if (m[1] === 'pods' && pods.add(m[2]!).size > 1) return true;
  }
  return false;
}

/** At most this many rows: beyond, a chart is no longer read at a glance. */
export const MAX_ROWS = 150;
/** At most this many columns; a longer timeline's changes share columns. */
const MAX_COLUMNS = 400;

/** The overview's HTML, or '' when the scenario has no row to show. */
export function renderOverview(
  events: readonly TimelineEvent[],
  t0: number,
  sources: readonly OverviewRowSource[] = OVERVIEW_ROWS,
): string {
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  if (!wantsOverview(sorted)) return '';
  const all = sources.flatMap((s) => s.rows(sorted, t0));
  if (all.length === 0) return '';
  // A served mass deletion has thousands of pods: the chart shows the first MAX_ROWS and says how many more there are.
  const rows = all.slice(0, MAX_ROWS);
  const start = firstSeqFrom(sorted, t0);
  const atOf = new Map(sorted.map((e) => [e.seq, e.at]));
  // The columns: every seq from T+0 on where a row changes or has a mark.
  const seqs = new Set<number>();
  for (const r of rows) {
    for (const s of r.segments) {
      seqs.add(Math.max(s.fromSeq, start));
      if (s.toSeq !== undefined && s.toSeq >= start) seqs.add(s.toSeq);
    }
    for (const m of r.marks) if (m.seq >= start) seqs.add(m.seq);
  }
  const boundaries = [...seqs].filter((s) => Number.isFinite(s)).sort((a, b) => a - b);
  if (boundaries.length === 0) return '';
  const n = Math.min(boundaries.length, MAX_COLUMNS);
  const column = (i: number) => Math.floor((i * n) / boundaries.length);
  const indexOf = new Map(boundaries.map((s, i) => [s, column(i)]));
  const x = (seq: number | undefined): number => {
    if (seq === undefined) return n + 1;
    if (seq < boundaries[0]!) return 0;
    const i = indexOf.get(seq);
    if (i !== undefined) return i;
    let lo = 0;
    while (lo < boundaries.length && boundaries[lo]! < seq) lo++;
    return column(lo);
  };
  // One extra column at the end: the state the timeline ends in.
  const width = n + 1;
  const pct = (v: number) => `${((v * 100) / width).toFixed(3)}%`;
  const out: string[] = ['<div class="overview" role="figure" aria-label="overview: each object over time">'];
  // The axis: a time label where the time changes (not too close to the last one), a break where time passed with nothing shown.
  const ticks: string[] = [];
  let lastAt: number | undefined;
  let lastLabel = -Infinity;
  const spacing = Math.max(1, Math.ceil(width / 14));
  boundaries.forEach((seq, i) => {
    const at = atOf.get(seq) ?? t0;
    const col = column(i);
    if (lastAt !== undefined && at - lastAt >= 1000)
      ticks.push(
        `<i class="ov-break" style="left:${pct(col)}" title="${escapeHtml(`${formatDuration(at - lastAt)} later`)}"></i>`,
      );
    if (at !== lastAt && col - lastLabel >= spacing) {
      ticks.push(
        `<span class="ov-tick" style="left:${pct(col)}" data-seq="${seq}">${escapeHtml(formatOffset(at - t0))}</span>`,
      );
      lastLabel = col;
    }
    lastAt = at;
  });
  out.push(
    `<div class="ov-row ov-axis"><span class="ov-name" title="the diagram's order of events; a dashed line: time passed with nothing shown">time →</span><div class="ov-track">${ticks.join('')}</div></div>`,
  );
  for (const r of rows) {
    const segs = r.segments
      .filter((s) => s.toSeq === undefined || s.toSeq > start)
      .map((s) => {
        const from = x(Math.max(s.fromSeq, start));
        const to = Math.min(x(s.toSeq), width);
        const w = Math.max(to - from, 0.35);
        const text = s.text !== undefined && w >= (s.text.length * 7 * width) / 1000 ? escapeHtml(s.text) : '';
        return `<i class="ov-seg ${s.cls}" style="left:${pct(from)};width:${pct(w)}" title="${escapeHtml(s.title)}" data-seq="${Math.max(s.fromSeq, start)}">${text}</i>`;
      })
      .join('');
    const marks = r.marks
      .filter((m) => m.seq >= start)
      .map(
        (m) =>
          `<i class="ov-mark ${m.cls}" style="left:${pct(x(m.seq) + 0.5)}" title="${escapeHtml(m.title)}" data-seq="${m.seq}"></i>`,
      )
      .join('');
    out.push(
      `<div class="ov-row${r.consumer ? ' ov-consumer' : ''}" data-object="${escapeHtml(r.object)}"${r.consumer ? ` data-consumer="${escapeHtml(r.consumer)}"` : ''}><span class="ov-name" title="${escapeHtml(r.label)}">${escapeHtml(r.label)}</span><div class="ov-track">${segs}${marks}</div></div>`,
    );
  }
  if (all.length > rows.length)
    out.push(
      `<div class="ov-more">and ${all.length - rows.length} more objects (the diagram and the timeline as text have them all)</div>`,
    );
  out.push(
    '<div class="ov-legend"><i class="ov-seg s-pending"></i> Pending <i class="ov-seg s-running s-ready"></i> Running, Ready <i class="ov-seg s-running"></i> Running, not Ready <i class="ov-seg s-terminating"></i> Terminating <i class="ov-seg s-gone"></i> gone · endpoints: <i class="ov-seg c-ready"></i> all ready <i class="ov-seg c-terminating"></i> some terminating <i class="ov-seg c-stale"></i> some no longer in the EndpointSlice <i class="ov-mark m-failed"></i> failed requests · click to see the diagram there</div>',
  );
  out.push('</div>');
  return out.join('');
}

/** The overview's style rules, for the page's style sheet. */
export const OVERVIEW_CSS = `
.overview{overflow:hidden;font:12px/1.3 system-ui,sans-serif;margin:6px 0 10px;border:1px solid #e5e7eb;border-radius:4px;padding:4px 6px;background:#fff}
.ov-row{display:flex;align-items:center;height:18px;margin:1px 0}
.ov-name{flex:0 0 18em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;padding-right:6px;font-family:ui-monospace,monospace;font-size:11px;color:#374151}
.ov-consumer .ov-name{color:#6b7280}
.ov-track{position:relative;flex:1 1 auto;height:100%;background:#f9fafb}
.ov-axis{height:16px}.ov-axis .ov-track{background:none;border-bottom:1px solid #d1d5db}
.ov-tick{position:absolute;bottom:1px;font-size:10.5px;color:#4b5563;white-space:nowrap;cursor:pointer}
.ov-break{position:absolute;top:0;bottom:-400px;border-left:1px dashed #9ca3af;pointer-events:none}
.ov-seg{position:absolute;top:2px;bottom:2px;border-radius:2px;overflow:hidden;white-space:nowrap;font-style:normal;font-size:10px;line-height:14px;padding-left:2px;color:#fff;cursor:pointer;box-sizing:border-box}
.ov-legend .ov-seg{position:static;display:inline-block;width:14px;height:10px;vertical-align:middle}
.ov-legend{font-size:11px;color:#4b5563;margin-top:4px}.ov-more{font-size:11px;color:#6b7280;font-style:italic;padding-left:18em}
.s-pending{background:#cbd5e1;color:#1f2937}.s-running{background:#86efac;color:#14532d}.s-running.s-ready{background:#16a34a;color:#fff}
.s-terminating{background:#f59e0b;color:#451a03}.s-terminating.s-ready{background:#d97706}.s-succeeded{background:#94a3b8}.s-failed{background:#b91c1c}
.s-gone{background:repeating-linear-gradient(135deg,#e5e7eb 0 3px,#f9fafb 3px 6px);color:#6b7280}
.c-ready{background:#0d9488}.c-terminating{background:#f59e0b;color:#451a03}.c-stale{background:#dc2626}.c-none{background:#e5e7eb;color:#374151}
.ov-mark{position:absolute;top:0;bottom:0;width:3px;margin-left:-1px;cursor:pointer}.m-failed{background:#7f1d1d}.m-gaveup{background:#111827}
.ov-legend .ov-mark{position:static;display:inline-block;height:10px;vertical-align:middle}
.sd-row.sd-flash{outline:2px solid #f59e0b;outline-offset:-2px}
`;

/** The page script's part for the overview: a click on a segment or mark scrolls the diagram to the row of its event (or the first row after it). */
export const OVERVIEW_SCRIPT = `document.addEventListener('click', (ev) => {
  const hit = ev.target.closest && ev.target.closest('.overview [data-seq]');
  if (!hit) return;
  const seq = Number(hit.dataset.seq);
  const scope = hit.closest('.overview').parentElement;
  const rows = [...scope.querySelectorAll('.sd-row[data-seq]')].filter((r) => r.offsetParent !== null);
  const row = rows.find((r) => Number(r.dataset.seq) >= seq) || rows[rows.length - 1];
  if (!row) return;
  row.scrollIntoView({ block: 'center' });
  // The row stays outlined until the next click on the overview: no timer.
  for (const old of scope.querySelectorAll('.sd-flash')) old.classList.remove('sd-flash');
  row.classList.add('sd-flash');
});`;
