import type { Operation } from 'fast-json-patch';
import type { Clock } from '../clock';
import { COMPONENTS, type Component, type TimelineEvent } from './event';

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

type NumberArray = Float64Array | Uint32Array | Uint8Array;

/** Each component's number in the store (its place in COMPONENTS), looked up once per event. */
const COMPONENT_INDEX = new Map<Component, number>(COMPONENTS.map((c, i) => [c, i]));

/** One field of every event, in a typed array that doubles when full. */
class Column<A extends NumberArray> {
  private data: A;

  constructor(private readonly make: (length: number) => A) {
    this.data = make(256);
  }

  get(i: number): number {
    return this.data[i];
  }

  /** Moves entries [n, length) to the front (the first n are dropped). */
  dropFront(n: number, length: number): void {
    this.data.copyWithin(0, n, length);
  }

  set(i: number, value: number): void {
    if (i >= this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[i] = value;
  }
}

/**
 * The kept events, one column per field (an event is an index): numbers in typed arrays, strings
 * (sources, actors, outcomes: a few hundred distinct) stored once and referred to by number, and
 * for revision events only the revision. Text and patches are built when someone reads them.
 */
class EventStore {
  length = 0;
  /** Events dropped from the front (forgetUntil): the event at index i has seq dropped + i + 1. */
  dropped = 0;
  /** Offsets are from the clock's epoch. */
  constructor(readonly epoch: number) {}

  readonly offsets = new Column((n) => new Float64Array(n));
  readonly components = new Column((n) => new Uint8Array(n));
  readonly sources = new Column((n) => new Uint32Array(n));
  /** 0: none; else 1 + the string's number. */
  readonly actors = new Column((n) => new Uint32Array(n));
  readonly outcomes = new Column((n) => new Uint32Array(n));
  /** NaN: none. */
  readonly requestIds = new Column((n) => new Float64Array(n));
  /** 0: the body is the text; else 1 + the reader's number, and the body is a revision. */
  readonly readerIds = new Column((n) => new Uint8Array(n));
  /** The text, or the revision a reader describes. */
  readonly bodies: (string | number)[] = [];
  readonly strings: string[] = [];
  readonly readers: RevisionReader[] = [];
  private readonly stringIds = new Map<string, number>();

  add(
    offset: number,
    /** The component's number (COMPONENT_INDEX). */
    component: number,
    body: string | number,
    source: string,
    reader: RevisionReader | undefined,
    actor: string | undefined,
  ): number {
    const i = this.length++;
    this.offsets.set(i, offset);
    this.components.set(i, component);
    this.bodies.push(body);
    this.sources.set(i, this.stringId(source));
    this.actors.set(i, actor === undefined ? 0 : 1 + this.stringId(actor));
    this.outcomes.set(i, 0);
    this.requestIds.set(i, NaN);
    this.readerIds.set(i, reader === undefined ? 0 : 1 + this.readerId(reader));
    return i;
  }

  /** Drops the events from index `length` on (their interned strings stay: they are few). */
  truncate(length: number): void {
    this.length = length;
    this.bodies.length = length;
  }

  /** Drops the first `n` events. */
  dropFront(n: number): void {
    for (const c of [
      this.offsets,
      this.components,
      this.sources,
      this.actors,
      this.outcomes,
      this.requestIds,
      this.readerIds,
    ])
      c.dropFront(n, this.length);
    this.bodies.splice(0, n);
    this.length -= n;
    this.dropped += n;
  }

  stringId(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.push(s) - 1;
      this.stringIds.set(s, id);
    }
    return id;
  }

  /** 0 → undefined, n → the string numbered n − 1. */
  optionalString(ref: number): string | undefined {
    return ref === 0 ? undefined : this.strings[ref - 1];
  }

  private readerId(reader: RevisionReader): number {
    const id = this.readers.indexOf(reader);
    return id >= 0 ? id : this.readers.push(reader) - 1;
  }
}

/** One kept event: a view of its index in the store. */
class RecordedEvent implements TimelineEvent {
  constructor(
    private readonly store: EventStore,
    private readonly index: number,
  ) {}

  get seq(): number {
    return this.store.dropped + this.index + 1;
  }

  get at(): number {
    return this.store.epoch + this.store.offsets.get(this.index);
  }

  get component(): Component {
    return COMPONENTS[this.store.components.get(this.index)];
  }

  get text(): string {
    const body = this.store.bodies[this.index];
    return typeof body === 'string' ? body : this.reader!.text(body);
  }

  get source(): string {
    return this.store.strings[this.store.sources.get(this.index)];
  }

  get actor(): string | undefined {
    return this.store.optionalString(this.store.actors.get(this.index));
  }

  set actor(actor: string | undefined) {
    this.store.actors.set(this.index, actor === undefined ? 0 : 1 + this.store.stringId(actor));
  }

  get patch(): readonly Operation[] | undefined {
    const body = this.store.bodies[this.index];
    return typeof body === 'number' ? this.reader!.patch(body) : undefined;
  }

  get requestId(): number | undefined {
    const id = this.store.requestIds.get(this.index);
    return Number.isNaN(id) ? undefined : id;
  }

  set requestId(id: number | undefined) {
    this.store.requestIds.set(this.index, id ?? NaN);
  }

  get outcome(): string | undefined {
    return this.store.optionalString(this.store.outcomes.get(this.index));
  }

  set outcome(outcome: string | undefined) {
    this.store.outcomes.set(this.index, outcome === undefined ? 0 : 1 + this.store.stringId(outcome));
  }

  private get reader(): RevisionReader | undefined {
    const id = this.store.readerIds.get(this.index);
    return id === 0 ? undefined : this.store.readers[id - 1];
  }

