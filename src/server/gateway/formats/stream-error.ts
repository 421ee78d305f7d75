import { assertNever } from '../../../shared/assert-never.js';
import { dataFrame, DONE_FRAME, eventFrame } from './sse.js';

/**
 * An error reported inside an upstream stream after it started (an `error` event of a Messages
 * stream, an `{"error": ...}` chunk of a chat stream). `status` is the HTTP status the same error
 * would have had before the stream started.
 */
export class StreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly type: string,
  ) {
    super(message);
    this.name = 'StreamError';
  }
}

/**
 * A Responses stream's `response.failed`: the provider answered a failed Response (the non-stream
 * answer's `status: "failed"`), worded so, not as an error event.
 */
export class FailedResponseError extends StreamError {}

/**
 * The status of a stream the gateway found broken itself (a frame that is not JSON, an end before
 * the finish) rather than one reporting an error: the upstream's own, a 2xx, as for a JSON answer that
 * is no answer. Streams start only on a 2xx, and the providers' streams on a 200.
 */
export const BROKEN_STREAM_STATUS = 200;

/** The error of a stream frame that is not JSON (`what`: chunk or event), quoting its start. */
export function malformedFrame(what: 'chunk' | 'event', data: string): StreamError {
  return new StreamError(
    `upstream sent a malformed stream ${what}: ${data.slice(0, 200)}`,
    BROKEN_STREAM_STATUS,
    'invalid_response',
  );
}

/** What a client is told of a request the gateway ended because it is shutting down. */
export const SHUTTING_DOWN_MESSAGE =
  'the gateway is shutting down and ended this request before its answer was complete; send it again once the gateway is back';

/** The client formats a stream is answered in. */
export type StreamFormat = 'chat' | 'messages' | 'responses';

/**
 * The event that ends a stream the gateway ended because it is shutting down, shaped as the format's
 * mid-stream failures are (codec.ts, responses-stream-encoder.ts) so the SDKs raise it the same way,
 * but as the gateway's own 503: chat's error chunk then `[DONE]`; Messages' `error` event, as
 * Anthropic's `overloaded_error`, which clients take as "try again later"; Responses' `error` event,
 * numbered after the stream's last event when that is known.
 */
export function shutdownFrame(format: StreamFormat, nextSequence?: number): string {
  const error = { type: 'service_unavailable', message: SHUTTING_DOWN_MESSAGE, code: 503 };
  switch (format) {
    case 'chat':
      return dataFrame(JSON.stringify({ error })) + DONE_FRAME;
    case 'messages':
      return eventFrame('error', JSON.stringify({ type: 'error', error: { ...error, type: 'overloaded_error' } }));
    case 'responses':
      return eventFrame(
        'error',
        JSON.stringify({
          type: 'error',
          code: error.type,
          message: error.message,
          param: null,
          ...(nextSequence === undefined ? {} : { sequence_number: nextSequence }),
          error,
        }),
      );
    default:
      return assertNever(format, 'stream format');
  }
}
