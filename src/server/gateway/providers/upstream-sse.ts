import { parseSse, type SseEvent } from '../formats/sse.js';
import { transportError, type UpstreamCall, type UpstreamResponse } from './http-client.js';

/**
 * The SSE events of a 2xx upstream body, as they arrive. A transport failure mid-body rejects with
 * an UpstreamError; stopping early (the client went away) destroys the upstream request.
 */
export async function* upstreamEvents(response: UpstreamResponse, call: Pick<UpstreamCall, 'provider' | 'signal' | 'secrets'>): AsyncGenerator<SseEvent> {
  try {
    yield* parseSse(response.body);
  } catch (error) {
    throw transportError(error, call);
  } finally {
    if (!response.body.destroyed) response.body.destroy();
  }
}
