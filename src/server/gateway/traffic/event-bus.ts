import type { InvalidateMessage, TrafficEvent } from '../../../shared/gateway-api.js';

/** What the bus carries: finished requests for the traffic view, and admin changes for cache invalidation. */
export type GatewayBusMessage =
  | {
      readonly kind: 'traffic';
      /** The request with its bodies (parsed and redacted when first read). */
      readonly event: TrafficEvent;
      /** The request without its bodies, for subscribers that asked for none. */
      readonly leanEvent: TrafficEvent;
    }
  | { readonly kind: 'invalidate'; readonly message: InvalidateMessage };

/** A listener of the bus. */
export type BusListener = (message: GatewayBusMessage) => void;

/** A minimal synchronous publish/subscribe bus (listeners must not throw; a slow one only buffers its own socket). */
export class GatewayEventBus {
  private readonly listeners = new Set<BusListener>();

  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True when someone listens (lets publishers skip building messages). */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** Delivers a message to every listener. */
  publish(message: GatewayBusMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch {
        // One broken subscriber must not break the request that published.
      }
    }
  }

  /** Tells the UI an admin resource changed. */
  invalidate(topic: InvalidateMessage['topic'], ids: readonly string[] = []): void {
    if (this.listeners.size > 0) this.publish({ kind: 'invalidate', message: { topic, ids: [...ids] } });
  }
}
