import { encodeEvent, eventFrame, type SseEvent } from '../formats/sse.js';
import { FailedResponseError, malformedFrame, StreamError } from '../formats/stream-error.js';
import { streamEndedEarly } from '../formats/stream-ended-early.js';
import { failedResponse, type ResponsesSequence } from '../formats/responses/responses-stream-encoder.js';
import type { ResponsesBody, ResponsesInputItem } from '../formats/responses/responses-schema.js';
import { carriesThinking } from '../formats/responses/carried-thinking.js';
import { withoutItemId } from '../responses/replayed-items.js';
import { itemIssuer, sameIssuer } from '../responses/item-issuer.js';
import { callsOpenAiItself, providerSettings } from './provider-settings.js';
import type { StreamUsage } from '../formats/token-estimate.js';
import type { Usage } from '../formats/ir.js';
import type { Deployment, NativeResult } from './types.js';
import { reportedTokens } from '../formats/reported-tokens.js';
import { StreamedOutput } from './streamed-output.js';
import { redact } from './http-client.js';
import { UpstreamError } from './upstream-error.js';

/**
 * Whether `/v1/responses` goes to the provider's own Responses API: as the deployment says
 * (`responses_api`), else for OpenAI itself; every other server is translated to its chat API, which
 * all of them have (a Responses API is rarer among compatible servers).
 */
export function usesNativeResponses(deployment: Deployment): boolean {
  if (deployment.responsesApi !== undefined) return deployment.responsesApi === 'native';
  return callsOpenAiItself(deployment);
}

/**
 * The body for a native upstream: its model name, and `store` said explicitly (OpenAI keeps responses
 * unless told not to, and this gateway decides where they are kept). The conversation of a
 * `previous_response_id` is already in `input`, rebuilt from what this gateway kept; its items another
 * Responses API issued go without their ids. The reasoning items carrying a Claude model's thinking
 * (the gateway's own encrypted content, which a Responses API refuses) are left out, also when a
 * stateless client sends them back itself.
 */
export function nativeResponsesBody(
  body: ResponsesBody,
  upstreamModel: string,
  ids: ReplayedIds,
): Record<string, unknown> {
  const { previous_response_id: _previous, ...rest } = body;
  const replayed = ids.replayed && ids.replayed.size > 0 ? ownIdsOnly(body.input, ids) : body.input;
  const input = withoutCarriedThinking(replayed);
  return { ...rest, input, model: upstreamModel, store: body.store === true };
}

/** The input without the reasoning items that carry the gateway's thinking (the same input when none does). */
function withoutCarriedThinking(input: ResponsesBody['input']): ResponsesBody['input'] {
  if (typeof input === 'string' || !input.some(carriesThinking)) return input;
  return input.filter((item) => !carriesThinking(item));
}

/** The upstream's Responses API (see {@link responsesIssuer}), and who issued the item ids a kept conversation replays. */
export interface ReplayedIds {
  /** Undefined: the replayed items go without the ids of any provider (the issuer lost its copy of them). */
  readonly issuer: string | undefined;
  readonly replayed?: ReadonlyMap<object, string>;
}

/**
 * The Responses API and credential a deployment's item ids belong to (see {@link itemIssuer}): a
 * conversation kept from one and continued on another (a fallback, a changed route, another project's
 * key on the same address) must not send the first one's ids.
 */
export function responsesIssuer(deployment: Deployment): string {
  const settings = providerSettings(deployment);
  return itemIssuer(settings.baseUrl, settings.apiKey);
}

/**
 * Whether the deployment calls the Responses API, with the credential, that issued ids recorded as
 * `issuer`'s: a continuation sent there goes with those ids, and the provider's cached state.
 */
export function callsIssuer(deployment: Deployment, issuer: string): boolean {
  return usesNativeResponses(deployment) && sameIssuer(issuer, responsesIssuer(deployment));
}

/** Whether the body for `ids.issuer` sends back item ids that upstream issued itself. */
export function sendsIssuedIds(ids: ReplayedIds): boolean {
  if (ids.issuer === undefined || ids.replayed === undefined) return false;
  for (const issuer of ids.replayed.values()) if (sameIssuer(issuer, ids.issuer)) return true;
  return false;
}

