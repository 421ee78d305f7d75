import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/** The user text the upstream received for the last chat request. */
function forwarded(c: HarnessClients): string {
  return c.h.openai.lastRequest()!.body.messages.at(-1).content as string;
}

/**
 * How people write numbers the PII detectors must (or must not) take, through the official openai SDK
 * against a recording upstream: what leaves the machine, and what the client gets back.
 */
describe('PII detectors: written forms', () => {
  let c: HarnessClients;
  withSdkClients({ pii: { mode: 'mask' } }, ['chat'], (clients) => (c = clients));

  const ask = (content: string) =>
    c.openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });

  it('masks US numbers written with the leading 1 whole, and restores them to the client', async () => {
    const numbers = ['1-415-555-0132', '1 (800) 555-0199', '1.800.555.0199', '+1 800 555 0199', '1 212 555 0147'];
    const text = `call ${numbers.join(' or ')} today`;
    const completion = await ask(text);
    expect(forwarded(c)).toBe('call [PHONE_1] or [PHONE_2] or [PHONE_3] or [PHONE_4] or [PHONE_5] today');
    expect(completion.choices[0]!.message.content).toBe(`You said: ${text}`);
  });

  it('refuses those numbers in block mode', async () => {
    const key = await c.h.issueKey({ scopes: ['chat'] });
    expect((await c.h.admin('PUT', '/internal/pii', { keys: { [key.id]: { mode: 'block' } } })).status).toBe(200);
    try {
      for (const number of ['1-415-555-0132', '1 (800) 555-0199', '1.800.555.0199']) {
        const error = await c.h
          .openaiClient(key.key)
          .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `call ${number}` }] })
          .catch((e: unknown) => e);
        expect(error, number).toBeInstanceOf(OpenAI.BadRequestError);
        expect((error as Error).message).toContain('1 phone');
      }
      expect(c.h.openai.requests).toHaveLength(0);
    } finally {
      await c.h.admin('PUT', '/internal/pii', { reset: true });
    }
  });

  it('masks a card run into letters too (a privacy filter errs towards masking), Luhn deciding', async () => {
    await ask('pay Visa4111111111111111 or x4111-1111-1111-1111; order ORD4111111111111112 stays');
    expect(forwarded(c)).toBe('pay Visa[CREDIT_CARD_1] or x[CREDIT_CARD_2]; order ORD4111111111111112 stays');
  });

  it('leaves a four-part version after its word alone; real addresses are masked', async () => {
    await ask(
      'assembly version 4.0.0.0, build 10.4.2.1, "version": "2.0.0.1"; ip 192.168.1.20, "v": "10.0.0.1", ver=10.0.0.2',
    );
    expect(forwarded(c)).toBe(
      'assembly version 4.0.0.0, build 10.4.2.1, "version": "2.0.0.1"; ip [IP_ADDRESS_1], "v": "[IP_ADDRESS_2]", ver=[IP_ADDRESS_3]',
    );
  });

  it('takes none of the numbers that are no personal data', async () => {
    const text = [
      'Released on 2024-03-15 at 14:30:00, version 1.2.3, build 20240315',
      'Order #1234567890 shipped; tracking 1Z999AA10123456784; invoice INV-2024-000123; page 555-0100',
      'uuid 550e8400-e29b-41d4-a716-446655440000, commit 3f786850e387550fdab836ed7e6dc881de23001b',
      'ISBN 978-3-16-148410-0, ISBN 1-4028-9462-6, count 14155550132, timestamp 1700000000000',
      'max_tokens: 1000; amount 1000000000000000; lat/long 37.7749,-122.4194; Mac 00:1A:2B:3C:4D:5E',
    ].join('\n');
    await ask(text);
    expect(forwarded(c)).toBe(text);
  });
});
