import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_STORE_TOKEN, type TempServers } from '../support/temp-servers.js';

/**
 * The gateway and the store listen on neighbouring ports, so a client pointed at the wrong one is the
 * likeliest first mistake: the 404 says which service answered and where the other one is.
 */
describe('a path of the other service', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(() => servers.stop());

  it('tells an OpenAI client pointed at the store where the gateway is', async () => {
    const client = new OpenAI({ apiKey: 'gk-any', baseURL: `${servers.storeUrl}/v1`, maxRetries: 0 });
    const failure = await client.chat.completions
      .create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.NotFoundError);
    expect((failure as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      type: 'not_found_error',
      message:
        "no route POST /v1/chat/completions: this is the document store; /v1/chat is a model gateway path, served on the gateway's own port (GATEWAY_PORT, 8747 by default)",
    });
  });

  it('tells a store client pointed at the gateway where the store is, in the shared shape', async () => {
    for (const [method, path] of [
      ['POST', '/v1/apply'],
      ['GET', '/v1/state?namespace=a&branch=main'],
    ]) {
      const response = await fetch(`${servers.gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${TEST_STORE_TOKEN}` },
      });
      expect(response.status).toBe(404);
      const segment = path.split('?')[0]!.split('/')[2];
      expect(await response.json()).toEqual({
        error: {
          type: 'not_found_error',
          code: 404,
          message: `no route ${method} ${path.split('?')[0]}: this is the model gateway; /v1/${segment} is a document store path, served on the store's own port (STORE_PORT, 8748 by default)`,
        },
      });
    }
  });

  it('keeps the plain 404 for a path neither service has', async () => {
    const response = await fetch(`${servers.gatewayUrl}/v1/nothing-here`, { method: 'POST' });
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'no route POST /v1/nothing-here',
    );
  });
});
