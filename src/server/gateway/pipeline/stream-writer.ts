import type { FastifyReply } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { MAX_BODY_CHARS } from '../traffic/traffic-log.js';

/** How a relayed stream ended. */
export interface StreamOutcome {
  /** The client disconnected (the upstream was aborted). */
  readonly clientGone: boolean;
  /** The upstream failed after the stream started; an error frame was sent. */
  readonly error?: unknown;
  /** The frames sent, for the traffic view (cut at its body limit). */
  readonly transcript: string;
  readonly truncated: boolean;
}

/** Options of {@link relayStream}. */
export interface RelayStreamOptions {
  /** Aborts the upstream request (called when the client goes away). */
  readonly abort: () => void;
  /** The frames reporting a failure after the stream started, in the client's format (chat: then `[DONE]`). */
  readonly errorFrame: (message: string) => string;
  /** Rewrites each frame on its way out (PII restore), when installed. */
  readonly transform?: (frame: string) => string;
  /** A message for a failure that may carry internals (only known provider errors are shown as they are). */
  readonly describeError: (error: unknown) => string;
}

function waitForDrain(raw: FastifyReply['raw']): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}

/** Takes the response over from Fastify and sends SSE headers (keeping those already set, such as x-request-id). */
export function openEventStream(reply: FastifyReply): FastifyReply['raw'] {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as OutgoingHttpHeaders),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  return raw;
}

/**
 * Writes SSE frames to the client as each arrives (no buffering of the answer), honouring
 * backpressure. A client that disconnects aborts the upstream; an upstream failure after the first
 * byte becomes an error frame, since the status line is already sent.
 */
export async function relayStream(
  reply: FastifyReply,
  events: AsyncIterable<string>,
  options: RelayStreamOptions,
): Promise<StreamOutcome> {
  const raw = openEventStream(reply);
  let clientGone = false;
  const onClose = (): void => {
    if (raw.writableFinished) return;
    clientGone = true;
    options.abort();
  };
  raw.on('close', onClose);
  const transcript: string[] = [];
  let captured = 0;
  let truncated = false;
  let failure: unknown;
  // Frames that arrive together (one upstream packet often carries several) leave in one write:
  // corked until the current burst of microtasks is done, which delays nothing.
  let corked = false;
  const uncork = (): void => {
    corked = false;
    raw.uncork();
  };
  try {
    for await (const frame of events) {
      if (clientGone) break;
      const out = options.transform ? options.transform(frame) : frame;
      if (captured < MAX_BODY_CHARS) {
        transcript.push(out);
        captured += out.length;
      } else truncated = true;
      if (!corked) {
        corked = true;
        raw.cork();
        process.nextTick(uncork);
      }
      if (!raw.write(out)) await waitForDrain(raw);
    }
  } catch (error) {
    if (!clientGone) {
      failure = error;
      if (!raw.destroyed) raw.write(options.errorFrame(options.describeError(error)));
    }
  } finally {
    raw.off('close', onClose);
    if (!raw.writableEnded && !raw.destroyed) raw.end();
  }
  return { clientGone, error: failure, transcript: transcript.join(''), truncated };
}
