import type { RequestContext } from '../pipeline/request-context.js';

/**
 * Whether a policy slot acted on the request, read from what it left on the context once it ran:
 * limits it reserved under or a slot among parallel requests, content-policy or PII rules in force
 * for the request's key and model, retrieved context, the cache applying to it. A slot that only
 * looked (its feature off, or not for this key or model) left nothing, and gets no span: five empty
 * spans a request cost span-billed backends and the export queue for nothing. A stage that refused,
 * answered or recorded attributes acted whatever this says.
 */
const ACTED: Readonly<Record<string, (ctx: RequestContext) => boolean>> = {
  'gateway.policy.rateLimit': (ctx) => ctx.reservation !== undefined || ctx.parallelSlots !== undefined,
  'gateway.policy.contentPolicy': (ctx) => ctx.rules?.policy !== undefined,
  'gateway.policy.piiScrub': (ctx) => ctx.rules?.pii !== undefined,
  'gateway.policy.rag': (ctx) => ctx.rag !== undefined,
  'gateway.policy.cacheLookup': (ctx) => ctx.cache !== undefined,
};

/** Whether the policy stage whose span is `name` acted on the request (one installed in its place: by its own marks). */
export function policyStageActed(name: string, ctx: RequestContext): boolean {
  return ACTED[name]?.(ctx) ?? false;
}
