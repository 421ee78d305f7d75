/** Server-sent events: an incremental parser for upstream bodies and the frame encoders. */
import { createParser, type EventSourceMessage, type EventSourceParser, type ParseError } from 'eventsource-parser';

/** One dispatched server-sent event. */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

/**
 * The most of one upstream event held before it ends: 64 Mi characters of its text (its data lines
 * and the line not yet ended). Providers' events are a few KB; the largest real ones carry an image
 * as base64 (a Responses `image_generation_call` partial image, or the finished one in
 * `response.output_item.done` and `response.completed`): a few tens of MB at most, at the largest
 * size, 3840x2160. Past this the upstream is broken or hostile: one event would be held whole, and
 * past 512 Mi characters fail to be a string at all.
 */
export const MAX_UPSTREAM_EVENT_CHARS = 64 * 1024 * 1024;

/** An event that grew past its parser's bound before it ended: the stream is not read further. */
export class SseEventTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`a stream event of more than ${limit / 1024 / 1024} MiB (${limit} characters) that did not end`);
    this.name = 'SseEventTooLargeError';
  }
}

/** Parses a byte stream into events as bytes arrive; tolerates CRLF and frames split anywhere. */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private pending: SseEvent[] = [];
  private overflow = false;
  private readonly parser: EventSourceParser;

  /** `maxEventChars`: the most of one event held before it ends; an event past it throws SseEventTooLargeError. */
  constructor(private readonly maxEventChars?: number) {
    this.parser = createParser({
      // Only `event` and `data` matter to the gateway; the id goes, and a single shape keeps callers monomorphic.
      onEvent: (message: EventSourceMessage) =>
        this.pending.push(
          message.event === undefined ? { data: message.data } : { event: message.event, data: message.data },
        ),
      // Unknown fields and bad `retry` values are ignored, as the SSE spec says a client must.
      onError: (error: ParseError) => {
        if (error.type === 'max-buffer-size-exceeded') this.overflow = true;
      },
      maxBufferSize: maxEventChars,
    });
  }

  /** Feeds bytes (or text); returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    this.parser.feed(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
    // The parser dropped what it held and takes no more: the stream ends here.
    if (this.overflow) throw new SseEventTooLargeError(this.maxEventChars!);
    return this.take();
  }

  /** Ends the stream: a final frame without its blank line still counts. */
  end(): SseEvent[] {
    // The blank lines end a half-received line (or a trailing CR) and dispatch the last frame; a frame
    // that already ended sees only empty lines, which dispatch nothing.
    this.parser.feed(this.decoder.decode() + '\n\n');
    this.parser.reset();
    return this.take();
  }

  private take(): SseEvent[] {
    if (this.pending.length === 0) return [];
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

/**
 * Yields the events of an upstream body as its chunks arrive; an event past `maxEventChars` before
 * its end throws SseEventTooLargeError, and the body is not read further.
 */
export async function* parseSse(
  body: AsyncIterable<Uint8Array | string>,
  maxEventChars: number = MAX_UPSTREAM_EVENT_CHARS,
): AsyncGenerator<SseEvent> {
  const parser = new SseParser(maxEventChars);
  for await (const chunk of body) yield* parser.push(chunk);
  yield* parser.end();
}

/** A `data:` frame, as chat completions streams use. */
export function dataFrame(data: string): string {
  return `data: ${data}\n\n`;
}

/** An `event:` + `data:` frame, as Messages streams use. */
export function eventFrame(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** Re-encodes a parsed event (multi-line data keeps one `data:` line per line). */
export function encodeEvent(event: SseEvent): string {
  const data = event.data.includes('\n') ? event.data.split('\n').join('\ndata: ') : event.data;
  return event.event === undefined ? dataFrame(data) : eventFrame(event.event, data);
}

/**
 * An SSE comment: every client skips it, yet its bytes reset idle timers along the way. Translated
 * streams write it for an upstream's keep-alive, which their format has no event for.
 */
export const KEEPALIVE_FRAME = ': ping\n\n';

/** The terminator of chat completions streams. */
export const DONE_FRAME = 'data: [DONE]\n\n';
