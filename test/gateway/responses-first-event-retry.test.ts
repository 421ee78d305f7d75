import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type GatewayHarness } from './support/harness.js';

/**
 * A Responses stream the gateway encodes itself starts with its own `response.created`, but a
 * provider that fails at once (Anthropic's overloaded error arrives as the stream's first event, a
 * chat server's as an error chunk) has sent nothing the client saw: the call is retried, or answered
 * by another deployment, as a chat or Messages stream is, and nothing of the failed try is kept.
 */
describe('a translated Responses stream whose upstream fails on its first event', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  withSdkClients({ gateway: { max_retries: 1, retry_backoff_ms: 10 } }, ['*'], (clients) => {
    ({ h, openai } = clients);
  });

  it("retries Anthropic's overloaded error event, and keeps only the answer", async () => {
    h.anthropic.setNext({ streamErrorAfterFrames: 0 });
    const stream = openai.responses.stream({ model: 'claude-opus-4-7', input: 'hi', store: true });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    const final = await stream.finalResponse();
    expect(h.anthropic.requests).toHaveLength(2);
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('You said: hi');
    expect(types.filter((type) => type === 'response.created')).toHaveLength(1);
    expect(types).not.toContain('error');
    expect((await openai.responses.retrieve(final.id)).status).toBe('completed');
  });

  it('falls back to the next deployment when a chat upstream sends an error chunk first', async () => {
    h.openaiSecondary.reset();
    h.openai.setNext({ streamErrorAfterFrames: 0 }, { streamErrorAfterFrames: 0 });
    const { data, response } = await openai.responses
      .create({ model: 'ha-model', input: 'hi', stream: true })
      .withResponse();
    const types: string[] = [];
    for await (const event of data) types.push(event.type);
    expect(response.headers.get('x-gateway-deployment')).toBe('ha-secondary');
    expect([h.openai.requests.length, h.openaiSecondary.requests.length]).toEqual([2, 1]);
    expect(types.at(-1)).toBe('response.completed');
  });
});
