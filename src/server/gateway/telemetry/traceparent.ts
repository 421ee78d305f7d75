import { TraceFlags, type SpanContext } from '@opentelemetry/api';

// W3C Trace Context, version 00: version-traceid-parentid-flags, lower-case hex. Later versions may
// append fields after the flags; their first four fields are read the same way.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '00000000000000000000000000000000';
const ZERO_SPAN = '0000000000000000';

/** The caller's span from an incoming `traceparent` (and `tracestate`), or undefined when absent or malformed. */
export function parseTraceparent(header: unknown): SpanContext | undefined {
  if (typeof header !== 'string') return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  // ff is forbidden; version 00 has exactly four fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId: traceId!, spanId: spanId!, traceFlags: parseInt(flags!, 16) & TraceFlags.SAMPLED, isRemote: true };
}

/** The `traceparent` value naming `span` as the parent of the next hop. */
export function formatTraceparent(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & TraceFlags.SAMPLED) === 0 ? '00' : '01'}`;
}

/**
 * The caller's trace context to send upstream as it came, when the gateway records no spans of its
 * own: an instrumented upstream (vLLM, another gateway) then joins the caller's trace, as through a
 * proxy that is not traced. Undefined when absent or malformed (never passed on unchecked).
 */
export function passedThroughContext(
  traceparent: unknown,
  tracestate: unknown,
): Readonly<Record<string, string>> | undefined {
  if (parseTraceparent(traceparent) === undefined) return undefined;
  // As it came: its flags included, which a newer version may define.
  const headers: Record<string, string> = { traceparent: (traceparent as string).trim() };
  if (typeof tracestate === 'string' && tracestate.length <= 512 && TRACESTATE.test(tracestate))
    headers.tracestate = tracestate;
  return headers;
}

/**
 * A `tracestate` passed on to a third party: list members as W3C writes them (keys and printable
 * values), at most 512 characters, the length OpenTelemetry's SDKs keep.
 */
const TRACESTATE =
  /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]+=[\x20-\x2b\x2d-\x3c\x3e-\x7e]*(,[\x20-\x2b\x2d-\x3c\x3e-\x7e]+=[\x20-\x2b\x2d-\x3c\x3e-\x7e]*){0,31}$/;
