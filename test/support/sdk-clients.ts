import OpenAI from 'openai';
import { TEST_MASTER_KEY, type TempServers } from './temp-servers.js';

/**
 * An official OpenAI client of the gateway, on a new gateway key created with `key` (scopes, team,
 * ...) through the admin API; the SDK's own retries are off, so each call is one request.
 */
export async function openAIClientWithNewKey(servers: TempServers, key: Record<string, unknown>): Promise<OpenAI> {
  const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(key),
  });
  if (created.status !== 201 && created.status !== 200)
    throw new Error(`creating a gateway key answered ${created.status}: ${await created.text()}`);
  const { key: secret } = (await created.json()) as { key: string };
  return new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: secret, maxRetries: 0 });
}
