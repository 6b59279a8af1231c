import { EventEmitter } from 'node:events';

/**
 * What the HTTP clients are doing right now: requests in flight and open watches. A clock that
 * jumps (`--clock jump`) may move virtual time on only while no request is in flight; it listens
 * for 'idle' (the last request in flight has ended) to try again.
 *
 * Events: 'request-start' (with the path of a GET of one object, when it is one) and 'request-end'
 * (each request, watches included, the end of a watch being its response head: the stream itself
 * is not "in flight"), 'idle', 'watch-open',
 * 'watch-close', 'watch-done' (see WatchStream.sawDeletion).
 */
export class ApiActivity extends EventEmitter {
  private requests = 0;
  private watches = 0;
  private waitingStreams = 0;

  /** Requests received whose response is not complete yet (a watch counts until its headers are out). */
  get inFlight(): number {
    return this.requests;
  }

  /** Watch streams open now. */
  get openWatches(): number {
    return this.watches;
  }

  /**
   * A request arrived. `objectGet` is the path of a GET of one object by name (not a list, a
   * watch or discovery), which a clock that jumps for polling clients counts (JumpClock).
   */
  requestStarted(objectGet?: string): void {
    this.requests += 1;
    this.emit('request-start', objectGet);
  }

  requestEnded(): void {
    this.requests -= 1;
    this.emit('request-end');
    if (this.requests === 0) this.emit('idle');
  }

  /**
   * Watch streams open now that still wait for news: all but the watches of one object by name
   * that have delivered its deletion (kubectl's wait ends there; only closing the stream is left).
   */
  get waitingWatches(): number {
    return this.waitingStreams;
  }

  /** A watch stream opened. */
  watchOpened(): WatchStream {
    this.watches += 1;
    this.waitingStreams += 1;
    this.emit('watch-open');
    let open = true;
    let waiting = true;
    const done = () => {
      if (!waiting) return;
      waiting = false;
      this.waitingStreams -= 1;
    };
    return {
      close: () => {
        if (!open) return;
        open = false;
        done();
        this.watches -= 1;
        this.emit('watch-close');
      },
      sawDeletion: () => {
        if (!open || !waiting) return;
        done();
        this.emit('watch-done');
      },
    };
  }
}

/** One open watch stream, as the activity tracker counts it. */
export interface WatchStream {
  /** The stream ended (the client left, or its timeout passed); once. */
  close(): void;
  /** The object a by-name watch follows is gone (its DELETED went out): the stream waits for nothing more. */
  sawDeletion(): void;
}
