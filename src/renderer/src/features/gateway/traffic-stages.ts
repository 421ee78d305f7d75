import type { TrafficEvent } from '../../../../shared/gateway-api.js';
import { LIMIT_TYPES, type LimitType } from '../../../../shared/principals-api.js';

/** The policy stages the traffic drawer reports on, in the order the gateway runs them (docs/gateway.md). */
const STAGE_ORDER = ['limits', 'content_policy', 'pii'] as const;

/** One of the policy stages the drawer reports on. */
export type PolicyStage = (typeof STAGE_ORDER)[number];

/**
 * Where a request's refusal ended it, as far as its traffic record tells: before the policy stages
 * (its model never resolved), or at one of them. Undefined: it went past them all, or the record does
 * not say it stopped earlier.
 */
export type PolicyStop =
  | { readonly at: 'before' }
  | { readonly at: 'limits'; readonly limitType: LimitType | undefined }
  | { readonly at: 'content_policy' | 'pii' };

/** Endpoints that call no model, and so run no policy stage at all. */
const WITHOUT_POLICY: ReadonlySet<string> = new Set(['models', 'rag_collections', 'stored_responses']);

/**
 * The `error` object of a failed request's answer (OpenAI's `{error: {...}}`, Anthropic's
 * `{type: "error", error: {...}}`), as recorded: parsed JSON, or its text.
 */
export function answerErrorOf(body: unknown): Readonly<Record<string, unknown>> | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  const error = value !== null && typeof value === 'object' ? (value as { error?: unknown }).error : undefined;
  return error !== null && typeof error === 'object' ? (error as Record<string, unknown>) : undefined;
}

/** The `limit_type` the limits stage's 429 names in its answer. */
function limitTypeOf(body: unknown): LimitType | undefined {
  const type = answerErrorOf(body)?.limit_type;
  return LIMIT_TYPES.find((known) => known === type);
}

/** Where the request stopped among the policy stages, if its record shows it stopped before passing them. */
export function policyStop(event: TrafficEvent): PolicyStop | undefined {
  const blocked = event.guardrails?.blocked?.stage;
  if (blocked !== undefined) return { at: blocked };
  if (event.status < 400) return undefined;
  // The list's events carry the limit without the body; a body read whole names it too.
  const limitType = LIMIT_TYPES.find((known) => known === event.limit_type) ?? limitTypeOf(event.response_body);
  // The limits stage's 429 names its limit, and comes before any upstream was tried (an upstream's own
  // 429 comes back after an attempt); one without its answer recorded is still the gateway's.
  if (event.attempts === 0 && !event.cached && (limitType !== undefined || event.status === 429))
    return { at: 'limits', limitType };
  // Refused while its key, body or model were checked: the policy stages run only on a resolved model.
  if (event.model === null && !WITHOUT_POLICY.has(event.endpoint)) return { at: 'before' };
  return undefined;
}

/** Whether the request reached a policy stage (one that refused it did). */
export function reachedStage(stop: PolicyStop | undefined, stage: PolicyStage): boolean {
  if (stop === undefined) return true;
  if (stop.at === 'before') return false;
  return STAGE_ORDER.indexOf(stage) <= STAGE_ORDER.indexOf(stop.at);
}