/** The input with the replayed items another Responses API issued sent without their ids. */
function ownIdsOnly(input: ResponsesBody['input'], ids: ReplayedIds): ResponsesBody['input'] {
  if (typeof input === 'string') return input;
  return input.flatMap((item) => {
    const issuer = ids.replayed!.get(item);
    if (issuer === undefined || (ids.issuer !== undefined && sameIssuer(issuer, ids.issuer))) return [item];
    return (withoutItemId(item) as ResponsesInputItem | undefined) ?? [];
  });
}

/** OpenAI's `param` of a refusal that names the request's own items or the response it continues. */
const CONTENT_PARAM = /^(input|previous_response_id)(\[|\.|$)/;
/** OpenAI's words for an id of the request it does not hold (`Item with id 'rs_…' not found.`). */
const ID_NOT_FOUND = /\b(item|response) with id '[^']*' not found/i;

/**
 * Whether a provider's 404 on the Responses endpoint refuses what the request refers to (an item id,
 * an `item_reference`, a `previous_response_id` it does not hold) rather than the deployment (a wrong
 * base URL, `Invalid URL (POST /v1/responses)`; a model it does not serve, `model_not_found`): an
 * `invalid_request_error` whose `param` names the input or `previous_response_id`, or whose message
 * says an item or response with an id was not found. Such a request fails on any deployment.
 */
export function refusesRequestContent(error: UpstreamError): boolean {
  if (error.status !== 404 || error.inStream || error.upstreamType !== 'invalid_request_error') return false;
  if (error.code === 'model_not_found') return false;
  return (error.param !== undefined && CONTENT_PARAM.test(error.param)) || ID_NOT_FOUND.test(error.message);
}

/** A Response's usage as the provider reports it. */
interface ResponseUsage {
  input_tokens?: unknown;
  output_tokens?: unknown;
  input_tokens_details?: { cached_tokens?: unknown } | null;
  output_tokens_details?: { reasoning_tokens?: unknown } | null;
}

/** Response usage in the gateway's terms, when present: cached input is priced at its own rate. */
function usageOf(response: unknown): Partial<Usage> | undefined {
  const usage = (response as { usage?: ResponseUsage } | null)?.usage;
  if (usage == null) return undefined;
  const counts: Partial<Usage> = {};
  const set = (field: keyof Usage, value: unknown): void => {
    const tokens = reportedTokens(value);
    if (tokens !== undefined) counts[field] = tokens;
  };
  set('promptTokens', usage.input_tokens);
  set('completionTokens', usage.output_tokens);
  set('cachedPromptTokens', usage.input_tokens_details?.cached_tokens);
  set('reasoningTokens', usage.output_tokens_details?.reasoning_tokens);
  return counts;
}

/**
 * What a native Response says as this gateway's answer: the public model name, and the client's own
 * `previous_response_id` (the provider was sent the conversation it stands for, not the id, so it
 * answers null there).
 */
export interface PublicResponse {
  readonly publicModel: string;
  readonly previousResponseId?: string | undefined;
}

/** Gives a Response object the public model name and the client's `previous_response_id`. */
function makePublic(response: Record<string, unknown>, as: PublicResponse): void {
  response.model = as.publicModel;
  if (as.previousResponseId !== undefined) response.previous_response_id = as.previousResponseId;
}

/**
 * A native JSON answer made public; its usage read for accounting, and the characters it generated,
 * from which the output is estimated when the upstream reports no usage.
 */
export function relayResponsesJson(
  result: Extract<NativeResult, { kind: 'json' }>,
  as: PublicResponse,
): { body: Record<string, unknown>; usage: Partial<Usage> | undefined; outputChars: number } {
  const body = (result.body !== null && typeof result.body === 'object' ? result.body : {}) as Record<string, unknown>;
  makePublic(body, as);
  return { body, usage: usageOf(body), outputChars: generatedChars(body.output) };
}

