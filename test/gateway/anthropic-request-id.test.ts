import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { harnessWithKey } from './support/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Anthropic's SDKs expose the request id (`_request_id` on answers, `requestID` on errors) from the
 * `request-id` header, which is what Anthropic sends; a user quoting it finds the request in the log.
 */
describe('the request id as the Anthropic SDK reads it', () => {
  const context = harnessWithKey();

  it('is on answers, streams and errors, and is the x-request-id of the same answer', async () => {
    const { harness, key } = context;
    const client = harness.anthropicClient(key);
    const request = { model: 'claude-opus-4-7', max_tokens: 20, messages: [{ role: 'user' as const, content: 'hi' }] };

    const { response, request_id } = await client.messages.create(request).withResponse();
    expect(request_id).toMatch(UUID);
    expect(request_id).toBe(response.headers.get('x-request-id'));

    const raw = await client.messages.create({ ...request, stream: true }).withResponse();
    expect(raw.response.headers.get('request-id')).toBe(raw.response.headers.get('x-request-id'));
    for await (const _event of raw.data);

    const refused = await client.messages.create({ ...request, model: 'not-a-model' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.APIError>).requestID).toMatch(UUID);

    const counted = await client.messages
      .countTokens({ model: 'claude-opus-4-7', messages: request.messages })
      .withResponse();
    expect(counted.request_id).toMatch(UUID);
    expect((await client.models.retrieve('claude-opus-4-7').withResponse()).request_id).toMatch(UUID);
  });

  it('is left to x-request-id alone for OpenAI-format clients', async () => {
    const { harness, key } = context;
    const answer = await fetch(`${harness.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(answer.headers.get('x-request-id')).toMatch(UUID);
    expect(answer.headers.get('request-id')).toBeNull();
  });
});
