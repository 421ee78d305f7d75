import type { UpstreamErrorDetail } from '../../../shared/errors.js';

/** What an UpstreamError is made of besides its message (see its fields). */
interface UpstreamErrorOptions {
  readonly status: number;
  readonly retryable?: boolean;
  readonly upstreamType?: string;
  readonly retryAfterMs?: number;
  readonly code?: string;
  readonly param?: string;
  readonly requestId?: string;
  readonly details?: UpstreamErrorDetails;
  readonly silentMs?: number;
  readonly inStream?: boolean;
  readonly requestFault?: boolean;
  readonly gatewayBusy?: boolean;
}

/**
 * A provider call that failed before the answer started: the upstream's own error status, or 0 for
 * a connection error or a timeout. The caller falls back to another deployment when `retryable`
 * (429, 408, 5xx, timeouts, connection errors) and otherwise answers 502 upstream_error. The
 * message names the provider and its status and message; it never carries the API key.
 */
export class UpstreamError extends Error {
  readonly status: number;
  readonly retryable: boolean;
  /** The provider's error type (`rate_limit_error`, `server_error`, ...) or a transport code. */
  readonly upstreamType: string | undefined;
  /** Milliseconds the provider asked to wait (`retry-after-ms`, or `retry-after`), when it said. */
  readonly retryAfterMs: number | undefined;
  /** The same wait in whole seconds, rounded up (a `Retry-After` header can say no less). */
  readonly retryAfterSeconds: number | undefined;
  /** The provider's error `code` and `param` (OpenAI's), when its answer had them. */
  readonly code: string | undefined;
  readonly param: string | undefined;
  /** The provider's id for the request (`x-request-id`, Anthropic's `request-id`), which its support asks for. */
  readonly requestId: string | undefined;
  /** The provider's `error.details` object (Anthropic's `{error_code: "thread_not_found"}`), when it sent one. */
  readonly details: UpstreamErrorDetails | undefined;
  /** For a call its client left: how long the upstream had sent nothing by then (undefined: unknown). */
  readonly silentMs: number | undefined;
  /**
   * The failure is an error event in a stream the provider answered 200, or a whole Response it
   * answered 200 with `status: "failed"`: `status` is then the one the provider answers that error type
   * with (Anthropic's 529 for `overloaded_error`), not what it sent.
   */
  readonly inStream: boolean;
  /**
   * The request's doing, not the deployment's health: the answer was sound but could not give what the
   * request asked of this model (vectors shorter than the `dimensions` asked), or the provider refused
   * what the request refers to (an item id it does not hold, see asRequestFault).
   */
  readonly requestFault: boolean;
  /**
   * The gateway refused the answer for its own load at that moment (other answers filling the memory
   * it holds for answers being read): no fault of the deployment's, and gone once they are read.
   */
  readonly gatewayBusy: boolean;

  constructor(message: string, options: UpstreamErrorOptions) {
    super(message);
    this.name = 'UpstreamError';
    this.status = options.status;
    this.retryable = options.retryable ?? isRetryableStatus(options.status);
    this.upstreamType = options.upstreamType;
    this.retryAfterMs = options.retryAfterMs;
    this.retryAfterSeconds = options.retryAfterMs === undefined ? undefined : Math.ceil(options.retryAfterMs / 1000);
    this.code = options.code;
    this.param = options.param;
    this.requestId = options.requestId;
    this.details = options.details;
    this.silentMs = options.silentMs;
    this.inStream = options.inStream ?? false;
    this.requestFault = options.requestFault ?? false;
    this.gatewayBusy = options.gatewayBusy ?? false;
  }
}

/**
 * The same failure as the request's fault: not counted against the deployment nor tried on another
 * one (every deployment would refuse it alike), but answered at once as a refusal of the request is.
 */
export function asRequestFault(error: UpstreamError): UpstreamError {
  return changed(error, { retryable: false, requestFault: true });
}

/**
 * The same failure with the provider's request id of the answer it came in, where it names none of its
 * own: a stream that fails after its 200 came with the id in that answer's headers.
 */
