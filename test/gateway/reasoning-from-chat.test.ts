import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import type { OpenAIReply } from '../support/upstreams/openai-upstream.js';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * A reasoning model on an OpenAI-compatible server writes its reasoning beside the answer
 * (`reasoning_content` on DeepSeek's API and vLLM, `reasoning` on OpenRouter and Ollama). Messages
 * and Responses clients of such a model get it in their own format, whole and streamed, ahead of the
 * answer; chat clients get the server's answer as it wrote it.
 */

const REASONING = 'The user greets me. A short greeting back will do.';
const ANSWER = 'Hello to you too.';
const reply = (reasoningField: OpenAIReply['reasoningField']): OpenAIReply => ({
  text: ANSWER,
  reasoning: REASONING,
  reasoningField,
});

describe('reasoning text of a chat completions model', () => {
  let c: HarnessClients;
  // No max_tokens cap: a thinking budget must stay below max_tokens.
  withSdkClients({ llm: { allowed_models: ['gpt-4o-mini', 'claude-opus-4-7'] } }, ['*'], (clients) => (c = clients));
  const request = { model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };
  // A Messages client sees thinking only when it asks for it, as from Anthropic.
  const thinking = { ...request, max_tokens: 2048, thinking: { type: 'enabled' as const, budget_tokens: 1024 } };

  describe.each(['reasoning_content', 'reasoning'] as const)('written as %s', (field) => {
    it('reaches a Messages client as a thinking block before the text, usage as reported', async () => {
      c.h.openai.setNext({ reply: { ...reply(field), usage: { prompt_tokens: 9, completion_tokens: 30 } } });
      const message = await c.anthropic.messages.create(thinking);
      expect(message.content).toEqual([
        { type: 'thinking', thinking: REASONING, signature: '' },
        { type: 'text', text: ANSWER },
      ]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage).toMatchObject({ input_tokens: 9, output_tokens: 30 });
    });

    it('streams to a Messages client as a thinking block the SDK assembles', async () => {
      c.h.openai.setNext({ reply: reply(field) });
      const stream = c.anthropic.messages.stream(thinking);
      const deltas: string[] = [];
      stream.on('thinking', (delta) => deltas.push(delta));
      const message = await stream.finalMessage();
      expect(deltas.join('')).toBe(REASONING);
      expect(message.content).toEqual([
        { type: 'thinking', thinking: REASONING, signature: '' },
        { type: 'text', text: ANSWER },
      ]);
    });

    it('reaches a Responses client as a reasoning item before the message; output_text is the answer', async () => {
      c.h.openai.setNext({ reply: reply(field) });
      const response = await c.openai.responses.create({ model: 'gpt-4o-mini', input: 'Hi' });
      expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
      expect(response.output[0]).toMatchObject({
        type: 'reasoning',
        id: expect.stringMatching(/^rs_/),
        summary: [{ type: 'summary_text', text: REASONING }],
      });
      expect(response.output_text).toBe(ANSWER);
    });

    it('streams to a Responses client with OpenAI’s reasoning summary events', async () => {
      c.h.openai.setNext({ reply: reply(field) });
      const stream = c.openai.responses.stream({ model: 'gpt-4o-mini', input: 'Hi' });
      const types: string[] = [];
      const deltas: string[] = [];
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.reasoning_summary_text.delta') deltas.push(event.delta);
      }
      const final = await stream.finalResponse();
      expect(deltas.join('')).toBe(REASONING);
      const reasoningEvents = types.filter((type) => type.startsWith('response.reasoning'));
      expect([...new Set(reasoningEvents)]).toEqual([
        'response.reasoning_summary_part.added',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.done',
        'response.reasoning_summary_part.done',
      ]);
      // The reasoning item is done before the message is added.
      expect(types.indexOf('response.output_item.done')).toBeLessThan(types.lastIndexOf('response.output_item.added'));
      expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
      expect(final.output[0]).toMatchObject({ summary: [{ type: 'summary_text', text: REASONING }] });
      expect(final.output_text).toBe(ANSWER);
    });
  });

  it('reaches a chat client as the server wrote it, and a Claude model’s thinking as reasoning_content', async () => {
    c.h.openai.setNext({ reply: reply('reasoning_content') });
    const whole = await c.openai.chat.completions.create(request);
    expect(whole.choices[0]!.message).toMatchObject({ content: ANSWER, reasoning_content: REASONING });
    c.h.openai.setNext({ reply: reply('reasoning') });
    const stream = await c.openai.chat.completions.create({ ...request, stream: true });
    let reasoning = '';
    for await (const chunk of stream) reasoning += (chunk.choices[0]?.delta as { reasoning?: string })?.reasoning ?? '';
    expect(reasoning).toBe(REASONING);

    c.h.anthropic.setNext({
      body: {
        id: 'msg_think1',
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-4-7',
        content: [
          { type: 'thinking', thinking: REASONING, signature: 'EqQBCgIYAhIM' },
          { type: 'text', text: ANSWER },
        ],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 20 },
      },
    });
    const claude = await c.openai.chat.completions.create({ ...request, model: 'claude-opus-4-7' });
    expect(claude.choices[0]!.message).toMatchObject({ content: ANSWER, reasoning_content: REASONING });
  });

  it('is not sent back to the model when the Messages client returns the thinking block', async () => {
    c.h.openai.setNext({ reply: reply('reasoning_content') });
    const first = await c.anthropic.messages.create(thinking);
    expect(first.content[0]).toMatchObject({ type: 'thinking', thinking: REASONING });
    await c.anthropic.messages.create({
      ...request,
      messages: [...request.messages, { role: 'assistant', content: first.content }, { role: 'user', content: 'And?' }],
    } as Anthropic.MessageCreateParamsNonStreaming);
    const sent = c.h.openai.lastRequest()!.body.messages;
    expect(sent[1]).toEqual({ role: 'assistant', content: ANSWER });
    expect(JSON.stringify(sent)).not.toContain(REASONING);
  });

  it('is left out when the conversation moves on to a Claude model, which refuses a block it did not sign', async () => {
    c.h.openai.setNext({ reply: reply('reasoning_content') });
    const first = await c.anthropic.messages.create(thinking);
    const next = await c.anthropic.messages.create({
      ...request,
      model: 'claude-opus-4-7',
      messages: [...request.messages, { role: 'assistant', content: first.content }, { role: 'user', content: 'And?' }],
    } as Anthropic.MessageCreateParamsNonStreaming);
    expect(next.type).toBe('message');
    const sent = c.h.anthropic.lastRequest()!.body.messages;
    expect(sent[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: ANSWER }] });
    expect(JSON.stringify(sent)).not.toContain(REASONING);
  });

  it('counts toward the estimated output of a server that reports no usage, whole and streamed', async () => {
    for (const stream of [false, true]) {
      const outputTokens = async (withReasoning: boolean): Promise<number> => {
        c.h.openai.setNext({
          reply: { ...(withReasoning ? reply('reasoning_content') : { text: ANSWER }), usage: null },
        });
        const message = stream
          ? await c.anthropic.messages.stream(thinking).finalMessage()
          : await c.anthropic.messages.create(thinking);
        return message.usage.output_tokens;
      };
      const plain = await outputTokens(false);
      expect({ stream, more: (await outputTokens(true)) > plain }).toEqual({ stream, more: true });
    }
  });

  it('is left out for a Messages client that did not enable thinking, whole and streamed, as Anthropic leaves it out', async () => {
    c.h.openai.setNext({ reply: reply('reasoning_content') });
    const whole = await c.anthropic.messages.create(request);
    expect(whole.content).toEqual([{ type: 'text', text: ANSWER }]);
    c.h.openai.setNext({ reply: reply('reasoning') });
    const streamed = await c.anthropic.messages.stream(request).finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: ANSWER }]);
  });
});
