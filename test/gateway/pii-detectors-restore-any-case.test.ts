import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

const EMAIL = 'ada@example.com';
// The model retypes the placeholder in another case; `[EMAIL_2]` and `[email_2]` were never issued.
const ANSWER = 'a [email_1] b [Email_1] c [EMAIL_1] d [email_2] e [EMAIL_2] f [secret_1]';
const RESTORED = `a ${EMAIL} b ${EMAIL} c ${EMAIL} d [email_2] e [EMAIL_2] f [secret_1]`;

/**
 * Placeholders a model writes back in another case are restored like the exact ones, in whole answers
 * and in streams (a placeholder cut between tool-call argument deltas), through the official openai
 * SDK; only placeholders the request issued come back.
 */
describe('PII restoration of placeholders in any case', () => {
  let c: HarnessClients;
  withSdkClients({ pii: { mode: 'mask' } }, ['chat'], (clients) => (c = clients));

  const request = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: `write to ${EMAIL}` }] };

  it('whole answers', async () => {
    c.h.openai.setNext({ reply: { text: ANSWER } });
    const completion = await c.openai.chat.completions.create(request);
    expect(c.h.openai.lastRequest()!.body.messages[0].content).toBe('write to [EMAIL_1]');
    expect(completion.choices[0]!.message.content).toBe(RESTORED);
  });

  it('streams, with the placeholder cut across deltas', async () => {
    // The mock streams text a word a delta and arguments eight characters a delta: `{"to":"[` + `email_1]`.
    const args = JSON.stringify({ to: '[email_1]', cc: '[Email_1]', bcc: '[EMAIL_2]' });
    c.h.openai.setNext({ reply: { text: ANSWER, toolCalls: [{ name: 'send', arguments: args }] } });
    const stream = await c.openai.chat.completions.create({ ...request, stream: true });
    let text = '';
    let argumentsText = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      text += delta?.content ?? '';
      for (const call of delta?.tool_calls ?? []) argumentsText += call.function?.arguments ?? '';
    }
    expect(text).toBe(RESTORED);
    expect(JSON.parse(argumentsText)).toEqual({ to: EMAIL, cc: EMAIL, bcc: '[EMAIL_2]' });
  });
});
