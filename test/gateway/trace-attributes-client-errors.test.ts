import { beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedSpan } from '../support/otlp-receiver.js';
import { newTrace, tracedGateway } from './support/traced-gateway.js';

const UNSET = 0;
const ERROR = 2;
const SERVER_SPAN = 'POST /v1/chat/completions';

/**
 * A request the gateway refuses for the caller's mistake (a bad key, a scope or model it may not use, a
 * rate limit) leaves every span's status unset, so tracing backends do not flag it as failed; the
 * stage that refused it still says why in `error.type`. A gateway or upstream failure is still an error.
 */
describe('trace attributes: client errors are not failed traces', () => {
  const gateway = tracedGateway();
  let key: string;

  beforeAll(async () => {
    key = (await gateway.h.issueKey({ scopes: ['chat'] })).key;
  });

  /** Posts a chat request in a trace of its own; resolves with the status and, once `count` arrived, the spans. */
  async function traced(
    bearer: string,
    body: Record<string, unknown>,
    count: number,
  ): Promise<{ status: number; spans: ReceivedSpan[] }> {
    const trace = newTrace();
    const response = await fetch(`${gateway.h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        traceparent: trace.traceparent,
      },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hello' }], ...body }),
    });
    await response.text();
    return { status: response.status, spans: await gateway.receiver.waitForTrace(trace.traceId, count) };
  }

  function span(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
    const found = spans.find((candidate) => candidate.name === name);
    if (found === undefined) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
    return found;
  }

  function expectNoErrorStatus(spans: readonly ReceivedSpan[]): void {
    for (const each of spans) expect(each.statusCode, each.name).toBe(UNSET);
  }

  it('401: an unknown key leaves gateway.authenticate unset, saying why', async () => {
    const { status, spans } = await traced('gk-not-a-real-key-0123456789', { model: 'gpt-4o-mini' }, 2);
    expect(status).toBe(401);
    expectNoErrorStatus(spans);
    expect(span(spans, 'gateway.authenticate').attributes['error.type']).toBe('authentication_error');
    expect(span(spans, SERVER_SPAN).attributes).toMatchObject({
      'error.type': 'authentication_error',
      'http.response.status_code': 401,
    });
    expect(gateway.receiver.bodies.join('\n')).not.toContain('gk-not-a-real-key-0123456789');
  });

  it('400: a model the gateway does not serve leaves gateway.resolve_model unset, saying why', async () => {
    const { status, spans } = await traced(key, { model: 'no-such-model' }, 3);
    expect(status).toBe(400);
    expectNoErrorStatus(spans);
    expect(span(spans, 'gateway.resolve_model').attributes['error.type']).toBe('model_not_allowed');
  });

  it('403: a model the key may not use leaves every span unset', async () => {
    const narrow = (await gateway.h.issueKey({ scopes: ['chat'], models: ['claude-opus-4-7'] })).key;
    const { status, spans } = await traced(narrow, { model: 'gpt-4o-mini' }, 3);
    expect(status).toBe(403);
    expectNoErrorStatus(spans);
    expect(spans.some((each) => each.name !== SERVER_SPAN && each.attributes['error.type'] !== undefined)).toBe(true);
  });

  it("429: the key's rate limit leaves gateway.policy.rateLimit unset, saying why", async () => {
    const limited = (await gateway.h.issueKey({ scopes: ['chat'], rpm_limit: 1 })).key;
    expect((await traced(limited, { model: 'gpt-4o-mini' }, 1)).status).toBe(200);
    const { status, spans } = await traced(limited, { model: 'gpt-4o-mini' }, 4);
    expect(status).toBe(429);
    expectNoErrorStatus(spans);
    expect(span(spans, 'gateway.policy.rateLimit').attributes['error.type']).toBeDefined();
  });

  it("502: a provider's failure still marks the route stage and the server span as errors", async () => {
    gateway.h.openai.setNext({ status: 500 });
    // Server, authenticate, resolve_model, route and the attempt: no policy stage acted on it.
    const { status, spans } = await traced(key, { model: 'gpt-4o-mini' }, 5);
    expect(status).toBe(502);
    expect(span(spans, 'gateway.route').statusCode).toBe(ERROR);
    expect(span(spans, SERVER_SPAN).statusCode).toBe(ERROR);
    expect(span(spans, SERVER_SPAN).attributes['error.type']).toBe('upstream_error');
  });
});
