import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

const CONTEXT = '<environment_context>\n  <cwd>/work/app</cwd>\n</environment_context>';

/**
 * Consecutive user messages (a Codex-style input sends its environment context, then the prompt) stay
 * separate turns on chat completions, which takes them; Messages needs alternation, and joins them.
 */
describe('Responses: consecutive user messages', () => {
  let c: HarnessClients;
  withSdkClients({}, ['responses'], (clients) => (c = clients));

  const input = [
    { role: 'user' as const, content: [{ type: 'input_text' as const, text: CONTEXT }] },
    { role: 'user' as const, content: 'Fix the failing test' },
  ];

  it('reach chat completions as two user messages', async () => {
    await c.openai.responses.create({ model: 'gpt-4o-mini', input, instructions: 'Be brief.' });
    expect(c.h.openai.lastRequest()!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: CONTEXT },
      { role: 'user', content: 'Fix the failing test' },
    ]);
  });

  it('reach Messages as one user turn', async () => {
    await c.openai.responses.create({ model: 'claude-opus-4-7', input });
    const messages = c.h.anthropic.lastRequest()!.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: CONTEXT },
          { type: 'text', text: 'Fix the failing test' },
        ],
      },
    ]);
  });

  it('after function outputs still follow the tool messages on chat completions', async () => {
    const tools = [{ type: 'function' as const, name: 'run', parameters: {}, strict: false }];
    await c.openai.responses.create({
      model: 'gpt-4o-mini',
      tools,
      input: [
        { role: 'user', content: 'Run it' },
        { type: 'function_call', call_id: 'call_1', name: 'run', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
        { role: 'user', content: CONTEXT },
        { role: 'user', content: 'And now?' },
      ],
    });
    const messages = c.h.openai.lastRequest()!.body.messages as Array<Record<string, unknown>>;
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'user', 'user']);
    expect(messages.slice(3)).toEqual([
      { role: 'user', content: CONTEXT },
      { role: 'user', content: 'And now?' },
    ]);
  });
});
