import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrafficEvent } from '../../src/shared/gateway-api.js';
import { GatewayEventBus } from '../../src/server/gateway/traffic/event-bus.js';
import { jsonBody, TrafficLog, type TrafficRecord } from '../../src/server/gateway/traffic/traffic-log.js';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** A finished request whose response body counts how often it is serialised (kept once, shown once per view). */
function countedRecord(): { readonly record: TrafficRecord; readonly serialised: () => number } {
  let times = 0;
  const answer = {
    toJSON: () => {
      times += 1;
      return { error: { type: 'upstream_error', message: 'bad gateway' } };
    },
  };
  const record: TrafficRecord = {
    request_id: 'req-lazy',
    startedAtMs: 1_700_000_000_000,
    endpoint: 'chat',
    method: 'POST',
    path: '/v1/chat/completions',
    status: 502,
    error_type: 'upstream_error',
    requested_model: 'm',
    model: 'm',
    deployment: 'd',
    provider: 'openai',
    key_id: null,
    key_name: null,
    user: null,
    team: null,
    stream: false,
    cached: false,
    attempts: 1,
    limits: null,
    latency_ms: 1,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost_usd: 0,
    cache_read_prompt_tokens: null,
    cache_write_prompt_tokens: null,
    reasoning_tokens: null,
    rag_chunks: null,
    guardrails: null,
    cache: null,
    trace_id: null,
    requestBody: jsonBody('{"model":"m","messages":[]}'),
    responseBody: { kind: 'value', value: answer },
  };
  return { record, serialised: () => times };
}

/**
 * A live traffic subscriber that asked for no bodies costs the request no body work: the bodies are
 * parsed and redacted for the event only when a subscriber wants them, and once however many do.
 */
describe('traffic events build their bodies only for subscribers that want them', () => {
  it('keeps the bodies for the buffer but builds none for a subscriber without bodies', () => {
    const bus = new GatewayEventBus();
    const lean: TrafficEvent[] = [];
    bus.subscribe((message) => {
      if (message.kind === 'traffic') lean.push(message.leanEvent);
    });
    const log = new TrafficLog(4, bus);
    const { record, serialised } = countedRecord();
    log.record(record);
    // Once, for the buffer; not again for the event.
    expect(serialised()).toBe(1);
    expect(lean).toEqual([
      expect.objectContaining({ request_id: 'req-lazy', request_body: null, response_body: null, status: 502 }),
    ]);
    expect(log.find(lean[0]!.seq)?.request_body).toEqual({ model: 'm', messages: [] });
  });

  it('builds the bodies once however many subscribers want them', () => {
    const bus = new GatewayEventBus();
    const full: TrafficEvent[] = [];
    for (let i = 0; i < 3; i += 1)
      bus.subscribe((message) => {
        if (message.kind === 'traffic') full.push(message.event);
      });
    const { record, serialised } = countedRecord();
    new TrafficLog(4, bus).record(record);
    expect(serialised()).toBe(2);
    expect(full).toHaveLength(3);
    expect(full[0]!.response_body).toEqual({ error: { type: 'upstream_error', message: 'bad gateway' } });
    expect(full[1]).toBe(full[0]);
  });
});

describe('traffic streams with and without bodies at once', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h.close());

  /** Opens the traffic stream at `query`; `next()` reads its next `traffic` event. */
  const subscribe = async (query: string, abort: AbortController): Promise<{ next: () => Promise<any> }> => {
    const stream = await fetch(`${h.url}/internal/traffic/stream${query}`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      signal: abort.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    return {
      next: async () => {
        let match: RegExpMatchArray | null;
        while (!(match = text.match(/^event: traffic\ndata: (.*)$/m))) text += (await reader.read()).value ?? '';
        text = text.slice(match.index! + match[0].length);
        return JSON.parse(match[1]!);
      },
    };
  };

  it('gives the subscriber without bodies its event, and the default subscriber the bodies', async () => {
    const abort = new AbortController();
    try {
      const lean = await subscribe('?bodies=false', abort);
      const full = await subscribe('', abort);
      await h
        .openaiClient(key)
        .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'both at once' }] });
      const [leanEvent, fullEvent] = await Promise.all([lean.next(), full.next()]);
      expect(leanEvent).toMatchObject({ status: 200, request_body: null, response_body: null, truncated: false });
      expect(fullEvent.seq).toBe(leanEvent.seq);
      expect(fullEvent.request_id).toBe(leanEvent.request_id);
      expect(JSON.stringify(fullEvent.request_body)).toContain('both at once');
      expect(JSON.stringify(fullEvent.response_body)).toContain('both at once');
    } finally {
      abort.abort();
    }
  });
});
