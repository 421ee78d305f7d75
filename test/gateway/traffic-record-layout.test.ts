import { describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../src/shared/gateway-api.js';
import { GatewayEventBus } from '../../src/server/gateway/traffic/event-bus.js';
import {
  jsonBody,
  MAX_BODY_CHARS,
  textBody,
  TrafficLog,
  type TrafficRecord,
} from '../../src/server/gateway/traffic/traffic-log.js';

const base: TrafficRecord = {
  request_id: 'req-1',
  startedAtMs: 1_700_000_000_123,
  endpoint: 'chat',
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  error_type: null,
  requested_model: 'alias',
  model: 'bench-model',
  deployment: 'bench-upstream',
  provider: 'openai',
  key_id: 'k_0123',
  key_name: 'bench',
  user: null,
  team: null,
  stream: false,
  cached: false,
  attempts: 1,
  limits: null,
  latency_ms: 1.234567,
  prompt_tokens: 12,
  completion_tokens: 9,
  cost_usd: 0.0000072,
  cache_read_prompt_tokens: null,
  cache_write_prompt_tokens: null,
  reasoning_tokens: null,
  rag_chunks: null,
  guardrails: null,
  cache: null,
  trace_id: null,
  requestBody: jsonBody('{"model":"alias","messages":[{"role":"user","content":"hi"}]}', { model: 'bench-model' }),
  responseBody: jsonBody('{"id":"c1","choices":[]}'),
};

/** Records of every shape the pipeline hands over: optional parts absent, present, and unusual text. */
const records: TrafficRecord[] = [
  base,
  {
    ...base,
    request_id: 'req-2',
    status: 429,
    error_type: 'rate_limited',
    requested_model: 'modèle-✓ 😀',
    model: null,
    deployment: null,
    provider: null,
    key_id: null,
    key_name: 'clé \ud800 lone',
    user: 'ann@example.com',
    team: 'ops\n"quoted"',
    stream: true,
    cached: true,
    attempts: 3,
    limits: { prompt_tokens: 40, estimated: true, reserved_tokens: 1064 },
    cache_read_prompt_tokens: 0,
    cache_write_prompt_tokens: 128,
    reasoning_tokens: 77,
    rag_chunks: ['docs:1', 'docs:2'],
    guardrails: { pii: { action: 'mask', entities: { EMAIL: 1 } } } as unknown as TrafficRecord['guardrails'],
    cache: 'hit',
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    requestBody: textBody('data: {"a":1}\n\n', false),
    responseBody: { kind: 'value', value: { error: { message: 'slow down', type: 'rate_limited' } } },
  },
  {
    ...base,
    request_id: 'req-3',
    status: 499,
    error_type: 'client_closed',
    cache: 'bypass',
    requestBody: textBody('x'.repeat(MAX_BODY_CHARS + 10)),
    responseBody: undefined,
  },
  { ...base, request_id: 'req-4', requestBody: undefined, responseBody: textBody('héllo wörld', true) },
  {
    ...base,
    request_id: 'req-5',
    latency_ms: 0,
    cost_usd: 1e-12,
    requestBody: jsonBody('{"model":"a","input":"é"}', { model: 'b', max_tokens: 64, max_completion_tokens: 32 }),
  },
];

describe('traffic records kept in the arena', () => {
  it('read back exactly as they were published live, with and without bodies', () => {
    const bus = new GatewayEventBus();
    const published: TrafficEvent[] = [];
    bus.subscribe((message) => {
      if (message.kind === 'traffic') published.push(message.event);
    });
    const log = new TrafficLog(10, bus, () => 1_700_000_000_000);
    for (const record of records) log.record(record);

    const listed = log.list(10).events;
    expect(listed).toEqual([...published].reverse());
    const withoutBodies = log.list(10, false).events;
    expect(withoutBodies).toEqual(
      [...published].reverse().map((event) => ({ ...event, request_body: null, response_body: null })),
    );
    expect(withoutBodies.map((event) => event.truncated)).toEqual([false, true, true, false, false]);
  });

  it('reads optional fields a record left out as null', () => {
    const log = new TrafficLog(2, new GatewayEventBus());
    const {
      limits: _limits,
      rag_chunks: _rag,
      guardrails: _guardrails,
      cache: _cache,
      trace_id: _trace,
      cache_read_prompt_tokens: _read,
      cache_write_prompt_tokens: _write,
      reasoning_tokens: _reasoning,
      ...required
    } = base;
    log.record(required);
    expect(log.list(1).events[0]).toMatchObject({
      limits: null,
      rag_chunks: null,
      guardrails: null,
      cache: null,
      trace_id: null,
      cache_read_prompt_tokens: null,
      cache_write_prompt_tokens: null,
      reasoning_tokens: null,
    });
  });

  it('keeps the newest records intact across many pages of large bodies', () => {
    const log = new TrafficLog(50, new GatewayEventBus());
    const body = (n: number) => JSON.stringify({ n, text: 'ü'.repeat(20_000 + n) });
    for (let n = 1; n <= 400; n += 1)
      log.record({ ...base, request_id: `req-${n}`, requestBody: jsonBody(body(n)), responseBody: textBody(body(-n)) });
    const events = log.list(50).events;
    expect(events.map((event) => event.request_id)).toEqual(Array.from({ length: 50 }, (_, i) => `req-${400 - i}`));
    expect(events.every((event, i) => JSON.stringify(event.request_body) === body(400 - i))).toBe(true);
    expect(events.every((event, i) => event.response_body === body(-(400 - i)))).toBe(true);
  });
});
