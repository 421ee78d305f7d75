import { roomToWrite } from '../../../http/room-to-write.js';
import type { FastifyReply } from 'fastify';
import { openEventStream } from '../../../http/event-stream.js';
import { shutdownFrame, StreamError, type StreamFormat } from '../../formats/stream-error.js';
import type { ProviderAnswer, StreamAnswer } from '../../providers/answer.js';
import { UpstreamError } from '../../providers/upstream-error.js';
import { jsonBody, MAX_BODY_CHARS, textBody } from '../../traffic/traffic-log.js';
import type { Endpoint, RequestContext } from '../request-context.js';
import { assertNever } from '../../../../shared/assert-never.js';
import { requestLog } from '../../../http/logger.js';
import { answerStreamFrame, answerStreamStopped } from '../../guardrails/policy/answer-policy.js';

/** What the client may see of a failure inside a started stream (only provider errors are shown as they are). */
function describeStreamError(error: unknown): string {
  if (error instanceof StreamError || error instanceof UpstreamError) return error.message;
  return 'the upstream stream failed; see the gateway log for this request id';
}

/**
 * The headers of a request the stages admitted, on its answer and on a provider's failure alike: where
 * its limits stand, the RAG chunks it was given, whether the cache answered it, and how many upstream
 * calls it took (retries and fallbacks: an answer after several hides a failing deployment otherwise).
 */
export function admittedHeaders(ctx: RequestContext, reply: FastifyReply): void {
  if (ctx.attempts > 0) reply.header('x-gateway-attempts', String(ctx.attempts));
  if (ctx.replyHeaders !== undefined) reply.headers(ctx.replyHeaders);
  if (ctx.cache !== undefined) reply.header('x-cache-hit', ctx.cached ? 'true' : 'false');
}

/**
 * The respond stage: sends the answer, after the output stage (PII restore) rewrote it. JSON goes out
 * as the provider's own text where it could keep it, at once (no promise: the reply is sent when this
 * returns); a stream is relayed frame by frame, and the promise settles when it ends.
 */
export function respond(
  ctx: RequestContext,
  reply: FastifyReply,
  answer: ProviderAnswer,
  errorFrame: (message: string) => string,
): Promise<void> | undefined {
  ctx.answer = answer;
  if (ctx.deployment !== undefined) reply.header('x-gateway-deployment', ctx.deployment.id);
  if (ctx.upstreamRequestId !== undefined) reply.header('x-upstream-request-id', ctx.upstreamRequestId);
  admittedHeaders(ctx, reply);
  ctx.trace?.startRespond();
  const restore = ctx.services.output.piiRestore;
  if (answer.kind === 'json') {
    const text = answer.text ?? JSON.stringify(answer.body);
    // The traffic view keeps the answer as the provider gave it: placeholders, never restored originals.
    ctx.responseBody = jsonBody(text);
    const sent = restore?.applies(ctx) ? restore.text(ctx, text) : text;
    reply.type('application/json; charset=utf-8').send(sent);
    return undefined;
  }
  return relayStream(ctx, reply, answer, errorFrame);
}

/**
 * Writes SSE frames to the client as each arrives (no buffering of the answer), and pulls the next
 * only when the socket has room, so a client that reads slowly (or not at all) holds back the
 * upstream instead of growing the gateway's memory. A failure after the first byte becomes the
 * format's error frame, since the status line is already sent; the outcome is on the context before
 * the response ends, where the finishing stage reads it.
 */
