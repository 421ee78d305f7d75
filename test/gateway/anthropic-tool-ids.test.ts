import type Anthropic from '@anthropic-ai/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Anthropic refuses tool ids outside `^[a-zA-Z0-9_-]+$`, while OpenAI-compatible servers write ids
 * such as Kimi's `functions.get_weather:0`. A conversation that mixes the two must still reach Claude.
 */
const FOREIGN_ID = 'functions.get_weather:0';
const VALID_ID = /^[a-zA-Z0-9_-]+$/;

const tools: Anthropic.Tool[] = [
  { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
];

describe('tool ids on the way to and from Claude', () => {
  const c = harnessWithKey();
  beforeEach(() => {
    c.harness.openai.reset();
    c.harness.anthropic.reset();
  });

  it('a chat history with foreign tool ids reaches Claude with valid, still paired ids', async () => {
    const reply = await c.harness.openaiClient(c.key).chat.completions.create({
      model: 'claude-opus-4-7',
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: tools[0].input_schema } }],
      messages: [
        { role: 'user', content: 'Weather in Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: FOREIGN_ID, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: FOREIGN_ID, content: 'sunny' },
      ],
    });
    expect(reply.choices[0].message.content).toBe('You said: ');
    const [, assistant, user] = c.harness.anthropic.lastRequest()!.body.messages;
    const useId = assistant.content[0].id;
    expect(useId).toMatch(VALID_ID);
    expect(user.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: useId });
  });

  it('an OpenAI-family tool call reaches a Messages client with an id Claude takes back', async () => {
    const client = c.harness.anthropicClient(c.key);
    const call = { id: FOREIGN_ID, name: 'get_weather', arguments: { city: 'Rome' } };
    const ask = {
      model: 'gpt-4o-mini',
      max_tokens: 64,
      tools,
      messages: [{ role: 'user' as const, content: 'Rome?' }],
    };

    c.harness.openai.setNext({ reply: { toolCalls: [call] } });
    const whole = await client.messages.create(ask);
    c.harness.openai.setNext({ reply: { toolCalls: [call] } });
    const streamed = await client.messages.stream(ask).finalMessage();

    for (const message of [whole, streamed]) {
      const use = message.content.find((block) => block.type === 'tool_use')!;
      expect(use.id).toMatch(VALID_ID);
      // The agent goes on with the same history on a Claude model.
      const next = await client.messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 64,
        tools,
        messages: [
          ...ask.messages,
          { role: 'assistant', content: message.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] },
        ],
      });
      expect(next.stop_reason).toBe('end_turn');
    }
  });
});
