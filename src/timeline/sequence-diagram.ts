import type { Operation } from 'fast-json-patch';
import { causes, requestsOf } from './causality';
import { COMPONENTS, type Component, type TimelineEvent } from './event';
import { formatDuration, formatOffset, showValue } from './time';

/**
 * Renders a timeline as an HTML sequence diagram for the report page: one lane per component,
 * virtual time down the page, one row per event. Each arrow runs from the component that acted to
 * the one that received (see causality.ts); an event nothing sent is a dot. Texts are HTML text,
 * so they wrap and nothing is cut. Echo rows (the etcd writes and watch events of a request) carry
 * the class `sd-echo`, and each request row a `sd-fold` summary of them, so the page's compact
 * view can fold them with CSS alone. Pure and deterministic: the same events give the same string.
 */
export interface SequenceDiagramOptions {
  /** Virtual time (ms since the clock's epoch) shown as `T+0s`; earlier events are setup. */
  readonly t0: number;
  /** Leave out events before `t0` (what the `Given` steps did). */
  readonly dropBeforeT0?: boolean;
  /** What the scenario's assertions matched or missed. */
  readonly marks?: DiagramMarks;
}

/** A row an assertion matched (✓), or the event found where an expected row was looked for (✗). */
export interface RowMark {
  readonly seq: number;
  readonly kind: 'matched' | 'mismatch';
  readonly note: string;
}

/** An expected row that no event matched, shown where it was looked for (before `beforeSeq`, or at the end). */
export interface ExpectedRow {
  readonly beforeSeq?: number;
  readonly component: Component;
  readonly note: string;
}

export interface DiagramMarks {
  readonly rows: readonly RowMark[];
  readonly expected: readonly ExpectedRow[];
}

/** Width of one lane, in px: the diagram's lanes are `lanes × LANE_W` wide, texts take the rest. */
export const LANE_W = 78;
/** Room between an arrow's head and the receiver's dot, in px. */
const ARROW_GAP = 6;
/** Patch operations shown on a write's row; the rest are one click away. */
const SHOWN_OPS = 3;

export const COLORS: Readonly<Record<Component, string>> = {
  kubectl: '#4b5563',
  user: '#0f766e',
  controller: '#a16207',
  apiserver: '#1d4ed8',
  admission: '#b91c1c',
  etcd: '#7c3aed',
  watch: '#0e7490',
  kubelet: '#15803d',
  runtime: '#c2410c',
  volumes: '#9333ea',
  status: '#be185d',
  events: '#6b7280',
  gc: '#4d7c0f',
  podgc: '#b45309',
  nodelifecycle: '#475569',
};

