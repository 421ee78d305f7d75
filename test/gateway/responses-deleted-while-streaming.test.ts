import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { responsesTestBed } from '../support/responses-test-bed.js';
import { withSdkClients, type HarnessClients } from './support/harness.js';

/**
 * A kept stream is written at `response.created` and again at its end. A response deleted in between
 * came back with that last write, as if never deleted: a delete is final, and the end of its stream
 * keeps nothing.
 */
async function deleteWhileStreaming(client: OpenAI, model: string): Promise<string> {
  const stream = await client.responses.create({ model, input: 'count to six', store: true, stream: true });
  let id: string | undefined;
  const types: string[] = [];
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'response.created') {
      id = event.response.id;
      expect(await client.responses.delete(id)).toMatchObject({ id, deleted: true });
    }
  }
  // The client that is reading the stream still gets all of it.
  expect(types.at(-1)).toBe('response.completed');
  return id!;
}

const status = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 200,
    (error: { status?: number }) => error.status,
  );

describe('a kept response deleted while it is streamed', () => {
  let c: HarnessClients;
  withSdkClients({}, ['responses'], (clients) => (c = clients));

  it('stays deleted once a translated stream ends', async () => {
    c.h.openai.setNext({ reply: { text: 'one two three four five six' }, frameDelayMs: 40 });
    const id = await deleteWhileStreaming(c.openai, 'gpt-4o-mini');
    expect(await status(c.openai.responses.retrieve(id))).toBe(404);
    expect(await status(c.openai.responses.delete(id))).toBe(404);
  });
});

describe('a kept native response deleted while it is streamed', () => {
  const bed = responsesTestBed('sk-deleted-streaming-0123456789');

  it("stays deleted once the provider's stream ends", async () => {
    bed.upstream.setNext({ reply: { text: 'one two three four five six' }, frameDelayMs: 40 });
    const id = await deleteWhileStreaming(bed.client, 'native-model');
    expect(await status(bed.client.responses.retrieve(id))).toBe(404);
  });
});
