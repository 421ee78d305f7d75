import type { TrafficEvent } from '../../../shared/gateway-api.js';

/** How many requests the UI keeps; older ones drop off the end. */
export const TRAFFIC_CAPACITY = 5000;

/** How often queued events are published: at most ten renders a second, whatever the request rate. */
export const PUBLISH_INTERVAL_MS = 100;

/**
 * When a request finished: the list is in the order requests finish (as they arrive, the newest on
 * top; a long stream that started earlier lands above the short ones that finished before it), so
 * it shows this time, never the start, and the two agree.
 */
export function finishedAt(event: TrafficEvent): string {
  const started = Date.parse(event.started_at);
  return Number.isNaN(started) ? event.started_at : new Date(started + event.latency_ms).toISOString();
}

/** Requests the gateway dropped from its own buffer before this view received them, summed over every gap. */
export interface MissedRequests {
  readonly count: number;
  /** When the last request received before the first gap finished: the missed ones finished after it. */
  readonly since: string;
  /** How many requests the gateway keeps (`gateway.traffic_buffer`), once it has said. */
  readonly gatewayCapacity: number | undefined;
}

/**
 * The UI's own buffer of traffic events (metadata only: the stream and backfill it is fed from leave
 * the bodies out), newest first. Events arriving from the stream are queued
 * and published in batches every {@link PUBLISH_INTERVAL_MS}, so 200 requests per second cost ten
 * renders a second, not 200. Pausing the view does not pause the buffer: nothing is lost.
 */
export class TrafficBuffer {
  private events: readonly TrafficEvent[] = [];
  private readonly pending: TrafficEvent[] = [];
  private readonly seen = new Set<number>();
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private connectedNow = false;
  private connectedShown = false;
  private missedNow: MissedRequests | undefined;
  private missedShown: MissedRequests | undefined;
  private gatewayCapacity: number | undefined;
  private held: readonly TrafficEvent[] | undefined;

  /**
   * Whether the live stream is connected, as of the last publish: a render between the stream
   * opening and the next publish must not say "Live" over a list the backfill has not reached yet.
   */
  get connected(): boolean {
    return this.connectedShown;
  }

  /** The events, newest first (a new array after each publish). */
  snapshot = (): readonly TrafficEvent[] => this.events;

  /**
   * The requests missed so far, as of the last publish (with the events that followed them), until
   * {@link dismissMissed}.
   */
  missed = (): MissedRequests | undefined => this.missedShown;

  /**
   * The events as they stood when the view was paused, until it is resumed (undefined while live). The
   * buffer holds them, not the screen, so leaving Live traffic and coming back finds it paused on the same rows.
   */
  paused = (): readonly TrafficEvent[] | undefined => this.held;

  /** Pauses the view on the events published so far, or resumes it. */
  togglePause(): void {
    this.held = this.held ? undefined : this.events;
    this.listeners.forEach((listener) => listener());
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The newest sequence number held, to resume the stream after it. */
  lastSeq(): number {
    // Queued events are in arrival order, and a backfill arrives newest first: look at all of them.
    return this.pending.reduce((newest, event) => Math.max(newest, event.seq), this.events[0]?.seq ?? 0);
  }

  /** Queues events (any order; duplicates by `seq` ignored). */
  add(events: readonly TrafficEvent[]): void {
    for (const event of events) {
      if (this.seen.has(event.seq)) continue;
      this.seen.add(event.seq);
      this.pending.push(event);
    }
    this.schedule();
  }

  /** Remembers how many requests the gateway keeps, for the notice of missed ones. */
  setGatewayCapacity(capacity: number): void {
    this.gatewayCapacity = capacity;
  }

  /**
   * Counts `count` requests the gateway dropped after the one numbered `after` before this view
   * received them; they add up across gaps until dismissed.
   */
  addMissed(count: number, after: number): void {
    if (count <= 0) return;
    const since = this.missedNow?.since ?? this.finishedAt(after) ?? new Date().toISOString();
    this.missedNow = { count: (this.missedNow?.count ?? 0) + count, since, gatewayCapacity: this.gatewayCapacity };
    this.schedule();
  }

  /** When the request numbered `seq` finished, while the buffer holds it. */
  private finishedAt(seq: number): string | undefined {
    const numbered = (event: TrafficEvent): boolean => event.seq === seq;
    const found = this.pending.find(numbered) ?? this.events.find(numbered);
    return found && finishedAt(found);
  }

  /** Forgets the missed requests (the user has read the notice); a later gap starts a new count. */
  dismissMissed(): void {
    this.missedNow = undefined;
    this.missedShown = undefined;
    this.listeners.forEach((listener) => listener());
  }

  setConnected(connected: boolean): void {
    if (this.connectedNow === connected) return;
    this.connectedNow = connected;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => this.flush(), PUBLISH_INTERVAL_MS);
  }

  private flush(): void {
    this.scheduled = false;
    this.connectedShown = this.connectedNow;
    this.missedShown = this.missedNow;
    if (this.pending.length > 0) {
      const incoming = this.pending.splice(0).sort((a, b) => b.seq - a.seq);
      const merged =
        incoming[incoming.length - 1]!.seq > (this.events[0]?.seq ?? -1)
          ? [...incoming, ...this.events]
          : [...incoming, ...this.events].sort((a, b) => b.seq - a.seq);
      for (const dropped of merged.splice(TRAFFIC_CAPACITY)) this.seen.delete(dropped.seq);
      this.events = merged;
    } else {
      this.events = [...this.events];
    }
    this.listeners.forEach((listener) => listener());
  }
}
