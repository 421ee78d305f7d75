import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A Responses function tool's `strict` (which the SDK always sends) reaches a chat completions
 * upstream as the function's `strict`: without it the model's arguments are no longer held to the
 * schema the client asked for them to match.
 */
describe('strict function tools of a Responses request over chat completions', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(async () => h.close());

  it('keep strict mode on the upstream function', async () => {
    const client = h.openaiClient((await h.issueKey({ scopes: ['responses'] })).key);
    const parameters = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'Weather in Oslo?',
      tools: [
        { type: 'function', name: 'weather', parameters, strict: true },
        { type: 'function', name: 'time', parameters: null, strict: null },
      ],
    });
    expect(h.openai.lastRequest()!.body.tools).toEqual([
      { type: 'function', function: { name: 'weather', parameters, strict: true } },
      { type: 'function', function: { name: 'time', parameters: { type: 'object', properties: {} } } },
    ]);
  });
});
