import type { TrafficEvent } from '../../../shared/gateway-api.js';
import { assertNever } from '../../../shared/assert-never.js';
import type { GatewayEventBus } from './event-bus.js';
import { RecordArena, type ArenaRecord } from './record-arena.js';
import { decodeRecord, encodeRecord } from './record-codec.js';
import { redactCredentials, redactCredentialsInText } from './body-credentials.js';

/** Longest body kept per request (characters of JSON); larger ones are cut and flagged. */
export const MAX_BODY_CHARS = 64 * 1024;

/**
 * A body as a finished request hands it to the traffic buffer: text, never an object graph, because
 * the buffer stores text (see RecordArena) and the text already exists (the raw request, the
 * serialised answer).
 */
export type StoredBody =
  /** JSON text, parsed when read, with `patch` applied (the forwarded model and max_tokens). */
  | { readonly kind: 'json'; readonly text: string; readonly patch?: Readonly<Record<string, unknown>> }
  /** Plain text: an SSE transcript, or JSON cut at the limit. */
  | { readonly kind: 'text'; readonly text: string; readonly truncated: boolean }
  /** A small value (error bodies). */
  | { readonly kind: 'value'; readonly value: unknown };

/** A finished request as recorded on the hot path; formatted only when someone reads it. */
export interface TrafficRecord extends Omit<
  TrafficEvent,
  'seq' | 'started_at' | 'request_body' | 'response_body' | 'truncated'
> {
  /** Arrival time, Unix ms. */
  readonly startedAtMs: number;
  readonly requestBody: StoredBody | undefined;
  readonly responseBody: StoredBody | undefined;
}

/** JSON text to keep; text past the limit is cut now (the buffer copies what it keeps, never a parent string). */
export function jsonBody(text: string, patch?: Readonly<Record<string, unknown>>): StoredBody {
  if (text.length > MAX_BODY_CHARS) return { kind: 'text', text: text.slice(0, MAX_BODY_CHARS), truncated: true };
  return patch ? { kind: 'json', text, patch } : { kind: 'json', text };
}

/** Plain text to keep (cut at the limit). */
export function textBody(text: string, truncated = false): StoredBody {
  if (text.length > MAX_BODY_CHARS) return { kind: 'text', text: text.slice(0, MAX_BODY_CHARS), truncated: true };
  return { kind: 'text', text, truncated };
}

/** A body for display: parsed, patched, credentials redacted. */
export function displayBody(body: StoredBody | undefined): { value: unknown; truncated: boolean } {
  if (body === undefined) return { value: null, truncated: false };
  switch (body.kind) {
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(body.text);
      } catch {
        return { value: redactCredentialsInText(body.text), truncated: false };
      }
      if (body.patch && value !== null && typeof value === 'object') value = { ...(value as object), ...body.patch };
      return { value: JSON.parse(JSON.stringify(value, redactCredentials)) as unknown, truncated: false };
    }
    case 'text':
      return { value: redactCredentialsInText(body.text), truncated: body.truncated };
    case 'value':
      return { value: JSON.parse(JSON.stringify(body.value, redactCredentials)) as unknown, truncated: false };
    default:
      return assertNever(body, 'stored body');
  }
}

/** A held record as the API shows it. */
function eventOf({ seq, texts }: ArenaRecord, bodies: boolean): TrafficEvent {
  return view(seq, decodeRecord(texts), bodies);
}

/**
 * Recent requests for the traffic view: the newest `gateway.traffic_buffer` records, kept off the
 * JS heap as text (see RecordArena) and formatted only when read, and a live feed on the event bus.
 * Never holds headers, so never credentials.
 */
export class TrafficLog {
  private readonly arena: RecordArena;
  private seq: number;
  /** The seq before this process's first record: numbers at or below it were never this process's. */
  private readonly firstSeq: number;

  /**
   * Sequence numbers start from the clock (a thousand per millisecond, exact far past 2^50), so they
   * keep growing across restarts: a client that resumes with `after` or `Last-Event-ID` from before a
   * restart must not skip the new process's first requests, as it would if they were numbered from 1.
   */
  constructor(
    capacity: number,
    private readonly bus: GatewayEventBus,
    now: () => number = Date.now,
  ) {
    this.arena = new RecordArena(capacity);
    this.seq = now() * 1000;
    this.firstSeq = this.seq;
  }

