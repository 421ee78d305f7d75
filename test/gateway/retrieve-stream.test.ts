import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * `client.responses.retrieve(id, { stream: true })` asks for the response's events again. The gateway
 * keeps the final Response object, not its events: the SDK must be told, not handed a JSON body it
 * reads as an empty stream.
 */
describe('reading a kept response as a stream', () => {
  const context = harnessWithKey();

  it('is refused with a message that names stream and why, and the plain read still works', async () => {
    const client = context.harness.openaiClient(context.key);
    const kept = await client.responses.create({ model: 'demo/echo', input: 'keep me', store: true });
    const refused = await (async () => {
      const stream = await client.responses.retrieve(kept.id, { stream: true });
      const events: unknown[] = [];
      for await (const event of stream) events.push(event);
      return events;
    })().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as Error).message).toBe(
      '400 query parameter stream cannot be true: a kept response is read whole (its events are not kept, only the final Response object); leave stream out',
    );
    expect((await client.responses.retrieve(kept.id)).output_text).toBe('keep me');
    const explicit = await fetch(`${context.harness.url}/v1/responses/${kept.id}?stream=false`, {
      headers: { authorization: `Bearer ${context.key}` },
    });
    expect(explicit.status).toBe(200);
  });
});
