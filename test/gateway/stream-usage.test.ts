import type OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/** Reads a chat stream through the official client: every chunk, in order. */
async function chunks(stream: AsyncIterable<OpenAI.ChatCompletionChunk>): Promise<OpenAI.ChatCompletionChunk[]> {
  const all: OpenAI.ChatCompletionChunk[] = [];
  for await (const chunk of stream) all.push(chunk);
  return all;
}

describe('usage chunk of a relayed chat stream', () => {
  const context = harnessWithKey();
  beforeEach(() => context.harness.openai.reset());

  it('carries the estimate when the client asked for usage and the upstream reported none', async () => {
    const { harness, key } = context;
    // Servers that ignore stream_options (older vLLM, llama.cpp builds) send no usage chunk at all.
    harness.openai.setNext({ reply: { text: 'one two three four', usage: null } });
    const stream = await harness.openaiClient(key).chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'count to four' }],
    });
    const all = await chunks(stream);
    const last = all.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.id).toBe(all[0]!.id);
    expect(last.model).toBe('gpt-4o-mini');
    expect(last.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(last.usage!.completion_tokens).toBeGreaterThan(0);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
    // The client is told what is accounted.
    const [row] = await harness.usageRows();
    expect([row.prompt_tokens, row.completion_tokens]).toEqual([
      last.usage!.prompt_tokens,
      last.usage!.completion_tokens,
    ]);
  });

  it("relays the upstream's own usage chunk once, and none to a client that did not ask", async () => {
    const { harness, key } = context;
    const client = harness.openaiClient(key);
    harness.openai.setNext({ reply: { text: 'hi', usage: { prompt_tokens: 7, completion_tokens: 1 } } });
    const asked = await chunks(
      await client.chat.completions.create({
        model: 'gpt-4o-mini',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(asked.filter((chunk) => chunk.usage != null).map((chunk) => chunk.usage)).toEqual([
      { prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 },
    ]);
    harness.openai.setNext({ reply: { text: 'hi', usage: null } });
    const unasked = await chunks(
      await client.chat.completions.create({
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    expect(unasked.every((chunk) => chunk.choices.length === 1 && chunk.usage == null)).toBe(true);
  });
});
