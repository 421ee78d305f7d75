import { answerProblem, type AnswerFormat } from './answer-shape.js';
import type { CancelSignal, UpstreamReport } from './types.js';
import { redactSecrets } from '../../../shared/secret-shapes.js';
import { redactSecretPieces } from './secret-pieces.js';
import { UpstreamError, upstreamErrorDetails } from './upstream-error.js';
import { SseEventTooLargeError } from '../formats/sse.js';
import {
  AnswerBudgetExceededError,
  FULL_BUDGET_RETRY_MS,
  AnswerTooLargeError,
  WHOLE_ANSWERS_BUDGET,
  type AnswerBudget,
} from './upstream-body.js';
import { exchange, type UpstreamExchangeResponse, type UpstreamHeaders } from './upstream-exchange.js';
import type { UpstreamPools } from './upstream-pools.js';
import { GATEHOUSE_VERSION } from '../../version.js';

/** One JSON POST to a provider. */
export interface UpstreamCall {
  readonly pools: UpstreamPools;
  /** Provider label for messages (`openai`, `anthropic`, ...). */
  readonly provider: string;
  /** Base URL of the provider (`https://api.openai.com/v1`); `path` is appended to its path. */
  readonly baseUrl: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly signal: CancelSignal;
  /** Longest wait for response headers, and longest silence between body chunks. */
  readonly timeoutMs: number;
  /**
   * When set (a request's deadline), the longest wait from the request to the body's first bytes, the
   * headers included; silences once the body began keep `timeoutMs`.
   */
  readonly headersTimeoutMs?: number;
  /** Values that must never appear in error messages (the API key). */
  readonly secrets: readonly string[];
  /** The format a 2xx JSON answer must have; a body of another shape is refused like one that is not JSON. */
  readonly answer?: AnswerFormat;
  /** Receives the provider's request id of a 2xx answer. */
  readonly report?: UpstreamReport;
  /** What a 2xx answer read whole counts against while it arrives: WHOLE_ANSWERS_BUDGET, shared by every call, unless given. */
  readonly answerBudget?: AnswerBudget;
}

/** A 2xx answer whose body has not been read yet. */
export type UpstreamResponse = UpstreamExchangeResponse;

/** A 2xx JSON answer read whole: the parsed body and its text as received (forwarded without re-serialising). */
export interface JsonReply {
  readonly kind: 'json';
  readonly body: unknown;
  readonly text: string;
}

/**
 * Who calls, on every upstream call: providers' logs and rate limits tell the gateway's traffic from
 * that of other clients by it. The version is the one the server reports elsewhere (its spans, the UI).
 */
const USER_AGENT = `gatehouse/${GATEHOUSE_VERSION}`;

/** Starts the POST; undici's own error if it fails before an answer (the callers map it). */
function startPost(call: UpstreamCall): Promise<UpstreamResponse> {
  const target = call.pools.target(call.baseUrl, call.path);
  return exchange(
    call.pools.poolFor(target.origin),
    {
      method: 'POST',
      path: target.path,
      // Without Accept-Encoding an upstream may compress (RFC 9110), and its answers are read as text.
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'accept-encoding': 'identity',
        'user-agent': USER_AGENT,
        ...call.headers,
      },
      body: JSON.stringify(call.body),
    },
    call.signal,
    call.timeoutMs,
    call.headersTimeoutMs,
  );
}

const isSuccess = (response: UpstreamResponse): boolean => response.status >= 200 && response.status < 300;

/**
 * Hands a 2xx answer's request id to the call's report, where it has one. A server that echoes the
 * `x-request-id` it was sent (another gateway, vLLM) names no id of its own: that is the gateway's.
 */
function reportAnswer(response: UpstreamResponse, call: UpstreamCall): void {
  if (call.report === undefined) return;
  const id = providerRequestId(response.headers);
  call.report.upstreamRequestId = id === call.headers['x-request-id'] ? undefined : id;
}

/**
 * Sends the call and resolves once the upstream answered 2xx with headers (the body is left for
 * the caller to read or stream). Any other answer, a transport failure or a timeout rejects with an
 * UpstreamError; an aborted `signal` destroys the upstream request.
 */
export async function postJson(call: UpstreamCall): Promise<UpstreamResponse> {
  let response: UpstreamResponse;
  try {
    response = await startPost(call);
  } catch (error) {
    throw transportError(error, call);
  }
  if (!isSuccess(response)) throw await statusError(response, call);
  reportAnswer(response, call);
  return checkedEncoding(response, call);
}

