/**
 * Error types of the shared error shape `{error: {type, message, code}}` (plus `param` on the gateway's
 * OpenAI-format answers), with their HTTP status.
 */
export const ERROR_STATUS = {
  invalid_request_error: 400,
  content_policy_violation: 400,
  model_not_allowed: 400,
  capability_not_supported: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  conflict_error: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  rate_limit_exceeded: 429,
  internal_error: 500,
  upstream_error: 502,
  service_unavailable: 503,
} as const;

/** One of the error types both services answer with. */
export type ErrorType = keyof typeof ERROR_STATUS;

/**
 * What the provider said of a failure the gateway answers 502 `upstream_error`: its own status, error
 * type, code and parameter, and its request id, which the provider's support asks for.
 */
export interface UpstreamErrorDetail {
  readonly status: number | null;
  readonly type: string | null;
  readonly code: string | null;
  readonly param: string | null;
  readonly request_id: string | null;
}

/** The body of every error response. */
export interface ErrorBody {
  readonly error: {
    readonly type: ErrorType;
    readonly message: string;
    readonly code: number;
    /**
     * The request field at fault (`messages[0].content`), null when the fault is not one field: sent on
     * the gateway's OpenAI-format answers only, where OpenAI's SDKs read it (`err.param`).
     */
    readonly param?: string | null;
    /** On `upstream_error` only. */
    readonly upstream?: UpstreamErrorDetail;
    /** On the store's 409 for a moved branch head only: the head the change was refused against. */
    readonly head_revision?: number;
    /** On the store's 409 for a merge's moved source branch only (`expected_from_revision`): its head. */
    readonly from_head_revision?: number;
  };
}
