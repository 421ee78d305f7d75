import { describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

const format = {
  type: 'json_schema' as const,
  name: 'city',
  strict: true,
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

/** A Response echoes the request's settings; `text` says which answer format the client asked for. */
describe('the text settings of a translated Response', () => {
  const context = harnessWithKey();

  it('echo the format the request asked for, streamed or not, on Claude and chat deployments', async () => {
    const client = context.harness.openaiClient(context.key);
    for (const model of ['claude-opus-4-7', 'gpt-4o-mini']) {
      const response = await client.responses.create({ model, input: 'Where is Ada?', text: { format } });
      expect(response.text).toEqual({ format });
      const stream = client.responses.stream({ model, input: 'Where is Ada?', text: { format } });
      const created: unknown[] = [];
      for await (const event of stream) if (event.type === 'response.created') created.push(event.response.text);
      expect(created).toEqual([{ format }]);
      expect((await stream.finalResponse()).text).toEqual({ format });
    }
    const plain = await client.responses.create({ model: 'claude-opus-4-7', input: 'hi' });
    expect(plain.text).toEqual({ format: { type: 'text' } });
  });
});
