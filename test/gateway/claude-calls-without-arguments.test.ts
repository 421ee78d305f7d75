import type OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * Anthropic streams a call of a tool without arguments as a tool_use block whose only JSON delta is
 * empty: its `input` is `{}`. A chat or Responses client must get `"{}"` as the call's `arguments`,
 * as OpenAI writes them and as the same answer unstreamed reads, not an empty text that no JSON
 * parser takes.
 */
describe('a Claude call of a tool without arguments, streamed to OpenAI-format clients', () => {
  const context = harnessWithKey();
  const tools = [
    { type: 'function' as const, name: 'now', parameters: { type: 'object', properties: {} }, strict: false },
  ];
  const reply = { reply: { toolUses: [{ id: 'toolu_now', name: 'now', input: {} }], stopReason: 'tool_use' } };
  let client: OpenAI;
  beforeEach(() => {
    context.harness.anthropic.reset();
    client = context.harness.openaiClient(context.key);
  });

  it('has "{}" for arguments in a chat completions stream', async () => {
    context.harness.anthropic.setNext(reply);
    const stream = client.chat.completions.stream({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'What time is it?' }],
      tools: tools.map(({ name, parameters }) => ({ type: 'function' as const, function: { name, parameters } })),
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(final.choices[0]!.message.tool_calls).toMatchObject([
      { id: 'toolu_now', function: { name: 'now', arguments: '{}' } },
    ]);
  });

  it('has "{}" for arguments in a Responses stream, in its events and the final Response', async () => {
    context.harness.anthropic.setNext(reply);
    const stream = client.responses.stream({ model: 'claude-opus-4-7', input: 'What time is it?', tools });
    const done: string[] = [];
    for await (const event of stream)
      if (event.type === 'response.function_call_arguments.done') done.push(event.arguments);
    const final = await stream.finalResponse();
    expect(done).toEqual(['{}']);
    expect(final.output).toMatchObject([
      { type: 'function_call', call_id: 'toolu_now', arguments: '{}', status: 'completed' },
    ]);
  });

  it('reads the same as the answer unstreamed', async () => {
    context.harness.anthropic.setNext(reply);
    const response = await client.responses.create({ model: 'claude-opus-4-7', input: 'What time is it?', tools });
    expect(response.output).toMatchObject([{ type: 'function_call', arguments: '{}' }]);
  });
});
