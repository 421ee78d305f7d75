import { describe, expect, it } from 'vitest';
import {
  validateChatRequest,
  validateMessagesRequest,
  visitChatRequestText,
  visitChatResponseText,
  visitMessagesRequestText,
  visitMessagesResponseText,
  type TextLocation,
} from '../../../src/server/gateway/formats/index.js';

describe('chat text visitor', () => {
  it('visits system, user, assistant and tool texts, and rewrites them in place', () => {
    const valid = validateChatRequest({
      model: 'm',
      messages: [
        { role: 'system', content: 'sys alice' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi alice' },
            { type: 'image_url', image_url: { url: 'https://x' } },
          ],
        },
        {
          role: 'assistant',
          content: 'hello alice',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"who":"alice"}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: 'alice found' },
      ],
    });
    if (!valid.ok) throw new Error(valid.message);
    const seen: TextLocation[] = [];
    visitChatRequestText(valid.value, (text, where) => {
      seen.push(where);
      return text.replaceAll('alice', '[NAME]');
    });
    expect(seen.map((where) => `${where.kind}:${where.role}:${where.path}`)).toEqual([
      'system:system:messages[0].content',
      'message:user:messages[1].content[0].text',
      'message:assistant:messages[2].content',
      'tool_result:tool:messages[3].content',
    ]);
    expect(JSON.stringify(valid.value.messages)).not.toMatch(/alice(?!\\)/);
    // Tool-call arguments are JSON, not prose: left alone.
    expect(
      (valid.value.messages[2] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0].function
        .arguments,
    ).toBe('{"who":"alice"}');
  });

  it('visits answers', () => {
    const body = { choices: [{ message: { content: 'bob says hi' } }] };
    visitChatResponseText(body, (text) => text.replace('bob', 'B.'));
    expect(body.choices[0].message.content).toBe('B. says hi');
  });
});

describe('Messages text visitor', () => {
  it('visits the system prompt, text blocks and tool results, mutably', () => {
    const valid = validateMessagesRequest({
      model: 'm',
      max_tokens: 10,
      system: [{ type: 'text', text: 'sys carol' }],
      messages: [
        { role: 'user', content: 'carol asks' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'carol?' },
            { type: 'tool_use', id: 't', name: 'f', input: { q: 'carol' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'carol data' }] },
            { type: 'tool_result', tool_use_id: 'u', content: 'more carol' },
          ],
        },
      ],
    });
    if (!valid.ok) throw new Error(valid.message);
    const paths: string[] = [];
    visitMessagesRequestText(valid.value, (text, where) => {
      paths.push(`${where.kind}:${where.path}`);
      return text.replaceAll('carol', 'X');
    });
    expect(paths).toEqual([
      'system:system[0].text',
      'message:messages[0].content',
      'message:messages[1].content[0].text',
      'tool_result:messages[2].content[0].content[0].text',
      'tool_result:messages[2].content[1].content',
    ]);
    const text = JSON.stringify(valid.value);
    expect(text.match(/carol/g)).toHaveLength(1);
  });

  it('visits answers', () => {
    const body = {
      content: [
        { type: 'text', text: 'dave' },
        { type: 'tool_use', id: 't', name: 'f', input: {} },
      ],
    };
    visitMessagesResponseText(body, () => 'redacted');
    expect(body.content[0]).toEqual({ type: 'text', text: 'redacted' });
  });
});
