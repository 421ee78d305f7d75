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
