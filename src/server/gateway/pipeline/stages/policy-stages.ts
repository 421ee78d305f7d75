import type { FastifyReply } from 'fastify';
import type { ClientFormat } from '../../formats/codec.js';
import type { RequestContext } from '../request-context.js';

/** What a policy stage sees: the request so far and the (mutable) body about to be routed. */
export interface PolicyInput {
  readonly ctx: RequestContext;
  /** `chat`/`messages` for conversations, `embeddings` for embeddings. */
  readonly format: ClientFormat | 'embeddings';
  readonly body: Record<string, unknown>;
  readonly reply: FastifyReply;
}

/**
 * A stage may let the request continue (`undefined`), refuse it by throwing an AppError (429 with
 * Retry-After, 400 content_policy_violation, ...), or answer it itself (a cache hit).
 */
export type PolicyOutcome = undefined | { readonly kind: 'respond'; readonly body: unknown };

/** One policy stage. Synchronous stages return directly so the hot path allocates no promise. */
export type PolicyStage = (input: PolicyInput) => PolicyOutcome | Promise<PolicyOutcome>;

/**
 * The extension points between model resolution and routing, run in this order (ARCHITECTURE.md).
 * This issue ships none of them; the issues that add rate limits and budgets, content policy, PII,
 * RAG and the response cache each fill their slot, and nothing else in the pipeline changes.
 */
export const POLICY_STAGE_ORDER = ['rateLimit', 'contentPolicy', 'piiScrub', 'rag', 'cacheLookup'] as const;

/** Name of a policy slot. */
export type PolicyStageName = (typeof POLICY_STAGE_ORDER)[number];

/** The installed policy stages, by slot. */
export type PolicyStages = Partial<Readonly<Record<PolicyStageName, PolicyStage>>>;

/** The installed stages in order, computed once (an empty list costs nothing per request). */
export function compilePolicyStages(stages: PolicyStages): readonly PolicyStage[] {
  return POLICY_STAGE_ORDER.map((name) => stages[name]).filter((stage): stage is PolicyStage => stage !== undefined);
}

/** Runs the installed stages; the first that answers wins. */
export async function runPolicyStages(stages: readonly PolicyStage[], input: PolicyInput): Promise<PolicyOutcome> {
  for (const stage of stages) {
    const outcome = await stage(input);
    if (outcome !== undefined) return outcome;
  }
  return undefined;
}

/** After the provider: rewrites the answer for the client (PII restore), whole JSON bodies and each stream frame. */
export interface OutputStage {
  json(ctx: RequestContext, body: unknown): unknown;
  frame(ctx: RequestContext, frame: string): string;
}

/** The output extension point (PII restore, from the PII issue); none ships with this one. */
export interface OutputStages {
  readonly piiRestore?: OutputStage;
}
