import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * OpenAI takes a function's `parameters` as `{}` (no arguments) or without a `type`; Anthropic
 * requires `input_schema.type` and refuses the whole request without it. A chat or Responses
 * client of a Claude model gets its answer, with the schema sent as the object schema it is.
 */
describe('function schemas without a type, for a Claude model', () => {
  const context = harnessWithKey();
  beforeEach(() => context.harness.anthropic.reset());

  it('are sent as object schemas from chat completions', async () => {
    const client = context.harness.openaiClient(context.key);
    const completion = await client.chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'What time is it?' }],
      tools: [
        { type: 'function', function: { name: 'now', parameters: {} } },
        { type: 'function', function: { name: 'zone', parameters: { properties: { city: { type: 'string' } } } } },
      ],
    });
    expect(completion.choices[0]!.message.content).toBe('You said: What time is it?');
    expect(context.harness.anthropic.lastRequest()!.body.tools).toEqual([
      { name: 'now', input_schema: { type: 'object' } },
      { name: 'zone', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
    ]);
  });

  it('are sent as object schemas from Responses', async () => {
    const client = context.harness.openaiClient(context.key);
    const response = await client.responses.create({
      model: 'claude-opus-4-7',
      input: 'What time is it?',
      tools: [{ type: 'function', name: 'now', parameters: {}, strict: false }],
    });
    expect(response.output_text).toBe('You said: What time is it?');
    expect(context.harness.anthropic.lastRequest()!.body.tools).toEqual([
      { name: 'now', input_schema: { type: 'object' } },
    ]);
  });
});
