import type { Operation } from 'fast-json-patch';
import { causes, requestsOf } from './causality';
import type { Component, TimelineEvent } from './event';
import { findIntervals } from './intervals';
import { diagramLanes } from './lanes';
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
  /** The scenario's steps from T+0 on, placed on the time axis where each began. */
  readonly steps?: readonly StepSpan[];
  /**
   * One lane per pod for the components that act on one pod at a time (lanes.ts), or (false) one
   * lane per component, each mark naming its pod: the report's default, which keeps a rollout of
   * many pods as wide as one pod's deletion.
   */
  readonly podLanes?: boolean | 'all';
  /**
   * The text column of each event's row (its marks, intervals, text, patch and folded echoes), by
   * seq: filled by one rendering and reused by the next one of the same events, options and steps
   * with other lanes (the report's diagram with one lane per pod). That column does not depend on
   * the lanes, and it is most of a row's work.
   */
  readonly rowTexts?: Map<number, string>;
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

/**
 * One step on the time axis: the events after `afterSeq` up to `toSeq` happened during it, from
 * `fromMs` to `toMs` after T+0 (a step that lets no time pass has both the same).
 */
export interface StepSpan {
  readonly keyword: string;
  readonly text: string;
  readonly fromMs: number;
  readonly toMs: number;
  readonly afterSeq: number;
  readonly toSeq: number;
  /** The commands the step ran (kubectl), each with what it printed and where it returned. */
  readonly commands?: readonly CommandRun[];
}

/**
 * A command a step ran (kubectl): what it printed, its exit code, and the moment it returned —
 * after the event `seq`, `atMs` after T+0. A non-zero exit is the instant it gave up (`timed out
 * waiting for the condition`), which the diagram marks.
 */
export interface CommandRun {
  readonly line: string;
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly atMs: number;
  readonly seq: number;
}

/** Width of one lane, in px: the diagram's lanes are `lanes × LANE_W` wide, texts take the rest. */
export const LANE_W = 78;
/**
 * The most the lanes take together, in px, before each lane narrows (to MIN_LANE_W at least): at a
 * 1 400 px wide window the time column, the lanes and a text column of 30 em all fit, so every
 * event text is read without scrolling sideways.
 */
export const LANES_FIT_W = 820;
const MIN_LANE_W = 40;
/** Room between an arrow's head and the receiver's dot, in px. */
const ARROW_GAP = 6;
/** Patch operations shown on a write's row; the rest are one click away. */
const SHOWN_OPS = 3;

export const COLORS: Readonly<Partial<Record<Component, string>>> = {
  restore: '#78716c',
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
  endpointslice: '#0369a1',
  endpoints: '#0284c7',
  proxy: '#65a30d',
  loadbalancer: '#ca8a04',
  traffic: '#dc2626',
  disruption: '#9f1239',
  namespace: '#0369a1',
  scheduler: '#0369a1',
  replicaset: '#9f1239',
  deployment: '#3f6212',
  job: '#0e7490',
  statefulset: '#be123c',
  daemonset: '#65a30d',
};

/** A lane's colour: the component's, or one derived from its name for a component this file does not know yet. */
export function colorOf(c: Component): string {
  const known = (COLORS as Partial<Record<string, string>>)[c];
  if (known) return known;
  const hue = [...c].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 360, 0);
  return `hsl(${hue} 55% 38%)`;
}

/** A dot's colour class (`c-runtime`), for the components COLORS knows; the page's CSS has one rule each (COLOR_CSS). */
function dotColor(c: Component): string {
  return COLORS[c] ? ` c-${c}` : '';
}

/** The dots' colour classes, for the page's style sheet. */
export const COLOR_CSS = Object.entries(COLORS)
  .map(([c, color]) => `.c-${c}{background:${color}}`)
  .join('');

/** The list a map keeps under a key, made empty when first asked for. */
function listAt<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** The keys of the bars a row opens or closes, for the rows (most of them) that open and close none. */
const NO_KEYS: ReadonlySet<string> = new Set();

