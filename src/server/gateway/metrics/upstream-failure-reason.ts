/**
 * What failed in an upstream attempt, as the `reason` label of `gateway_upstream_failures_total`: a
 * fixed set, so the provider's throttling (`429`), its outage (`5xx`, `timeout`, `connection`), a
 * refusal of the deployment's key, model or address (`4xx`) and an answer that could not be used
 * (`invalid_answer`) are told apart without the provider's raw status growing the series.
 */
export const UPSTREAM_FAILURE_REASONS = [
  '429',
  '5xx',
  '4xx',
  'timeout',
  'connection',
  'invalid_answer',
  'other',
] as const;
/** One reason an upstream attempt failed. */
export type UpstreamFailureReason = (typeof UPSTREAM_FAILURE_REASONS)[number];

/**
 * The reason of a failed attempt, from the upstream error's status (0: no answer) and its type. The
 * provider's own 408 is a timeout; a 2xx it answered that was no answer is `invalid_answer`; an error
 * event inside a stream carries the status its type stands for (Anthropic's `overloaded_error`: 529).
 */
export function upstreamFailureReason(error: {
  readonly status: number;
  readonly upstreamType?: string | undefined;
}): UpstreamFailureReason {
  const { status, upstreamType } = error;
  if (upstreamType === 'timeout' || status === 408) return 'timeout';
  if (upstreamType === 'invalid_response') return 'invalid_answer';
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status === 0 && (upstreamType === 'connection_error' || upstreamType === 'stream_error')) return 'connection';
  return 'other';
}
