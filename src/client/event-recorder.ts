import { toTime } from '../apimachinery/object';
import type { Event } from '../apimachinery/types';

type ObjectReference = Event['involvedObject'];

/**
 * A component's recorder of core/v1 Events (client-go tools/record EventRecorder): each event is
 * a new Event object with count 1, first and last timestamp now, named after the involved object
 * and a per-recorder counter (upstream adds a random suffix; a counter keeps runs deterministic).
 * `send` delivers it (an API create; the kubelet's drops it while the node is cut off).
 */
export class EventRecorder {
  private counter = 0;

  constructor(
    private readonly source: NonNullable<Event['source']>,
    /** Middle part of the Event names, so recorders of different components never collide. */
    private readonly nameInfix: string,
    private readonly now: () => number,
    private readonly send: (event: Event) => void,
  ) {}

  /** `annotations`: AnnotatedEventf's (the kubelet's eviction Event names the offending containers so). */
  event(
    involvedObject: ObjectReference,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    annotations?: Record<string, string>,
  ): void {
    this.counter += 1;
    const time = toTime(this.now());
    const metadata: Event['metadata'] = {
      name: `${involvedObject.name ?? ''}.${this.nameInfix}.${this.counter}`,
      namespace: involvedObject.namespace ?? 'default',
    };
    if (annotations) metadata.annotations = annotations;
    this.send({
      metadata,
      involvedObject,
      reason,
      message,
      type,
      source: this.source,
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
    });
  }
}
