import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** A caller's trace context, as an instrumented client sends it. */
function callerContext(): { traceId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

const policySpans = (spans: readonly ReceivedSpan[]): string[] =>
  spans.map((span) => span.name).filter((name) => name.startsWith('gateway.policy.'));
const serverSpan = (spans: readonly ReceivedSpan[]): ReceivedSpan => spans.find((span) => span.kind === SERVER)!;
const clientSpans = (spans: readonly ReceivedSpan[]): ReceivedSpan[] => spans.filter((span) => span.kind === CLIENT);

/**
 * Traces an operator can afford and follow: a policy stage has a span only when it acted on the
 * request, the caller gets its trace id back in `traceresponse`, a stream's upstream span says its
 * answer's id, finish reasons and time to first chunk, and a lost connection has one error type
 * whenever it happens.
 */
describe('traces an operator can afford and follow', () => {
  let receiver: OtlpReceiver;
  let h: GatewayHarness;
  let secret: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startGatewayHarness({
      telemetry: { otlp_endpoint: receiver.url, export_delay_ms: 20 },
      cache: { enabled: true },
    });
    secret = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  /** The spans of a trace once its server span arrived, and whatever else came with it a moment later. */
  async function spansOf(traceId: string, atLeast: number): Promise<ReceivedSpan[]> {
    await receiver.waitForTrace(traceId, atLeast);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    expect(spans.some((span) => span.kind === SERVER)).toBe(true);
    return spans;
  }

  /** A chat request at `temperature` in a trace of its own; resolves with that trace's spans. */
  async function chatAt(temperature: number, content: string): Promise<ReceivedSpan[]> {
    const caller = callerContext();
    await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'gpt-4o-mini', temperature, messages: [{ role: 'user', content }] },
        { headers: { traceparent: caller.traceparent } },
      );
    return spansOf(caller.traceId, 5);
  }

  it('exports no span for policy stages that did not act on the request, and one for the cache that did', async () => {
    // temperature 0.7: the cache does not apply (sampled answers are not kept), nor does anything else.
    const spans = await chatAt(0.7, 'hello');
    expect(policySpans(spans)).toEqual([]);
    expect(spans.map((span) => span.name).sort()).toEqual(
      [
        'POST /v1/chat/completions',
        'gateway.authenticate',
        'gateway.resolve_model',
        'gateway.route',
        'chat gpt-4o-mini',
        'gateway.respond',
      ].sort(),
    );

    // temperature 0: the cache looks the request up, so its stage has a span; the others still none.
    const lookedUp = await chatAt(0, 'hello cache');
    expect(policySpans(lookedUp)).toEqual(['gateway.policy.cacheLookup']);
    const lookup = lookedUp.find((span) => span.name === 'gateway.policy.cacheLookup')!;
    expect(lookup.parentSpanId).toBe(serverSpan(lookedUp).spanId);
  });

  it('returns the server span as traceresponse, on answers and refusals alike', async () => {
    const caller = callerContext();
    const { response } = await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
        { headers: { traceparent: caller.traceparent } },
      )
      .withResponse();
    const root = serverSpan(await spansOf(caller.traceId, 5));
    expect(response.headers.get('traceresponse')).toBe(`00-${caller.traceId}-${root.spanId}-01`);

    // A new trace of the gateway's own (no traceparent sent), refused at the door: the id still comes back.
    const refused = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer gk-not-a-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(refused.status).toBe(401);
    const header = refused.headers.get('traceresponse');
    expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const [, traceId, spanId] = header!.split('-');
    const own = serverSpan(await spansOf(traceId!, 1));
    expect(own.spanId).toBe(spanId);
  });

  it("records an OpenAI stream's id, finish reasons and time to first chunk on its upstream span", async () => {
    h.openai.setNext({ reply: { id: 'chatcmpl-streamed-42', finishReason: 'length', text: 'cut short' } });
    const caller = callerContext();
    const stream = await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hello' }] },
        { headers: { traceparent: caller.traceparent } },
      );
    for await (const chunk of stream) void chunk;
    const [call] = clientSpans(await spansOf(caller.traceId, 5));
    expect(call!.attributes).toMatchObject({
      'gen_ai.response.id': 'chatcmpl-streamed-42',
      'gen_ai.response.finish_reasons': ['length'],
    });
    expect(call!.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
    expect(call!.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThanOrEqual(0);
  });

  it("records an Anthropic stream's id, finish reasons and time to first chunk on its upstream span", async () => {
    h.anthropic.setNext({ reply: { id: 'msg_streamed_42', stopReason: 'max_tokens', text: 'cut short' } });
    const caller = callerContext();
    const stream = h
      .anthropicClient(secret)
      .messages.stream(
        { model: 'claude-opus-4-7', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] },
        { headers: { traceparent: caller.traceparent } },
      );
    await stream.finalMessage();
    const [call] = clientSpans(await spansOf(caller.traceId, 5));
    expect(call!.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.response.id': 'msg_streamed_42',
      'gen_ai.response.finish_reasons': ['length'],
    });
    expect(call!.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
  });

  it('names a connection lost mid-stream as one lost before the answer: connection_error, reason connection', async () => {
    // Before the answer: the socket is destroyed right after the headers, before the first frame.
    h.openai.setNext({ dropAfterFrames: 0 });
    const before = callerContext();
    await expect(
      h
        .openaiClient(secret)
        .chat.completions.create(
          { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hello' }] },
          { headers: { traceparent: before.traceparent } },
        ),
    ).rejects.toMatchObject({ status: 502 });
    const [early] = clientSpans(await spansOf(before.traceId, 5));

    // Mid-stream: two frames reach the client, then the socket is destroyed.
    h.openai.setNext({ dropAfterFrames: 2, reply: { text: 'a long answer that is cut' } });
    const mid = callerContext();
    const stream = await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hello' }] },
        { headers: { traceparent: mid.traceparent } },
      );
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toThrow();
    const spans = await spansOf(mid.traceId, 5);
    const [late] = clientSpans(spans);

    for (const call of [early!, late!]) {
      expect(call.attributes['error.type']).toBe('connection_error');
      expect(call.attributes['gatehouse.upstream.failure_reason']).toBe('connection');
      expect(call.statusCode).toBe(ERROR);
    }
    // The request itself still says that its started stream failed.
    expect(serverSpan(spans).attributes['error.type']).toBe('upstream_error');
  });
});

describe('traceresponse with tracing off', () => {
  let h: GatewayHarness;
  let secret: string;

  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h?.close());

  it('is not sent, even to a caller that sent a traceparent', async () => {
    const { response } = await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
        { headers: { traceparent: callerContext().traceparent } },
      )
      .withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.has('traceresponse')).toBe(false);
  });
});
