import type { default as OpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trafficListSchema, type TrafficEvent } from '../../src/shared/gateway-api.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

const UNSAMPLED_TRACE = '11111111111111111111111111111111';
const SAMPLED_TRACE = '33333333333333333333333333333333';
const traceparent = (traceId: string, flags: '00' | '01'): string => `00-${traceId}-2222222222222222-${flags}`;

/**
 * The durable usage row says how a request went, as the traffic view (lost on restart) does: its
 * trace, when one was recorded, the upstream calls it took and whether its tokens are the gateway's
 * estimate. Neither record offers the id of a trace that was never exported.
 */
describe('usage rows keep the trace, the attempts and whether tokens were estimated', () => {
  let receiver: OtlpReceiver;
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startGatewayHarness({ telemetry: { otlp_endpoint: receiver.url, export_delay_ms: 20 } });
    client = h.openaiClient((await h.issueKey({ name: 'usage-record', scopes: ['chat'] })).key);
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  const recordsOf = async (requestId: string | null): Promise<{ row: any; event: TrafficEvent }> => {
    const [row] = await h.usageRows(`request_id=${requestId}`);
    const page = trafficListSchema.parse((await h.admin('GET', '/internal/traffic?limit=50')).body);
    return { row, event: page.data.find((event) => event.request_id === requestId)! };
  };
  const chat = (model: string, headers: Record<string, string> = {}) =>
    client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'hello' }] }, { headers })
      .withResponse();

  it('keeps the recorded trace and one attempt on the row, as the traffic event shows them', async () => {
    const { request_id: requestId } = await chat('gpt-4o-mini');
    const { row, event } = await recordsOf(requestId);
    expect(row).toMatchObject({ attempts: 1, tokens_estimated: false });
    expect(row.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(event.trace_id).toBe(row.trace_id);
    const spans = await receiver.waitForTrace(row.trace_id, 1);
    expect(spans.some((span) => span.attributes['gatehouse.request_id'] === requestId)).toBe(true);
  });

  it('counts a fallback as a second attempt', async () => {
    h.openai.setNext({ status: 500 });
    const { request_id: requestId } = await chat('ha-model');
    const { row, event } = await recordsOf(requestId);
    expect(row).toMatchObject({ status: 200, deployment: 'ha-secondary', attempts: 2, tokens_estimated: false });
    expect(event.attempts).toBe(2);
  });

  it('marks tokens the provider never reported as estimated', async () => {
    h.openai.setNext({ reply: { text: 'no usage here', usage: null } });
    const { request_id: requestId } = await chat('gpt-4o-mini');
    const { row } = await recordsOf(requestId);
    expect(row.tokens_estimated).toBe(true);
    expect(row.prompt_tokens).toBeGreaterThan(0);
  });

  it('marks a stream cut before its usage as estimated', async () => {
    h.openai.setNext({ dropAfterFrames: 2 });
    const { data: stream, request_id: requestId } = await client.chat.completions
      .create({
        model: 'gpt-4o-mini',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'a longer answer, cut on its way' }],
      })
      .withResponse();
    await (async () => {
      for await (const chunk of stream) void chunk;
    })().catch(() => undefined);
    const { row } = await recordsOf(requestId);
    expect(row).toMatchObject({ status: 200, error_type: 'upstream_error', tokens_estimated: true, attempts: 1 });
  });

  it('offers no trace id for a request whose caller asked for it not to be sampled', async () => {
    const { request_id: requestId } = await chat('gpt-4o-mini', { traceparent: traceparent(UNSAMPLED_TRACE, '00') });
    // The caller's decision still reaches the upstream.
    expect(h.openai.lastRequest()?.headers.traceparent).toMatch(new RegExp(`^00-${UNSAMPLED_TRACE}-[0-9a-f]{16}-00$`));
    const { row, event } = await recordsOf(requestId);
    expect(row.trace_id).toBeNull();
    expect(event.trace_id ?? null).toBeNull();
    expect(row.attempts).toBe(1);
  });
});

describe('a trace left out by telemetry.sample_ratio', () => {
  let receiver: OtlpReceiver;
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startGatewayHarness({
      telemetry: { otlp_endpoint: receiver.url, export_delay_ms: 20, sample_ratio: 0 },
    });
    client = h.openaiClient((await h.issueKey({ name: 'unsampled', scopes: ['chat'] })).key);
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('is named by no record, while a caller-sampled trace is', async () => {
    const dropped = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    const continued = await client.chat.completions
      .create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
        { headers: { traceparent: traceparent(SAMPLED_TRACE, '01') } },
      )
      .withResponse();
    const [droppedRow] = await h.usageRows(`request_id=${dropped.request_id}`);
    const [continuedRow] = await h.usageRows(`request_id=${continued.request_id}`);
    expect(droppedRow.trace_id).toBeNull();
    expect(continuedRow.trace_id).toBe(SAMPLED_TRACE);
    const page = trafficListSchema.parse((await h.admin('GET', '/internal/traffic?limit=10')).body);
    const traceOf = (id: string) => page.data.find((event) => event.request_id === id)?.trace_id ?? null;
    expect(traceOf(dropped.request_id!)).toBeNull();
    expect(traceOf(continued.request_id!)).toBe(SAMPLED_TRACE);
    // What the records name is what was exported.
    expect((await receiver.waitForTrace(SAMPLED_TRACE, 1)).length).toBeGreaterThan(0);
  });
});
