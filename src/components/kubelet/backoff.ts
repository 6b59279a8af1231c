/**
 * client-go util/flowcontrol Backoff as the kubelet uses it for image pulls (image_manager.go
 * EnsureImageExists) and crash loops: per key, the first failure waits `initialMs`, each next one
 * doubles it up to `maxMs` (kubelet.go: backOffPeriod 10 s, MaxContainerBackOff 300 s).
 */
export class Backoff {
  private readonly entries = new Map<string, { backoffMs: number; lastUpdate: number }>();

  constructor(
    readonly initialMs = 10_000,
    readonly maxMs = 300_000,
  ) {}

  /** Next: a failure at `now` starts or doubles the key's back-off. */
  next(key: string, now: number): void {
    const e = this.entries.get(key);
    const backoffMs = e ? Math.min(e.backoffMs * 2, this.maxMs) : this.initialMs;
    this.entries.set(key, { backoffMs, lastUpdate: now });
  }

  /** IsInBackOffSinceUpdate: the last failure was less than the current back-off ago. */
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const e = this.entries.get(key);
    return !!e && now - e.lastUpdate < e.backoffMs;
  }

  /** IsInBackOffSince: `eventTime` (a container's finish) was less than the current back-off before `now`. */
  isInBackOffSince(key: string, eventTime: number, now: number): boolean {
    const e = this.entries.get(key);
    return !!e && now - eventTime < e.backoffMs;
  }

  /** The key's current back-off (0 if it never failed), for messages. */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }
}

/** A back-off as Go's time.Duration prints it in messages: 10s, 1m20s, 5m0s. */
export function goDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}
