import type { UpstreamErrorDetail } from '../../../shared/errors.js';
import { codecFor } from '../formats/codec.js';
import type { IrRequest, IrResponse } from '../formats/ir.js';
import { responsesRequestToIr } from '../formats/responses/responses-request-ir.js';
import {
  responseEnvelope,
  responsesResponseFromIr,
  type ResponseEnvelope,
} from '../formats/responses/responses-response-ir.js';
import type { ResponsesBody } from '../formats/responses/responses-schema.js';
import {
  cancelledResponse,
  encodeResponsesStream,
  responsesErrorFrame,
  type ResponsesSequence,
} from '../formats/responses/responses-stream-encoder.js';
import {
  completeUsage,
  estimatePromptTokens,
  estimateTokens,
  StreamUsage,
  tokensForChars,
} from '../formats/token-estimate.js';
import type { JsonAnswer, ProviderAnswer } from './answer.js';
import { callContext, withOutputCap, type AttemptArgs } from './call-context.js';
import {
  failedResponseError,
  nativeResponsesBody,
  refusesRequestContent,
  relayResponsesJson,
  responsesIssuer,
  relayResponsesStream,
  sendsIssuedIds,
  usesNativeResponses,
  type ReplayedIds,
} from './native-responses.js';
import { SHUTTING_DOWN_MESSAGE } from '../formats/stream-error.js';
import { redact } from './http-client.js';
import { asRequestFault, UpstreamError } from './upstream-error.js';
import { resolveProvider } from './registry.js';
import { startStream, tapUsage } from './stream-result.js';
import type { CallContext, CancelSignal, NativeResult, UpstreamReport } from './types.js';
import type { ResponseKeeper } from '../responses/responses.service.js';

/**
 * What is kept of a stream its client left: the response was cancelled, not failed at the server
 * (the upstream call ends with the client, so the relay reads that end as a failure). One the
 * gateway's shutdown ended failed at the server, and says why.
 */
function asLeft(response: Record<string, unknown>, signal: CancelSignal): Record<string, unknown> {
  if (!signal.aborted || response.status !== 'failed') return response;
  // Ended by the gateway's shutdown: failed at the server, saying so, not cancelled by its client.
  if ('shuttingDown' in signal && signal.shuttingDown === true)
    return { ...response, error: { code: 'service_unavailable', message: SHUTTING_DOWN_MESSAGE } };
  return cancelledResponse(response);
}

/**
 * Where a Responses call reports its answer, and counts a call it makes besides the route stage's
 * (the request's context is one).
 */
export interface ResponsesReport extends UpstreamReport {
  attempts: number;
}

/** Arguments of one Responses call. */
export interface ExecuteResponsesArgs extends AttemptArgs {
  /**
   * Receives the provider's request id, and counts a kept conversation's turn sent once more without
   * its ids: `x-gateway-attempts` and the traffic record count every upstream call.
   */
  readonly report?: ResponsesReport;
  /** The validated request: model already canonical, max_output_tokens already capped. */
  readonly body: ResponsesBody;
  /**
   * For a kept response (`store: true`): receives the Response object before the client does, and who
   * made its item ids; returns the id it is kept under, which is the one the client gets.
   */
  readonly keep?: ResponseKeeper;
  /** The Responses API that issued the id of each item replayed from a kept conversation, where a provider did. */
  readonly replayedIssuers?: ReadonlyMap<object, string>;
}

/** Where a failure after the stream started is reported: in the Responses stream's own shape, numbered after its last event. */
const responsesErrors = (sequence: ResponsesSequence) => ({
  errorFrame: (message: string, upstream?: UpstreamErrorDetail) => responsesErrorFrame(message, sequence, upstream),
});

/**
 * Serves a Responses request over the deployment's provider through the IR: chat completions or
 * Messages upstreams, and the demo provider. The answer is a Response object, or a typed event stream
 * as OpenAI sends it (`response.created` ... `response.completed`), handed to `keep` when it is kept.
 * Rejects with TranslationError for what only a native Responses API can do (hosted tools, other
 * item types), UpstreamError for upstream failures before the first event.
 */
export async function executeResponses(args: ExecuteResponsesArgs): Promise<ProviderAnswer> {
  const { deployment, signal } = args;
  const resolved = resolveProvider(deployment);
  const provider = resolved.chat;
  const context = callContext(args);
  if (provider.kind === 'native' && provider.sendResponses && usesNativeResponses(deployment)) {
    return nativeResponses(args, provider.sendResponses.bind(provider), context, {
      provider: provider.name,
      secrets: resolved.secrets,
    });
  }
  const request = withOutputCap(responsesRequestToIr(args.body), args.outputCap);
  const keep =
    args.keep &&
    ((response: Record<string, unknown>) =>
      args.keep!(asLeft(redactedFailure(response, resolved.secrets), signal), { by: 'gateway' }));
  const usage = new StreamUsage(() => estimatePromptTokens(request));
  const envelope = responseEnvelope(args.body, deployment.model);
  const sequence: ResponsesSequence = { next: 0 };
  const streamOptions = {
    codec: responsesErrors(sequence),
    usage,
    signal,
    provider: provider.name,
    secrets: resolved.secrets,
    report: context.report,
  };
  if (provider.kind === 'ir') {
    if (!request.stream) return answer(await provider.generate(request, context), envelope, request, keep);
    const events = await provider.stream(request, context);
    return startStream(
      encodeResponsesStream(tapUsage(events, usage), envelope, () => usage.current(), keep, sequence),
      streamOptions,
    );
  }
  const upstream = codecFor(provider.format);
  const native = upstream.requestFromIr(request, context.upstreamModel);
  provider.adaptTranslated?.(native, context, request);
  const result = await provider.send(native, context);
  if (result.kind === 'json') return answer(upstream.responseToIr(result.body, request), envelope, request, keep);
  const events = tapUsage(upstream.decodeStream(result.events, request), usage);
  return startStream(
    encodeResponsesStream(events, envelope, () => usage.current(), keep, sequence),
    streamOptions,
  );
}

