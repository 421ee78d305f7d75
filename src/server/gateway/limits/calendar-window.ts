/** The budget windows: a UTC calendar minute, day and month. */
export type WindowSpan = 'minute' | 'day' | 'month';

const SPAN_MS = { minute: 60_000, day: 86_400_000 } as const;

/**
 * Start of the window of `span` that contains `now` (UTC: Unix time has no leap seconds or zones).
 * Months differ in length, so a month's start is the calendar's, not a multiple of a fixed span.
 */
export function windowStart(span: WindowSpan, now: number): number {
  if (span === 'month') {
    const date = new Date(now);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  return now - (now % SPAN_MS[span]);
}

/** End of the window of `span` that contains `now` (for a month, 00:00 UTC on the 1st of the next). */
export function windowEnd(span: WindowSpan, now: number): number {
  if (span === 'month') {
    const date = new Date(now);
    // Date.UTC carries month 12 over into January of the next year.
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  }
  return windowStart(span, now) + SPAN_MS[span];
}

/**
 * What was used of one budget in its current calendar window. A new window starts at zero; amounts
 * settled for a window that has already ended are dropped (they belong to a closed minute, day or month).
 */
export class CalendarWindow {
  private start: number;
  private used = 0;

  constructor(
    readonly span: WindowSpan,
    now: number,
  ) {
    this.start = windowStart(span, now);
  }

  /** Used so far in the window containing `now`. */
  usedAt(now: number): number {
    this.roll(now);
    return this.used;
  }

  /** Adds `amount` to the window that started at `start` (the current one unless it has ended since). */
  add(amount: number, now: number, start = windowStart(this.span, now)): void {
    this.roll(now);
    if (start === this.start) this.used = Math.max(0, this.used + amount);
  }

  /** The current window's start. */
  startAt(now: number): number {
    this.roll(now);
    return this.start;
  }

  private roll(now: number): void {
    const start = windowStart(this.span, now);
    if (start !== this.start) {
      this.start = start;
      this.used = 0;
    }
  }
}
