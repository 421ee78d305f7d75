import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const EMAIL = 'jane.doe@example.com';
const OTHER = 'bob@example.org';
const CARD = 4111111111111111;

/**
 * A Messages `tool_use` input is JSON the model reads whole, keys and numbers as much as strings
 * (chat and Responses send the same as arguments text): personal data there is scrubbed and
 * restored, and blocked patterns are refused, through the official SDK.
 */
describe('Messages tool_use input: keys and numbers', () => {
  let h: GatewayHarness;
  let anthropic: Anthropic;

  beforeAll(async () => {
    h = await startGatewayHarness({
      pii: { mode: 'mask' },
      content_policy: { blocked_patterns: ['launch\\s+codes'] },
    });
    anthropic = h.anthropicClient((await h.issueKey({ scopes: ['chat'] })).key);
  });
  beforeEach(() => h.anthropic.reset());
  afterAll(() => h.close());

  const tools: Anthropic.Tool[] = [{ name: 'pay', input_schema: { type: 'object' } }];
  const turn = (input: Record<string, unknown>): Anthropic.MessageParam[] => [
    { role: 'user', content: 'Pay the invoices.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'pay', input }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'done' }] },
  ];

  it('scrubs keys and numbers upstream, and restores the keys of the answer', async () => {
    h.anthropic.setNext({
      reply: { toolUses: [{ id: 'toolu_2', name: 'pay', input: { '[EMAIL_1]': { card: '[CREDIT_CARD_1]' } } }] },
    });
    const answer = await anthropic.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 50,
      tools,
      messages: turn({ [EMAIL]: { card: CARD }, payees: [{ [OTHER]: 'cc' }] }),
    });
    const sent = h.anthropic.lastRequest()!.body as { messages: Array<{ content: unknown }> };
    const raw = h.anthropic.lastRequest()!.rawBody;
    expect(raw).not.toContain(EMAIL);
    expect(raw).not.toContain(OTHER);
    expect(raw).not.toContain(String(CARD));
    expect(sent.messages[1]!.content).toEqual([
      {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'pay',
        input: { '[EMAIL_1]': { card: '[CREDIT_CARD_1]' }, payees: [{ '[EMAIL_2]': 'cc' }] },
      },
    ]);
    const use = answer.content.find((block) => block.type === 'tool_use');
    expect(use?.input).toEqual({ [EMAIL]: { card: String(CARD) } });
  });

  it('refuses a blocked pattern written as a key', async () => {
    const error = (await anthropic.messages
      .create({ model: 'claude-opus-4-7', max_tokens: 50, tools, messages: turn({ 'the launch codes': true }) })
      .catch((e: unknown) => e)) as { status?: number; message?: string };
    expect(error.status).toBe(400);
    expect(error.message).toContain('content_policy_violation');
    expect(error.message).toContain('matched in a key of messages[1].content[0].input');
    // The refusal never quotes the text it refused.
    expect(error.message).not.toContain('the launch codes');
    expect(h.anthropic.requests).toHaveLength(0);
  });
});
