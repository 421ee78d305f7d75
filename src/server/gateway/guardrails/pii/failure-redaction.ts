import type { RequestContext } from '../../pipeline/request-context.js';
import { rulesOf } from '../request-rules.js';
import { findEntities } from './detectors.js';
import { PiiScrubber } from './pii-scrubber.js';

/** The error body a failed request answered (the shared error shape, Anthropic's envelope or not). */
interface ErrorBodyShape {
  readonly error?: { readonly message?: unknown };
}

/**
 * The error body as the traffic view keeps it. A request refused before the PII stage ran (a value
 * the schema refused, named in the message as the contract asks) was never scrubbed: its message may
 * quote what the client sent, so the values the request's PII rule finds there are redacted. The
 * client's own answer keeps them: it is the client's text.
 */
export function failureForTraffic(ctx: RequestContext, body: unknown): unknown {
  if (ctx.guardrails?.pii_mode !== undefined) return body;
  const message = (body as ErrorBodyShape | null)?.error?.message;
  if (typeof message !== 'string') return body;
  const rule = rulesOf(ctx).pii;
  if (rule === undefined) return body;
  const found = findEntities(message, rule.detectors);
  if (found.length === 0) return body;
  const redacted = new PiiScrubber(false, new Set()).scrub(message, found);
  const error = (body as { error: object }).error;
  return { ...(body as object), error: { ...error, message: redacted } };
}
