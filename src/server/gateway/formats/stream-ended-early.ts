import { BROKEN_STREAM_STATUS, StreamError } from './stream-error.js';

/**
 * The error of an upstream stream whose body ended cleanly before the event that finishes it (a
 * provider restarting, a proxy cutting a long response). Relayed as it was, the client would read the
 * partial text as a whole answer, and the cache and kept responses would keep it as one.
 */
export function streamEndedEarly(missing: string): StreamError {
  return new StreamError(
    `upstream stream ended before ${missing}: the answer is incomplete`,
    BROKEN_STREAM_STATUS,
    'upstream_error',
  );
}
