import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type GatewayHarness } from '../support/harness.js';

/** A chat user message of text parts. */
const userParts = (...texts: string[]): OpenAI.ChatCompletionUserMessageParam => ({
  role: 'user',
  content: texts.map((text) => ({ type: 'text', text })),
});

/** The texts of a list of text parts or blocks as the upstream received them. */
const textsOf = (parts: Array<{ text: string }>): string[] => parts.map((part) => part.text);

/**
 * A content list's parts are read side by side to find a value cut between them, but a part that
 * holds a whole value of its own keeps it: reading on into the next part would glue that part's start
 * to the value (`ada@example.com` + `bob@example.org` read as `ada@example.combob`), send the rest of
 * the next part's own value upstream and restore the first one wrong.
 */
describe('PII: whole values in neighbouring parts stay apart', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  let anthropic: Anthropic;
  withSdkClients({ pii: { mode: 'mask' } }, ['chat'], (clients) => ({ h, openai, anthropic } = clients));

  it('chat: each part masks its own address, the words after it stay, and the answer restores each', async () => {
    const cases: Array<{ parts: string[]; sent: string[]; answer: string; restored: string }> = [
      {
        parts: ['ada@example.com', 'bob@example.org'],
        sent: ['[EMAIL_1]', '[EMAIL_2]'],
        answer: 'From [EMAIL_1] to [EMAIL_2].',
        restored: 'From ada@example.com to bob@example.org.',
      },
      {
        parts: ['to: ada@example.com', 'from: bob@example.org'],
        sent: ['to: [EMAIL_1]', 'from: [EMAIL_2]'],
        answer: 'Mail [EMAIL_1], cc [EMAIL_2].',
        restored: 'Mail ada@example.com, cc bob@example.org.',
      },
      {
        parts: ['ada@example.com', 'please reply'],
        sent: ['[EMAIL_1]', 'please reply'],
        answer: 'Replying to [EMAIL_1].',
        restored: 'Replying to ada@example.com.',
      },
    ];
    for (const { parts, sent, answer, restored } of cases) {
      h.openai.setNext({ reply: { text: answer } });
      const completion = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [userParts(...parts)],
      });
      expect(textsOf(h.openai.lastRequest()!.body.messages[0].content), parts.join(' | ')).toEqual(sent);
      expect(completion.choices[0]!.message.content, parts.join(' | ')).toBe(restored);
    }
  });

  it('an address cut inside its top-level domain is still read whole, and so is one cut before it', async () => {
    h.openai.setNext({ reply: { text: 'Sent to [EMAIL_1] and [EMAIL_2].' } });
    const completion = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [userParts('mail ada@example.c', 'om please, and bob@example', '.org too')],
    });
    expect(textsOf(h.openai.lastRequest()!.body.messages[0].content)).toEqual([
      'mail [EMAIL_1]',
      ' please, and [EMAIL_2]',
      ' too',
    ]);
    expect(completion.choices[0]!.message.content).toBe('Sent to ada@example.com and bob@example.org.');
  });

  it('an address whose domain ends in a top-level domain of its own keeps the next word (it read example.design)', async () => {
    for (const [first, second] of [
      ['mail ada@example.de', 'sign here'],
      ['mail ada@example.net', 'work on it'],
      ['mail ada@example.co', 'm please'],
    ] as const) {
      h.openai.setNext({ reply: { text: 'ok' } });
      await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [userParts(first, second)] });
      expect(textsOf(h.openai.lastRequest()!.body.messages[0].content)).toEqual(['mail [EMAIL_1]', second]);
    }
  });

  it('two keys side by side are two placeholders, and a key cut inside its body is still one', async () => {
    const first = 'sk-proj-abcdefghijklmnopqrstuvwx';
    const second = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX';
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [userParts(first, second)] });
    expect(textsOf(h.openai.lastRequest()!.body.messages[0].content)).toEqual(['[SECRET_1]', '[SECRET_2]']);
    await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [userParts(`use ${first.slice(0, 25)}`, `${first.slice(25)} for prod`)],
    });
    expect(textsOf(h.openai.lastRequest()!.body.messages[0].content)).toEqual(['use [SECRET_1]', ' for prod']);
  });

  it('Messages: a system list and a tool result’s blocks keep each address in its own block', async () => {
    h.anthropic.setNext({ reply: { text: 'Ask [EMAIL_1] or [EMAIL_2], then [EMAIL_3].' } });
    const message = await anthropic.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 50,
      system: [
        { type: 'text', text: 'Escalate to ada@example.com' },
        { type: 'text', text: 'from: bob@example.org' },
      ],
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
                { type: 'text', text: 'owner: cy@example.net' },
                { type: 'text', text: 'please reply' },
              ],
            },
          ],
        },
      ],
    });
    const sent = h.anthropic.lastRequest()!.body;
    expect(textsOf(sent.system)).toEqual(['Escalate to [EMAIL_1]', 'from: [EMAIL_2]']);
    expect(textsOf(sent.messages[2].content[0].content)).toEqual(['owner: [EMAIL_3]', 'please reply']);
    expect(message.content[0]).toMatchObject({
      type: 'text',
      text: 'Ask ada@example.com or bob@example.org, then cy@example.net.',
    });
  });
});
