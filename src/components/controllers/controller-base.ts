import type { ApiServer, ClientIdentity } from '../../apiserver/apiserver';
import type { ApiClient } from '../../client/client';
import { EventRecorder } from '../../client/event-recorder';
import type { Event } from '../../apimachinery/types';
import type { Clock } from '../../foundation/clock';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { ControllerContext } from './controller-manager';

/**
 * What a controller keeps of its ControllerContext: the clock, the timeline it writes its
 * decisions to, the apiserver it reads, the client bound to its own name that it writes through
 * (ctx.clientFor) and the release it models (its informers it takes from the context's factory in
 * its own constructor).
 */
export abstract class ControllerBase {
  protected readonly clock: Clock;
  protected readonly timeline: Timeline;
  protected readonly api: ApiServer;
  protected readonly client: ApiClient;
  protected readonly release: Release;

  constructor(ctx: ControllerContext, identity: ClientIdentity) {
    this.clock = ctx.clock;
    this.timeline = ctx.timeline;
    this.api = ctx.api;
    this.client = ctx.clientFor(identity);
    this.release = ctx.release;
  }

  /**
   * An EventRecorder whose Events this controller's own client creates, as a controller's
   * record.EventBroadcaster sinks into its clientset (NewRecorder with its EventSource).
   */
  protected eventRecorder(source: NonNullable<Event['source']>, nameInfix: string): EventRecorder {
    return new EventRecorder(
      source,
      nameInfix,
      () => this.clock.now(),
      (e) => this.client.create('events', e.metadata.namespace, e),
    );
  }
}