/**
 * A 2xx answer, unless it is compressed although `identity` was asked for (a proxy that ignores
 * Accept-Encoding): read as text, its bytes would be taken for a broken answer and retried, and shown
 * in messages as binary. It is refused by name; another deployment may answer.
 */
function checkedEncoding(response: UpstreamResponse, call: Pick<UpstreamCall, 'provider'>): UpstreamResponse {
  const encoding = response.headers['content-encoding'];
  if (encoding === undefined || encoding === 'identity') return response;
  response.body.destroy();
  throw new UpstreamError(
    `${call.provider} upstream answered ${response.status} with Content-Encoding '${String(encoding).slice(0, 40)}', which the gateway does not read (it asks for identity); turn compression off on the server`,
    { status: response.status, retryable: false, upstreamType: 'unsupported_encoding' },
  );
}

/**
 * postJson for an answer read whole, as JSON. The same steps in one async function rather than
 * awaiting postJson: a request's every promise turn costs (this is the path of every non-streamed
 * chat answer), and a small answer that arrived with its headers is read without another.
 */
export async function postForJson(call: UpstreamCall): Promise<JsonReply> {
  let response: UpstreamResponse;
  try {
    response = await startPost(call);
  } catch (error) {
    throw transportError(error, call);
  }
  if (!isSuccess(response)) throw await statusError(response, call);
  reportAnswer(response, call);
  checkedEncoding(response, call);
  const text = response.body.textIfComplete() ?? (await readText(response, call));
  return { kind: 'json', body: parseJsonAnswer(text, response, call), text };
}

/**
 * A DELETE of `call.path` (a kept response at the provider). One already gone (404) is what was asked
 * for; any other failure rejects with an UpstreamError.
 */
export async function sendDelete(call: Omit<UpstreamCall, 'body' | 'answer' | 'report'>): Promise<void> {
  const target = call.pools.target(call.baseUrl, call.path);
  let response: UpstreamResponse;
  try {
    response = await exchange(
      call.pools.poolFor(target.origin),
      {
        method: 'DELETE',
        path: target.path,
        headers: {
          accept: 'application/json',
          'accept-encoding': 'identity',
          'user-agent': USER_AGENT,
          ...call.headers,
        },
      },
      call.signal,
      call.timeoutMs,
      call.headersTimeoutMs,
    );
  } catch (error) {
    throw transportError(error, call);
  }
  if (!isSuccess(response) && response.status !== 404) throw await statusError(response, call);
  // Read to its end, so the connection serves the next call.
  response.body.limitTo(MAX_ERROR_BODY_BYTES);
  await response.body.text().catch(() => '');
}

/**
 * The UpstreamError of a non-2xx answer: the provider's message, type, code and param (key-like
 * strings redacted) and its request id. An error body larger than MAX_ERROR_BODY_BYTES is not an
 * error a provider writes: it is not read further, and not retried (another try would send as much).
 */
async function statusError(
  response: UpstreamResponse,
  call: Pick<UpstreamCall, 'provider' | 'secrets'>,
): Promise<UpstreamError> {
  response.body.limitTo(MAX_ERROR_BODY_BYTES);
  let tooLarge = false;
  const text = await response.body.text().catch((error: unknown) => {
    tooLarge = error instanceof AnswerTooLargeError;
    return tooLarge ? `(a body larger than ${MAX_ERROR_BODY_BYTES / 1024 / 1024} MiB, not read further)` : '';
  });
  const detail = errorDetail(text);
  const quoted = (value: string | undefined) => (value === undefined ? undefined : redact(value, call.secrets));
  return new UpstreamError(
    redact(
      `${call.provider} upstream returned ${response.status}${detail.type ? ` ${detail.type}` : ''}: ${detail.message}`,
      call.secrets,
    ),
    {
      status: response.status,
      ...(tooLarge ? { retryable: false } : {}),
      upstreamType: quoted(detail.type),
      retryAfterMs: retryAfter(response.headers),
      code: quoted(detail.code),
      param: quoted(detail.param),
      requestId: providerRequestId(response.headers),
      details: upstreamErrorDetails(text, (value) => redact(value, call.secrets)),
    },
  );
}

/** The most of an error body read: providers' are a few hundred bytes. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** An id as providers write them (`req_011CU...`, a UUID); anything else is not passed on. */
const REQUEST_ID = /^[\w.:-]{1,200}$/;

/**
 * The provider's own id for the request: OpenAI's `x-request-id`, Anthropic's `request-id`; behind
 * another Gatehouse, the provider's id it passed on as `x-upstream-request-id`.
 */
