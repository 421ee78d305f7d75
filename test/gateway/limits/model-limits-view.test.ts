import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayAdmin, startTempServers, type TempServers } from '../../support/temp-servers.js';

/**
 * The models' shared limits (`limits.models`) are shown with the model settings: the UI's Models screen
 * reads them there, since only the configuration file sets them.
 */
describe('GET /internal/models: the models’ shared limits', () => {
  let servers: TempServers;
  const admin = gatewayAdmin(() => servers);
  beforeAll(async () => {
    servers = await startTempServers({
      llm: { allowed_models: ['demo/echo', 'demo/embed'] },
      // A bucket of 100 tokens a minute gives back under 2 a second: what a request used is still
      // counted when the view is read, however slow the machine.
      limits: { models: { 'demo/echo': { rpm_limit: 5, tpm_limit: 100 } } },
    });
  });
  afterAll(async () => servers?.stop());

  it('lists each model that has some, with what is used of them, and leaves the others out', async () => {
    const before = (await admin('GET', '/internal/models')).body;
    expect(Object.keys(before.model_limits)).toEqual(['demo/echo']);
    expect(before.model_limits['demo/echo']).toEqual([
      expect.objectContaining({ limit_type: 'requests', subject: 'model:demo/echo', limit: 5, used: 0, remaining: 5 }),
      expect.objectContaining({ limit_type: 'tokens', subject: 'model:demo/echo', limit: 100, used: 0 }),
    ]);
    const { key } = (await admin('POST', '/internal/api-keys', { scopes: ['chat'] })).body as { key: string };
    await new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 }).chat.completions.create({
      model: 'demo/echo',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'count me' }],
    });
    const after = (await admin('GET', '/internal/models')).body.model_limits['demo/echo'];
    // A bucket refills all the time (5 a minute here): what is used has already begun to come back.
    expect(after[0].limit_type).toBe('requests');
    expect(after[0].used).toBeCloseTo(1, 0);
    expect(after[0].remaining).toBeCloseTo(4, 0);
    expect(after[1].used).toBeGreaterThan(0);
  });
});
