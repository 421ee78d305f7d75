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
  const redacted = redactForRecords(ctx, message);
  if (redacted === message) return body;
  const error = (body as { error: object }).error;
  return { ...(body as object), error: { ...error, message: redacted } };
}

/**
 * Client text the gateway records (an error message, a model name it does not serve) with the values
 * the request's PII rule finds in it redacted; the text itself without a rule or a find. Placeholders
 * already in it (an upstream's message, after scrubbing) are not found again, and stay unambiguous.
 */
export function redactForRecords(ctx: RequestContext, text: string): string {
  const rule = rulesOf(ctx).pii;
  if (rule === undefined) return text;
  const found = findEntities(text, rule.detectors);
  if (found.length === 0) return text;
  const quoted = new Set<string>();
  collectPlaceholders(text, quoted);
  return new PiiScrubber(false, quoted).scrub(text, found);
}
