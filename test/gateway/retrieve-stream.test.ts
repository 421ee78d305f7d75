import { describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

/**
 * `client.responses.retrieve(id, { stream: true })` asks for the response's events again. The gateway
 * keeps the final Response object, not its events, and rebuilds a finished one's events from it (see
 * responses-stream-resume.test.ts); `stream` takes only 'true' or 'false'.
 */
describe('reading a kept response as a stream', () => {
  const context = harnessWithKey();

  it('answers its events, the plain read still works, and a stream that is no boolean is refused', async () => {
    const client = context.harness.openaiClient(context.key);
    const kept = await client.responses.create({ model: 'demo/echo', input: 'keep me', store: true });
    const stream = await client.responses.retrieve(kept.id, { stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect((await client.responses.retrieve(kept.id)).output_text).toBe('keep me');
    const read = (stream: string) =>
      fetch(`${context.harness.url}/v1/responses/${kept.id}?stream=${stream}`, {
        headers: { authorization: `Bearer ${context.key}` },
      });
    expect((await read('false')).status).toBe(200);
    const refused = await read('yes');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/stream/);
  });
});
