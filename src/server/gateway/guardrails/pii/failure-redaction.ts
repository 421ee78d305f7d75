import type { RequestContext } from '../../pipeline/request-context.js';
import { rulesOf } from '../request-rules.js';
import { findEntities } from './detectors.js';
import { collectPlaceholders, PiiScrubber } from './pii-scrubber.js';

/** The error body a failed request answered (the shared error shape, Anthropic's envelope or not). */
interface ErrorBodyShape {
  readonly error?: { readonly message?: unknown };
}

/**
 * The error body as the traffic view keeps it. An error message may quote what the client sent, as
 * the contract asks: a value the schema refused before the PII stage ran, or, after it, a field the
 * stage does not read (a RAG header or `metadata` entry). So the values the request's PII rule finds
 * there are redacted, whichever stage refused; placeholders already in it are not found again. The
 * client's own answer keeps them: it is the client's text.
 */
export function failureForTraffic(ctx: RequestContext, body: unknown): unknown {
  const message = (body as ErrorBodyShape | null)?.error?.message;
  if (typeof message !== 'string') return body;
  const rule = rulesOf(ctx).pii;
  if (rule === undefined) return body;
  const found = findEntities(message, rule.detectors);
  if (found.length === 0) return body;
  // A message that already quotes placeholders (an upstream's, after scrubbing) keeps them unambiguous.
  const quoted = new Set<string>();
  collectPlaceholders(message, quoted);
  const redacted = new PiiScrubber(false, quoted).scrub(message, found);
  const error = (body as { error: object }).error;
  return { ...(body as object), error: { ...error, message: redacted } };
}
