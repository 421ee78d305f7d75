import type { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trafficListSchema } from '../../src/shared/gateway-api.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The body of a request refused by validation is shown in the traffic view under the PII rule of the
 * model it names, even one the key may not use: a per-model rule scrubs what was sent for that model.
 */
describe('a refused body under a per-model PII rule', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ pii: { mode: 'off', models: { 'gpt-4o-mini': { mode: 'mask' } } } });
  });
  afterAll(async () => h?.close());

  it('is masked by the rule of the model it named, though the key may not use that model', async () => {
    const key = await h.issueKey({ scopes: ['chat'], models: ['claude-opus-4-7'] });
    const refused = (await h
      .openaiClient(key.key)
      .chat.completions.create({
        model: 'gpt-4o-mini',
        temperature: 5,
        messages: [{ role: 'user', content: 'write to jane.roe@example.com' }],
      })
      .catch((error: unknown) => error)) as APIError;
    expect(refused.status).toBe(400);
    const page = trafficListSchema.parse((await h.admin('GET', '/internal/traffic?limit=50')).body);
    const event = page.data.find((entry) => entry.request_id === refused.requestID)!;
    expect(event.requested_model).toBe('gpt-4o-mini');
    expect(JSON.stringify(event.request_body)).toContain('write to');
    expect(JSON.stringify(event)).not.toContain('jane.roe@example.com');
  });
});
