import type { Timeline } from '../foundation/timeline/timeline';
import type { RequestRecord, Resource } from './request-types';

/**
 * The mutating requests the apiserver has served, numbered from 1, for "what did the last request
 * change" and the report: every one while the timeline keeps its events, else only the last one;
 * a compaction that drops history drops the records of the requests before it (R207).
 */
export class RequestLog {
  private readonly records: RequestRecord[] = [];
  /** How many requests have been numbered. */
  count = 0;
  /** Records dropped with compacted history. */
  private dropped = 0;

  constructor(private readonly timeline: Timeline) {}

  /** A new request, numbered and recorded (its response comes later). */
  begin(verb: string, resource: Resource, namespace: string | undefined, name: string, revisionBefore: number) {
    // `response` has its slot from the start: the record is kept for the whole run, and a member
    // added later would need a second allocation for it.
    const record: RequestRecord = {
      id: ++this.count,
      verb,
      resource,
      namespace,
      name,
      revisionBefore,
      response: undefined,
    };
    if (!this.timeline.keepsEvents) this.records.length = 0;
    this.records.push(record);
    return record;
  }

  /** The last request leaves no trace (it will run again: a webhook's answer was pending). */
  forgetLast(): void {
    this.records.pop();
    this.count -= 1;
  }

  get(id: number): RequestRecord | undefined {
    const r = this.records[this.timeline.keepsEvents ? id - 1 - this.dropped : 0];
    return r?.id === id ? r : undefined;
  }

  get last(): RequestRecord | undefined {
    return this.records[this.records.length - 1];
  }

  /** R207: the compactor (compaction.ts) drops the records of the history it compacts. */
  dropBefore(revision: number): void {
    let drop = 0;
    while (drop < this.records.length && this.records[drop].revisionBefore < revision) drop++;
    if (this.timeline.keepsEvents && drop > 0) {
      this.records.splice(0, drop);
      this.dropped += drop;
    }
  }
}
