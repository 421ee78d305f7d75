import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * An Anthropic client's server-held thread (the SDK's tool runner uses one on its own) sends only the
 * new messages on later turns. A model served by chat completions, or the demo model, has no server
 * to keep the thread: the gateway refuses `thread` the way Anthropic refuses a request it cannot
 * thread, so the SDK falls back to sending the full history, and the model sees the whole conversation.
 */
describe('server-held threads on a model Anthropic does not serve', () => {
  let c: HarnessClients;
  let key: string;
  withSdkClients({ llm: { allowed_models: ['gpt-4o-mini', 'demo/echo'] } }, ['*'], (clients) => {
    c = clients;
    key = clients.anthropic.apiKey!;
  });

  /** An Anthropic client that records every body it sends to the gateway and every status it gets. */
  function recordingClient(): { client: Anthropic; sent: any[]; statuses: number[] } {
    const sent: any[] = [];
    const statuses: number[] = [];
    const client = new Anthropic({
      baseURL: c.h.url,
      apiKey: key,
      maxRetries: 0,
      fetch: async (url, init) => {
        sent.push(JSON.parse(String(init?.body)));
        const answer = await fetch(url, init);
        statuses.push(answer.status);
        return answer;
      },
    });
    return { client, sent, statuses };
  }

  it("falls back to the full history in the SDK's tool runner: the upstream sees every turn", async () => {
    c.h.openai.setNext({ reply: { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const { client, sent, statuses } = recordingClient();
    const getWeather = betaTool({
      name: 'get_weather',
      description: 'The weather in a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      run: ({ city }) => `sunny in ${city}`,
    });
    const runner = client.beta.messages.toolRunner({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      tools: [getWeather],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const final = await runner.runUntilDone();
    expect(final.content[0]).toMatchObject({ type: 'text' });

    expect(c.h.openai.requests).toHaveLength(2);
    const second = c.h.openai.requests[1]!.body;
    expect(second.messages.map((message: any) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(second.messages[0].content).toBe('Weather in Paris?');
    expect(second.messages[1].tool_calls[0].function).toMatchObject({ name: 'get_weather' });
    expect(second.messages[2]).toMatchObject({ tool_call_id: 'call_1', content: 'sunny in Paris' });
    // The SDK asked for a thread, was refused, and sent every later turn whole, without one.
    expect(sent[0].thread).toEqual({ type: 'create' });
    expect(statuses[0]).toBe(400);
    expect(sent.slice(1).every((body) => body.thread === undefined)).toBe(true);
  });

  it('answers a thread request with Anthropic\'s "cannot thread" error, on the demo model too', async () => {
    for (const model of ['gpt-4o-mini', 'demo/echo']) {
      const answer = await fetch(`${c.h.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({
          model,
          max_tokens: 16,
          thread: { type: 'continue', previous_message_id: 'msg_01' },
          messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }],
        }),
      });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as any;
      expect(body.type).toBe('error');
      expect(body.error).toMatchObject({
        type: 'invalid_request_error',
        details: { error_code: 'thread_unsupported_request', unsupported: ['thread'] },
      });
      expect(body.error.message).toMatch(/^thread: /);
    }
    expect(c.h.openai.requests).toHaveLength(0);
  });

  it('lets an SDK thread on the demo model carry on unthreaded', async () => {
    const { client } = recordingClient();
    const thread = client.beta.messages.thread({
      model: 'demo/echo',
      max_tokens: 32,
      unsupportedRequestBehavior: 'continue_unthreaded',
    });
    await thread.send({ role: 'user', content: 'first' });
    const second = await thread.send({ role: 'user', content: 'second' });
    expect(second.content[0]).toMatchObject({ type: 'text' });
    expect(thread.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('refuses a compaction request, which only Anthropic answers, and drops fallbacks', async () => {
    const refused = await c.anthropic.beta.messages
      .create({
        model: 'gpt-4o-mini',
        max_tokens: 16,
        compaction: {} as never,
        messages: [{ role: 'user', content: 'summarise' }],
      })
      .catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as Error).message).toMatch(/compaction: only Anthropic models/);
    await c.anthropic.beta.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 16,
      fallbacks: 'default',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(c.h.openai.lastRequest()!.body.fallbacks).toBeUndefined();
  });
});
