import { assertNever } from '../../../shared/assert-never.js';
import type { StoredBody, TrafficRecord } from './traffic-log.js';

/** How a stored body's text is read back (the text itself is stored beside the record's fields). */
type BodyShape =
  | { readonly kind: 'json'; readonly patch?: Readonly<Record<string, unknown>> }
  | { readonly kind: 'text'; readonly truncated: boolean }
  | { readonly kind: 'value' };

/** The record's fields as one JSON array; the last two entries are the bodies' shapes. */
const REQUEST_SHAPE = 30;
const RESPONSE_SHAPE = 31;

/**
 * A traffic record as three texts for the RecordArena: its fields as a JSON array (an array
 * literal serialises in a fraction of the time an object built by spreading takes, and this runs
 * once per request), the request body's text and the response body's text.
 */
export function encodeRecord(record: TrafficRecord): string[] {
  const r = record;
  const fields = [
    r.request_id,
    r.startedAtMs,
    r.endpoint,
    r.method,
    r.path,
    r.status,
    r.error_type,
    r.requested_model,
    r.model,
    r.deployment,
    r.provider,
    r.key_id,
    r.key_name,
    r.user,
    r.team,
    r.stream,
    r.cached,
    r.attempts,
    r.limits ?? null,
    r.latency_ms,
    r.prompt_tokens,
    r.completion_tokens,
    r.cost_usd,
    r.rag_chunks ?? null,
    r.guardrails ?? null,
    r.cache ?? null,
    r.trace_id ?? null,
    r.cache_read_prompt_tokens ?? null,
    r.cache_write_prompt_tokens ?? null,
    r.reasoning_tokens ?? null,
    bodyShape(r.requestBody),
    bodyShape(r.responseBody),
  ];
  return [JSON.stringify(fields), bodyText(r.requestBody), bodyText(r.responseBody)];
}

/** The record encodeRecord stored. */
export function decodeRecord(texts: readonly string[]): TrafficRecord {
  // Each field's type is what encodeRecord put at that position.
  const f = JSON.parse(texts[0] ?? '[]') as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  return {
    request_id: f[0],
    startedAtMs: f[1],
    endpoint: f[2],
    method: f[3],
    path: f[4],
    status: f[5],
    error_type: f[6],
    requested_model: f[7],
    model: f[8],
    deployment: f[9],
    provider: f[10],
    key_id: f[11],
    key_name: f[12],
    user: f[13],
    team: f[14],
    stream: f[15],
    cached: f[16],
    attempts: f[17],
    limits: f[18],
    latency_ms: f[19],
    prompt_tokens: f[20],
    completion_tokens: f[21],
    cost_usd: f[22],
    rag_chunks: f[23],
    guardrails: f[24],
    cache: f[25],
    trace_id: f[26],
    cache_read_prompt_tokens: f[27],
    cache_write_prompt_tokens: f[28],
    reasoning_tokens: f[29],
    requestBody: storedBody(f[REQUEST_SHAPE], texts[1] ?? ''),
    responseBody: storedBody(f[RESPONSE_SHAPE], texts[2] ?? ''),
  };
}

function bodyText(body: StoredBody | undefined): string {
  if (body === undefined) return '';
  return body.kind === 'value' ? JSON.stringify(body.value) : body.text;
}

function bodyShape(body: StoredBody | undefined): BodyShape | null {
  if (body === undefined) return null;
  switch (body.kind) {
    case 'json':
      return body.patch ? { kind: 'json', patch: body.patch } : { kind: 'json' };
    case 'text':
      return { kind: 'text', truncated: body.truncated };
    case 'value':
      return { kind: 'value' };
    default:
      return assertNever(body, 'stored body');
  }
}

function storedBody(shape: BodyShape | null, text: string): StoredBody | undefined {
  if (shape === null) return undefined;
  switch (shape.kind) {
    case 'json':
      return shape.patch ? { kind: 'json', text, patch: shape.patch } : { kind: 'json', text };
    case 'text':
      return { kind: 'text', text, truncated: shape.truncated };
    case 'value':
      return { kind: 'value', value: JSON.parse(text) as unknown };
    default:
      return assertNever(shape, 'body shape');
  }
}
