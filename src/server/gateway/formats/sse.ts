/** Server-sent events: an incremental parser for upstream bodies and the frame encoders. */
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

/** One dispatched server-sent event. */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

/** Parses a byte stream into events as bytes arrive; tolerates CRLF and frames split anywhere. */
export class SseParser {
  private readonly decoder = new TextDecoder();
  private pending: SseEvent[] = [];
  private readonly parser: EventSourceParser = createParser({
    // Only `event` and `data` matter to the gateway; the id goes, and a single shape keeps callers monomorphic.
    onEvent: (message: EventSourceMessage) =>
      this.pending.push(
        message.event === undefined ? { data: message.data } : { event: message.event, data: message.data },
      ),
    // Unknown fields and bad `retry` values are ignored, as the SSE spec says a client must.
    onError: () => {},
  });

  /** Feeds bytes (or text); returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    this.parser.feed(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
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

/** Yields the events of an upstream body as its chunks arrive. */
export async function* parseSse(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const parser = new SseParser();
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

/** The terminator of chat completions streams. */
export const DONE_FRAME = 'data: [DONE]\n\n';
