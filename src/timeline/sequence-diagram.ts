import type { Operation } from 'fast-json-patch';
import { COMPONENTS, type Component, type TimelineEvent } from './event';

/**
 * Renders a timeline as a standalone SVG sequence diagram: one lane per
 * component, virtual time down the page, one row per event. Pure and deterministic: the same
 * events give the same string. Text widths are estimated from a monospace advance, so long texts
 * are cut with an ellipsis (full text in each row's `<title>`) instead of being measured.
 */
export interface SequenceDiagramOptions {
  /** Virtual time (ms since the clock's epoch) shown as `T+0s`; earlier events are setup. */
  readonly t0: number;
  /** Shown above the lanes, and as the document's `<title>`. */
  readonly title?: string;
  /** Leave out events before `t0` (what the `Given` steps did). */
  readonly dropBeforeT0?: boolean;
}

const MAX_WIDTH = 1600;
/** Texts are cut to fit this width (or the lanes plus `TEXT_TAIL`), to stay readable in a ~1000 px page. */
const TARGET_WIDTH = 1000;
const PAD = 12;
const FONT_PX = 12;
/** Advance of a monospace glyph in em (DejaVu Sans Mono, Menlo: 0.602; Consolas: 0.55). */
const MONO_ADVANCE = 0.61;
const CHAR_W = FONT_PX * MONO_ADVANCE;
/** Fits the longest lane name; 13 lanes still leave room for text within `MAX_WIDTH`. */
const LANE_W = 104;
/** Advance of the bold sans-serif lane names, in px (estimate). */
const HEAD_CHAR_W = FONT_PX * 0.58;
/** Room kept right of the last lane for its events' text. */
const TEXT_TAIL = 260;
const TITLE_H = 26;
const HEADER_H = 26;
const ROW_H = 28;
const PATCH_LINE_H = 16;
const GAP_H = 20;
const MAX_TEXT_CHARS = 72;
const MAX_PATCH_CHARS = 100;
const MAX_PATCH_OPS = 3;
const MAX_VALUE_CHARS = 32;

