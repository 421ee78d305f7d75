import { beforeEach, describe, expect, it } from 'vitest';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { HARNESS_LLM, harnessWithKey } from './support/harness.js';

/**
 * A Responses client's tool loop on a Claude model with extended thinking: Anthropic wants the signed
 * thinking that led to a tool call sent back with the call, so the gateway carries it in the
 * reasoning item's `encrypted_content` and sends it back, leading the assistant turn, when the item
 * comes back (in input, or from a kept response through previous_response_id).
 */
describe('Claude thinking through a Responses tool loop', () => {
  const context = harnessWithKey({ llm: { ...HARNESS_LLM, per_model_max_tokens: { 'gpt-4o-mini': 100 } } });
  beforeEach(() => context.harness.anthropic.reset());
  const openai = () => context.harness.openaiClient(context.key);
  const sent = () => context.harness.anthropic.lastRequest()!.body;
  const tools = [
    {
      type: 'function' as const,
      name: 'read_file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      strict: false,
    },
  ];
  const thinking = { type: 'thinking', thinking: 'I should read a.txt.', signature: 'sig-EqQBCgIYAhIM' };
  const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' };
  /** Claude's answer: its thinking, then a call of read_file. */
  const callWithThinking = (blocks: object[]) => ({
    body: {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-7',
      content: [...blocks, { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'a.txt' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 20 },
    },
  });

  /** The loop's first turn: a user asks to read a file, with thinking. */
  const askToRead = (options: {
    effort: 'medium' | 'high';
    store: boolean;
    include?: Array<'reasoning.encrypted_content'>;
  }) =>
    openai().responses.create({
      model: 'claude-opus-4-7',
      input: 'Read a.txt',
      reasoning: { effort: options.effort },
      store: options.store,
      ...(options.include ? { include: options.include } : {}),
      tools,
    });

  it('returns the signed thinking in encrypted_content when included, and sends it back leading the call', async () => {
    // Not included and not kept: left out, as OpenAI leaves it out.
    context.harness.anthropic.setNext(callWithThinking([thinking]), callWithThinking([thinking, redacted]));
    const plain = await askToRead({ effort: 'high', store: false });
    expect(plain.output.find((item) => item.type === 'reasoning')).not.toHaveProperty('encrypted_content');

    const first = await askToRead({ effort: 'high', store: false, include: ['reasoning.encrypted_content'] });
    const reasoning = first.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.summary).toEqual([{ type: 'summary_text', text: 'I should read a.txt.' }]);
    expect(reasoning?.encrypted_content).toEqual(expect.any(String));
    expect(reasoning?.encrypted_content).not.toContain('sig-EqQBCgIYAhIM');
    const call = first.output.find((item) => item.type === 'function_call')!;

    // A stateless loop: the answer's items go back in input, then the call's output.
    await openai().responses.create({
      model: 'claude-opus-4-7',
      input: [
        { role: 'user', content: 'Read a.txt' },
        ...(first.output as ResponseInputItem[]),
        { type: 'function_call_output', call_id: call.call_id, output: 'hello' },
      ],
      reasoning: { effort: 'high' },
      store: false,
      tools,
    });
    expect(sent().thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(sent().messages[1]).toEqual({
      role: 'assistant',
      content: [thinking, redacted, { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'a.txt' } }],
    });
  });

  it('keeps thinking on through previous_response_id, from the kept reasoning item', async () => {
    context.harness.anthropic.setNext(callWithThinking([thinking]));
    const first = await askToRead({ effort: 'medium', store: true });
    const call = first.output.find((item) => item.type === 'function_call')!;
    await openai().responses.create({
      model: 'claude-opus-4-7',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'hello' }],
      reasoning: { effort: 'medium' },
      tools,
    });
    expect(sent().thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(sent().messages[1].content[0]).toEqual(thinking);
  });

  it("drops OpenAI's own encrypted reasoning, and refuses the gateway's form that does not decode", async () => {
    await openai().responses.create({
      model: 'claude-opus-4-7',
      input: [
        { role: 'user', content: 'Read a.txt' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAAABoOpenAIsOwn' },
        { type: 'function_call', call_id: 'toolu_01', name: 'read_file', arguments: '{"path":"a.txt"}' },
        { type: 'function_call_output', call_id: 'toolu_01', output: 'hello' },
      ],
      reasoning: { effort: 'high' },
      tools,
    });
    expect(JSON.stringify(sent())).not.toContain('gAAAAABoOpenAIsOwn');
    // Without the signed thinking that led to the call, the turn goes without thinking.
    expect(sent()).not.toHaveProperty('thinking');
    context.harness.anthropic.reset();

    const error = await openai()
      .responses.create({
        model: 'claude-opus-4-7',
        input: [
          { role: 'user', content: 'Read a.txt' },
          { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gatehouse.thinking.v1.bm90IGpzb24' },
          { type: 'function_call', call_id: 'toolu_01', name: 'read_file', arguments: '{}' },
          { type: 'function_call_output', call_id: 'toolu_01', output: 'hello' },
        ],
        tools,
      })
      .catch((caught: unknown) => caught as { status: number; error: { param?: string; message: string } });
    expect(error).toMatchObject({ status: 400, error: { param: 'input[1].encrypted_content' } });
    expect(context.harness.anthropic.requests).toHaveLength(0);
  });
});
