import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, type TempServers } from '../support/temp-servers.js';

/**
 * LiteLLM answers the OpenAI paths with and without `/v1`, so a client moved from it with its base URL
 * left as it was sends `/chat/completions`: the 404 says where the API is and what base URL to set.
 */
describe('OpenAI paths without /v1', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(() => servers.stop());

  it('tell an OpenAI client whose base URL lacks /v1 to add it', async () => {
    const client = new OpenAI({ apiKey: 'gk-any', baseURL: servers.gatewayUrl, maxRetries: 0 });
    const failure = await client.chat.completions
      .create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect((failure as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      type: 'not_found_error',
      message: `no route POST /chat/completions: the OpenAI API is under /v1; set base_url to ${servers.gatewayUrl}/v1`,
    });
  });

  it('answer each un-prefixed path the gateway serves under /v1 the same way, in the shared shape', async () => {
    for (const [method, path] of [
      ['POST', '/embeddings'],
      ['GET', '/models'],
      ['POST', '/responses'],
    ]) {
      const response = await fetch(`${servers.gatewayUrl}${path}`, { method });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: {
          type: 'not_found_error',
          code: 404,
          message: `no route ${method} ${path}: the OpenAI API is under /v1; set base_url to ${servers.gatewayUrl}/v1`,
        },
      });
    }
    const messages = await fetch(`${servers.gatewayUrl}/messages`, { method: 'POST' });
    expect(messages.status).toBe(404);
    expect(((await messages.json()) as { error: { message: string } }).error.message).toBe(
      `no route POST /messages: the Anthropic Messages API is at /v1/messages; Anthropic's SDKs add /v1 themselves: set base_url to ${servers.gatewayUrl}`,
    );
  });

  it('leave other unknown paths as they were', async () => {
    const unknown = await fetch(`${servers.gatewayUrl}/v1/chat/completion`, { method: 'POST' });
    expect(((await unknown.json()) as { error: { message: string } }).error.message).not.toContain('base_url');
    const store = await fetch(`${servers.storeUrl}/chat/completions`, { method: 'POST' });
    expect(store.status).toBe(404);
    expect(((await store.json()) as { error: { message: string } }).error.message).toBe(
      'no route POST /chat/completions',
    );
  });
});
