import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-kept-ids-attempts-0123456789';

/**
 * A kept conversation's turn that the provider refused for its own lost item ids is sent once more
 * without them: two upstream calls, and `x-gateway-attempts` and the traffic record say 2.
 */
describe('a kept turn sent again without the provider’s ids', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['kept-model'] },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'kept',
          model: 'kept-model',
          provider: 'openai',
          upstream_model: 'gpt-4.1',
          base_url: upstream.url,
          api_key: KEY,
          responses_api: 'native',
        },
      ],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  it('counts both upstream calls', async () => {
    const one = await client.responses.create({ model: 'kept-model', input: 'Who wrote it?', store: true });
    upstream.reset();
    upstream.setNext({
      status: 404,
      body: {
        error: {
          message: `Item with id '${one.output[0]!.id}' not found.`,
          type: 'invalid_request_error',
          param: 'input',
          code: null,
        },
      },
    });
    const { data, response } = await client.responses
      .create({ model: 'kept-model', input: 'When?', previous_response_id: one.id })
      .withResponse();
    expect(data.output_text).toBe('You said: When?');
    expect(upstream.requests).toHaveLength(2);
    expect(response.headers.get('x-gateway-attempts')).toBe('2');
    const requestId = response.headers.get('x-request-id');
    const traffic = (await admin('GET', '/internal/traffic?limit=20')).body.data as Array<Record<string, unknown>>;
    expect(traffic.find((event) => event.request_id === requestId)).toMatchObject({ status: 200, attempts: 2 });
  });
});
