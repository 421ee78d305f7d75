import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeChat } from '../../../src/server/gateway/providers/index.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../../support/upstreams/index.js';
import { asJson, asStream, deployment, frames, NEVER, payloadsOf, POOLS } from './helpers.js';

let upstream: OpenAIUpstream;
beforeAll(async () => {
  upstream = await startOpenAIUpstream({ apiKey: 'key-openai-secret' });
});
beforeEach(() => upstream.reset());
afterAll(async () => {
  await upstream.close();
  await POOLS.close();
});

const chat = (body: object, overrides = {}) =>
  executeChat({
    pools: POOLS,
    format: 'chat',
    body: { model: 'public-openai', messages: [{ role: 'user', content: 'Hello there' }], ...body } as never,
    deployment: deployment('openai', upstream.url, overrides),
    signal: NEVER,
    requestId: 'req-1',
  });

describe('chat completions on an OpenAI-compatible upstream (native fast path)', () => {
  it('forwards the body with only the model rewritten, and answers with the public model name', async () => {
    const result = asJson(await chat({ seed: 42, temperature: 0.2, max_tokens: 20 }));
    expect(result.body).toMatchObject({
      object: 'chat.completion',
      model: 'public-openai',
      choices: [{ message: { role: 'assistant', content: 'You said: Hello there' }, finish_reason: 'stop' }],
    });
    const received = upstream.lastRequest()!;
    expect(received.path).toBe('/v1/chat/completions');
    expect(received.headers.authorization).toBe('Bearer key-openai-secret');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.body).toEqual({
      model: 'gpt-upstream',
      messages: [{ role: 'user', content: 'Hello there' }],
      seed: 42,
      temperature: 0.2,
      max_tokens: 20,
    });
    const usage = (result.body as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    expect(result.usage).toEqual({ promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens });
  });

  it('streams frames as relayed, asks for usage upstream and drops the usage chunk the client did not ask for', async () => {
    const result = asStream(await chat({ stream: true }));
    const all = await frames(result);
    expect(upstream.lastRequest()!.body.stream_options).toEqual({ include_usage: true });
    expect(all.at(-1)).toBe('data: [DONE]\n\n');
    const chunks = payloadsOf(all);
    expect(chunks.every((chunk) => chunk.model === 'public-openai' && chunk.choices.length === 1)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0].delta.content ?? '').join('')).toBe('You said: Hello there');
    expect(result.usage().completionTokens).toBe(4);
    expect(result.usage().promptTokens).toBeGreaterThan(0);
    expect(result.error()).toBeUndefined();
  });

  it('keeps the usage chunk when the client asked for it', async () => {
    const result = await chat({ stream: true, stream_options: { include_usage: true } });
    const chunks = payloadsOf(await frames(result));
    expect(chunks.at(-1)).toMatchObject({ choices: [], model: 'public-openai', usage: { completion_tokens: 4 } });
  });

  it('relays tool-call chunks untouched except for the model', async () => {
    upstream.setNext({ reply: { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }] } });
    const chunks = payloadsOf(
      await frames(await chat({ stream: true, tools: [{ type: 'function', function: { name: 'weather' } }] })),
    );
    const args = chunks
      .flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])
      .map((call: { function: { arguments: string } }) => call.function.arguments)
      .join('');
    expect(args).toBe('{"city":"Paris"}');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('estimates usage when the upstream reports none, and fills it into the answer', async () => {
    upstream.setNext(
      { reply: { text: 'twelve characters here', usage: null } },
      { reply: { text: 'a b c d e f g h', usage: null } },
    );
    const json = asJson(await chat({}));
    expect(json.usage.completionTokens).toBe(Math.ceil('twelve characters here'.length / 4));
    expect(json.usage.promptTokens).toBeGreaterThan(0);
    expect((json.body as { usage: object }).usage).toEqual({
      prompt_tokens: json.usage.promptTokens,
      completion_tokens: json.usage.completionTokens,
      total_tokens: json.usage.promptTokens + json.usage.completionTokens,
    });
    const streamed = asStream(await chat({ stream: true }));
    await frames(streamed);
    expect(streamed.usage().completionTokens).toBeGreaterThan(0);
  });

  it('uses the provider prefix-free upstream name for compatible servers', async () => {
    await chat({}, { provider: 'ollama', upstreamModel: 'ollama/llama3.2' });
    expect(upstream.lastRequest()!.body.model).toBe('llama3.2');
  });
});
