import type { Operation } from 'fast-json-patch';
import type { Clock } from '../clock';
import type { Component, TimelineEvent } from './event';

/** Records what every component does, in order, on the cluster's virtual clock. */
export class Timeline {
  private readonly events: TimelineEvent[] = [];

  constructor(private readonly clock: Clock) {}

  record(
    component: Component,
    text: string,
    source: string,
    extra: { actor?: string; patch?: () => readonly Operation[] } = {},
  ): TimelineEvent {
    const event: TimelineEvent = { seq: this.events.length + 1, at: this.clock.now(), component, text, source };
    if (extra.actor !== undefined) event.actor = extra.actor;
    if (extra.patch) {
      // Diffs are computed when someone reads them (a report, an assertion), not on the hot path.
      const compute = extra.patch;
      let memo: readonly Operation[] | undefined;
      Object.defineProperty(event, 'patch', { enumerable: true, get: () => (memo ??= compute()) });
    }
    this.events.push(event);
    return event;
  }

  /** Adds the outcome of a request to the event that recorded its arrival. */
  annotate(event: TimelineEvent, outcome: string): void {
    event.outcome = outcome;
  }

  all(): readonly TimelineEvent[] {
    return this.events;
  }

  /** Events at or after `atMs` (e.g. everything from T+0 on). */
  since(atMs: number): TimelineEvent[] {
    return this.events.filter((e) => e.at >= atMs);
  }
}
