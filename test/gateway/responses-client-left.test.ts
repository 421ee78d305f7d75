import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { withSdkClients, type GatewayHarness } from './support/harness.js';

/**
 * A kept response whose client left mid-stream was kept as failed with a server error, though nothing
 * failed at the server: it is kept as cancelled, the message it was writing incomplete.
 */
describe('a kept Responses stream its client leaves', () => {
  let h: GatewayHarness;
  let openai: OpenAI;
  withSdkClients({}, ['*'], (clients) => {
    ({ h, openai } = clients);
  });

  it('is kept as cancelled, with no error, its partial message incomplete', async () => {
    h.openai.setNext({ reply: { text: 'one two three four five six' }, frameDelayMs: 150 });
    const controller = new AbortController();
    const stream = await openai.responses.create(
      { model: 'gpt-4o-mini', input: 'count', store: true, stream: true },
      { signal: controller.signal },
    );
    let id: string | undefined;
    // The SDK ends the loop quietly or with an abort error, by version: either way the client left.
    await (async () => {
      for await (const event of stream) {
        if (event.type === 'response.created') id = event.response.id;
        if (event.type === 'response.output_text.delta') controller.abort();
      }
    })().catch(() => undefined);
    expect(id).toBeDefined();
    let kept = await openai.responses.retrieve(id!);
    for (let tries = 0; kept.status === 'in_progress' && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      kept = await openai.responses.retrieve(id!);
    }
    expect(kept.status).toBe('cancelled');
    expect(kept.error).toBeNull();
    expect(kept.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
  });
});
