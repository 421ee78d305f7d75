import type { TrafficEvent } from '../../../shared/gateway-api.js';
import type { GatewayEventBus } from './event-bus.js';
import { RingBuffer } from './ring-buffer.js';

/** Longest body kept per request (characters of JSON); larger ones are cut and flagged. */
export const MAX_BODY_CHARS = 64 * 1024;

/** Body fields that may carry credentials (some clients send keys in the body). */
const SECRET_FIELDS = new Set(['api_key', 'apiKey', 'authorization', 'x-api-key', 'password', 'secret', 'token']);

/** A finished request as recorded on the hot path: bodies are kept by reference and serialised only when read. */
export interface TrafficRecord extends Omit<TrafficEvent, 'seq' | 'started_at' | 'request_body' | 'response_body' | 'truncated'> {
  /** Arrival time, Unix ms (formatted only when read). */
  readonly startedAtMs: number;
  /** The body sent upstream (object), or already-serialised text when it was large. */
  readonly requestBody: unknown;
  /** The answer (object), or the SSE text of a stream. */
  readonly responseBody: unknown;
  readonly truncated?: boolean;
}

interface Stored {
  readonly seq: number;
  readonly record: TrafficRecord;
  event?: TrafficEvent;
}

function redact(key: string, value: unknown): unknown {
  return SECRET_FIELDS.has(key) && typeof value === 'string' ? '[redacted]' : value;
}

/** Serialises a body for display: credentials redacted, cut at {@link MAX_BODY_CHARS}. */
export function displayBody(body: unknown): { value: unknown; truncated: boolean } {
  if (body === undefined || body === null) return { value: null, truncated: false };
  if (typeof body === 'string') {
    return body.length > MAX_BODY_CHARS ? { value: flatten(body.slice(0, MAX_BODY_CHARS)), truncated: true } : { value: body, truncated: false };
  }
  const text = JSON.stringify(body, redact);
  if (text.length <= MAX_BODY_CHARS) return { value: JSON.parse(text) as unknown, truncated: false };
  return { value: flatten(text.slice(0, MAX_BODY_CHARS)), truncated: true };
}

/** Copies a slice so it does not keep its (possibly huge) parent string alive. */
function flatten(slice: string): string {
  return Buffer.from(slice, 'utf8').toString('utf8');
}

/** Serialises a large body now, so the buffer never holds megabytes per request. */
export function boundedBody(body: unknown, estimatedChars: number): { body: unknown; truncated: boolean } {
  if (estimatedChars <= MAX_BODY_CHARS || body === null || body === undefined) return { body, truncated: false };
  const text = typeof body === 'string' ? body : JSON.stringify(body, redact);
  return text.length > MAX_BODY_CHARS ? { body: flatten(text.slice(0, MAX_BODY_CHARS)), truncated: true } : { body, truncated: false };
}

/**
 * Recent requests for the traffic view: an in-memory ring buffer (capacity from `gateway.traffic_buffer`)
 * and a live feed on the event bus. Never holds headers, so never credentials.
 */
export class TrafficLog {
  private readonly buffer: RingBuffer<Stored>;
  private seq = 0;

  constructor(capacity: number, private readonly bus: GatewayEventBus) {
    this.buffer = new RingBuffer(capacity);
  }

  /** Records a finished request and publishes it to live subscribers. */
  record(record: TrafficRecord): void {
    this.seq += 1;
    const stored: Stored = { seq: this.seq, record };
    this.buffer.push(stored);
    if (this.bus.active) this.bus.publish({ kind: 'traffic', event: this.view(stored) });
  }

  /** Recent events, newest first, optionally only those after `after` (a seq). */
  list(limit: number, after = 0, bodies = true): TrafficEvent[] {
    return this.buffer.newest(limit, (s) => s.seq > after).map((s) => {
      const event = this.view(s);
      return bodies ? event : { ...event, request_body: null, response_body: null };
    });
  }

  /** Events after `after`, oldest first (replay for a reconnecting stream). */
  since(after: number): TrafficEvent[] {
    return this.list(this.buffer.capacity, after).reverse();
  }

  /** The buffer's capacity. */
  get capacity(): number {
    return this.buffer.capacity;
  }

  /** The last sequence number handed out. */
  get lastSeq(): number {
    return this.seq;
  }

  private view(stored: Stored): TrafficEvent {
    if (stored.event) return stored.event;
    const { requestBody, responseBody, truncated, startedAtMs, ...rest } = stored.record;
    const request = displayBody(requestBody);
    const response = displayBody(responseBody);
    stored.event = {
      ...rest,
      seq: stored.seq,
      started_at: new Date(startedAtMs).toISOString(),
      request_body: request.value,
      response_body: response.value,
      truncated: truncated === true || request.truncated || response.truncated,
    };
    return stored.event;
  }
}
