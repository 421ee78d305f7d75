import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';
import { usageRowOf } from './fixes-usage-row.js';

/**
 * A native Responses upstream that answers a whole (non-stream) request with HTTP 200 and a Response
 * whose `status` is `failed` has failed, as a stream failing on its first event has: the client gets
 * the 502, and the usage row, the traffic view, the deployment's health and the upstream failure
 * metric all say so, instead of a 200 success.
 */
const failedResponse = {
  id: 'resp_failed1',
  object: 'response',
  created_at: 1700000000,
  status: 'failed',
  model: 'gpt-x',
  output: [],
  error: { code: 'server_error', message: 'The model crashed.' },
  usage: { input_tokens: 12, output_tokens: 0, total_tokens: 12 },
};

describe('a native Responses answer with status failed', () => {
  let upstream: FrameServer;
  let servers: TempServers;
  let key: string;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    upstream = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-x'] },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'native-failing',
          model: 'gpt-x',
          provider: 'openai',
          base_url: `${upstream.url}/v1`,
          api_key: 'sk-native-failing-0123456789',
          responses_api: 'native',
        },
      ],
    });
    ({ key } = (await admin('POST', '/internal/api-keys', { scopes: ['responses'] })).body as { key: string });
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  async function failuresCounted(): Promise<number> {
    const text = await (await fetch(`${servers.gatewayUrl}/metrics`)).text();
    // Every reason's series of the deployment, added up.
    return text
      .split('\n')
      .filter(
        (entry) =>
          entry.startsWith('gateway_upstream_failures_total{') &&
          entry.includes('deployment="native-failing"') &&
          entry.includes('phase="before_answer"'),
      )
      .reduce((sum, entry) => sum + Number(entry.split(' ').pop()), 0);
  }

  it('answers 502 upstream_error through the SDK, and accounts, records and counts it as the failure it is', async () => {
    upstream.serveJson(failedResponse);
    const before = await failuresCounted();
    const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    const error = (await client.responses
      .create({ model: 'gpt-x', input: 'hi' })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(502);
    expect(error.message).toContain('answered a failed Response, server_error: The model crashed.');
    expect((error.error as { upstream?: unknown }).upstream).toMatchObject({ status: 200, type: 'server_error' });

    const requestId = error.headers?.get('x-request-id');
    expect(requestId).toBeTruthy();
    expect(await usageRowOf(admin, requestId!)).toMatchObject({ status: 502, error_type: 'upstream_error' });

    const traffic = (await admin('GET', '/internal/traffic?limit=20')).body.data as Array<Record<string, unknown>>;
    expect(traffic.find((event) => event.request_id === requestId)).toMatchObject({
      status: 502,
      error_type: 'upstream_error',
    });

    const health = (await admin('GET', '/internal/deployments/health')).body.data.find(
      (d: { id: string }) => d.id === 'native-failing',
    );
    expect(health).toMatchObject({ failures: 1, consecutive_failures: 1 });
    expect((await failuresCounted()) - before).toBe(1);
  });

  it('still relays a completed Response as before', async () => {
    upstream.serveJson({ ...failedResponse, status: 'completed', error: null, output: [] });
    const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    const response = await client.responses.create({ model: 'gpt-x', input: 'hi' });
    expect(response.status).toBe('completed');
  });
});
