import { parseSse, type SseEvent } from '../formats/sse.js';
import { postJson, readJson, transportError, type UpstreamCall, type UpstreamResponse } from './http-client.js';
import type { NativeResult } from './types.js';

/** Sends a native body; a streamed answer is returned as its SSE events, any other as parsed JSON. */
export async function sendNative(call: UpstreamCall, stream: boolean): Promise<NativeResult> {
  const response = await postJson(call);
  if (stream) return { kind: 'sse', events: upstreamEvents(response, call) };
  return { kind: 'json', body: await readJson(response, call) };
}

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
