/** Anthropic error types and the HTTP statuses Anthropic answers them with. */
const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** The HTTP status of an Anthropic error type (500 for types this gateway does not know). */
export function anthropicErrorStatus(type: unknown): number {
  // Own properties only: an upstream's `constructor` type must not find Object.prototype's.
  return typeof type === 'string' && Object.hasOwn(STATUS_OF_TYPE, type) ? STATUS_OF_TYPE[type]! : 500;
}