  /** Records a finished request and publishes it to live subscribers. */
  record(record: TrafficRecord): void {
    this.seq += 1;
    this.arena.push(this.seq, encodeRecord(record));
    if (this.bus.active) this.bus.publish(new PublishedRequest(this.seq, record));
  }

  /** The held request numbered `seq`, with its bodies; undefined once the buffer dropped it (or never had it). */
  find(seq: number): TrafficEvent | undefined {
    const found = this.arena.find(seq);
    return found && eventOf(found, true);
  }

  /** The `limit` newest events, newest first, and whether older ones are held too. */
  list(limit: number, bodies = true): { readonly events: TrafficEvent[]; readonly more: boolean } {
    return { events: this.arena.newest(limit).map((found) => eventOf(found, bodies)), more: this.arena.size > limit };
  }

  /**
   * The `limit` events right after `after` (a seq), newest first, and whether newer ones are waiting:
   * a poller that goes on from the page's highest seq misses none.
   */
  listAfter(after: number, limit: number, bodies = true): { readonly events: TrafficEvent[]; readonly more: boolean } {
    const { records, more } = this.arena.nextAfter(limit, after);
    return { events: records.map((found) => eventOf(found, bodies)), more };
  }

  /**
   * How many of this process's requests numbered after `after` and before `seq` (a held one) the
   * buffer dropped: numbers are handed out one by one and the oldest records go first, so those
   * between are exactly the ones a reader resuming from `after` can no longer get.
   */
  droppedBetween(after: number, seq: number): number {
    return Math.max(0, seq - Math.max(after, this.firstSeq) - 1);
  }

  /** The buffer's capacity. */
  get capacity(): number {
    return this.arena.capacity;
  }

  /** The last sequence number handed out. */
  get lastSeq(): number {
    return this.seq;
  }
}

function wasCut(body: StoredBody | undefined): boolean {
  return body?.kind === 'text' && body.truncated;
}

/**
 * The limit a limits-stage refusal names in its answer (a 429 before any upstream attempt, a small
 * body the gateway wrote), so a list without bodies can still be filtered by it.
 */
function refusedLimit(record: TrafficRecord, response: unknown): string | null {
  if (record.status !== 429 || record.attempts !== 0) return null;
  const error = response !== null && typeof response === 'object' ? (response as { error?: unknown }).error : undefined;
  const type = error !== null && typeof error === 'object' ? (error as { limit_type?: unknown }).limit_type : undefined;
  return typeof type === 'string' ? type : null;
}

/**
 * A record as the traffic API shows it; without bodies (null), `truncated` still says whether they
 * were cut, and `limit_type` what a refusal's answer named.
 */
function view(seq: number, record: TrafficRecord, bodies = true): TrafficEvent {
  const { requestBody, responseBody, startedAtMs, ...rest } = record;
  const refusal = record.status === 429 && record.attempts === 0;
  const request = bodies ? displayBody(requestBody) : undefined;
  const response = bodies || refusal ? displayBody(responseBody) : undefined;
  return {
    ...rest,
    seq,
    started_at: new Date(startedAtMs).toISOString(),
    limit_type: refusedLimit(record, response?.value ?? null),
    request_body: request?.value ?? null,
    response_body: bodies ? (response?.value ?? null) : null,
    truncated: bodies
      ? Boolean(request?.truncated) || Boolean(response?.truncated)
      : wasCut(requestBody) || wasCut(responseBody),
  };
}

/**
 * A finished request on the bus, viewed only as its subscribers read it, each view built once: parsing
 * and redacting both bodies is the costly part, and the UI's stream asks for none of them.
 */
class PublishedRequest {
  readonly kind = 'traffic';
  #full: TrafficEvent | undefined;
  #lean: TrafficEvent | undefined;

  constructor(
    private readonly seq: number,
    private readonly record: TrafficRecord,
  ) {}

  get event(): TrafficEvent {
    return (this.#full ??= view(this.seq, this.record));
  }

  get leanEvent(): TrafficEvent {
    return (this.#lean ??= view(this.seq, this.record, false));
  }
}
