import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** The SDK's error for a call that must fail. */
async function failure(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

/**
 * A `previous_response_id` that names no response the key may continue is a bad request field, as at
 * OpenAI (400 `Previous response with id '...' not found.`), not a missing resource; reading or
 * deleting such an id stays 404.
 */
describe('an unknown previous_response_id', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let stranger: OpenAI;

  beforeAll(async () => {
    h = await startGatewayHarness();
    client = h.openaiClient((await h.issueKey({ scopes: ['responses'], team: 'blue' })).key);
    stranger = h.openaiClient((await h.issueKey({ scopes: ['responses'], team: 'red' })).key);
  });
  beforeEach(() => h.openai.reset());
  afterAll(async () => h.close());

  const continuing = (sdk: OpenAI, id: string) =>
    sdk.responses.create({ model: 'gpt-4o-mini', input: 'go on', previous_response_id: id });

  it('is 400 invalid_request_error naming previous_response_id and the id, before any upstream call', async () => {
    const error = await failure(continuing(client, 'resp_never_kept'));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.type).toBe('invalid_request_error');
    expect(error.message).toContain('previous_response_id');
    expect(error.message).toContain("Previous response with id 'resp_never_kept' not found.");
    expect(h.openai.requests).toHaveLength(0);
  });

  it("is the same 400 for another key's response, never saying it exists", async () => {
    const theirs = await stranger.responses.create({ model: 'demo/echo', input: 'mine alone', store: true });
    const hidden = await failure(continuing(client, theirs.id));
    const absent = await failure(continuing(client, `${theirs.id}x`));
    expect(hidden.status).toBe(400);
    expect(hidden.message.replace(theirs.id, '<id>')).toBe(absent.message.replace(`${theirs.id}x`, '<id>'));
    expect(h.openai.requests).toHaveLength(0);
  });

  it('is 400 for a deleted response', async () => {
    const kept = await client.responses.create({ model: 'demo/echo', input: 'soon gone', store: true });
    await client.responses.delete(kept.id);
    const error = await failure(continuing(client, kept.id));
    expect(error.status).toBe(400);
    expect(error.message).toContain(`Previous response with id '${kept.id}' not found.`);
  });

  it('is 400 on a stream too, before any event', async () => {
    const error = await failure(
      client.responses.create({
        model: 'gpt-4o-mini',
        input: 'go on',
        previous_response_id: 'resp_gone',
        stream: true,
      }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('previous_response_id');
  });

  it('answers the error shape over plain HTTP', async () => {
    const answer = await fetch(`${h.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', input: 'go on', previous_response_id: 'resp_plain' }),
    });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toMatch(/^previous_response_id: Previous response with id 'resp_plain' not found\./);
  });

  it('leaves reading, listing and deleting an unknown id 404, as OpenAI does', async () => {
    expect((await failure(client.responses.retrieve('resp_never_kept'))).status).toBe(404);
    expect((await failure(client.responses.inputItems.list('resp_never_kept'))).status).toBe(404);
    expect((await failure(client.responses.delete('resp_never_kept'))).status).toBe(404);
  });
});
