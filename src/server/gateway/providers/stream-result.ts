import type { FormatCodec } from '../formats/codec.js';
import type { IrStreamEvent, Usage } from '../formats/ir.js';
import { BROKEN_STREAM_STATUS, FailedResponseError, StreamError } from '../formats/stream-error.js';
import type { StreamUsage } from '../formats/token-estimate.js';
import type { CancelSignal, UpstreamReport } from './types.js';
import { redact, tooLargeError } from './http-client.js';
import { UpstreamError, upstreamErrorDetail, withRequestId } from './upstream-error.js';

/** A streamed answer, ready to write to the client. */
export interface StreamAnswer {
  readonly kind: 'stream';
  /**
   * SSE frames in the client's format, written as they arrive. An upstream failure after the start
   * ends it with the codec's errorFrame (chat: the error chunk and `[DONE]`, in one item) and sets
   * `error()`; a client abort ends the iterable quietly. Stopping early (`break`, `return()`) or
   * aborting the signal destroys the upstream request.
   */
  readonly events: AsyncIterable<string>;
  /** Usage so far; final once `events` is exhausted. */
  usage(): Usage;
  /** The failure that ended the stream after it started, if any. */
  error(): UpstreamError | undefined;
  /**
   * How long the relay has been waiting for the upstream's next frame (0 while it hands one on, or once
   * the stream ended): a client leaving a stream that stopped sending says something about the
   * deployment, one leaving while frames flowed does not. Absent on answers no upstream streams (a replay).
   */
  readonly silentMs?: () => number;
}

/**
 * Starts a stream: waits for its first frame, so that an upstream failing before its first event
 * (an error event, a dropped connection) still rejects with an UpstreamError and the caller can
 * fall back to another deployment before anything reached the client.
 */
export async function startStream(
  frames: AsyncIterable<string>,
  options: {
    readonly codec: Pick<FormatCodec, 'errorFrame'>;
    readonly usage: StreamUsage;
    readonly signal: CancelSignal;
    readonly provider: string;
    /** Values no error message may carry (the deployment's key). */
    readonly secrets: readonly string[];
    /** Where the call reported the provider's request id of its answer, which a failure after it carries. */
    readonly report?: UpstreamReport;
  },
): Promise<StreamAnswer> {
  // The answer's headers are in when its stream is started: a failure inside it is reported with the
  // provider's id of that answer, which its support asks for.
  const requestId = options.report?.upstreamRequestId;
  const failed = (error: unknown): UpstreamError =>
    withRequestId(asUpstreamError(error, options.provider, options.secrets), requestId);
  const iterator = frames[Symbol.asyncIterator]();
  let first: IteratorResult<string>;
  try {
    first = await iterator.next();
  } catch (error) {
    await iterator.return?.();
    // Our own bugs stay what they are (500); only upstream failures may trigger a fallback.
    if (error instanceof UpstreamError || error instanceof StreamError) throw failed(error);
    throw error;
  }
  let failure: UpstreamError | undefined;
  // When the relay began waiting for the next frame (0: it is not waiting). One clock read per frame.
  let waitingSince = 0;
  async function* events(): AsyncGenerator<string> {
    try {
      if (first.done) return;
      yield first.value;
      for (;;) {
        waitingSince = performance.now();
        const next = await iterator.next();
        waitingSince = 0;
        if (next.done) break;
        yield next.value;
      }
    } catch (error) {
      if (options.signal.aborted) return;
      failure = failed(error);
      yield options.codec.errorFrame(failure.message, upstreamErrorDetail(failure));
    } finally {
      waitingSince = 0;
      await iterator.return?.();
    }
  }
  return {
    kind: 'stream',
    events: events(),
    usage: () => options.usage.current(),
    error: () => failure,
    silentMs: () => (waitingSince === 0 ? 0 : performance.now() - waitingSince),
  };
}

/** Records usage and generated characters of IR events as they pass. */
export async function* tapUsage(
  events: AsyncIterable<IrStreamEvent>,
  usage: StreamUsage,
): AsyncGenerator<IrStreamEvent> {
  for await (const event of events) {
    if (event.type === 'usage') usage.report(event.usage);
    else if (event.type === 'text' || event.type === 'reasoning') usage.addOutput(event.text.length);
    else if (event.type === 'tool_call_delta') usage.addOutput(event.arguments.length);
    yield event;
  }
}

/**
 * Errors of a started stream as UpstreamErrors (stream error events keep their status); the
 * deployment's key and anything shaped like a key are redacted from the provider's text.
 */
export function asUpstreamError(error: unknown, provider: string, secrets: readonly string[] = []): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (error instanceof StreamError) {
    const detail = redact(error.message, secrets);
    // A 2xx stream the gateway found broken: one cut short is worth another try; a malformed frame,
    // like a 2xx JSON answer that is no answer, is what that deployment sends again (another is tried).
    if (error.status === BROKEN_STREAM_STATUS)
      return new UpstreamError(`${provider} ${detail}`, {
        status: error.status,
        retryable: error.type !== 'invalid_response',
        upstreamType: error.type,
      });
    const what =
      error instanceof FailedResponseError ? 'answered a failed Response' : 'stream ended with an error event';
    return new UpstreamError(`${provider} ${what}, ${error.type}: ${detail}`, {
      status: error.status,
      upstreamType: error.type,
      inStream: true,
    });
  }
  // A translation that grew a string past V8's limit (a tool call's arguments without end): too large, not broken.
  const tooLarge = tooLargeError(error, provider, BROKEN_STREAM_STATUS);
  if (tooLarge !== undefined) return tooLarge;
  const message = error instanceof Error ? error.message : String(error);
  return new UpstreamError(`${provider} stream failed: ${redact(message, secrets)}`, {
    status: 0,
    retryable: true,
    upstreamType: 'stream_error',
  });
}
