import type { ProviderAnswer } from '../../providers/answer.js';
import type { RequestContext } from '../request-context.js';

/**
 * A policy stage sees the request so far (`ctx.body` is the body about to be routed, and may be
 * rewritten). It lets the request continue (`undefined`), refuses it by throwing an AppError (429
 * with Retry-After, 400 content_policy_violation, ...), or answers it itself (a cache hit), in which
 * case no upstream is called. Synchronous stages return directly so the hot path allocates no promise.
 */
export type PolicyStage = (ctx: RequestContext) => ProviderAnswer | undefined | Promise<ProviderAnswer | undefined>;

/** The policy slots between model resolution and routing, in the order they run. */
export const POLICY_STAGE_ORDER = ['rateLimit', 'contentPolicy', 'piiScrub', 'rag', 'cacheLookup'] as const;

/** Name of a policy slot. */
export type PolicyStageName = (typeof POLICY_STAGE_ORDER)[number];

/** The installed policy stages, by slot. */
export type PolicyStages = Partial<Readonly<Record<PolicyStageName, PolicyStage>>>;

/** The installed stages in order, computed once (an empty list costs nothing per request). */
export function compilePolicyStages(stages: PolicyStages): readonly PolicyStage[] {
  return POLICY_STAGE_ORDER.map((name) => stages[name]).filter((stage): stage is PolicyStage => stage !== undefined);
}

/**
 * After the provider: rewrites the answer for the client (PII restore), whole JSON texts and each
 * stream frame. `applies` says whether the request needs it at all, so others pay nothing.
 */
export interface OutputStage {
  applies(ctx: RequestContext): boolean;
  text(ctx: RequestContext, json: string): string;
  frame(ctx: RequestContext, frame: string): string;
}

/** The output slots, after the provider call. */
export interface OutputStages {
  readonly piiRestore?: OutputStage;
}