/** Characters of what a Response's output items generated: text, refusals, tool arguments and input, summaries. */
function generatedChars(output: unknown): number {
  if (!Array.isArray(output)) return 0;
  let chars = 0;
  const add = (value: unknown): void => {
    if (typeof value === 'string') chars += value.length;
  };
  for (const item of output as Array<Record<string, unknown> | null>) {
    if (item === null || typeof item !== 'object') continue;
    add(item.arguments);
    add(item.input);
    for (const list of [item.content, item.summary])
      if (Array.isArray(list))
        for (const part of list as Array<Record<string, unknown> | null>) {
          add(part?.text);
          add(part?.refusal);
        }
  }
  return chars;
}

/** Streamed events whose `delta` is not generated text: audio, as base64. */
const NOT_TEXT_DELTA = /audio\.delta$/;

/** Event types whose data carries the whole Response (with its `model`). */
const CARRIES_RESPONSE = /^response\.(created|in_progress|completed|incomplete|failed|queued)$/;

/**
 * Relays a native Responses stream: each event's name and data as the provider sent them, except the
 * Response objects, made public (see {@link PublicResponse}). Every event is parsed: a malformed one
 * ends the relay as a stream error instead of reaching the client. The final Response's usage is
 * reported, and handed to `keep` when the response is kept. A `response.failed` or `error` event ends
 * the relay as a stream error, which the caller reports in the client's shape and accounts as failed
 * (with the usage a failed Response reports), and so does a body that ends before the final Response.
 */
export async function* relayResponsesStream(
  events: AsyncIterable<SseEvent>,
  options: PublicResponse & {
    readonly usage: StreamUsage;
    readonly keep?: (response: Record<string, unknown>) => string;
    /** Follows the provider's numbering, so a failure reported by the gateway comes next in it. */
    readonly sequence?: ResponsesSequence;
  },
): AsyncGenerator<string> {
  let ended = false;
  // The id the response is kept under when it is not the provider's (one the provider repeated).
  let renamedTo: string | undefined;
  // The last Response kept: should the stream fail or the client leave, it must not stay in progress,
  // and it keeps the output written so far.
  let kept: Record<string, unknown> | undefined;
  const written = options.keep === undefined ? undefined : new StreamedOutput();
  // What ended the stream early, kept with the Response as its error when the provider reported it.
  let failure: unknown;
  try {
    yield* relayEvents();
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    if (!ended && kept !== undefined)
      options.keep?.(failedResponse({ ...kept, output: written?.items() ?? [] }, failure));
  }

  /**
   * Keeps the provider's own failed Response (its error and usage included), if it sent a readable one;
   * with the output written so far when it carries none, as the other mid-stream failures keep it.
   */
  function keepFailed(data: string): void {
    try {
      const response = (JSON.parse(data) as { response?: unknown }).response;
      if (response === null || typeof response !== 'object') return;
      const failed = response as Record<string, unknown>;
      makePublic(failed, options);
      const carried = Array.isArray(failed.output) && failed.output.length > 0;
      options.keep?.(
        carried ? failed : failedResponse({ ...failed, output: written?.items() ?? [] }, streamFailure(data)),
      );
      ended = true;
    } catch {
      // Unreadable: the stream error that follows reports it, and the kept Response is marked failed.
    }
  }

  async function* relayEvents(): AsyncGenerator<string> {
    for await (const event of events) {
      const payload = parseEvent(event.data);
      // The event line may be left out (valid SSE; the SDKs read the type from the data): the type is
      // then the data's own, and the client is sent it named, as OpenAI sends it.
      const type = event.event ?? (typeof payload.type === 'string' ? payload.type : '');
      written?.note(type, payload);
      if (type === 'response.failed') {
        // A failed Response still says what the provider billed: that, not the estimate, is accounted.
        const usage = usageOf(payload.response);
        if (usage) options.usage.report(usage);
        if (options.keep) keepFailed(event.data);
      }
      // Not relayed: the gateway's own error event takes its place, and its number.
      if (type === 'error' || type === 'response.failed') throw streamFailure(event.data);
      if (options.sequence !== undefined) noteSequence(options.sequence, payload);
      // Counted as it goes: a stream the client leaves, or one without usage, is estimated from it.
      if (typeof payload.delta === 'string' && !NOT_TEXT_DELTA.test(type))
        options.usage.addOutput(payload.delta.length);
      const response = CARRIES_RESPONSE.test(type) ? payload.response : undefined;
      if (response === null || typeof response !== 'object') {
        yield encodeEvent({ event: type, data: event.data });
        continue;
      }
      const final = type === 'response.completed' || type === 'response.incomplete';
      makePublic(response, options);
      if (final) {
        const usage = usageOf(response);
        if (usage) options.usage.report(usage);
      }
      // Kept from the first event on, so the id the client is about to see is readable at once.
      if ((final || type === 'response.created') && options.keep) {
        const keptAs = options.keep(response);
        if (keptAs !== response.id) renamedTo = keptAs;
        kept = response;
      }
      // Only once the final Response was read: an unreadable one leaves the kept Response failed.
      if (final) ended = true;
      const shown = renamedTo === undefined ? response : { ...response, id: renamedTo };
      yield eventFrame(type, JSON.stringify({ ...payload, response: shown }));
    }
    if (!ended) throw streamEndedEarly('response.completed');
  }
}

