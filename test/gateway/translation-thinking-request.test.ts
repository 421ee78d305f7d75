import { beforeEach, describe, expect, it } from 'vitest';
import { HARNESS_LLM, harnessWithKey } from './support/harness.js';

/**
 * An OpenAI-format client turns on a Claude model's extended thinking as it would through LiteLLM:
 * chat's `reasoning_effort` (or Anthropic's `thinking` as an extra field), Responses' `reasoning.effort`.
 * What reaches Anthropic must be a body it accepts with thinking on. Here claude-opus-4-7 has no
 * per-model cap (thinking-budget-cap.test.ts has one), so a request without a limit carries the
 * translation's default of 4096 as its answer's limit.
 */
describe('extended thinking from OpenAI formats, for a Claude model', () => {
  const context = harnessWithKey({ llm: { ...HARNESS_LLM, per_model_max_tokens: { 'gpt-4o-mini': 100 } } });
  beforeEach(() => context.harness.anthropic.reset());
  const openai = () => context.harness.openaiClient(context.key);
  const sent = () => context.harness.anthropic.lastRequest()!.body;
  const tools = [
    {
      type: 'function' as const,
      function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
    },
  ];

  it('sends reasoning_effort as a thinking budget, above the answer limit, without a temperature it refuses', async () => {
    const completion = await openai().chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'Hello' }],
      reasoning_effort: 'high',
      temperature: 0.2,
      tools,
    });
    expect(completion.choices[0]!.message.content).toBe('You said: Hello');
    expect(sent().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(sent().max_tokens).toBe(4096 + 4096);
    expect(sent()).not.toHaveProperty('temperature');
  });

  it('takes a thinking object sent as an extra field, and keeps temperature 1', async () => {
    await openai().chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 100,
      temperature: 1,
      // @ts-expect-error LiteLLM's extension, not an OpenAI parameter
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
    expect(sent().thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(sent().max_tokens).toBe(100 + 2048);
    expect(sent().temperature).toBe(1);
  });

  it('sends no thinking for minimal or none', async () => {
    for (const effort of ['minimal', 'none'] as const) {
      await openai().chat.completions.create({
        model: 'claude-opus-4-7',
        messages: [{ role: 'user', content: 'Hello' }],
        reasoning_effort: effort,
      });
      expect(sent()).not.toHaveProperty('thinking');
      expect(sent().max_tokens).toBe(4096);
    }
  });

  it('refuses an effort or thinking object a Claude model cannot take, naming the field', async () => {
    const effort = await openai()
      .chat.completions.create({
        model: 'claude-opus-4-7',
        messages: [{ role: 'user', content: 'Hello' }],
        // @ts-expect-error not an effort
        reasoning_effort: 'extreme',
      })
      .catch((error: unknown) => error as { status: number; error: { param?: string } });
    expect(effort).toMatchObject({ status: 400, error: { param: 'reasoning_effort' } });
    const budget = await openai()
      .chat.completions.create({
        model: 'claude-opus-4-7',
        messages: [{ role: 'user', content: 'Hello' }],
        max_tokens: 100,
        // @ts-expect-error LiteLLM's extension
        thinking: { type: 'enabled', budget_tokens: 10 },
      })
      .catch((error: unknown) => error as { status: number; error: { param?: string } });
    expect(budget).toMatchObject({ status: 400, error: { param: 'thinking.budget_tokens' } });
    expect(context.harness.anthropic.requests).toHaveLength(0);
  });

  it('leaves thinking out of a turn with a forced tool choice, which Anthropic refuses with it', async () => {
    await openai().chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [{ role: 'user', content: 'Read a.txt' }],
      reasoning_effort: 'medium',
      tools,
      tool_choice: 'required',
    });
    expect(sent().tool_choice).toEqual({ type: 'any' });
    expect(sent()).not.toHaveProperty('thinking');
  });

  it("leaves thinking out of a tool loop's next turn, whose call has no signed thinking to send back", async () => {
    await openai().chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [
        { role: 'user', content: 'Read a.txt' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_01', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01', content: 'hello' },
      ],
      reasoning_effort: 'high',
      tools,
    });
    expect(sent()).not.toHaveProperty('thinking');
    expect(sent().max_tokens).toBe(4096);
  });

  it("keeps thinking on for a tool loop's turn whose call follows encrypted (redacted) thinking", async () => {
    const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' };
    await openai().chat.completions.create({
      model: 'claude-opus-4-7',
      messages: [
        { role: 'user', content: 'Read a.txt' },
        {
          role: 'assistant',
          content: null,
          // @ts-expect-error LiteLLM's field, as the gateway's answers carry it
          thinking_blocks: [redacted],
          tool_calls: [
            { id: 'toolu_01', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01', content: 'hello' },
      ],
      reasoning_effort: 'high',
      tools,
    });
    expect(sent().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(sent().messages[1].content[0]).toEqual(redacted);
  });

  it('sends Responses reasoning.effort as a thinking budget', async () => {
    const response = await openai().responses.create({
      model: 'claude-opus-4-7',
      input: 'Hello',
      reasoning: { effort: 'medium', summary: 'auto' },
      temperature: 0.5,
      max_output_tokens: 150,
    });
    expect(response.output_text).toBe('You said: Hello');
    expect(sent().thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(sent().max_tokens).toBe(150 + 2048);
    expect(sent()).not.toHaveProperty('temperature');
  });
});
