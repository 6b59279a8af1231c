import type { ApiServer, ClientIdentity } from '../../apiserver/apiserver';
import type { ApiClient } from '../../client/client';
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
}