export function providerRequestId(headers: UpstreamHeaders): string | undefined {
  const value = headers['x-upstream-request-id'] ?? headers['x-request-id'] ?? headers['request-id'];
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : undefined;
}

/**
 * Reads a 2xx JSON body of any shape (a stream request answered with JSON, usually an error), mapping
 * transport failures while reading to UpstreamError. Only what it says is used, so it is read to
 * MAX_ERROR_BODY_BYTES, like an error body.
 */
export async function readJson(
  response: UpstreamResponse,
  call: Pick<UpstreamCall, 'provider' | 'signal' | 'secrets' | 'answerBudget'>,
): Promise<unknown> {
  response.body.limitTo(MAX_ERROR_BODY_BYTES);
  const text = await readText(response, call);
  return parseJsonAnswer(text, response, { provider: call.provider, secrets: call.secrets });
}

/**
 * The whole body as text, its bytes counted against the call's answer budget while they arrive;
 * transport failures while reading map to UpstreamError.
 */
async function readText(
  response: UpstreamResponse,
  call: Pick<UpstreamCall, 'provider' | 'signal' | 'secrets' | 'answerBudget'>,
): Promise<string> {
  response.body.countAgainst(call.answerBudget ?? WHOLE_ANSWERS_BUDGET);
  try {
    return await response.body.text();
  } catch (error) {
    throw transportError(error, call, response.status);
  }
}

/** A 2xx answer's text parsed; an UpstreamError (with the upstream's own status) when it is not JSON. */
export function parseJsonAnswer(
  text: string,
  response: UpstreamResponse,
  call: Pick<UpstreamCall, 'provider' | 'secrets' | 'answer'>,
): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidAnswer(call, response, `invalid JSON: ${redact(text.slice(0, 200), call.secrets)}`);
  }
  const problem = call.answer === undefined ? undefined : answerProblem(call.answer, body);
  if (problem !== undefined) throw invalidAnswer(call, response, `JSON that is no ${call.answer} answer: ${problem}`);
  return body;
}

/**
 * A 2xx answer that cannot be used, with the upstream's own status (x-upstream-status says what it
 * sent). Not retried on the same deployment, which answers the same request the same way (each try
 * paid for); another deployment of the model is tried, as after any failure of the deployment.
 */
function invalidAnswer(call: Pick<UpstreamCall, 'provider'>, response: UpstreamResponse, what: string): UpstreamError {
  return new UpstreamError(`${call.provider} upstream answered with ${what}`, {
    status: response.status,
    retryable: false,
    upstreamType: 'invalid_response',
  });
}

/**
 * Maps an error thrown by undici (or by reading a body) to an UpstreamError. `status`: the upstream's,
 * when it failed while its answer was read.
 */
export function transportError(
  error: unknown,
  call: Pick<UpstreamCall, 'provider' | 'signal' | 'secrets'>,
  status = 0,
): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (call.signal.aborted)
    return new UpstreamError(`${call.provider} request aborted by the client`, {
      status: 0,
      retryable: false,
      upstreamType: 'aborted',
      silentMs: (error as { silentMs?: number } | null)?.silentMs,
    });
  const tooLarge = tooLargeError(error, call.provider, status);
  if (tooLarge !== undefined) return tooLarge;
  const code = (error as { code?: string } | null)?.code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_INVALID_ARG') return unsentRequest(message, call);
  const timeout =
    code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
  const kind = timeout ? 'timeout' : 'connection_error';
  return new UpstreamError(
    redact(
      `${call.provider} upstream ${timeout ? 'timed out' : 'connection failed'}: ${message}${code ? ` (${code})` : ''}`,
      call.secrets,
    ),
    {
      status: 0,
      retryable: true,
      upstreamType: kind,
    },
  );
}

/**
 * A request undici refused to send (a header value with a line break or a control character, from a
 * key or a header as configured): no upstream was reached, so it is neither retried, since every try
 * would be refused alike, nor counted against the deployment's health. The message says what undici
 * found invalid, never the value.
 */
function unsentRequest(message: string, call: Pick<UpstreamCall, 'provider' | 'secrets'>): UpstreamError {
  const header = /header/i.test(message)
    ? ": check the deployment's api_key and headers for spaces, line breaks or other control characters"
    : '';
  return new UpstreamError(
    redact(
      `${call.provider} request not sent: the gateway could not send it, ${message} (UND_ERR_INVALID_ARG)${header}`,
      call.secrets,
    ),
    { status: 0, retryable: false, upstreamType: 'request_not_sent', requestFault: true },
  );
}