const COLORS: Readonly<Record<Component, string>> = {
  kubectl: '#4b5563',
  user: '#0f766e',
  controller: '#a16207',
  apiserver: '#1d4ed8',
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

const MONO = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace";
const SANS = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, 'DejaVu Sans', sans-serif";
const STYLE = [
  `text{font-family:${MONO};font-size:${FONT_PX}px;fill:#111827}`,
  '.sd-halo{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}',
  `.sd-head{font-family:${SANS};font-weight:600;text-anchor:middle}`,
  `.sd-title{font-family:${SANS};font-size:14px;font-weight:600}`,
  '.sd-time{text-anchor:end;fill:#374151}',
  '.sd-same{fill:#9ca3af}',
  '.sd-actor,.sd-patch{fill:#6b7280}',
  `.sd-gap{font-family:${SANS};font-style:italic;fill:#6b7280}`,
  '.sd-setup{opacity:.5}',
].join('');

interface Row {
  readonly event: TimelineEvent;
  readonly top: number;
  readonly height: number;
  /** Separator drawn above the row when virtual time jumped by a second or more. */
  readonly gap?: { readonly y: number; readonly label: string };
}

export function renderSequenceDiagram(events: readonly TimelineEvent[], options: SequenceDiagramOptions): string {
  const { t0, title } = options;
  const shown = [...events]
    .filter((e) => !options.dropBeforeT0 || e.at >= t0)
    .sort((a, b) => a.seq - b.seq);
  const titleH = title === undefined ? 0 : TITLE_H;
  if (shown.length === 0) {
    const width = Math.max(240, PAD * 2 + charsWidth(title ?? ''));
    const body = [title === undefined ? '' : text(PAD, PAD + 14, 'sd-title', title), text(PAD, PAD + titleH + 18, 'sd-gap', 'no events')];
    return svg(width, PAD * 2 + titleH + 24, title, body);
  }

  const lanes = COMPONENTS.filter((c) => shown.some((e) => e.component === c));
  const times = shown.map((e) => formatOffset(e.at - t0));
  const gutterW = PAD + Math.max(...times.map((t) => charsWidth(t))) + 10;
  const laneW = LANE_W;
  const laneX = (c: Component): number => gutterW + (lanes.indexOf(c) + 0.5) * laneW;
  const headerTop = PAD + titleH;
  const headerBottom = headerTop + HEADER_H;

  // Layout pass: vertical positions and gap separators.
  const rows: Row[] = [];
  let y = headerBottom + 8;
  shown.forEach((event, i) => {
    const prev = shown[i - 1];
    let gap: Row['gap'];
    if (prev !== undefined && event.at - prev.at >= 1000) {
      gap = { y: y + GAP_H / 2, label: `… ${formatDuration(event.at - prev.at)} later` };
      y += GAP_H;
    }
    const height = ROW_H + (event.patch === undefined ? 0 : PATCH_LINE_H);
    rows.push({ event, top: y, height, gap });
    y += height;
  });
  const height = y + PAD;

  // Render pass: each row's text starts right of its arrow, so arrows never cross text.
  const lanesRight = gutterW + lanes.length * laneW;
  const textRight = Math.min(MAX_WIDTH, Math.max(TARGET_WIDTH, lanesRight + TEXT_TAIL)) - PAD;
  let right = lanesRight + PAD;
  const rowParts = rows.map((row, i) => {
    const { event } = row;
    const x = laneX(event.component);
    const prevX = i === 0 ? x : laneX(rows[i - 1]!.event.component);
    const mid = row.top + ROW_H / 2;
    const textX = Math.max(x, prevX) + 12;
    const budget = Math.floor((textRight - textX) / CHAR_W);
    const actor = event.actor === undefined ? '' : ` · ${oneLine(event.actor)}`;
    const main = truncate(oneLine(event.text), Math.max(8, Math.min(MAX_TEXT_CHARS, budget) - actor.length));
    const patch = event.patch === undefined ? undefined : describePatch(event.patch, Math.min(MAX_PATCH_CHARS, budget));
    right = Math.max(right, textX + charsWidth(main + actor) + PAD, textX + charsWidth(patch ?? '') + PAD);

    const parts: string[] = [`<g${event.at < t0 ? ' class="sd-setup"' : ''}>`, `<title>${escapeXml(hoverText(event))}</title>`];
    if (i > 0 && times[i] === times[i - 1]) parts.push(text(gutterW - 10, mid + 4, 'sd-time sd-same', times[i]!));
    else parts.push(text(gutterW - 10, mid + 4, 'sd-time', times[i]!));
    if (prevX !== x) {
      const dir = Math.sign(x - prevX);
      parts.push(
        `<line x1="${n(prevX)}" y1="${n(mid)}" x2="${n(x - dir * 12)}" y2="${n(mid)}" stroke="#64748b" stroke-width="1.25"/>`,
        `<path d="M${n(x - dir * 6)} ${n(mid)}L${n(x - dir * 13)} ${n(mid - 4)}L${n(x - dir * 13)} ${n(mid + 4)}Z" fill="#64748b"/>`,
      );
    }
    parts.push(`<circle cx="${n(x)}" cy="${n(mid)}" r="5" fill="${COLORS[event.component]}"/>`);
    const actorSpan = actor === '' ? '' : `<tspan class="sd-actor">${escapeXml(actor)}</tspan>`;
    parts.push(`<text class="sd-halo" x="${n(textX)}" y="${n(mid + 4)}">${escapeXml(main)}${actorSpan}</text>`);
    if (patch !== undefined) parts.push(text(textX, mid + 4 + PATCH_LINE_H, 'sd-patch sd-halo', patch));
    parts.push('</g>');
    return parts.join('');
  });
  const width = Math.min(MAX_WIDTH, Math.ceil(Math.max(right, PAD * 2 + charsWidth(title ?? '') * 1.2)));

  const body: string[] = [];
  rows.forEach((row, i) => {
    if (i % 2 === 1) body.push(`<rect x="0" y="${n(row.top)}" width="${width}" height="${row.height}" fill="#f8fafc"/>`);
  });
  if (title !== undefined) body.push(text(PAD, PAD + 15, 'sd-title', title));
  for (const lane of lanes) {
    const x = laneX(lane);
    const color = COLORS[lane];
    body.push(
      `<line x1="${n(x)}" y1="${headerBottom}" x2="${n(x)}" y2="${height - PAD}" stroke="${color}" stroke-opacity=".35" stroke-dasharray="4 4"/>`,
      `<rect x="${n(x - laneW / 2 + 6)}" y="${headerTop}" width="${laneW - 12}" height="${HEADER_H}" rx="4" fill="${color}" fill-opacity=".1" stroke="${color}"/>`,
      `<text class="sd-head" x="${n(x)}" y="${headerTop + 17}" style="fill:${color}">${escapeXml(truncate(lane, Math.floor((laneW - 12) / HEAD_CHAR_W)))}</text>`,
    );
  }
  for (const row of rows) {
    if (row.gap === undefined) continue;
    body.push(
      `<line x1="${PAD}" y1="${n(row.gap.y)}" x2="${width - PAD}" y2="${n(row.gap.y)}" stroke="#cbd5e1" stroke-dasharray="2 3"/>`,
      text(gutterW + 4, row.gap.y + 4, 'sd-gap sd-halo', row.gap.label),
    );
  }
  return svg(width, height, title, [...body, ...rowParts]);
}

/** `T+0s`, `T+1.5s`, `T+2m3s`, `T-5s`: a virtual-time offset from T+0. */
export function formatOffset(ms: number): string {
  return `T${ms < 0 ? '-' : '+'}${formatDuration(Math.abs(ms))}`;
}

/** Go-style duration with millisecond precision only when needed: `0s`, `0.3s`, `29s`, `2m3s`, `1h`. */
export function formatDuration(ms: number): string {
  const total = Math.round(Math.abs(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const frac = total % 1000;
  const secs = frac === 0 ? `${s}` : `${s}.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
  let out = ms < 0 ? '-' : '';
  if (h > 0) out += `${h}h`;
  if (m > 0 || (h > 0 && (s > 0 || frac > 0))) out += `${m}m`;
  if (s > 0 || frac > 0 || (h === 0 && m === 0)) out += `${secs}s`;
  return out;
}

/**
 * One line for a write's JSON patch: `~ /path: value` (replace), `+ /path: value` (add),
 * `- /path` (remove); at most three whole operations that fit in `maxChars`, then `+N more`.
 */
export function describePatch(ops: readonly Operation[], maxChars = MAX_PATCH_CHARS): string {
  if (ops.length === 0) return 'no field changes';
  const listed: string[] = [];
  for (const op of ops.slice(0, MAX_PATCH_OPS)) {
    const candidate = [...listed, describeOperation(op)].join(', ');
    const more = moreSuffix(ops.length - listed.length - 1);
    if (listed.length > 0 && candidate.length + more.length > maxChars) break;
    listed.push(describeOperation(op));
  }
  const more = moreSuffix(ops.length - listed.length);
  return truncate(listed.join(', '), Math.max(8, maxChars - more.length)) + more;
}

function moreSuffix(rest: number): string {
  return rest > 0 ? `, +${rest} more` : '';
}

function describeOperation(op: Operation): string {
  switch (op.op) {
    case 'add':
      return `+ ${op.path}${valueSuffix(op.value)}`;
    case 'replace':
      return `~ ${op.path}${valueSuffix(op.value)}`;
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

function valueSuffix(value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  return json === undefined ? '' : `: ${truncate(oneLine(json), MAX_VALUE_CHARS)}`;
}

function hoverText(event: TimelineEvent): string {
  const lines = [event.text, `${event.component}${event.actor === undefined ? '' : ` ${event.actor}`} · ${event.source}`];
  for (const op of event.patch ?? []) lines.push(describeOperation(op));
  return lines.join('\n');
}

/** Escapes `& < > " '` and replaces characters XML 1.0 forbids. */
export function escapeXml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function svg(width: number, height: number, title: string | undefined, body: readonly string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`,
    `<title>${escapeXml(title ?? 'Timeline')}</title>`,
    `<style>${STYLE}</style>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...body.filter((part) => part !== ''),
    '</svg>',
    '',
  ].join('\n');
}

function text(x: number, y: number, cls: string, content: string): string {
  return `<text class="${cls}" x="${n(x)}" y="${n(y)}">${escapeXml(content)}</text>`;
}

function truncate(s: string, maxChars: number): string {
  const chars = Array.from(s);
  return chars.length <= maxChars ? s : `${chars.slice(0, Math.max(0, maxChars - 1)).join('')}…`;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function charsWidth(s: string): number {
  return Array.from(s).length * CHAR_W;
}

/** A coordinate with at most one decimal, so output does not depend on float noise. */
function n(v: number): string {
  return String(Math.round(v * 10) / 10);
}
