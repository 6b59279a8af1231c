import type { Operation } from 'fast-json-patch';
import { EPOCH_MS, type Clock } from '../clock';
import type { Component, TimelineEvent } from './event';

/**
 * How much a timeline keeps: `full` (every event, for scenarios and their report) or `summary`
 * (a count per component only, for runs of 100 000 pods where nobody reads single events).
 */
export type Recording = 'full' | 'summary';

/**
 * Where events about one storage revision (an etcd write, the watch event it becomes) find their
 * text and field changes when read: the revision history owns the old versions, so an event keeps
 * only the revision number.
 */
export interface RevisionReader {
  /** The event's text, e.g. `PUT /registry/pods/default/web rev=12`. */
  text(revision: number): string;
  /** The write's RFC 6902 patch from the previous version, or undefined (a create, a delete, not a write). */
  patch(revision: number): readonly Operation[] | undefined;
}

/**
 * One recorded event in a fixed shape: small numbers, shared strings, and for revision events only
 * the revision; `text` and `patch` are built when someone reads them (a report, an assertion).
 */
class RecordedEvent implements TimelineEvent {
  actor: string | undefined = undefined;
  requestId: number | undefined = undefined;
  outcome: string | undefined = undefined;

  constructor(
    readonly seq: number,
    /** Milliseconds since the clock's epoch: a small integer, where an absolute time would be a boxed double. */
    private readonly offset: number,
    readonly component: Component,
    /** The text, or the revision a reader describes. */
    private readonly body: string | number,
    readonly source: string,
    private readonly reader: RevisionReader | undefined,
  ) {}

  get at(): number {
    return EPOCH_MS + this.offset;
  }

  get text(): string {
    return typeof this.body === 'string' ? this.body : this.reader!.text(this.body);
  }

  get patch(): readonly Operation[] | undefined {
    return typeof this.body === 'number' ? this.reader!.patch(this.body) : undefined;
  }

  /** The same JSON as a plain event object (what invariant 8 compares run against run). */
  toJSON(): object {
    const patch = this.patch;
    return { seq: this.seq, at: this.at, component: this.component, text: this.text, source: this.source, actor: this.actor, patch, requestId: this.requestId, outcome: this.outcome };
  }
}

/** Records what every component does, in order, on the cluster's virtual clock. */
export class Timeline {
  private readonly events: RecordedEvent[] = [];
  private readonly counts = new Map<Component, number>();
  /** One copy of each source text or outcome: callers build them per event (`${SOURCE} fn`), a few hundred distinct. */
  private readonly strings = new Map<string, string>();
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

  record(component: Component, text: string, source: string, extra?: { actor?: string }): TimelineEvent {
    return this.add(component, text, source, undefined, extra?.actor);
  }

  /**
   * Records an event about a storage revision (an etcd write, a watch event): its text, and for
   * a write its field changes, are read from `reader` when someone asks.
   */
  recordRevision(component: Component, revision: number, reader: RevisionReader, source: string): TimelineEvent {
    return this.add(component, revision, source, reader, undefined);
  }

  private add(component: Component, body: string | number, source: string, reader: RevisionReader | undefined, actor: string | undefined): TimelineEvent {
    this.seq += 1;
    this.counts.set(component, (this.counts.get(component) ?? 0) + 1);
    // Summary mode: the caller still gets its event (to annotate), but nothing keeps it.
    const keep = this.keepsEvents;
    const event = new RecordedEvent(this.seq, this.clock.now() - EPOCH_MS, component, body, keep ? this.intern(source) : source, reader);
    if (actor !== undefined) event.actor = actor;
    if (keep) this.events.push(event);
    return event;
  }

  private intern(s: string): string {
    const shared = this.strings.get(s);
    if (shared !== undefined) return shared;
    this.strings.set(s, s);
    return s;
  }

  /** Adds the outcome of a request to the event that recorded its arrival. */
  annotate(event: TimelineEvent, outcome: string): void {
    event.outcome = this.keepsEvents ? this.intern(outcome) : outcome;
  }

  all(): readonly TimelineEvent[] {
    return this.events;
  }

  /** Events at or after `atMs` (e.g. everything from T+0 on). */
  since(atMs: number): TimelineEvent[] {
    return this.events.filter((e) => e.at >= atMs);
  }
}