export function withRequestId(error: UpstreamError, requestId: string | undefined): UpstreamError {
  if (requestId === undefined || error.requestId !== undefined) return error;
  return changed(error, { requestId });
}

/** A copy of `error` with some of its options changed. */
function changed(error: UpstreamError, changes: Partial<UpstreamErrorOptions>): UpstreamError {
  return new UpstreamError(error.message, {
    status: error.status,
    retryable: error.retryable,
    upstreamType: error.upstreamType,
    retryAfterMs: error.retryAfterMs,
    code: error.code,
    param: error.param,
    requestId: error.requestId,
    details: error.details,
    silentMs: error.silentMs,
    inStream: error.inStream,
    requestFault: error.requestFault,
    gatewayBusy: error.gatewayBusy,
    ...changes,
  });
}

/** A provider's machine-readable account of an error, beside its message: a JSON object. */
export type UpstreamErrorDetails = Readonly<Record<string, unknown>>;

/**
 * The provider's own words on the failure, as the SDKs expose them (`err.error.upstream`); `details`
 * only when the provider sent some.
 */
export function upstreamErrorDetail(error: UpstreamError): UpstreamErrorDetail & { details?: UpstreamErrorDetails } {
  const answered = error.status > 0;
  return {
    status: error.inStream ? 200 : answered ? error.status : null,
    // Without an answer, the type is the gateway's name for what happened (`timeout`, `connection_error`).
    type: error.upstreamType ?? null,
    code: error.code ?? null,
    param: error.param ?? null,
    request_id: error.requestId ?? null,
    ...(error.details === undefined ? {} : { details: error.details }),
  };
}

/** The most of a provider's `error.details` passed on, as JSON text: Anthropic's are a few dozen characters. */
const MAX_DETAILS_CHARS = 2000;

/**
 * The `error.details` object of a provider's error body (`{"error": {"details": {...}}}`, Anthropic's
 * and OpenAI's shape alike), its text passed through `redact` (keys the provider quoted). Undefined
 * when there is none, when it is no JSON object, or when it is longer than MAX_DETAILS_CHARS: the
 * codes in it are what an SDK recovers by, and an object cut short would say something else.
 */
export function upstreamErrorDetails(text: string, redact: (text: string) => string): UpstreamErrorDetails | undefined {
  let details: unknown;
  try {
    details = (JSON.parse(text) as { error?: { details?: unknown } } | null)?.error?.details;
  } catch {
    return undefined;
  }
  if (details === null || typeof details !== 'object' || Array.isArray(details)) return undefined;
  const json = JSON.stringify(details);
  if (json.length > MAX_DETAILS_CHARS) return undefined;
  try {
    return JSON.parse(redact(json)) as UpstreamErrorDetails;
  } catch {
    // A redaction that broke the JSON: the details held a key, and are better left out whole.
    return undefined;
  }
}

/** Statuses worth trying another deployment for: no status (transport), 408, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/** Provider statuses that refuse the request itself: malformed, too large, or not processable. */
const REQUEST_FAULTS: ReadonlySet<number> = new Set([400, 413, 422]);

/**
 * Whether a failure says something about the deployment rather than about the request: everything
 * worth retrying, and every other refusal (its key, access or model: 401, 403, 404; a redirect or 405
 * from a wrong address). A request the provider refused as malformed (400, 413, 422) would fail on any
 * deployment; counting it would let one client's bad requests push a healthy deployment into
 * cooldown for everybody. Nor does a refusal the caller marked as the request's (`requestFault`: a
 * Responses API's 404 for an item id it does not hold), nor an answer the gateway refused for its own load.
 */
export function blamesDeployment(error: UpstreamError): boolean {
  if (error.requestFault || error.gatewayBusy) return false;
  return error.retryable || !REQUEST_FAULTS.has(error.status);
}

/**
 * A call the provider cannot make at all (embeddings on an Anthropic deployment, for example):
 * the request is wrong, not the upstream. Callers answer 400 invalid_request_error.
 */
export class UnsupportedOperationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedOperationError';
  }
}
