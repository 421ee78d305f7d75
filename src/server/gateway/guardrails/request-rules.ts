import { AppError } from '../../http/errors.js';
import type { GuardrailsOutcome } from '../../../shared/guardrails-api.js';
import type { RequestContext } from '../pipeline/request-context.js';
import type { RequestRules } from './rules.js';

/** The PII and content-policy rules of a request (its key and model), looked up once. */
export function rulesOf(ctx: RequestContext): RequestRules {
  if (ctx.rules === undefined) {
    const key = ctx.principal?.kind === 'key' ? ctx.principal.key.row.id : undefined;
    ctx.rules = ctx.services.guardrails.forRequest(key, ctx.model);
  }
  return ctx.rules;
}

/** The request's record of what the stages did (for the traffic view), created on first use. */
export function noteGuardrails(ctx: RequestContext): GuardrailsOutcome {
  return (ctx.guardrails ??= {});
}

/** Refuses the request as a policy violation (400, before any upstream call), counted and shown in the traffic view. */
export function refuse(ctx: RequestContext, stage: 'pii' | 'content_policy', reason: string): never {
  noteGuardrails(ctx).blocked = { stage, reason };
  ctx.services.metrics.contentPolicyBlocks.inc();
  throw new AppError('content_policy_violation', `request refused by the content policy: ${reason}`);
}
