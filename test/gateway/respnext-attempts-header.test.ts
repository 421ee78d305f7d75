import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * `x-gateway-attempts`: how many upstream calls a request took (retries and fallbacks), on answers and
 * on 502s alike, so a fallback that hides a failing (or wrongly routed) deployment shows.
 */
describe('the x-gateway-attempts header', () => {
  let c: HarnessClients;
  withSdkClients({}, ['chat', 'responses'], (clients) => (c = clients));

  it('is 1 for an answer at the first try', async () => {
    const { response } = await c.openai.chat.completions
      .create({ model: 'ha-model', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.headers.get('x-gateway-attempts')).toBe('1');
    expect(response.headers.get('x-gateway-deployment')).toBe('ha-primary');
  });

  it('counts the fallback that answered, on chat completions and on Responses', async () => {
    c.h.openai.setNext({ status: 500 });
    const chat = await c.openai.chat.completions
      .create({ model: 'ha-model', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(chat.response.headers.get('x-gateway-deployment')).toBe('ha-secondary');
    expect(chat.response.headers.get('x-gateway-attempts')).toBe('2');

    c.h.openai.setNext({ status: 503 });
    const responses = await c.openai.responses.create({ model: 'ha-model', input: 'hi' }).withResponse();
    expect(responses.response.headers.get('x-gateway-attempts')).toBe('2');
  });

  it('is on the 502 when every try failed', async () => {
    c.h.openai.setNext({ status: 500 });
    c.h.openaiSecondary.setNext({ status: 500 });
    const failure = await c.openai.chat.completions
      .create({ model: 'ha-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.InternalServerError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((failure as InstanceType<typeof OpenAI.APIError>).headers?.get('x-gateway-attempts')).toBe('2');
  });
});
