import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

const tools = [{ name: 'read_file', input_schema: { type: 'object' as const, properties: {} } }];
const toolUse = { type: 'tool_use' as const, id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } };

describe('a failed tool result sent to a chat completions upstream', () => {
  const ctx = harnessWithKey();
  beforeEach(() => ctx.harness.openai.reset());

  const ask = (result: Record<string, unknown>, stream = false) => {
    const request = {
      model: 'gpt-4o-mini',
      max_tokens: 32,
      tools,
      messages: [
        { role: 'user' as const, content: 'read a.txt' },
        { role: 'assistant' as const, content: [toolUse] },
        { role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: 'toolu_1', ...result }] },
      ],
    } as Parameters<ReturnType<typeof ctx.harness.anthropicClient>['messages']['create']>[0];
    const client = ctx.harness.anthropicClient(ctx.key);
    return stream ? client.messages.stream(request).finalMessage() : client.messages.create(request);
  };
  const toolMessage = () =>
    (ctx.harness.openai.lastRequest()!.body.messages as Array<Record<string, unknown>>).find((m) => m.role === 'tool');

  it('says in the tool message that the tool failed, since chat has no error flag', async () => {
    await ask({ is_error: true, content: 'ENOENT: no such file a.txt' });
    expect(toolMessage()).toEqual({
      role: 'tool',
      tool_call_id: 'toolu_1',
      content: 'Error: ENOENT: no such file a.txt',
    });
  });

  it('marks text blocks of a failed result the same way, streamed too', async () => {
    await ask({ is_error: true, content: [{ type: 'text', text: 'permission denied' }] }, true);
    expect(toolMessage()).toEqual({ role: 'tool', tool_call_id: 'toolu_1', content: 'Error: permission denied' });
  });

  it('says a failed result without text failed', async () => {
    await ask({ is_error: true });
    expect(toolMessage()).toEqual({ role: 'tool', tool_call_id: 'toolu_1', content: 'Error' });
  });

  it('leaves a successful result as the tool wrote it', async () => {
    await ask({ content: 'Error handling is described in a.txt' });
    expect(toolMessage()).toEqual({
      role: 'tool',
      tool_call_id: 'toolu_1',
      content: 'Error handling is described in a.txt',
    });
    await ask({ is_error: false, content: 'fine' });
    expect(toolMessage()).toEqual({ role: 'tool', tool_call_id: 'toolu_1', content: 'fine' });
  });
});
