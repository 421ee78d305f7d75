/** The two budget windows: a UTC calendar minute and a UTC calendar day. */
export type WindowSpan = 'minute' | 'day';

const SPAN_MS: Readonly<Record<WindowSpan, number>> = { minute: 60_000, day: 86_400_000 };

/** Start of the window of `span` that contains `now` (UTC: Unix time has no leap seconds or zones). */
export function windowStart(span: WindowSpan, now: number): number {
  return now - (now % SPAN_MS[span]);
}

/** End of the window of `span` that contains `now`. */
export function windowEnd(span: WindowSpan, now: number): number {
  return windowStart(span, now) + SPAN_MS[span];
}

/**
 * What was used of one budget in its current calendar window. A new window starts at zero; amounts
 * settled for a window that has already ended are dropped (they belong to a closed day or minute).
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