/**
 * The UpstreamError of an answer the gateway stopped reading for its size: a body read whole past its
 * bound or the shared budget, a stream event that did not end, or one that V8 could not make a string
 * of. Not retried, since another try would send as much again; another deployment may answer. An
 * answer refused only because other answers filled the shared budget is the exception: retryable after
 * a short wait, and no fault of the deployment's. Undefined for any other error.
 */
export function tooLargeError(error: unknown, provider: string, status: number): UpstreamError | undefined {
  const answered = `${provider} upstream answered ${status > 0 ? `${status} ` : ''}with`;
  const refused = (message: string, upstreamType: string): UpstreamError =>
    new UpstreamError(`${message}, not read further`, { status, retryable: false, upstreamType });
  if (error instanceof AnswerTooLargeError) return refused(`${answered} ${error.message}`, 'answer_too_large');
  if (error instanceof AnswerBudgetExceededError) {
    if (error.passesWholeBudget) return refused(`${answered} ${error.message}`, 'answer_budget_exceeded');
    // Refused for what other answers held at that moment: a try a moment later fits.
    return new UpstreamError(`${answered} ${error.message}, not read further`, {
      status,
      retryable: true,
      upstreamType: 'answer_budget_exceeded',
      retryAfterMs: FULL_BUDGET_RETRY_MS,
      gatewayBusy: true,
    });
  }
  if (error instanceof SseEventTooLargeError)
    return refused(`${provider} upstream sent ${error.message}`, 'event_too_large');
  if (isStringTooLong(error))
    return refused(
      `${answered} more than the gateway can hold as one string (${(error as Error).message})`,
      'answer_too_large',
    );
  return undefined;
}

/** V8's and Node's refusals to make a string past their length limit (some 512 Mi characters). */
function isStringTooLong(error: unknown): boolean {
  return (
    (error instanceof RangeError && error.message.includes('Invalid string length')) ||
    (error as { code?: unknown } | null)?.code === 'ERR_STRING_TOO_LONG'
  );
}

/** What a provider's error body says: always a message; a type, and OpenAI's code and param, when given. */
interface ErrorDetail {
  readonly message: string;
  readonly type: string | undefined;
  readonly code?: string | undefined;
  readonly param?: string | undefined;
}

/** A field of a provider's error as text, when it is a string of sensible length. */
const shortText = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;

/**
 * The message and type of a provider error body: OpenAI `{error: {message, type}}`, Anthropic
 * `{type: "error", error: {type, message}}`, Ollama `{error: "..."}`, vLLM `{message, type}`.
 */
export function errorDetail(text: string): ErrorDetail {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = body.error;
    if (typeof error === 'string') return { message: error, type: undefined };
    if (error !== null && typeof error === 'object') {
      const inner = error as Record<string, unknown>;
      return {
        message: String(inner.message ?? JSON.stringify(error)),
        type: shortText(inner.type),
        code: typeof inner.code === 'number' ? String(inner.code) : shortText(inner.code),
        param: shortText(inner.param),
      };
    }
    if (typeof body.message === 'string') return { message: body.message, type: shortText(body.type) };
    if (typeof body.detail === 'string') return { message: body.detail, type: undefined };
  } catch {
    // not JSON: use the text itself
  }
  return { message: text.trim().slice(0, 500) || '(empty body)', type: undefined };
}

/**
 * The longest wait passed on: larger numbers print in exponent notation (`1e+300`), which no
 * `Retry-After` may hold, and a wait of 285,000 years is as good as any longer one.
 */
const MAX_RETRY_AFTER_MS = Number.MAX_SAFE_INTEGER;

/** The wait an upstream asked for, in milliseconds: `retry-after-ms` (OpenAI's), else `Retry-After` in seconds or as a date. */
function retryAfter(headers: UpstreamHeaders): number | undefined {
  const asked = askedWait(headers);
  return asked === undefined ? undefined : Math.min(asked, MAX_RETRY_AFTER_MS);
}

function askedWait(headers: UpstreamHeaders): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms);
  const value = headers['retry-after'];
  if (typeof value !== 'string') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Removes secrets from a message: the exact ones given, then anything shaped like a key. */
export function redact(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  // Cut short or encoded, a known key is no exact match.
  out = redactSecretPieces(out, secrets);
  // Providers quote parts of keys (`sk-WR****-999`) that no exact match can catch.
  return redactSecrets(out);
}