/** Room between lanes' centres for the bars of intervals, in px right of the lane's centre line. */
const BAR_OFFSET = 7;
const BAR_STEP = 5;
/** Runs of at least this many rows that only repeat earlier events are folded (long retry loops). */
const IDLE_RUN = 6;

/** One row of the diagram in display order. */
type Item =
  | { kind: 'event'; e: TimelineEvent }
  | { kind: 'step'; step: StepSpan }
  | { kind: 'tick'; at: number; labels: string[] }
  | { kind: 'expected'; x: ExpectedRow }
  | { kind: 'command'; c: CommandRun };

/** What makes two events "the same again" for folding: the component, the lane and the text without its numbers. */
function shapeOf(e: TimelineEvent): string {
  return `${e.component} ${e.text.replace(/\d+/g, '#')}`;
}

export function renderSequenceDiagram(events: readonly TimelineEvent[], options: SequenceDiagramOptions): string {
  const { t0 } = options;
  const shown = [...events].filter((e) => !options.dropBeforeT0 || e.at >= t0).sort((a, b) => a.seq - b.seq);
  if (shown.length === 0) return '<div class="sd sd-empty">no events</div>';
  const cause = causes(shown);
  const request = requestsOf(shown);
  const marks = options.marks ?? { rows: [], expected: [] };
  const bySeq = new Map(shown.map((e) => [e.seq, e]));
  const commands = (options.steps ?? []).flatMap((s) => s.commands ?? []);
  const { lanes, laneOf, laneOfComponent } = diagramLanes(
    shown,
    [
      ...[...cause.values()].map((c) => c.from),
      ...marks.expected.map((x) => x.component),
      ...(commands.length > 0 ? ['kubectl' as const] : []),
    ],
    options.podLanes ?? true,
  );
  const laneW = Math.max(MIN_LANE_W, Math.min(LANE_W, Math.floor(LANES_FIT_W / lanes.length)));
  const center = (lane: number): number => Math.round((lane + 0.5) * laneW);

  const echoes = new Map<number, TimelineEvent[]>();
  for (const e of shown) {
    const r = request.get(e.seq);
    if (r !== undefined) listAt(echoes, r).push(e);
  }
  const marksOf = new Map<number, RowMark[]>();
  for (const m of marks.rows) listAt(marksOf, m.seq).push(m);

  // The rows in display order: events, the steps where they began, the moments intervals end at, expected rows.
  const intervals = findIntervals(shown, t0);
  // Where the timeline ends: its last event, or the end of the last step that let time pass.
  let end = shown[shown.length - 1]!.at;
  for (const st of options.steps ?? []) if (t0 + st.toMs > end) end = t0 + st.toMs;
  const items: Item[] = [];
  const steps = (options.steps ?? []).filter((s) => !options.dropBeforeT0 || s.fromMs >= 0);
  let nextStep = 0;
  const ticks = [...new Set(intervals.flatMap((i) => (i.endAt === undefined ? [] : [i.endAt])))].sort((a, b) => a - b);
  let nextTick = 0;
  const eventTimes = new Set(shown.map((e) => e.at));
  const endingAt = new Map<number, string[]>();
  for (const iv of intervals) if (iv.endAt !== undefined) listAt(endingAt, iv.endAt).push(iv.label);
  const pushTicksBefore = (at: number, inclusive: boolean) => {
    while (nextTick < ticks.length && (inclusive ? ticks[nextTick]! <= at : ticks[nextTick]! < at)) {
      const tick = ticks[nextTick++]!;
      // A moment an event happens at needs no row of its own: the event's row shows it.
      if (!eventTimes.has(tick)) items.push({ kind: 'tick', at: tick, labels: endingAt.get(tick) ?? [] });
    }
  };
  // A command returned after the event it names (the last one recorded when it returned).
  let nextCommand = 0;
  const pendingCommands = [...commands].sort((a, b) => a.seq - b.seq);
  for (const e of shown) {
    pushTicksBefore(e.at, false);
    while (nextCommand < pendingCommands.length && pendingCommands[nextCommand]!.seq < e.seq)
      items.push({ kind: 'command', c: pendingCommands[nextCommand++]! });
    while (nextStep < steps.length && steps[nextStep]!.afterSeq < e.seq)
      items.push({ kind: 'step', step: steps[nextStep++]! });
    for (const x of marks.expected) if (x.beforeSeq === e.seq) items.push({ kind: 'expected', x });
    items.push({ kind: 'event', e });
  }
  while (nextCommand < pendingCommands.length) items.push({ kind: 'command', c: pendingCommands[nextCommand++]! });
  // After the last event: the remaining steps and moments in time order (a step first at the same time).
  while (nextStep < steps.length) {
    pushTicksBefore(t0 + steps[nextStep]!.fromMs, true);
    items.push({ kind: 'step', step: steps[nextStep++]! });
  }
  pushTicksBefore(Number.POSITIVE_INFINITY, true);
  for (const x of marks.expected)
    if (x.beforeSeq === undefined || !bySeq.has(x.beforeSeq)) items.push({ kind: 'expected', x });

  // Which intervals are open on each row: from their start event's row to their end event's (or tick's) row.
  const indexOfSeq = new Map<number, number>();
  items.forEach((it, i) => it.kind === 'event' && indexOfSeq.set(it.e.seq, i));
  // The time of each row (an expected row takes its predecessor's): nondecreasing, so an interval's end moment is found by bisection.
  const itemAt: number[] = [];
  items.forEach((it, i) =>
    itemAt.push(
      Math.max(
        itemAt[i - 1] ?? -Infinity,
        it.kind === 'event'
          ? it.e.at
          : it.kind === 'tick'
            ? it.at
            : it.kind === 'step'
              ? t0 + it.step.fromMs
              : it.kind === 'command'
                ? t0 + it.c.atMs
                : (itemAt[i - 1] ?? t0),
      ),
    ),
  );
  const firstAtOrAfter = (at: number, after: number): number => {
    let lo = after + 1;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (itemAt[mid]! >= at) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const spans = intervals.map((iv, n) => {
    const from = indexOfSeq.get(iv.startSeq) ?? 0;
    let to = items.length - 1;
    if (iv.endSeq !== undefined) to = indexOfSeq.get(iv.endSeq) ?? to;
    else if (iv.endAt !== undefined) to = Math.min(firstAtOrAfter(iv.endAt, from), items.length - 1);
    const start = bySeq.get(iv.startSeq);
    return { iv, from, to, lane: start ? laneOf(start) : 0, slot: n % 3 };
  });
  // A sweep over the rows: the open intervals, one bar per lane, slot and kind (many pods' grace
  // periods on the apiserver's lane draw one bar, not hundreds).
  const opening = new Map<number, typeof spans>();
  const closing = new Map<number, typeof spans>();
  for (const sp of spans) {
    listAt(opening, sp.from).push(sp);
    listAt(closing, sp.to).push(sp);
  }
  const open = new Map<string, { count: number; left: number; kind: string; label: string }>();
  const barsAt = (i: number): string => {
    const starting = opening.get(i) ?? [];
    for (const sp of starting) {
      const key = `${sp.lane} ${sp.slot} ${sp.iv.kind}`;
      const bar = open.get(key) ?? {
        count: 0,
        left: center(sp.lane) + BAR_OFFSET + sp.slot * BAR_STEP,
        kind: sp.iv.kind,
        label: sp.iv.label,
      };
      bar.count++;
      open.set(key, bar);
    }
    const ending = closing.get(i) ?? [];
    // Most rows open and close no interval: no sets of keys to build for them.
    const startKeys =
      starting.length === 0 ? NO_KEYS : new Set(starting.map((sp) => `${sp.lane} ${sp.slot} ${sp.iv.kind}`));
    const endKeys = ending.length === 0 ? NO_KEYS : new Set(ending.map((sp) => `${sp.lane} ${sp.slot} ${sp.iv.kind}`));
    let html = '';
    for (const [key, bar] of open) {
      const ends =
        endKeys.has(key) && bar.count === ending.filter((sp) => `${sp.lane} ${sp.slot} ${sp.iv.kind}` === key).length;
      html += `<i class="sd-bar k-${bar.kind}${startKeys.has(key) ? ' sd-bar-from' : ''}${ends ? ' sd-bar-to' : ''}" style="left:${bar.left}px" title="${escapeHtml(bar.label)}"></i>`;
    }
    for (const sp of ending) {
      const key = `${sp.lane} ${sp.slot} ${sp.iv.kind}`;
      const bar = open.get(key);
      if (bar && --bar.count === 0) open.delete(key);
    }
    return html;
  };

  // Narrow lanes take their labels on two staggered lines, each label as wide as two lanes: no label runs into the next.
  const staggered = laneW < LANE_W;
  const out: string[] = [
    `<div class="sd${staggered ? ' sd-staggered' : ''}" style="--lanes-w:${lanes.length * laneW}px;--lane-w:${laneW}px">`,
  ];
  out.push(`<div class="sd-row sd-head"><span class="sd-t"></span><div class="sd-lanes">`);
  lanes.forEach((lane, i) => {
    const w = staggered ? laneW * 2 : laneW;
    out.push(
      `<span class="sd-lane${lane.pod ? ' sd-pod' : ''}${staggered && i % 2 === 1 ? ' sd-lower' : ''}" style="left:${center(i) - w / 2}px;width:${w}px;color:${colorOf(lane.component)}" title="${escapeHtml(lane.pod ? `${lane.component} of pods/${lane.pod}` : lane.component)}">${escapeHtml(lane.component)}${lane.pod ? `<small>${escapeHtml(lane.pod)}</small>` : ''}</span>`,
    );
  });
  out.push('</div><div class="sd-x"></div></div>');

  // Folding: a run of rows that only repeat events seen twice before (a retry loop) goes into one closed section.
  const seen = new Map<string, number>();
  const repeats = items.map((it) => {
    if (it.kind !== 'event') return false;
    const k = shapeOf(it.e);
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    return n >= 2 && !marksOf.has(it.e.seq);
  });

  // A moment an interval ends at, between two repeated rows, belongs to the loop too.
  items.forEach((it, k) => {
    if (it.kind === 'tick' && k > 0 && repeats[k - 1] && repeats[k + 1]) repeats[k] = true;
  });

  let prevAt: number | undefined;
  let prevTime: string | undefined;
  let i = 0;
  while (i < items.length) {
    let j = i;
    while (j < items.length && repeats[j]) j++;
    if (j - i >= IDLE_RUN) {
      const atOf = (it: Item) => (it.kind === 'event' ? it.e.at : it.kind === 'tick' ? it.at : t0);
      const first = atOf(items[i]!);
      const last = atOf(items[j - 1]!);
      out.push(
        `<details class="sd-idle"><summary>${j - i} rows that repeat earlier events, ${formatOffset(first - t0)} to ${formatOffset(last - t0)} (${formatDuration(last - first)})</summary>`,
      );
      for (let k = i; k < j; k++) renderItem(k);
      out.push('</details>');
      i = j;
      continue;
    }
    renderItem(i);
    i++;
  }
  out.push('</div>');
  return out.join('');

  function renderItem(index: number): void {
    const it = items[index]!;
    const at =
      it.kind === 'event'
        ? it.e.at
        : it.kind === 'tick'
          ? it.at
          : it.kind === 'step'
            ? t0 + it.step.fromMs
            : it.kind === 'command'
              ? t0 + it.c.atMs
              : undefined;
    if (at !== undefined && prevAt !== undefined && at - prevAt >= 1000)
      out.push(`<div class="sd-gap">… ${formatDuration(at - prevAt)} later</div>`);
    if (at !== undefined) prevAt = at;
    const bars = barsAt(index);
    if (it.kind === 'step') {
      const { step } = it;
      const took =
        step.toMs > step.fromMs
          ? ` <span class="sd-took">${formatOffset(step.fromMs)} → ${formatOffset(step.toMs)}</span>`
          : '';
      out.push(
        `<div class="sd-row sd-step"><span class="sd-t">${formatOffset(step.fromMs)}</span><div class="sd-lanes">${bars}</div><div class="sd-x"><b>${escapeHtml(step.keyword)}</b> ${escapeHtml(step.text)}${took}</div></div>`,
      );
      prevTime = undefined;
      return;
    }
    if (it.kind === 'tick') {
      // A moment the clock has not reached when the scenario ended: due, not past.
      const due = it.at > end ? ' <span class="sd-due">(due after the end of the timeline)</span>' : '';
      out.push(
        `<div class="sd-row sd-tick"><span class="sd-t">${formatOffset(it.at - t0)}</span><div class="sd-lanes">${bars}</div><div class="sd-x">${it.labels.map((l) => `<span class="sd-ends">ends: ${escapeHtml(l)}</span>`).join(' ')}${due}</div></div>`,
      );
      return;
    }
    if (it.kind === 'command') {
      const { c } = it;
      const gaveUp = c.exitCode !== 0;
      const lane = laneOfComponent('kubectl');
      const printed = [c.stdout.trimEnd(), c.stderr.trimEnd()].filter((t) => t !== '').join('\n');
      const what = gaveUp
        ? `<span class="sd-badge">kubectl gave up</span> exit code ${c.exitCode}`
        : `kubectl returned, exit code ${c.exitCode}`;
      out.push(
        `<div class="sd-row sd-command${gaveUp ? ' sd-gaveup' : ''}"><span class="sd-t">${formatOffset(c.atMs)}</span><div class="sd-lanes">${bars}<i class="sd-dot sd-end" style="left:${center(lane)}px"></i></div><div class="sd-x">${what} <span class="sd-actor">· ${escapeHtml(c.line)}</span>${printed ? `<pre class="sd-printed">${escapeHtml(printed)}</pre>` : ''}</div></div>`,
      );
      prevTime = undefined;
      return;
    }
    if (it.kind === 'expected') {
      const lane = laneOfComponent(it.x.component);
      out.push(
        `<div class="sd-row sd-expected"><span class="sd-t"></span><div class="sd-lanes">${bars}<i class="sd-dot sd-hollow" style="left:${center(lane)}px;border-color:${colorOf(it.x.component)}"></i></div><div class="sd-x"><span class="sd-badge">✗</span> ${escapeHtml(it.x.note)}</div></div>`,
      );
      return;
    }
    const { e } = it;
    const time = formatOffset(e.at - t0);
    const classes = ['sd-row'];
    const rowMarks = marksOf.get(e.seq) ?? [];
    // An echo row an assertion marked stays in view in the compact view.
    if (request.has(e.seq) && rowMarks.length === 0) classes.push('sd-echo');
    if (e.at < t0) classes.push('sd-setup');
    if (prevTime === time) classes.push('sd-same');
    if (rowMarks.some((m) => m.kind === 'mismatch')) classes.push('sd-mismatch');
    else if (rowMarks.length > 0) classes.push('sd-matched');
    prevTime = time;

    const lane = laneOf(e);
    const x = center(lane);
    const c = cause.get(e.seq);
    let glyphs = `<i class="sd-dot${dotColor(e.component)}" style="left:${x}px${COLORS[e.component] ? '' : `;background:${colorOf(e.component)}`}"></i>`;
    const byEvent = c?.by === undefined ? undefined : bySeq.get(c.by);
    const fromLane =
      c === undefined ? lane : byEvent && byEvent.component === c.from ? laneOf(byEvent) : laneOfComponent(c.from);
    if (c !== undefined && fromLane !== lane) {
      const from = center(fromLane);
      const dir = from < x ? 'sd-right' : 'sd-left';
      // The arrow stops short of the receiver's dot, so its head stays visible.
      const left = from < x ? from : x + ARROW_GAP;
      glyphs = `<i class="sd-arrow ${dir}" style="left:${left}px;width:${Math.abs(x - from) - ARROW_GAP}px" title="${escapeHtml(`${c.from} → ${e.component}`)}"></i>${glyphs}`;
    }
    out.push(
      `<div class="${classes.join(' ')}" data-seq="${e.seq}">`,
      `<span class="sd-t">${time}</span><div class="sd-lanes">${bars}${glyphs}</div>`,
      textColumn(e, index, rowMarks),
    );
  }

  /** An event row's text column, rendered once for every rendering that shares options.rowTexts. */
  function textColumn(e: TimelineEvent, index: number, rowMarks: readonly RowMark[]): string {
    const kept = options.rowTexts?.get(e.seq);
    if (kept !== undefined) return kept;
    const starts = (opening.get(index) ?? [])
      .map((s) => `<span class="sd-ibar k-${s.iv.kind}">${escapeHtml(s.iv.label)}</span> `)
      .join('');
    const badges = rowMarks
      .map((m) => `<span class="sd-badge">${m.kind === 'matched' ? '✓' : '✗'} ${escapeHtml(m.note)}</span> `)
      .join('');
    const actor = e.actor === undefined ? '' : ` <span class="sd-actor">· ${escapeHtml(e.actor)}</span>`;
    const outcome = e.outcome === undefined ? '' : ` <span class="sd-out">→ ${escapeHtml(e.outcome)}</span>`;
    const patch = e.patch === undefined ? '' : renderPatch(e.patch, t0);
    const folded = echoes.get(e.seq);
    const fold = folded === undefined ? '' : renderFold(folded, t0);
    const text = `<div class="sd-x">${badges}${starts}<span class="sd-text">${escapeHtml(e.text)}</span>${actor}${outcome}${patch}${fold}</div></div>`;
    options.rowTexts?.set(e.seq, text);
    return text;
  }
}

/** A write's field changes, one operation a line; values are shown whole, timestamps with their T+ offset. */
function renderPatch(all: readonly Operation[], t0: number): string {
  // managedFields (server-side apply's bookkeeping, rewritten by every write of a client that sends a field manager) is never shown as a change, as kubectl hides it.
  const ops = all.filter(
    (op) =>
      !op.path.startsWith('/metadata/managedFields') &&
      !('from' in op && op.from.startsWith('/metadata/managedFields')),
  );
  if (ops.length === 0)
    return `<div class="sd-patch">no field changes${all.length > 0 ? ' (besides managedFields)' : ''}</div>`;
  const lines = ops.map((op) => `<div>${escapeHtml(describeOperation(op, t0))}</div>`);
  if (lines.length <= SHOWN_OPS + 1) return `<div class="sd-patch">${lines.join('')}</div>`;
  return `<div class="sd-patch">${lines.slice(0, SHOWN_OPS).join('')}<details><summary>${lines.length - SHOWN_OPS} more changes</summary>${lines.slice(SHOWN_OPS).join('')}</details></div>`;
}

/** What the compact view shows instead of a request's echo rows: the writes (with their changes) and watch events. */
function renderFold(echo: readonly TimelineEvent[], t0: number): string {
  const steps = echo.map((e) => `${e.component} ${e.text}`).join(', ');
  const patches = echo
    .filter((e) => e.patch !== undefined)
    .map((e) => renderPatch(e.patch!, t0))
    .join('');
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

/**
 * Escapes `& < > " '` for HTML text and attribute values. Most texts of a report have none of
 * them (an event's text, a lane's name): those are returned as they are, without the replace's
 * scan and copy — the report renders every text of every scenario, hundreds of thousands.
 */
export function escapeHtml(s: string): string {
  return HAS_SPECIAL.test(s) ? s.replace(SPECIALS, entityOf) : s;
}

const HAS_SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;
const entityOf = (c: string): string => ENTITIES[c] ?? c;

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
