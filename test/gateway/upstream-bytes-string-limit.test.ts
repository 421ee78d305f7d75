import { describe, expect, it } from 'vitest';
import { transportError } from '../../src/server/gateway/providers/http-client.js';
import { asUpstreamError } from '../../src/server/gateway/providers/stream-result.js';

/** V8's own refusal of a string past its length limit (thrown before anything is allocated). */
function stringTooLong(): RangeError {
  try {
    'x'.repeat(2 ** 30);
  } catch (error) {
    return error as RangeError;
  }
  throw new Error('V8 made a string of 2^30 characters');
}

const call = { provider: 'openai', signal: new AbortController().signal, secrets: [] };

/**
 * An answer too large for V8 to make a string of failed as `openai upstream connection failed:
 * Invalid string length`, a connection error worth retrying. It is an answer too large: not retried.
 */
describe("V8's string length limit reached while reading an answer", () => {
  it('is an answer too large, not a connection error, when the body is read', () => {
    const error = transportError(stringTooLong(), call, 200);
    expect(error).toMatchObject({ status: 200, retryable: false, upstreamType: 'answer_too_large' });
    expect(error.message).toBe(
      'openai upstream answered 200 with more than the gateway can hold as one string (Invalid string length), not read further',
    );
  });

  it('is an answer too large when a stream is translated', () => {
    const error = asUpstreamError(stringTooLong(), 'openai');
    expect(error).toMatchObject({ retryable: false, upstreamType: 'answer_too_large' });
    expect(error.message).toContain('more than the gateway can hold as one string');
  });

  it('leaves other failures connection errors', () => {
    expect(transportError(new Error('socket hang up'), call)).toMatchObject({
      retryable: true,
      upstreamType: 'connection_error',
    });
  });
});
