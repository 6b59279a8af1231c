import type { Operation } from 'fast-json-patch';
import type { Component, TimelineEvent } from '../../foundation/timeline/event';
import type { CommandRun, DiagramMarks, StepSpan } from '../../foundation/timeline/sequence-diagram';

export type { CommandRun, StepSpan };
import { formatOffset } from '../../foundation/timeline/time';

/**
 * What a scenario leaves for its report, attached as `timeline.json`: every event with its time
 * from T+0 (`at`, in the report's notation, and `ms`), T+0's absolute time, what the assertions
 * matched, and the objects left in the API. The report page is rendered from this data when the
 * run ends, so a scenario only pays for serialising it.
 */
export interface ScenarioTimeline {
  /** T+0 as an RFC 3339 time (with milliseconds only when it has some). */
  readonly t0: string;
  readonly events: readonly TimelineRecord[];
  readonly marks: DiagramMarks;
  /** The pods left in the API, as YAML. */
  readonly finalObjects: string;
  /** The steps from T+0 on, each with the stretch of the timeline it covered. */
  readonly steps?: readonly StepSpan[];
}

export interface TimelineRecord {
  readonly seq: number;
  /** `T+1m2s`: when, from T+0 (negative for setup). */
  readonly at: string;
  /** The same, in milliseconds. */
  readonly ms: number;
  readonly component: Component;
  readonly text: string;
  readonly source: string;
  readonly actor?: string;
  readonly requestId?: number;
  readonly outcome?: string;
  readonly patch?: readonly Operation[];
}

export const TIMELINE_FILE = 'timeline.json';

export function toScenarioTimeline(
  events: readonly TimelineEvent[],
  t0: number,
  marks: DiagramMarks,
  finalObjects: string,
  steps?: readonly StepSpan[],
): ScenarioTimeline {
  return {
    ...(steps && steps.length > 0 ? { steps } : {}),
    t0: new Date(t0).toISOString().replace('.000Z', 'Z'),
    events: events.map((e) => {
      const { seq, component, text, source, actor, requestId, outcome, patch } = e;
      return {
        seq,
        at: formatOffset(e.at - t0),
        ms: e.at - t0,
        component,
        text,
        source,
        actor,
        requestId,
        outcome,
        patch,
      };
    }),
    marks,
    finalObjects,
  };
}

/** The events back on the virtual clock (absolute milliseconds), with T+0, for the renderers. */
export function eventsOf(data: ScenarioTimeline): { t0: number; events: TimelineEvent[] } {
  const t0 = Date.parse(data.t0);
  return { t0, events: data.events.map((record) => onClock(record, t0)) };
}

/**
 * One record as an event: its fields but `at` and `ms`, in their order, then `at` on the clock.
 * Written out rather than as `({ ms, at, ...rest }) => ({ ...rest, at })`, which builds the same
 * object at several times the cost (the report turns every scenario's events, tens of thousands).
 */
function onClock(record: TimelineRecord, t0: number): TimelineEvent {
  const event: Record<string, unknown> = {};
  for (const key in record) if (key !== 'at' && key !== 'ms') event[key] = record[key as keyof TimelineRecord];
  event.at = t0 + record.ms;
  return event as unknown as TimelineEvent;
}
