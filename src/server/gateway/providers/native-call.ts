import { parseSse, type SseEvent } from '../formats/sse.js';
import {
  errorDetail,
  postForJson,
  postJson,
  readJson,
  redact,
  transportError,
  type UpstreamCall,
  type UpstreamResponse,
} from './http-client.js';
import type { NativeResult } from './types.js';
import { UpstreamError } from './upstream-error.js';

/**
 * Sends a native body; a streamed answer is returned as its SSE events, any other as parsed JSON and
 * its text. Not async itself: the JSON answer's promise is returned as it is.
 */
export function sendNative(call: UpstreamCall, stream: boolean): Promise<NativeResult> {
  return stream ? sendStreamed(call) : postForJson(call);
}

async function sendStreamed(call: UpstreamCall): Promise<NativeResult> {
  const response = await postJson(call);
  if (String(response.headers['content-type'] ?? '').includes('application/json')) {
    // Some servers answer a stream request with plain JSON (often an error with status 200).
    const detail = errorDetail(JSON.stringify(await readJson(response, call)));
    throw new UpstreamError(
      redact(`${call.provider} upstream answered a stream request with JSON: ${detail.message}`, call.secrets),
      // Often a model still loading: worth another try. The status is the upstream's own (a 200).
      { status: response.status, retryable: true, upstreamType: detail.type ?? 'invalid_response' },
    );
  }
  return { kind: 'sse', events: upstreamEvents(response, call) };
}

/**
 * The SSE events of a 2xx upstream body, as they arrive. A transport failure mid-body rejects with
 * an UpstreamError; stopping early (the client went away) destroys the upstream request.
 */
export async function* upstreamEvents(
  response: UpstreamResponse,
  call: Pick<UpstreamCall, 'provider' | 'signal' | 'secrets'>,
): AsyncGenerator<SseEvent> {
  try {
    yield* parseSse(response.body);
  } catch (error) {
    throw transportError(error, call, response.status);
  } finally {
    if (!response.body.destroyed) response.body.destroy();
  }
}
