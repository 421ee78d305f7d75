import type OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * OpenAI-format agents (Cline, Roo, Cursor) mark their prompt for caching with `cache_control`, as
 * LiteLLM and OpenRouter take it for Claude. Dropped, every turn would pay the whole prompt again;
 * the gateway carries the marks to the Messages request's system blocks, content blocks and tools.
 */
describe('chat cache_control marks for a Claude model', () => {
  const c = harnessWithKey();
  beforeEach(() => c.harness.anthropic.reset());

  const ephemeral = { type: 'ephemeral' } as const;
  const hour = { type: 'ephemeral', ttl: '1h' } as const;

  /** Sends `request` (extra fields included) through the openai SDK and returns what Anthropic got. */
  async function sent(request: Record<string, unknown>): Promise<any> {
    await c.harness.openaiClient(c.key).chat.completions.create({
      model: 'claude-opus-4-7',
      ...request,
    } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    return c.harness.anthropic.lastRequest()!.body;
  }

  it('reach the system blocks, text blocks and tools, a ttl kept', async () => {
    const body = await sent({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'You are Cline.', cache_control: hour }] },
        { role: 'user', content: [{ type: 'text', text: 'Read the file.', cache_control: ephemeral }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'contents', cache_control: ephemeral },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Now summarise.' },
            { type: 'text', text: 'Briefly.', cache_control: ephemeral },
          ],
        },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'read_file', parameters: { type: 'object', properties: {} } },
          cache_control: ephemeral,
        },
        { type: 'function', function: { name: 'list', cache_control: hour } },
        { type: 'function', function: { name: 'plain' } },
      ],
    });
    expect(body.system).toEqual([{ type: 'text', text: 'You are Cline.', cache_control: hour }]);
    expect(body.messages[0].content).toEqual([{ type: 'text', text: 'Read the file.', cache_control: ephemeral }]);
    expect(body.messages[2].content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'call_1',
      content: 'contents',
      cache_control: ephemeral,
    });
    expect(body.messages[2].content.slice(1)).toEqual([
      { type: 'text', text: 'Now summarise.' },
      { type: 'text', text: 'Briefly.', cache_control: ephemeral },
    ]);
    expect(body.tools.map((tool: any) => tool.cache_control)).toEqual([ephemeral, hour, undefined]);
  });

  it('take a mark on a whole message for its last part, and leave unmarked prompts as they were', async () => {
    const marked = await sent({
      messages: [
        { role: 'system', content: 'Rules.', cache_control: ephemeral },
        { role: 'user', content: 'Question?', cache_control: ephemeral },
      ],
    });
    expect(marked.system).toEqual([{ type: 'text', text: 'Rules.', cache_control: ephemeral }]);
    expect(marked.messages[0].content).toEqual([{ type: 'text', text: 'Question?', cache_control: ephemeral }]);

    const plain = await sent({
      messages: [
        { role: 'system', content: 'Rules.' },
        { role: 'user', content: 'Question?', cache_control: { type: 'persistent' } },
      ],
    });
    expect(plain.system).toBe('Rules.');
    expect(plain.messages[0].content).toBe('Question?');
  });
});