export function renderSequenceDiagram(events: readonly TimelineEvent[], options: SequenceDiagramOptions): string {
  const { t0 } = options;
  const shown = [...events].filter((e) => !options.dropBeforeT0 || e.at >= t0).sort((a, b) => a.seq - b.seq);
  if (shown.length === 0) return '<div class="sd sd-empty">no events</div>';
  const cause = causes(shown);
  const request = requestsOf(shown);
  const marks = options.marks ?? { rows: [], expected: [] };
  const used = new Set<Component>(shown.map((e) => e.component));
  for (const c of cause.values()) used.add(c.from);
  for (const x of marks.expected) used.add(x.component);
  const lanes = COMPONENTS.filter((c) => used.has(c));
  const center = (c: Component): number => (lanes.indexOf(c) + 0.5) * LANE_W;
  const lanesStyle = `width:${lanes.length * LANE_W}px`;

  const echoes = new Map<number, TimelineEvent[]>();
  for (const e of shown) {
    const r = request.get(e.seq);
    if (r !== undefined) echoes.set(r, [...(echoes.get(r) ?? []), e]);
  }
  const marksOf = new Map<number, RowMark[]>();
  for (const m of marks.rows) marksOf.set(m.seq, [...(marksOf.get(m.seq) ?? []), m]);

  const out: string[] = [`<div class="sd" style="--lane-w:${LANE_W}px">`];
  out.push(`<div class="sd-row sd-head"><span class="sd-t"></span><div class="sd-lanes" style="${lanesStyle}">`);
  for (const lane of lanes) out.push(`<span class="sd-lane" style="left:${center(lane) - LANE_W / 2}px;color:${COLORS[lane]}">${lane}</span>`);
  out.push('</div><div class="sd-x"></div></div>');

  const expectedRow = (x: ExpectedRow): string =>
    `<div class="sd-row sd-expected"><span class="sd-t"></span><div class="sd-lanes" style="${lanesStyle}"><i class="sd-dot sd-hollow" style="left:${center(x.component)}px;border-color:${COLORS[x.component]}"></i></div><div class="sd-x"><span class="sd-badge">✗</span> ${escapeHtml(x.note)}</div></div>`;

  let prev: TimelineEvent | undefined;
  for (const e of shown) {
    for (const x of marks.expected) if (x.beforeSeq === e.seq) out.push(expectedRow(x));
    if (prev !== undefined && e.at - prev.at >= 1000) out.push(`<div class="sd-gap">… ${formatDuration(e.at - prev.at)} later</div>`);
    const time = formatOffset(e.at - t0);
    const classes = ['sd-row'];
    const rowMarks = marksOf.get(e.seq) ?? [];
    // An echo row an assertion marked stays in view in the compact view.
    if (request.has(e.seq) && rowMarks.length === 0) classes.push('sd-echo');
    if (e.at < t0) classes.push('sd-setup');
    if (prev !== undefined && formatOffset(prev.at - t0) === time) classes.push('sd-same');
    if (rowMarks.some((m) => m.kind === 'mismatch')) classes.push('sd-mismatch');
    else if (rowMarks.length > 0) classes.push('sd-matched');

    const x = center(e.component);
    const c = cause.get(e.seq);
    let glyphs = `<i class="sd-dot" style="left:${x}px;background:${COLORS[e.component]}"></i>`;
    if (c !== undefined && c.from !== e.component) {
      const from = center(c.from);
      const dir = from < x ? 'sd-right' : 'sd-left';
      // The arrow stops short of the receiver's dot, so its head stays visible.
      const left = from < x ? from : x + ARROW_GAP;
      glyphs = `<i class="sd-arrow ${dir}" style="left:${left}px;width:${Math.abs(x - from) - ARROW_GAP}px" title="${escapeHtml(`${c.from} → ${e.component}`)}"></i>${glyphs}`;
    }
    const badges = rowMarks.map((m) => `<span class="sd-badge">${m.kind === 'matched' ? '✓' : '✗'} ${escapeHtml(m.note)}</span> `).join('');
    const actor = e.actor === undefined ? '' : ` <span class="sd-actor">· ${escapeHtml(e.actor)}</span>`;
    const outcome = e.outcome === undefined ? '' : ` <span class="sd-out">→ ${escapeHtml(e.outcome)}</span>`;
    const patch = e.patch === undefined ? '' : renderPatch(e.patch, t0);
    const folded = echoes.get(e.seq);
    const fold = folded === undefined ? '' : renderFold(folded, t0);
    out.push(
      `<div class="${classes.join(' ')}" data-seq="${e.seq}" title="${escapeHtml(`#${e.seq} ${e.component}: ${e.source}`)}">`,
      `<span class="sd-t">${time}</span><div class="sd-lanes" style="${lanesStyle}">${glyphs}</div>`,
      `<div class="sd-x">${badges}<span class="sd-text">${escapeHtml(e.text)}</span>${actor}${outcome}${patch}${fold}</div></div>`,
    );
    prev = e;
  }
  for (const x of marks.expected) if (x.beforeSeq === undefined || !shown.some((e) => e.seq === x.beforeSeq)) out.push(expectedRow(x));
  out.push('</div>');
  return out.join('');
}

/** A write's field changes, one operation a line; values are shown whole, timestamps with their T+ offset. */
function renderPatch(ops: readonly Operation[], t0: number): string {
  if (ops.length === 0) return '<div class="sd-patch">no field changes</div>';
  const lines = ops.map((op) => `<div>${escapeHtml(describeOperation(op, t0))}</div>`);
  if (lines.length <= SHOWN_OPS + 1) return `<div class="sd-patch">${lines.join('')}</div>`;
  return `<div class="sd-patch">${lines.slice(0, SHOWN_OPS).join('')}<details><summary>${lines.length - SHOWN_OPS} more changes</summary>${lines.slice(SHOWN_OPS).join('')}</details></div>`;
}

/** What the compact view shows instead of a request's echo rows: the writes (with their changes) and watch events. */
function renderFold(echo: readonly TimelineEvent[], t0: number): string {
  const steps = echo.map((e) => `${e.component} ${e.text}`).join(', ');
  const patches = echo.filter((e) => e.patch !== undefined).map((e) => renderPatch(e.patch!, t0)).join('');
  return `<div class="sd-fold"><span class="sd-via">→ ${escapeHtml(steps)}</span>${patches}</div>`;
}

/** One line for a patch operation: `~ /path: value` (replace), `+ /path: value` (add), `- /path` (remove). */
export function describeOperation(op: Operation, t0: number): string {
  switch (op.op) {
    case 'add':
      return `+ ${op.path}: ${showValue(op.value, t0)}`;
    case 'replace':
      return `~ ${op.path}: ${showValue(op.value, t0)}`;
    case 'remove':
      return `- ${op.path}`;
    case 'move':
      return `> ${op.from} → ${op.path}`;
    case 'copy':
      return `= ${op.from} → ${op.path}`;
    default:
      return `${op.op} ${op.path}`;
  }
}

/** Escapes `& < > " '` for HTML text and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