async function relayStream(
  ctx: RequestContext,
  reply: FastifyReply,
  answer: StreamAnswer,
  errorFrame: (message: string) => string,
): Promise<void> {
  const raw = openEventStream(reply);
  const signal = ctx.watch;
  const restore = ctx.services.output.piiRestore?.applies(ctx) ? ctx.services.output.piiRestore : undefined;
  const checked = ctx.answerPolicy !== undefined;
  // On the context as it grows: the finishing stage runs as soon as a client leaves, before this loop ends.
  const transcript: { readonly frames: string[]; truncated: boolean } = { frames: [], truncated: false };
  ctx.transcript = transcript;
  let captured = 0;
  // Frames that arrive together (one upstream packet often carries several) leave in one write:
  // corked until the current burst of microtasks is done, which delays nothing.
  let corked = false;
  const uncork = (): void => {
    corked = false;
    raw.uncork();
  };
  // `recorded`: the frame for the traffic view, as the provider sent it (placeholders, never originals).
  const write = (frame: string, recorded = frame): boolean => {
    if (captured < MAX_BODY_CHARS) {
      transcript.frames.push(recorded);
      captured += recorded.length;
    } else transcript.truncated = true;
    if (!corked) {
      corked = true;
      raw.cork();
      process.nextTick(uncork);
    }
    return raw.write(frame);
  };
  // Set where the loop ended because the gateway is shutting down (not a failure, not the client leaving).
  let shutDown = false;
  // Traced, the frames are read on their way for the upstream span (its id and finish reasons): chosen
  // once here, so an untraced stream pays nothing per frame.
  const events = ctx.trace === undefined ? answer.events : ctx.trace.watchStream(answer);
  try {
    for await (const frame of events) {
      if (signal.aborted) break;
      const restored = restore ? restore.frame(ctx, frame) : frame;
      // The answer patterns read what the client gets: after restoring, so they see the originals.
      const sent = checked ? answerStreamFrame(ctx, restored) : restored;
      const ending = checked ? answerStreamStopped(ctx) : undefined;
      if (ending !== undefined) {
        // Stopped by the content policy: the format's ending was written; the upstream is let go
        // (leaving the loop cancels it) and the record keeps the ending, not the text that matched.
        write(sent, restore ? ending : sent);
        break;
      }
      if (!write(sent, frame)) await roomToWrite(raw, signal, 'abort');
    }
    const failure = answer.error();
    if (failure !== undefined) {
      ctx.errorType = 'upstream_error';
      // The status line said 200: without this warning the log would not show the failure at all.
      requestLog(reply.request).warn(
        { route: reply.request.routeOptions.url, deployment: ctx.deployment?.id, type: 'upstream_error' },
        `upstream failure mid-stream: ${failure.message}`,
      );
    } else shutDown = signal.shuttingDown;
  } catch (error) {
    // The provider layer turns upstream failures into an error frame itself; a throw here is unexpected.
    if (!signal.aborted) {
      ctx.errorType = 'upstream_error';
      if (!(error instanceof StreamError || error instanceof UpstreamError))
        requestLog(reply.request).error({ err: error }, 'stream relay failed');
      if (!raw.destroyed) write(errorFrame(describeStreamError(error)));
    } else shutDown = signal.shuttingDown;
  } finally {
    // The client is still there: it is told, in its format, that the gateway ended the stream, so it
    // can tell a shutdown from a network fault (the finishing stage accounts it as 503).
    if (shutDown && !raw.destroyed) {
      ctx.errorType = 'service_unavailable';
      write(shutdownFrame(streamFormat(ctx.endpoint), nextSequence(transcript)));
      requestLog(reply.request).warn(
        { route: reply.request.routeOptions.url, deployment: ctx.deployment?.id, type: 'service_unavailable' },
        'stream ended before its answer was complete: the gateway is shutting down',
      );
    }
    ctx.responseBody = textBody(transcript.frames.join(''), transcript.truncated);
    if (!raw.writableEnded && !raw.destroyed) raw.end();
  }
}

/** The format a stream of `endpoint` is answered in (only chat, Messages and Responses stream). */
function streamFormat(endpoint: Endpoint): StreamFormat {
  switch (endpoint) {
    case 'chat':
    case 'embeddings':
    case 'models':
    case 'rag_collections':
      return 'chat';
    case 'messages':
    case 'count_tokens':
      return 'messages';
    case 'responses':
    case 'stored_responses':
      return 'responses';
    default:
      return assertNever(endpoint, 'endpoint');
  }
}

/** The number after the last event a Responses stream sent, when the record of its frames holds it. */
function nextSequence(transcript: {
  readonly frames: readonly string[];
  readonly truncated: boolean;
}): number | undefined {
  if (transcript.truncated) return undefined;
  const last = /"sequence_number":(\d+)/.exec(transcript.frames.at(-1) ?? '');
  return last === null ? undefined : Number(last[1]) + 1;
}