/**
 * The provider's own Responses API: the body as sent (model and `store` set), the answer as it came,
 * with only the model name made public; hosted tools and every item type work as the provider has them.
 */
async function nativeResponses(
  args: ExecuteResponsesArgs,
  send: (body: Record<string, unknown>, context: CallContext) => Promise<NativeResult>,
  context: CallContext,
  meta: { readonly provider: string; readonly secrets: readonly string[] },
): Promise<ProviderAnswer> {
  const shownAs = {
    publicModel: args.deployment.model,
    previousResponseId: args.body.previous_response_id ?? undefined,
  };
  const issuer = responsesIssuer(args.deployment);
  const keep =
    args.keep &&
    ((response: Record<string, unknown>) =>
      args.keep!(asLeft(redactedFailure(response, meta.secrets), args.signal), { by: 'provider', issuer }));
  const usage = new StreamUsage(() => estimateTokens(JSON.stringify(args.body.input ?? '')));
  const ids: ReplayedIds = { issuer, replayed: args.replayedIssuers };
  const result = await sendKeptIds(
    ids,
    (sent) => send(nativeResponsesBody(args.body, context.upstreamModel, sent), context),
    args.signal,
    args.report,
  );
  if (result.kind === 'json') {
    const relayed = relayResponsesJson(result, shownAs);
    // Failed as a stream's first event fails: nothing reached the client, so another try still may.
    const failed = failedResponseError(relayed.body, meta.provider, meta.secrets);
    if (failed !== undefined) throw failed;
    usage.report(relayed.usage ?? {});
    usage.addOutput(relayed.outputChars);
    const keptAs = keep?.(relayed.body);
    if (keptAs !== undefined) relayed.body.id = keptAs;
    return { kind: 'json', body: relayed.body, usage: usage.current() };
  }
  const sequence: ResponsesSequence = { next: 0 };
  return startStream(relayResponsesStream(result.events, { ...shownAs, usage, keep, sequence }), {
    codec: responsesErrors(sequence),
    usage,
    signal: context.signal,
    report: context.report,
    ...meta,
  });
}

/**
 * Sends a native body with the item ids its upstream issued. A 404 for what the request refers to is
 * the request's fault (see refusesRequestContent); when the body sent back ids this upstream issued,
 * the provider has lost its copy of them (its retention ended before the gateway's), and the call is
 * made once more without them, as to another server, since the gateway still holds the items.
 */
async function sendKeptIds(
  ids: ReplayedIds,
  send: (ids: ReplayedIds) => Promise<NativeResult>,
  signal: CancelSignal,
  report: ResponsesReport | undefined,
): Promise<NativeResult> {
  try {
    return await send(ids);
  } catch (error) {
    if (!(error instanceof UpstreamError) || !refusesRequestContent(error)) throw error;
    if (!sendsIssuedIds(ids) || signal.aborted) throw asRequestFault(error);
  }
  if (report !== undefined) report.attempts += 1;
  try {
    return await send({ issuer: undefined, replayed: ids.replayed });
  } catch (error) {
    if (error instanceof UpstreamError && refusesRequestContent(error)) throw asRequestFault(error);
    throw error;
  }
}

/** A failed Response's error message as relayed errors are: without the deployment's key, or anything shaped like one. */
function redactedFailure(response: Record<string, unknown>, secrets: readonly string[]): Record<string, unknown> {
  const error = response.error as { message?: unknown } | null | undefined;
  if (response.status !== 'failed' || error == null || typeof error.message !== 'string') return response;
  return { ...response, error: { ...error, message: redact(error.message, secrets) } };
}

/** A complete answer as a Response object, with usage estimated where the upstream gave none. */
function answer(
  response: IrResponse,
  envelope: ResponseEnvelope,
  request: IrRequest,
  keep: ((response: Record<string, unknown>) => string) | undefined,
): JsonAnswer {
  const usage = completeUsage(response.usage, () => {
    const chars = response.content.reduce(
      (sum, part) => sum + (part.type === 'text' ? part.text.length : part.name.length + part.arguments.length),
      0,
    );
    return { promptTokens: estimatePromptTokens(request), completionTokens: tokensForChars(chars) };
  });
  const body = responsesResponseFromIr(response, envelope, usage);
  keep?.(body);
  return { kind: 'json', body, usage };
}
