/** Server-sent events: an incremental parser for upstream bodies and the frame encoders. */

/** One dispatched server-sent event. */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

/** Parses a byte stream into events as bytes arrive; tolerates CRLF and frames split anywhere. */
export class SseParser {
  private buffer = '';
  private event: string | undefined;
  private data: string[] = [];
  private readonly decoder = new TextDecoder();

  /** Feeds bytes (or text); returns the events completed by them. */
  push(chunk: Uint8Array | string): SseEvent[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.buffer.includes('\r')) {
      // A lone trailing CR may be the first half of a CRLF: keep it until the next chunk decides.
      const keep = this.buffer.endsWith('\r') ? '\r' : '';
      const body = keep ? this.buffer.slice(0, -1) : this.buffer;
      this.buffer = body.replace(/\r\n?/g, '\n') + keep;
    }
    const out: SseEvent[] = [];
    let start = 0;
    for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n', start)) {
      this.line(this.buffer.slice(start, end), out);
      start = end + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** Ends the stream: a final frame without its blank line still counts. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    const rest = this.buffer.replace(/\r$/, '');
    this.buffer = '';
    if (rest !== '') this.line(rest, out);
    this.line('', out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0 || this.event !== undefined) {
        out.push(
          this.event === undefined ? { data: this.data.join('\n') } : { event: this.event, data: this.data.join('\n') },
        );
      }
      this.event = undefined;
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
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
