import { beforeAll, describe, expect, it } from 'vitest';
import type { ReceivedSpan } from '../support/otlp-receiver.js';
import { newTrace, tracedGateway } from './support/traced-gateway.js';

const CLIENT = 3;

const WEATHER_TOOL = {
  name: 'weather',
  description: 'the weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/**
 * The upstream-call span carries the parts of its token counts the GenAI conventions name (cache reads
 * and writes, reasoning), and says why an answer stopped in one vocabulary whichever endpoint served it.
 */
describe('trace attributes: token details and finish reasons', () => {
  const gateway = tracedGateway();
  let key: string;

  beforeAll(async () => {
    key = (await gateway.h.issueKey({ scopes: ['*'] })).key;
  });

  /** The upstream-call span of the request `send` makes in a trace of its own. */
  async function upstreamSpan(send: (traceparent: string) => Promise<unknown>): Promise<ReceivedSpan> {
    const trace = newTrace();
    await send(trace.traceparent);
    const spans = await gateway.receiver.waitForTrace(trace.traceId, 2);
    const calls = spans.filter((span) => span.kind === CLIENT);
    expect(calls).toHaveLength(1);
    return calls[0]!;
  }

  const chat =
    (model: string, extra: Record<string, unknown> = {}) =>
    (traceparent: string) =>
      gateway.h
        .openaiClient(key)
        .chat.completions.create(
          { model, messages: [{ role: 'user', content: 'what is the weather in Oslo' }], ...extra },
          { headers: { traceparent } },
        );
  const messages =
    (extra: Record<string, unknown> = {}) =>
    (traceparent: string) =>
      gateway.h.anthropicClient(key).messages.create(
        {
          model: 'claude-opus-4-7',
          max_tokens: 50,
          messages: [{ role: 'user', content: 'weather in Oslo' }],
          ...extra,
        },
        { headers: { traceparent } },
      );
  const responses =
    (model: string, extra: Record<string, unknown> = {}) =>
    (traceparent: string) =>
      gateway.h
        .openaiClient(key)
        .responses.create({ model, input: 'what is the weather in Oslo', ...extra }, { headers: { traceparent } });

  it("records a Claude answer's cache reads and writes beside its input tokens", async () => {
    gateway.h.anthropic.setNext({
      reply: {
        usage: { input_tokens: 13, output_tokens: 5, cache_read_input_tokens: 4, cache_creation_input_tokens: 2 },
      },
    });
    const call = await upstreamSpan(messages());
    expect(call.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 19,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.usage.cache_read.input_tokens': 4,
      'gen_ai.usage.cache_creation.input_tokens': 2,
    });
  });

  it("records an OpenAI answer's cached and reasoning tokens", async () => {
    gateway.h.openai.setNext({
      reply: {
        usage: {
          prompt_tokens: 10,
          completion_tokens: 8,
          prompt_tokens_details: { cached_tokens: 3 },
          completion_tokens_details: { reasoning_tokens: 5 },
        },
      },
    });
    const call = await upstreamSpan(chat('gpt-4o-mini'));
    expect(call.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 8,
      'gen_ai.usage.cache_read.input_tokens': 3,
      'gen_ai.usage.reasoning.output_tokens': 5,
    });
    expect(call.attributes).not.toHaveProperty('gen_ai.usage.cache_creation.input_tokens');
  });

  it('leaves the details out when the provider reported none', async () => {
    gateway.h.openai.setNext({ reply: { usage: { prompt_tokens: 10, completion_tokens: 8 } } });
    const call = await upstreamSpan(chat('gpt-4o-mini'));
    for (const name of [
      'gen_ai.usage.cache_read.input_tokens',
      'gen_ai.usage.cache_creation.input_tokens',
      'gen_ai.usage.reasoning.output_tokens',
    ])
      expect(call.attributes).not.toHaveProperty(name);
  });

  it('names the same Claude stop the same on chat completions, Messages and Responses', async () => {
    const reasons: unknown[] = [];
    for (const send of [chat('claude-opus-4-7'), messages(), responses('claude-opus-4-7')]) {
      gateway.h.anthropic.setNext({ reply: { text: 'It is sunny.', stopReason: 'end_turn' } });
      reasons.push((await upstreamSpan(send)).attributes['gen_ai.response.finish_reasons']);
    }
    expect(reasons).toEqual([['stop'], ['stop'], ['stop']]);
  });

  it('names a tool call and a cut answer the same on every endpoint', async () => {
    const toolReasons: unknown[] = [];
    const tool = { id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } };
    for (const send of [
      chat('claude-opus-4-7', { tools: [{ type: 'function', function: WEATHER_TOOL }] }),
      messages({ tools: [{ name: 'weather', input_schema: WEATHER_TOOL.parameters }] }),
      responses('claude-opus-4-7', { tools: [{ type: 'function', ...WEATHER_TOOL }] }),
    ]) {
      gateway.h.anthropic.setNext({ reply: { toolUses: [tool] } });
      toolReasons.push((await upstreamSpan(send)).attributes['gen_ai.response.finish_reasons']);
    }
    expect(toolReasons).toEqual([['tool_call'], ['tool_call'], ['tool_call']]);

    const cutReasons: unknown[] = [];
    for (const send of [chat('claude-opus-4-7'), messages(), responses('claude-opus-4-7')]) {
      gateway.h.anthropic.setNext({ reply: { text: 'It is', stopReason: 'max_tokens' } });
      cutReasons.push((await upstreamSpan(send)).attributes['gen_ai.response.finish_reasons']);
    }
    expect(cutReasons).toEqual([['length'], ['length'], ['length']]);
  });

  it("names an OpenAI model's tool call as a Claude one is named", async () => {
    gateway.h.openai.setNext({ reply: { toolCalls: [{ name: 'weather', arguments: '{"city":"Oslo"}' }] } });
    const call = await upstreamSpan(chat('gpt-4o-mini', { tools: [{ type: 'function', function: WEATHER_TOOL }] }));
    expect(call.attributes['gen_ai.response.finish_reasons']).toEqual(['tool_call']);
  });
});