  /** The same JSON as a plain event object (what run-against-run comparisons read). */
  toJSON(): object {
    return {
      seq: this.seq,
      at: this.at,
      component: this.component,
      text: this.text,
      source: this.source,
      actor: this.actor,
      patch: this.patch,
      requestId: this.requestId,
      outcome: this.outcome,
    };
  }
}

/** An event of a summary-mode timeline: handed to its caller (to annotate), kept by no one. */
class UnkeptEvent implements TimelineEvent {
  requestId: number | undefined = undefined;
  outcome: string | undefined = undefined;

  constructor(
    readonly seq: number,
    readonly at: number,
    readonly component: Component,
    private readonly body: string | number,
    readonly source: string,
    private readonly reader: RevisionReader | undefined,
    public actor: string | undefined,
  ) {}

  get text(): string {
    return typeof this.body === 'string' ? this.body : this.reader!.text(this.body);
  }
}

/** Records what every component does, in order, on the cluster's virtual clock. */
export class Timeline {
  private readonly store: EventStore;
  /** Events recorded per component, by its number (COMPONENT_INDEX): a typed-array slot per event, not a Map read and write. */
  private readonly counts = new Float64Array(COMPONENTS.length);
  /** The components in the order of their first event (countsByComponent's order). */
  private readonly seen: Component[] = [];
  private seq = 0;
  /** The components recorded since the open checkpoint, to take back on rollback. */
  private journal: Component[] | undefined;

  constructor(
    private readonly clock: Clock,
    readonly recording: Recording = 'full',
  ) {
    this.store = new EventStore(clock.epoch);
  }

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
    return new Map(this.seen.map((c) => [c, this.counts[COMPONENT_INDEX.get(c)!]]));
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

  /**
   * `record` for a caller that does not annotate the event afterwards: nothing is handed back, so
   * no view object is built per event (in summary mode nothing is allocated at all). The busiest
   * lanes (etcd, watch, the kubelet's config merge) record this way.
   */
  note(component: Component, text: string, source: string, actor?: string): void {
    const c = this.count(component);
    if (this.keepsEvents) this.store.add(this.clock.now() - this.store.epoch, c, text, source, undefined, actor);
  }

  /** `recordRevision` without an event handed back (see note). */
  noteRevision(component: Component, revision: number, reader: RevisionReader, source: string): void {
    const c = this.count(component);
    if (this.keepsEvents) this.store.add(this.clock.now() - this.store.epoch, c, revision, source, reader, undefined);
  }

  /**
   * Opens a checkpoint: the events recorded from now on can be taken back (rollback) or kept
   * (release). For a request that stops before it changed anything and will run again (a webhook
   * call the HTTP layer still has to make, webhook/caller.ts WebhookCallPending).
   */
  checkpoint(): number {
    this.journal = [];
    return this.seq;
  }

  /** Keeps what was recorded since the checkpoint. */
  release(): void {
    this.journal = undefined;
  }

  /** Forgets every event recorded since `checkpoint` returned `mark`. */
  rollback(mark: number): void {
    for (const c of this.journal ?? []) this.counts[COMPONENT_INDEX.get(c)!] -= 1;
    this.journal = undefined;
    this.seq = mark;
    if (this.keepsEvents) this.store.truncate(mark - this.store.dropped);
  }

  /** How many of the first events were dropped (forgetUntil). */
  get forgotten(): number {
    return this.store.dropped;
  }

  /**
   * Drops the kept events recorded at or before `atMs`: a long `serve` session keeps what
   * happened since etcd's last compaction (the history its revision events read their text
   * from), so its memory does not grow with every event ever recorded. Counts stay whole.
   */
  forgetUntil(atMs: number): void {
    if (!this.keepsEvents) return;
    const offset = atMs - this.store.epoch;
    let lo = 0;
    let hi = this.store.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.store.offsets.get(mid) <= offset) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) this.store.dropFront(lo);
  }

  private add(
    component: Component,
    body: string | number,
    source: string,
    reader: RevisionReader | undefined,
    actor: string | undefined,
  ): TimelineEvent {
    const c = this.count(component);
    if (!this.keepsEvents) return new UnkeptEvent(this.seq, this.clock.now(), component, body, source, reader, actor);
    // Every event is kept, so an event's seq is the dropped ones plus its index + 1.
    return new RecordedEvent(
      this.store,
      this.store.add(this.clock.now() - this.store.epoch, c, body, source, reader, actor),
    );
  }

  /** One more event of `component` (its sequence number, its count, the open checkpoint's journal); returns its number. */
  private count(component: Component): number {
    this.seq += 1;
    this.journal?.push(component);
    const i = COMPONENT_INDEX.get(component)!;
    // A component keeps its place once seen, even if a rollback takes its count back to 0.
    if (this.counts[i] === 0 && !this.seen.includes(component)) this.seen.push(component);
    this.counts[i] += 1;
    return i;
  }

  /** Adds the outcome of a request to the event that recorded its arrival. */
  annotate(event: TimelineEvent, outcome: string): void {
    event.outcome = outcome;
  }

  all(): readonly TimelineEvent[] {
    return this.views(0);
  }

  /** Events at or after `atMs` (e.g. everything from T+0 on). */
  since(atMs: number): TimelineEvent[] {
    // Events are in time order (the clock never goes back): the first one at or after atMs, by bisection.
    const offset = atMs - this.store.epoch;
    let lo = 0;
    let hi = this.store.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.store.offsets.get(mid) < offset) lo = mid + 1;
      else hi = mid;
    }
    return this.views(lo);
  }

  private views(from: number): RecordedEvent[] {
    const out: RecordedEvent[] = [];
    for (let i = from; i < this.store.length; i++) out.push(new RecordedEvent(this.store, i));
    return out;
  }
}
