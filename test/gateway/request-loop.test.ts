import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * A provider address that points back at the gateway (an OPENAI_BASE_URL exported for the SDKs,
 * which the gateway reads too) made every request call the gateway again, three attempts at each
 * level, until the connection limit. The gateway knows its own calls, and refuses them at once.
 */
describe('a deployment whose base_url is the gateway itself', () => {
  let servers: TempServers;
  let client: OpenAI;
  beforeAll(async () => {
    servers = await startTempServers({ llm: { allowed_models: ['looped', 'half'] }, gateway: { max_retries: 2 } });
    const saved = await fetch(`${servers.gatewayUrl}/internal/deployments`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        deployments: [
          { id: 'self', model: 'looped', provider: 'openai', base_url: `${servers.gatewayUrl}/v1` },
          // Drawn first all but always, then the demo deployment beside it must answer.
          { id: 'half-self', model: 'half', provider: 'openai', base_url: `${servers.gatewayUrl}/v1`, weight: 1000000 },
          { id: 'half-demo', model: 'half', provider: 'demo', upstream_model: 'echo', weight: 0.000001 },
        ],
      }),
    });
    expect(saved.status).toBe(200);
    client = await openAIClientWithNewKey(servers, { scopes: ['chat'] });
  });
  afterAll(async () => servers?.stop());

  it('answers 502 naming the loop after one turn, and says not to retry', async () => {
    const error = await client.chat.completions
      .create({ model: 'looped', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(502);
    expect(apiError.message).toContain('request loop: this gateway sent this request to itself');
    expect(apiError.headers?.get('x-should-retry')).toBe('false');
    // The client's request and the one turn that came back: nothing more.
    const usage = await fetch(`${servers.gatewayUrl}/internal/usage/logs?limit=20`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    const rows = ((await usage.json()) as { data: Array<{ status: number }> }).data;
    expect(rows.map((row) => row.status).sort()).toEqual([403, 502]);
  });

  it("falls back to the model's other deployment: the loop is the looped deployment's fault", async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'half', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(response.headers.get('x-gateway-deployment')).toBe('half-demo');
    expect(data.choices[0]!.message.content).toBe('hi');
  });
});
