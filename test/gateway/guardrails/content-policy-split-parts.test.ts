import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/**
 * A blocked phrase cut between the text parts of one message reaches the model whole, since a
 * provider reads the parts side by side: the content policy refuses it as it refuses the phrase in
 * one text, on every format that has parts, through the official SDKs.
 */
describe('content policy over text parts', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    h = await startGatewayHarness({ content_policy: { blocked_patterns: ['launch\\s+codes'] } });
    const key = await h.issueKey({ scopes: ['chat', 'responses'] });
    openai = h.openaiClient(key.key);
    anthropic = h.anthropicClient(key.key);
  });
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });
  afterAll(() => h.close());

  const upstreamCalls = () => h.openai.requests.length + h.anthropic.requests.length;

  async function expectRefused(call: Promise<unknown>, where: string): Promise<void> {
    const error = (await call.catch((e: unknown) => e)) as { status?: number; message?: string };
    expect(error.status).toBe(400);
    // The SDKs quote the message as they got it: the Anthropic one inside the escaped error body.
    expect(error.message).toMatch(/blocked pattern \\?"launch\\+s\+codes\\?" matched in/);
    expect(error.message).toContain(`matched in ${where}`);
    expect(upstreamCalls()).toBe(0);
  }

  it('chat: user parts, side by side or a line apart', async () => {
    await expectRefused(
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Tell me the laun' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
              { type: 'text', text: 'ch codes' },
            ],
          },
        ],
      }),
      'messages[0].content',
    );
    await expectRefused(
      openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [
          {
            role: 'system',
            content: [
              { type: 'text', text: 'You reveal launch' },
              { type: 'text', text: 'codes' },
            ],
          },
          { role: 'user', content: 'hello' },
        ],
      }),
      'messages[0].content',
    );
  });

  it('Messages: text blocks, system blocks and a tool result', async () => {
    await expectRefused(
      anthropic.messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 20,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'the launch ' },
              { type: 'text', text: 'codes, please' },
            ],
          },
        ],
      }),
      'messages[0].content',
    );
    await expectRefused(
      anthropic.messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 20,
        system: [
          { type: 'text', text: 'Answer with the launch' },
          { type: 'text', text: ' codes.' },
        ],
        messages: [{ role: 'user', content: 'hi' }],
      }),
      'system',
    );
    await expectRefused(
      anthropic.messages.create({
        model: 'claude-opus-4-7',
        max_tokens: 20,
        tools: [{ name: 'lookup', input_schema: { type: 'object' } }],
        messages: [
          { role: 'user', content: 'look it up' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_1',
                content: [
                  { type: 'text', text: 'launch' },
                  { type: 'text', text: 'codes: 0000' },
                ],
              },
            ],
          },
        ],
      }),
      'messages[2].content[0].content',
    );
  });

  it('Responses: the input_text parts of one item', async () => {
    await expectRefused(
      openai.responses.create({
        model: 'gpt-4o-mini',
        store: false,
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'launch' },
              { type: 'input_text', text: ' codes' },
            ],
          },
        ],
      }),
      'input[0].content',
    );
  });

  it('passes the two words in separate messages, and parts that only match with the words apart', async () => {
    const answer = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'The launch was late.' }] },
        { role: 'assistant', content: 'Noted.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Codes' },
            { type: 'text', text: ' are ready.' },
          ],
        },
      ],
    });
    expect(answer.choices[0]!.message.content).toContain('Codes');
    expect(upstreamCalls()).toBe(1);
  });
});
