import type { GatewayEventBus } from './event-bus.js';

/** Longest an open Usage view lags behind the rows written, and the fewest milliseconds between two notices. */
export const USAGE_NOTICE_INTERVAL_MS = 1000;

/**
 * Tells the UI that usage rows were written (`invalidate` topic `usage`), at most once per interval:
 * under load batches land twenty times a second, and each notice makes every open Usage view refetch
 * its aggregates. The first write after a quiet interval is told at once; writes within the interval
 * are told together at its end. Rows written when the database lock is released, which came with no
 * traffic event, are told like any other batch.
 */
export class UsageNotice {
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bus: GatewayEventBus,
    private readonly intervalMs = USAGE_NOTICE_INTERVAL_MS,
  ) {}

  /** Notes that rows were written; costs a comparison when a notice is already due. */
  readonly written = (): void => {
    if (this.timer !== undefined || !this.bus.active) return;
    const wait = this.lastSentAt + this.intervalMs - performance.now();
    if (wait <= 0) return this.send();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, wait);
    this.timer.unref();
  };

  /** Drops a pending notice (the gateway is closing). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private send(): void {
    this.lastSentAt = performance.now();
    this.bus.invalidate('usage');
  }
}
