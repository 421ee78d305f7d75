import { describe, expect, it } from 'vitest';
import { chatToolNames } from '../../../src/server/gateway/formats/chat/tool-names.js';
import type { IrRequest } from '../../../src/server/gateway/formats/ir.js';

const PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

function request(names: readonly string[], history: readonly string[] = []): IrRequest {
  return {
    system: [],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'x' }] },
      {
        role: 'assistant',
        content: history.map((name, index) => ({ type: 'tool_call', id: `c${index}`, name, arguments: '{}' })),
      },
    ],
    tools: names.map((name) => ({ name, parameters: { type: 'object' } })),
    stream: false,
  };
}

describe('tool names sent to chat completions', () => {
  it('maps nothing when every name is one OpenAI takes, up to 64 characters', () => {
    expect(chatToolNames(request(['a'.repeat(64), 'get-weather_2']))).toBeUndefined();
  });

  it('shortens longer names and names with other characters to a readable prefix and a hash, and back', () => {
    const long = `mcp__server__${'x'.repeat(60)}`;
    const map = chatToolNames(request([long, 'files.read', 'ok'], ['only.in.history']))!;
    for (const name of [long, 'files.read', 'only.in.history']) {
      const sent = map.sent(name);
      expect(sent).toMatch(PATTERN);
      expect(map.restored(sent)).toBe(name);
    }
    expect(map.sent(long)).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
    expect(map.sent(long)).toHaveLength(64);
    expect(map.sent('files.read')).toMatch(/^files_read_[0-9a-f]{8}$/);
    expect(map.sent('ok')).toBe('ok');
    // A name the model made up comes back as it is.
    expect(map.restored('other')).toBe('other');
  });

  it('is the same for every request naming the tool, and never takes a name the request already has', () => {
    const first = chatToolNames(request(['a.b']))!.sent('a.b');
    expect(chatToolNames(request(['zzz', 'a.b']))!.sent('a.b')).toBe(first);
    const map = chatToolNames(request(['a.b', first]))!;
    expect(map.sent('a.b')).not.toBe(first);
    expect(map.sent('a.b')).toMatch(PATTERN);
    expect(map.sent(first)).toBe(first);
    expect(map.restored(map.sent('a.b'))).toBe('a.b');
    expect(map.restored(first)).toBe(first);
  });
});
