import { parseSse, type SseEvent } from '../formats/sse.js';
import {
  errorDetail,
  parseJsonAnswer,
  postJson,
  readJson,
  readJsonText,
  redact,
  transportError,
  type UpstreamCall,
  type UpstreamResponse,
} from './http-client.js';
import type { NativeResult } from './types.js';
import { UpstreamError } from './upstream-error.js';

/** Sends a native body; a streamed answer is returned as its SSE events, any other as parsed JSON and its text. */
export async function sendNative(call: UpstreamCall, stream: boolean): Promise<NativeResult> {
  const response = await postJson(call);
  if (!stream) {
    const complete = response.body.textIfComplete();
    if (complete === undefined) {
      const { json, text } = await readJsonText(response, call);
      return { kind: 'json', body: json, text };
    }
    return { kind: 'json', body: parseJsonAnswer(complete, response, call), text: complete };
  }
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
    throw transportError(error, call);
  } finally {
    if (!response.body.destroyed) response.body.destroy();
  }
}
