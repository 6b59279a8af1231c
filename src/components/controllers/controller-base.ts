import type { ApiServer } from '../../apiserver/apiserver';
import type { Clock } from '../../foundation/clock';
import type { Release } from '../../foundation/release';
import type { Timeline } from '../../foundation/timeline/timeline';
import type { ControllerContext } from './controller-manager';

/**
 * What a controller keeps of its ControllerContext: the clock, the timeline it writes its
 * decisions to, the apiserver it writes through and the release it models (its informers it takes
 * from the context's factory in its own constructor).
 */
export abstract class ControllerBase {
  protected readonly clock: Clock;
  protected readonly timeline: Timeline;
  protected readonly api: ApiServer;
  protected readonly release: Release;

  constructor(ctx: ControllerContext) {
    this.clock = ctx.clock;
    this.timeline = ctx.timeline;
    this.api = ctx.api;
    this.release = ctx.release;
  }
}
