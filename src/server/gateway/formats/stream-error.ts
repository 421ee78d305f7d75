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