/** An event's data as an object; a stream error when it is not one. */
function parseEvent(data: string): {
  type?: unknown;
  response?: Record<string, unknown> | null;
  sequence_number?: unknown;
  delta?: unknown;
} {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw malformedFrame('event', data);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw malformedFrame('event', data);
  return value as { response?: Record<string, unknown> | null };
}

/** The error an `error` or `response.failed` event reports. */
function streamFailure(data: string): StreamError {
  try {
    const parsed = JSON.parse(data) as { message?: unknown; code?: unknown; response?: unknown };
    const { message, code } = failureOf(responseError(parsed.response) ?? parsed, data);
    // A response.failed carries the failed Response; an error event, the error itself.
    const Failure = parsed.response === undefined ? StreamError : FailedResponseError;
    return new Failure(message, FAILED_RESPONSE_STATUS, code);
  } catch {
    return malformedFrame('event', data);
  }
}

/**
 * The status a failed Response stands for: the provider answered 200, but with a failure of its own,
 * which another try (or another deployment) may not have.
 */
const FAILED_RESPONSE_STATUS = 502;

/** A failed Response's `error`, when it has one. */
function responseError(response: unknown): { message?: unknown; code?: unknown } | undefined {
  const error = (response as { error?: unknown } | null | undefined)?.error;
  return error !== null && typeof error === 'object' ? error : undefined;
}

/** The provider's message and code of a failure; its text's start, and `server_error`, where it gave none. */
function failureOf(detail: { message?: unknown; code?: unknown }, text: string): { message: string; code: string } {
  return {
    message: typeof detail.message === 'string' ? detail.message : text.slice(0, 200),
    code: typeof detail.code === 'string' ? detail.code : 'server_error',
  };
}

/**
 * The failure of a whole Response the provider answered 200 with `status: "failed"`, as a stream's
 * `response.failed` before its first relayed event is one: a 502 from the provider, retried and
 * fallen back from like any, and counted against the deployment. Undefined for any other Response.
 */
export function failedResponseError(
  body: Record<string, unknown>,
  provider: string,
  secrets: readonly string[],
): UpstreamError | undefined {
  if (body.status !== 'failed') return undefined;
  const { message, code } = failureOf(responseError(body) ?? {}, 'the Response reports no error');
  return new UpstreamError(`${provider} answered a failed Response, ${code}: ${redact(message, secrets)}`, {
    status: FAILED_RESPONSE_STATUS,
    upstreamType: code,
    inStream: true,
  });
}

/** Moves the stream's next number past the one this event carries, if it carries one. */
function noteSequence(sequence: ResponsesSequence, payload: { sequence_number?: unknown }): void {
  const number = payload.sequence_number;
  if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 0)
    sequence.next = Math.max(sequence.next, number + 1);
}
