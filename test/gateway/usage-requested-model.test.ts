import type { APIError, default as OpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trafficListSchema, usageResponseSchema, type TrafficEvent } from '../../src/shared/gateway-api.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The Usage view and the live traffic view must name a request alike, so one can be matched with the
 * other: the traffic view shows a request refused before its model resolved by the name it asked for,
 * and usage grouped by model must count it under that name too, not in a "no model" group.
 */
describe('usage and traffic name a request by the same model', () => {
  let harness: GatewayHarness;
  let keyId: string;
  let client: OpenAI;

  beforeAll(async () => {
    harness = await startGatewayHarness();
    const key = await harness.issueKey({ name: 'usage-names', scopes: ['chat'], models: ['demo/echo', 'fast'] });
    keyId = key.id;
    client = harness.openaiClient(key.key);
  });
  afterAll(async () => harness?.close());

  const send = (model: string) =>
    client.chat.completions
      .create({ model, messages: [{ role: 'user', content: 'hello' }] })
      .then(() => 200)
      .catch((error: unknown) => (error as APIError).status);

  it('groups a refused request under the model it asked for, as live traffic shows it', async () => {
    expect(await send('demo/echo')).toBe(200);
    expect(await send('fast')).toBe(200); // an alias: routed to gpt-4o-mini
    expect(await send('gpt-9')).toBe(400); // not in allowed_models
    expect(await send('claude-opus-4-7')).toBe(403); // allowed, but not for this key
    const unauthenticated = await fetch(`${harness.url}/v1/chat/completions`, { method: 'POST' });
    expect(unauthenticated.status).toBe(401);

    const traffic = trafficListSchema.parse((await harness.admin('GET', '/internal/traffic?limit=50')).body);
    const shown = (event: TrafficEvent) => event.model ?? event.requested_model;
    const mine = traffic.data.filter((event) => event.key_id === keyId);
    expect(mine.map(shown).sort()).toEqual(['claude-opus-4-7', 'demo/echo', 'gpt-4o-mini', 'gpt-9']);

    const usage = usageResponseSchema.parse(
      (await harness.admin('GET', `/internal/usage?group_by=model&bucket=day&key_id=${keyId}`)).body,
    );
    const byGroup = Object.fromEntries(usage.data.map((point) => [point.group, [point.requests, point.errors]]));
    expect(byGroup).toEqual({
      'demo/echo': [1, 0],
      'gpt-4o-mini': [1, 0],
      'gpt-9': [1, 1],
      'claude-opus-4-7': [1, 1],
    });

    // The request refused before a key or a model was known has neither, in both views.
    const anonymous = traffic.data.find((event) => event.request_id === unauthenticated.headers.get('x-request-id'))!;
    expect(shown(anonymous)).toBeNull();
    const all = usageResponseSchema.parse(
      (await harness.admin('GET', '/internal/usage?group_by=model&bucket=day')).body,
    );
    expect(all.data.find((point) => point.group === null)?.requests).toBe(1);
  });

  it('keeps the requested name on each usage row and filters by it as the traffic view does', async () => {
    const rows = await harness.usageRows(`key_id=${keyId}`);
    const names = rows.map((row) => [row.requested_model, row.model]);
    expect(names).toEqual(
      expect.arrayContaining([
        ['gpt-9', null],
        ['fast', 'gpt-4o-mini'],
        ['demo/echo', 'demo/echo'],
      ]),
    );
    expect((await harness.usageRows('model=gpt-9')).map((row) => row.status)).toEqual([400]);
    expect((await harness.usageRows('model=fast')).map((row) => row.model)).toEqual(['gpt-4o-mini']);
    const filtered = usageResponseSchema.parse(
      (await harness.admin('GET', '/internal/usage?group_by=model&bucket=day&model=gpt-9')).body,
    );
    expect(filtered.totals).toMatchObject({ requests: 1, errors: 1 });
  });
});
