import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_UPSTREAM_EVENT_CHARS } from '../../src/server/gateway/formats/sse.js';
import { startOneDeployment, type OneDeployment } from '../support/one-deployment.js';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startLargeAnswerUpstream, type LargeAnswerUpstream } from './upstream-bytes-upstream.js';

const chatChunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** What the upstream sends of the event that does not end: twice the bound, so a gateway that reads it all is seen. */
const EVENT_BYTES = 2 * MAX_UPSTREAM_EVENT_CHARS;
/** Room for what sockets and undici hold on the way, past the bound, once the gateway stops reading. */
const IN_FLIGHT_BYTES = 16 * 1024 * 1024;

const MESSAGE = `openai upstream sent a stream event of more than 64 MiB (${MAX_UPSTREAM_EVENT_CHARS} characters) that did not end, not read further`;

/**
 * An upstream stream event that never ends (a `data:` line without its blank line) was held whole,
 * hundreds of MB and several times that in the process, then failed as a connection error past V8's
 * string limit. It is cut at MAX_UPSTREAM_EVENT_CHARS: the stream ends with the error frame, the
 * upstream is not read further, and the answer is neither retried nor accounted as a success.
 */
describe('an upstream stream event that does not end', () => {
  let upstream: LargeAnswerUpstream;
  let gateway: OneDeployment;
  /** Whether a sound chunk comes before the event that does not end (the stream has started). */
  let startFirst = true;

  beforeAll(async () => {
    upstream = await startLargeAnswerUpstream(() => ({
      contentType: 'text/event-stream',
      head:
        (startFirst ? chatChunk({ role: 'assistant', content: 'Hel' }) : '') +
        'data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"',
      bytes: EVENT_BYTES,
      tail: '"},"finish_reason":null}]}\n\n' + chatChunk({}, 'stop') + 'data: [DONE]\n\n',
    }));
    gateway = await startOneDeployment('long-event-model', upstream.url, { max_retries: 2, retry_backoff_ms: 20 });
  });
  afterAll(async () => {
    await gateway?.servers.stop();
    await upstream?.close();
  });
  beforeEach(() => {
    upstream.reset();
    startFirst = true;
  });

  /** The gateway stopped reading once the event passed the bound, rather than taking all of it. */
  async function expectReadingStopped(): Promise<void> {
    expect(await upstream.cutShort).toBe(true);
    expect(upstream.sentBytes).toBeLessThan(MAX_UPSTREAM_EVENT_CHARS + IN_FLIGHT_BYTES);
  }

  /** The usage row of a request, once written (rows are written in batches). */
  async function rowOf(requestId: string | null) {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      const rows = (await (
        await fetch(`${gateway.servers.gatewayUrl}/internal/usage/logs?limit=50`, {
          headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
        })
      ).json()) as { data: Array<{ request_id: string; status: number; error_type: string | null }> };
      const row = rows.data.find((candidate) => candidate.request_id === requestId);
      if (row !== undefined) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no usage row for request ${requestId}`);
  }

  it('ends a relayed chat stream with the error frame naming the bound, accounted as an upstream error', async () => {
    const openai = new OpenAI({ baseURL: `${gateway.servers.gatewayUrl}/v1`, apiKey: gateway.apiKey, maxRetries: 0 });
    const { data, response } = await openai.chat.completions
      .create({ model: 'long-event-model', stream: true, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    let first = '';
    const failure = await (async () => {
      for await (const part of data) first ||= part.choices[0]?.delta.content ?? '';
    })().catch((error: unknown) => error as Error & { error?: { upstream?: { type?: string } } });

    expect(first).toBe('Hel');
    expect(failure?.message).toContain(MESSAGE);
    expect(failure?.error?.upstream?.type).toBe('event_too_large');
    await expectReadingStopped();
    expect(upstream.requests).toBe(1);
    expect(await rowOf(response.headers.get('x-request-id'))).toMatchObject({
      status: 200,
      error_type: 'upstream_error',
    });
  });

  it('ends a stream translated to Messages with its error event', async () => {
    const anthropic = new Anthropic({ baseURL: gateway.servers.gatewayUrl, apiKey: gateway.apiKey, maxRetries: 0 });
    const stream = anthropic.messages.stream({
      model: 'long-event-model',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const failure = (await stream.finalMessage().catch((error: unknown) => error)) as Error;
    expect(failure.message).toContain(MESSAGE);
    await expectReadingStopped();
  });

  it('answers 502 without a retry when the first event does not end', async () => {
    startFirst = false;
    const answer = await gateway.chat(true);
    expect(answer.status).toBe(502);
    expect(answer.headers.get('x-should-retry')).toBe('false');
    const { error } = (await answer.json()) as { error: { message: string; upstream: { type: string } } };
    expect(error.message).toBe(MESSAGE);
    expect(error.upstream.type).toBe('event_too_large');
    expect(upstream.requests).toBe(1);
    await expectReadingStopped();
  });
});
