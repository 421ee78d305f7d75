import type OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey, type GatewayHarness } from './support/harness.js';

/**
 * System and developer messages in the middle of a Responses `input` keep their place among the
 * turns on a chat completions upstream, where a system message may stand anywhere; Messages has
 * one system prompt, so a Claude model gets them there.
 */
describe('Responses system and developer items', () => {
  const context = harnessWithKey();
  let h: GatewayHarness;
  let client: OpenAI;
  beforeEach(() => {
    h = context.harness;
    client = h.openaiClient(context.key);
    h.openai.reset();
    h.anthropic.reset();
  });

  const input: OpenAI.Responses.ResponseInput = [
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi! What can I do?' },
    { role: 'developer', content: 'From now on, answer in French.' },
    { role: 'user', content: 'Weather in Oslo?' },
    { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' },
    { role: 'system', content: [{ type: 'input_text', text: 'Temperatures in Celsius.' }] },
    { type: 'function_call_output', call_id: 'call_1', output: '-3' },
    { role: 'user', content: 'And?' },
  ];

  it('stay where the client put them on a chat completions upstream', async () => {
    await client.responses.create({ model: 'gpt-4o-mini', instructions: 'Be brief.', input });
    expect(h.openai.lastRequest()!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi! What can I do?' },
      { role: 'system', content: 'From now on, answer in French.' },
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
      },
      // A tool message must follow its call, so the system message between them comes after it.
      { role: 'tool', tool_call_id: 'call_1', content: '-3' },
      { role: 'system', content: 'Temperatures in Celsius.' },
      { role: 'user', content: 'And?' },
    ]);
  });

  it('keep two turns of one role apart', async () => {
    await client.responses.create({
      model: 'gpt-4o-mini',
      input: [
        { role: 'user', content: 'First' },
        { role: 'developer', content: 'Mind the second.' },
        { role: 'user', content: 'Second' },
      ],
    });
    expect(h.openai.lastRequest()!.body.messages).toEqual([
      { role: 'user', content: 'First' },
      { role: 'system', content: 'Mind the second.' },
      { role: 'user', content: 'Second' },
    ]);
  });

  it.each([
    [
      'after the user turn, before the call',
      [
        { role: 'developer', content: 'Use the tool.' },
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}' },
        { role: 'assistant', content: 'Checking.' },
      ],
      'user',
    ],
    [
      'between the call and the message after it',
      [
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{}' },
        { role: 'developer', content: 'Use the tool.' },
        { role: 'assistant', content: 'Checking.' },
      ],
      'tool',
    ],
  ] as const)('never come between a function call and its output (%s)', async (_, items, after) => {
    await client.responses.create({
      model: 'gpt-4o-mini',
      input: [
        { role: 'user', content: 'Weather in Oslo?' },
        ...items,
        { type: 'function_call_output', call_id: 'call_1', output: '-3' },
      ],
    });
    const assistant = {
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
    };
    const system = { role: 'system', content: 'Use the tool.' };
    const tool = { role: 'tool', tool_call_id: 'call_1', content: '-3' };
    const user = { role: 'user', content: 'Weather in Oslo?' };
    expect(h.openai.lastRequest()!.body.messages).toEqual(
      after === 'user' ? [user, system, assistant, tool] : [user, assistant, tool, system],
    );
  });

  it('go to the system prompt, in order, on a Claude model', async () => {
    await client.responses.create({ model: 'claude-opus-4-7', instructions: 'Be brief.', input });
    const body = h.anthropic.lastRequest()!.body;
    expect(body.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'From now on, answer in French.' },
      { type: 'text', text: 'Temperatures in Celsius.' },
    ]);
    expect(body.messages.map((turn: { role: string }) => turn.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
  });
});
