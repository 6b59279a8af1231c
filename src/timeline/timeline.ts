import type { Operation } from 'fast-json-patch';
import type { Clock } from '../clock';
import type { Component, TimelineEvent } from './event';

/**
 * How much a timeline keeps: `full` (every event, for scenarios and their report) or `summary`
 * (a count per component only, for runs of 100 000 pods where nobody reads single events).
 */
export type Recording = 'full' | 'summary';

/** Records what every component does, in order, on the cluster's virtual clock. */
export class Timeline {
  private readonly events: TimelineEvent[] = [];
  private readonly counts = new Map<Component, number>();
  /** One copy of each source text: callers build them per event (`${SOURCE} fn`), a few hundred distinct. */
  private readonly sources = new Map<string, string>();
  private seq = 0;

  constructor(
    private readonly clock: Clock,
    readonly recording: Recording = 'full',
  ) {}

  /** Does this timeline keep its events (and so do the apiserver's request records)? */
  get keepsEvents(): boolean {
    return this.recording === 'full';
  }

  /** How many events were recorded (kept or, in summary mode, only counted). */
  get recorded(): number {
    return this.seq;
  }

  /** Events recorded per component. */
  countsByComponent(): ReadonlyMap<Component, number> {
    return this.counts;
  }

  record(
    component: Component,
    text: string,
    source: string,
    extra: { actor?: string; patch?: () => readonly Operation[] } = {},
  ): TimelineEvent {
    this.seq += 1;
    this.counts.set(component, (this.counts.get(component) ?? 0) + 1);
    const event: TimelineEvent = { seq: this.seq, at: this.clock.now(), component, text, source: this.keepsEvents ? this.intern(source) : source };
    if (extra.actor !== undefined) event.actor = extra.actor;
    // Summary mode: the caller still gets its event (to annotate), but nothing keeps it.
    if (!this.keepsEvents) return event;
    if (extra.patch) {
      // Diffs are computed when someone reads them (a report, an assertion), not on the hot path.
      const compute = extra.patch;
      let memo: readonly Operation[] | undefined;
      Object.defineProperty(event, 'patch', { enumerable: true, get: () => (memo ??= compute()) });
    }
    this.events.push(event);
    return event;
  }

  private intern(source: string): string {
    const shared = this.sources.get(source);
    if (shared !== undefined) return shared;
    this.sources.set(source, source);
    return source;
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
