import type Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/** A chat user message of text parts. */
const userParts = (...texts: string[]): OpenAI.ChatCompletionUserMessageParam => ({
  role: 'user',
  content: texts.map((text) => ({ type: 'text', text })),
});

/**
 * A provider reads a content list's text parts side by side, so a value cut between two parts
 * (`ada.lovelace@exam` + `ple.com`) reaches the model whole. PII masking finds it in the parts read
 * together: the first part gets the placeholder, the rest of the value leaves the later part, and the
 * answer gets the original back.
 */
describe('PII cut between the text parts of one message', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'mask' } });
    const key = (await h.issueKey({ scopes: ['chat'] })).key;
    openai = h.openaiClient(key);
    anthropic = h.anthropicClient(key);
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.openai.reset();
    h.anthropic.reset();
  });

  it('chat: the upstream sees one placeholder and no piece of the address; the answer has it back', async () => {
    h.openai.setNext({ reply: { text: 'Sent to [EMAIL_1].' } });
    const answer = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [userParts('Write to ada.lovelace@exam', 'ple.com and to bob@example.org')],
    });
    const sent = h.openai.lastRequest()!.body.messages[0].content;
    expect(sent).toEqual([
      { type: 'text', text: 'Write to [EMAIL_1]' },
      { type: 'text', text: ' and to [EMAIL_2]' },
    ]);
    expect(answer.choices[0]!.message.content).toBe('Sent to ada.lovelace@example.com.');
  });

  it('an address the part holds whole keeps the capitalised word the next part begins', async () => {
    h.openai.setNext({ reply: { text: 'Noted [EMAIL_1].' } });
    const answer = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [userParts('mail ada@example.com', 'Thanks a lot')],
    });
    expect(h.openai.lastRequest()!.body.messages[0].content).toEqual([
      { type: 'text', text: 'mail [EMAIL_1]' },
      { type: 'text', text: 'Thanks a lot' },
    ]);
    expect(answer.choices[0]!.message.content).toBe('Noted ada@example.com.');
  });

  it('never sends on the rest of a value cut where its first piece already reads as a whole one', async () => {
    const pem = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
    const cuts: Array<{ parts: string[]; leak: string[] }> = [
      // A key cut inside its body, the next part starting with a letter.
      {
        parts: [
          `-----BEGIN PRIVATE KEY-----\n${pem.slice(0, 30)}`,
          `${pem.slice(30)}\n-----END PRIVATE KEY-----\nthanks`,
        ],
        leak: [pem.slice(30)],
      },
      { parts: ['use sk-proj-abcdefghijklmnopqrstu', 'vwxyzABCDEF0123 for prod'], leak: ['vwxyzABCDEF0123'] },
      // An address cut in its local part, or at the end of its domain.
      { parts: ['Write to ada.love', 'lace@example.com please'], leak: ['ada.love', 'lace'] },
      { parts: ['mail ada@example.co', 'm please'], leak: ['example.co'] },
      // Read apart, "Contact" would stay; read joined, the address is masked whole, as it must be.
      { parts: ['Thanks, Contact', 'bob@example.org today'], leak: ['bob@', 'example.org'] },
    ];
    for (const { parts, leak } of cuts) {
      h.openai.setNext({ reply: { text: 'ok' } });
      await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [userParts(...parts)] });
      const sent = JSON.stringify(h.openai.lastRequest()!.body.messages);
      for (const piece of leak) expect(sent, `${parts.join(' | ')}: ${piece}`).not.toContain(piece);
    }
  });

  it('Messages: a card number over three blocks is one placeholder in the first', async () => {
    await anthropic.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 20,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Card 4111 1111' },
            { type: 'text', text: ' 1111 ' },
            { type: 'text', text: '1111, thanks' },
          ],
        },
      ],
    });
    const sent = h.anthropic.lastRequest()!.body.messages[0].content;
    expect(sent.map((block: { text: string }) => block.text)).toEqual(['Card [CREDIT_CARD_1]', '', ', thanks']);
  });

  it('block mode counts a cut value and refuses the request', async () => {
    const blocking = await startGatewayHarness({ pii: { mode: 'block' } });
    try {
      const client = blocking.openaiClient((await blocking.issueKey({ scopes: ['chat'] })).key);
      const failure = await client.chat.completions
        .create({
          model: 'gpt-4o-mini',
          messages: [userParts('mail ada@exa', 'mple.com')],
        })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
      expect((failure as Error).message).toContain('1 email');
      expect(blocking.openai.requests).toHaveLength(0);
    } finally {
      await blocking.close();
    }
  });
});
