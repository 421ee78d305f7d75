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

/** The error of a stream frame that is not JSON (`what`: chunk or event), quoting its start. */
export function malformedFrame(what: 'chunk' | 'event', data: string): StreamError {
  return new StreamError(`upstream sent a malformed stream ${what}: ${data.slice(0, 200)}`, 502, 'invalid_response');
}
