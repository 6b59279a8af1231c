import { EventEmitter } from 'node:events';

/**
 * What the HTTP clients are doing right now: requests in flight and open watches. A clock that
 * jumps (`--clock jump`) may move virtual time on only while no request is in flight; it listens
 * for 'idle' (the last request in flight has ended) to try again.
 *
 * Events: 'request-start' and 'request-end' (each request, watches included, the end of a watch
 * being its response head: the stream itself is not "in flight"), 'idle', 'watch-open', 'watch-close'.
 */
export class ApiActivity extends EventEmitter {
  private requests = 0;
  private watches = 0;

  /** Requests received whose response is not complete yet (a watch counts until its headers are out). */
  get inFlight(): number {
    return this.requests;
  }

  /** Watch streams open now. */
  get openWatches(): number {
    return this.watches;
  }

  requestStarted(): void {
    this.requests += 1;
    this.emit('request-start');
  }

  requestEnded(): void {
    this.requests -= 1;
    this.emit('request-end');
    if (this.requests === 0) this.emit('idle');
  }

  /** A watch stream opened; the function returned closes it (once). */
  watchOpened(): () => void {
    this.watches += 1;
    this.emit('watch-open');
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.watches -= 1;
      this.emit('watch-close');
    };
  }
}
