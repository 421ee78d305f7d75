import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import {
  ANTHROPIC_UPSTREAM_KEY,
  OPENAI_UPSTREAM_KEY,
  SECONDARY_UPSTREAM_KEY,
  startGatewayHarness,
  type GatewayHarness,
} from '../support/harness.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** A caller's trace context, as an instrumented client sends it. */
function callerContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

function only(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span ${name}, got ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

/**
 * Every span starts within its parent's time and ends within the server span's, to the nanosecond;
 * each ends within its parent's too, except a streamed answer's upstream call, which goes on after
 * the route stage that opened it, until the last frame.
 */
function expectNestedInTime(spans: readonly ReceivedSpan[], streamed = false): void {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const root = spans.find((span) => span.kind === SERVER)!;
  for (const span of spans) {
    const parent = byId.get(span.parentSpanId ?? '');
    if (parent === undefined) continue;
    expect(span.startNs >= parent.startNs, `${span.name} starts in ${parent.name}`).toBe(true);
    expect(span.endNs <= root.endNs, `${span.name} ends in ${root.name}`).toBe(true);
    if (!(streamed && span.kind === CLIENT))
      expect(span.endNs <= parent.endNs, `${span.name} ends in ${parent.name}`).toBe(true);
  }
}

/**
 * OpenTelemetry spans, exported over OTLP/HTTP JSON to an in-process collector: the span tree of a
 * request, GenAI attributes of the upstream call, W3C trace context continued from the caller and
 * carried to the upstream, and nothing secret in any span.
 */
describe('request traces over OTLP', () => {
  let receiver: OtlpReceiver;
  let h: GatewayHarness;
  let secret: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startGatewayHarness({
      telemetry: { otlp_endpoint: receiver.url, export_delay_ms: 20, service_name: 'gatehouse-test' },
      cache: { enabled: true },
      content_policy: { blocked_answer_patterns: ['zebra\\s+crossing'] },
    });
    secret = (await h.issueKey({ scopes: ['chat', 'embeddings', 'responses'] })).key;
  });
  beforeEach(() => {
    h.openai.reset();
    h.openaiSecondary.reset();
    h.anthropic.reset();
  });
  afterAll(async () => {
    await h.close();
    await receiver.close();
  });

  it('continues the caller trace: one span per stage that acted under the server span, the upstream call under route', async () => {
    const caller = callerContext();
    const prompt = 'a confidential prompt 4111';
    const completion = await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'fast', max_tokens: 50, temperature: 0.5, messages: [{ role: 'user', content: prompt }] },
        { headers: { traceparent: caller.traceparent, tracestate: 'vendor=abc' } },
      );
    const spans = await receiver.waitForTrace(caller.traceId, 7);
    const root = only(spans, 'POST /v1/chat/completions');
    expect(root.kind).toBe(SERVER);
    expect(root.parentSpanId).toBe(caller.spanId);
    expect(root.resource['service.name']).toBe('gatehouse-test');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/chat/completions',
      'http.response.status_code': 200,
      'gatehouse.endpoint': 'chat',
      'gatehouse.model': 'gpt-4o-mini',
    });
    // The cache keeps only temperature-0 answers here: it did not apply, so the span says neither.
    expect(root.attributes).not.toHaveProperty('gatehouse.cache.hit');
    // Only the content policy (its answer patterns) acted: the key has no limits, PII and RAG are off,
    // and the cache keeps no sampled answer, so their stages have no span.
    for (const name of [
      'gateway.authenticate',
      'gateway.resolve_model',
      'gateway.policy.contentPolicy',
      'gateway.route',
      'gateway.respond',
    ])
      expect(only(spans, name).parentSpanId, name).toBe(root.spanId);
    for (const name of ['rateLimit', 'piiScrub', 'rag', 'cacheLookup'])
      expect(spans.map((span) => span.name)).not.toContain(`gateway.policy.${name}`);
    const route = only(spans, 'gateway.route');
    const upstream = only(spans, 'chat gpt-4o-mini');
    expect(upstream.kind).toBe(CLIENT);
    expect(upstream.parentSpanId).toBe(route.spanId);
    const port = Number(new URL(h.openai.url).port);
    expect(upstream.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.response.model': 'gpt-4o-mini',
      'gen_ai.request.max_tokens': 50,
      'gen_ai.request.temperature': 0.5,
      'gen_ai.usage.input_tokens': completion.usage!.prompt_tokens,
      'gen_ai.usage.output_tokens': completion.usage!.completion_tokens,
      'server.address': '127.0.0.1',
      'server.port': port,
    });
    // The upstream got the upstream-call span as its parent, and the caller's tracestate unchanged.
    const received = h.openai.lastRequest()!;
    expect(received.headers.traceparent).toBe(`00-${caller.traceId}-${upstream.spanId}-01`);
    expect(received.headers.tracestate).toBe('vendor=abc');
    expectNestedInTime(spans);
    // A JSON answer's upstream call ends inside the route stage that made it: spans are exported in
    // the order they end, which no clock resolution blurs.
    expect(spans.indexOf(upstream)).toBeLessThan(spans.indexOf(route));
    // Nothing of the prompt, the answer, the caller's key or a provider key is exported.
    const exported = receiver.bodies.join('\n');
    for (const forbidden of [prompt, 'confidential', secret, OPENAI_UPSTREAM_KEY, ANTHROPIC_UPSTREAM_KEY])
      expect(exported).not.toContain(forbidden);
    expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
    const traffic = (await h.admin('GET', '/internal/traffic?limit=20')).body.data;
    expect(traffic.find((event: any) => event.trace_id === caller.traceId)).toMatchObject({ endpoint: 'chat' });
  });

  it('names the pattern that stopped an answer on the server span, never the text it matched', async () => {
    const caller = callerContext();
    const completion = await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'fast', messages: [{ role: 'user', content: 'where is the zebra crossing' }] },
        { headers: { traceparent: caller.traceparent } },
      );
    expect(completion.choices[0]!.finish_reason).toBe('content_filter');
    const spans = await receiver.waitForTrace(caller.traceId, 7);
    const root = only(spans, 'POST /v1/chat/completions');
    expect(root.attributes['gatehouse.content_policy.answer_stopped']).toBe('zebra\\s+crossing');
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toMatch(/zebra crossing/);
  });

  it('nests every span in its parent in time, whole and streamed: one clock per request', async () => {
    // The SDK's own clock anchors each span on whole milliseconds, so children used to end after
    // their parent now and then: twenty requests all but always showed it.
    const client = h.openaiClient(secret);
    for (let i = 0; i < 20; i += 1) {
      const caller = callerContext();
      const headers = { traceparent: caller.traceparent };
      const messages = [{ role: 'user' as const, content: `nest ${i}` }];
      if (i % 2 === 0) await client.chat.completions.create({ model: 'gpt-4o-mini', messages }, { headers });
      else
        for await (const chunk of await client.chat.completions.create(
          { model: 'gpt-4o-mini', messages, stream: true },
          { headers },
        ))
          void chunk;
      expectNestedInTime(await receiver.waitForTrace(caller.traceId, 7), i % 2 === 1);
    }
  });

  it('starts a new trace when the caller sends none (or a malformed one), still propagated upstream', async () => {
    await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'no caller' }] },
        { headers: { traceparent: '00-00000000000000000000000000000000-0000000000000000-01' } },
      );
    const sent = h.openai.lastRequest()!.headers.traceparent!;
    const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(sent)!;
    const spans = await receiver.waitForTrace(traceId!, 7);
    expect(only(spans, 'POST /v1/chat/completions').parentSpanId).toBeUndefined();
    expect(only(spans, 'chat gpt-4o-mini').spanId).toBe(spanId);
  });

  it('streams Messages: the upstream span ends with the stream and carries its usage', async () => {
    const caller = callerContext();
    const stream = h
      .anthropicClient(secret)
      .messages.stream(
        { model: 'claude-opus-4-7', max_tokens: 40, messages: [{ role: 'user', content: 'stream a trace' }] },
        { headers: { traceparent: caller.traceparent } },
      );
    const message = await stream.finalMessage();
    const spans = await receiver.waitForTrace(caller.traceId, 7);
    const upstream = only(spans, 'chat claude-opus-4-7');
    expect(upstream.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.usage.output_tokens': message.usage.output_tokens,
    });
    expect(h.anthropic.lastRequest()!.headers.traceparent).toBe(`00-${caller.traceId}-${upstream.spanId}-01`);
    expect(only(spans, 'gateway.respond').endNs >= upstream.startNs).toBe(true);
  });

  it('gives each upstream attempt its own span: a failed one marked, the fallback carrying its own traceparent', async () => {
    const caller = callerContext();
    h.openai.setNext({ status: 503, headers: { 'x-request-id': 'req_primary503' } });
    h.openaiSecondary.setNext({ headers: { 'x-request-id': 'req_secondary200' } });
    await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'ha-model', messages: [{ role: 'user', content: 'fall back' }] },
        { headers: { traceparent: caller.traceparent } },
      );
    const spans = await receiver.waitForTrace(caller.traceId, 8);
    const attempts = spans.filter((span) => span.kind === CLIENT).sort((a, b) => Number(a.startNs - b.startNs));
    expect(attempts).toHaveLength(2);
    const route = only(spans, 'gateway.route');
    expect(attempts.every((span) => span.parentSpanId === route.spanId)).toBe(true);
    expect(attempts[0]!.statusCode).toBe(ERROR);
    expect(attempts[0]!.attributes).toMatchObject({
      'gatehouse.deployment.id': 'ha-primary',
      'http.response.status_code': 503,
      'gatehouse.upstream.request_id': 'req_primary503',
    });
    expect(attempts[1]!.attributes).toMatchObject({
      'gatehouse.deployment.id': 'ha-secondary',
      'gatehouse.attempt': 2,
      'gatehouse.upstream.request_id': 'req_secondary200',
    });
    expect(h.openai.lastRequest()!.headers.traceparent).toBe(`00-${caller.traceId}-${attempts[0]!.spanId}-01`);
    expect(h.openaiSecondary.lastRequest()!.headers.traceparent).toBe(`00-${caller.traceId}-${attempts[1]!.spanId}-01`);
    expect(receiver.bodies.join('\n')).not.toContain(SECONDARY_UPSTREAM_KEY);
  });

  it('traces embeddings and Responses with their operation names', async () => {
    const embed = callerContext();
    await h
      .openaiClient(secret)
      .embeddings.create(
        { model: 'text-embedding-3-small', input: 'vector' },
        { headers: { traceparent: embed.traceparent } },
      );
    const embedSpans = await receiver.waitForTrace(embed.traceId, 7);
    expect(only(embedSpans, 'embeddings text-embedding-3-small').attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.usage.input_tokens': expect.any(Number),
    });
    const responses = callerContext();
    await h
      .openaiClient(secret)
      .responses.create(
        { model: 'gpt-4o-mini', input: 'respond' },
        { headers: { traceparent: responses.traceparent } },
      );
    const responseSpans = await receiver.waitForTrace(responses.traceId, 7);
    expect(only(responseSpans, 'POST /v1/responses').attributes['gatehouse.endpoint']).toBe('responses');
    expect(only(responseSpans, 'chat gpt-4o-mini').parentSpanId).toBe(only(responseSpans, 'gateway.route').spanId);
  });

  it("carries the trace to Anthropic's token count too, named as a count with no usage (it read as a chat of 0 tokens)", async () => {
    const caller = callerContext();
    await h
      .anthropicClient(secret)
      .messages.countTokens(
        { model: 'claude-opus-4-7', messages: [{ role: 'user', content: 'count' }] },
        { headers: { traceparent: caller.traceparent } },
      );
    const spans = await receiver.waitForTrace(caller.traceId, 6);
    const upstream = only(spans, 'count_tokens claude-opus-4-7');
    expect(upstream.attributes['gen_ai.operation.name']).toBe('count_tokens');
    expect(upstream.attributes).not.toHaveProperty('gen_ai.usage.input_tokens');
    expect(upstream.attributes).not.toHaveProperty('gen_ai.usage.output_tokens');
    expect(upstream.parentSpanId).toBe(only(spans, 'gateway.route').spanId);
    expect(h.anthropic.lastRequest()!.path).toBe('/v1/messages/count_tokens');
    expect(h.anthropic.lastRequest()!.headers.traceparent).toBe(`00-${caller.traceId}-${upstream.spanId}-01`);
  });

  it('a cache hit has no route or upstream span, and says so on the server span', async () => {
    const ask = (traceparent: string) =>
      h
        .openaiClient(secret)
        .chat.completions.create(
          { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content: 'trace a hit' }] },
          { headers: { traceparent } },
        );
    const first = callerContext();
    await ask(first.traceparent);
    const miss = await receiver.waitForTrace(first.traceId, 7);
    expect(only(miss, 'POST /v1/chat/completions').attributes['gatehouse.cache.hit']).toBe(false);
    const caller = callerContext();
    await ask(caller.traceparent);
    const spans = await receiver.waitForTrace(caller.traceId, 6);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const all = receiver.spans.filter((span) => span.traceId === caller.traceId);
    expect(all.map((span) => span.name).sort()).toEqual(
      [
        'POST /v1/chat/completions',
        'gateway.authenticate',
        'gateway.policy.cacheLookup',
        'gateway.policy.contentPolicy',
        'gateway.resolve_model',
        'gateway.respond',
      ].sort(),
    );
    expect(only(spans, 'POST /v1/chat/completions').attributes['gatehouse.cache.hit']).toBe(true);
  });

  it("a refused request's stage and server span carry the error type, not its message, with no error status", async () => {
    const caller = callerContext();
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secret}`,
        'content-type': 'application/json',
        traceparent: caller.traceparent,
      },
      body: JSON.stringify({ model: 'not-a-model-secret-name', messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(response.status).toBe(400);
    const spans = await receiver.waitForTrace(caller.traceId, 3);
    const resolve = only(spans, 'gateway.resolve_model');
    // The caller's mistake, not a failure of the gateway: error searches in the tracing UI skip it.
    expect(resolve.statusCode).toBe(0);
    expect(resolve.attributes['error.type']).toBe('model_not_allowed');
    expect(only(spans, 'POST /v1/chat/completions').attributes).toMatchObject({
      'error.type': 'model_not_allowed',
      'http.response.status_code': 400,
    });
    expect(receiver.bodies.join('\n')).not.toContain('not-a-model-secret-name');
  });

  it('marks a stream that failed after its 200 as failed: server, respond and upstream spans', async () => {
    const caller = callerContext();
    h.openai.setNext({ streamErrorAfterFrames: 2 });
    const stream = await h
      .openaiClient(secret)
      .chat.completions.create(
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'break' }], stream: true },
        { headers: { traceparent: caller.traceparent } },
      );
    await expect(async () => {
      for await (const chunk of stream) void chunk;
    }).rejects.toThrow();
    const spans = await receiver.waitForTrace(caller.traceId, 7);
    for (const name of ['POST /v1/chat/completions', 'gateway.respond', 'chat gpt-4o-mini']) {
      expect(only(spans, name).statusCode).toBe(ERROR);
      expect(only(spans, name).attributes['error.type']).toBeDefined();
    }
    expect(only(spans, 'POST /v1/chat/completions').attributes['http.response.status_code']).toBe(200);
  });
});

describe('tracing configuration', () => {
  it('exports when only the standard OTEL_EXPORTER_OTLP_ENDPOINT variable is set', async () => {
    const receiver = await startOtlpReceiver();
    const h = await startGatewayHarness(
      {},
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'from-env',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,service.instance.id=gw-1,team=a%2Cb',
      },
    );
    try {
      const caller = callerContext();
      const secret = (await h.issueKey()).key;
      await h
        .openaiClient(secret)
        .chat.completions.create(
          { model: 'demo/echo', messages: [{ role: 'user', content: 'env' }] },
          { headers: { traceparent: caller.traceparent } },
        );
      // Closing flushes what the batch still holds (the default delay is longer than this test).
      await h.close();
      const spans = await receiver.waitForTrace(caller.traceId, 6);
      expect(only(spans, 'POST /v1/chat/completions').resource).toMatchObject({
        'service.name': 'from-env',
        'deployment.environment.name': 'prod',
        'service.instance.id': 'gw-1',
        team: 'a,b',
        'telemetry.sdk.language': 'nodejs',
      });
      // The demo provider makes no network call: its span has no server address.
      expect(only(spans, 'chat echo').attributes['server.address']).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });

  it('leaves out an unreadable OTEL_RESOURCE_ATTRIBUTES with a warning, and names the service from a readable one', () => {
    const unread = loadConfig({ env: { OTEL_RESOURCE_ATTRIBUTES: 'note=100%' } });
    expect(unread.warnings).toContain(
      "OTEL_RESOURCE_ATTRIBUTES is left out: the value of 'note' is not percent-encoded (write % as %25) (pairs are key=value, comma-separated)",
    );
    expect(unread.config.telemetry.resource_attributes).toEqual({});
    const named = loadConfig({ env: { OTEL_RESOURCE_ATTRIBUTES: 'service.name=billing-gw,team=a' } });
    expect(named.config.telemetry).toMatchObject({
      service_name: 'billing-gw',
      resource_attributes: { 'service.name': 'billing-gw', team: 'a' },
    });
    const both = loadConfig({
      env: { OTEL_RESOURCE_ATTRIBUTES: 'service.name=billing-gw', OTEL_SERVICE_NAME: 'wins' },
    });
    expect(both.config.telemetry.service_name).toBe('wins');
  });

  it("is entirely off without an endpoint: no tracer, and the caller's trace context passed upstream as it came", async () => {
    const h = await startGatewayHarness();
    try {
      expect(h.servers.gateway.gateway.tracing).toBeUndefined();
      const secret = (await h.issueKey()).key;
      const caller = callerContext();
      await h
        .openaiClient(secret)
        .chat.completions.create(
          { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'untraced' }] },
          { headers: { traceparent: caller.traceparent, tracestate: 'vendor=1' } },
        );
      // An instrumented upstream joins the caller's trace; the gateway adds no span of its own.
      expect(h.openai.lastRequest()!.headers).toMatchObject({
        traceparent: caller.traceparent,
        tracestate: 'vendor=1',
      });
      await h
        .openaiClient(secret)
        .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'none' }] });
      expect(h.openai.lastRequest()!.headers.traceparent).toBeUndefined();
      await h
        .openaiClient(secret)
        .chat.completions.create(
          { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'malformed' }] },
          { headers: { traceparent: '00-not-a-trace' } },
        );
      expect(h.openai.lastRequest()!.headers.traceparent).toBeUndefined();
      // Flags as they came; a tracestate that is no list of members, or too long, is not sent on.
      for (const tracestate of ['not a list', `a=${'x'.repeat(600)}`]) {
        const unsampled = `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
        await h
          .openaiClient(secret)
          .chat.completions.create(
            { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'state' }] },
            { headers: { traceparent: unsampled, tracestate } },
          );
        expect(h.openai.lastRequest()!.headers.traceparent).toBe(unsampled);
        expect(h.openai.lastRequest()!.headers.tracestate).toBeUndefined();
      }
      const traffic = (await h.admin('GET', '/internal/traffic?limit=1')).body.data;
      expect(traffic[0].trace_id).toBeNull();
    } finally {
      await h.close();
    }
  });
});
