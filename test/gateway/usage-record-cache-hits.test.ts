import type { default as OpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trafficListSchema, usageResponseSchema } from '../../src/shared/gateway-api.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A cache hit called no upstream: every record says so alike. Usage rows and traffic events name no
 * deployment or provider for it (`cached: true`), as `group_by=deployment` counts it under `(cache)`,
 * and an embeddings hit's audit event says `cached: true` rather than naming a deployment it never called.
 */
describe('cache hits are recorded alike in usage, traffic and the audit log', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  let keyId: string;
  beforeAll(async () => {
    h = await startGatewayHarness({ cache: { enabled: true, ttl_seconds: 600 } });
    const key = await h.issueKey({ name: 'cache-records', scopes: ['chat', 'embeddings'] });
    keyId = key.id;
    client = h.openaiClient(key.key);
  });
  afterAll(async () => h?.close());

  it('names no deployment for a hit in any record', async () => {
    const ask = () =>
      client.chat.completions
        .create({ model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content: 'same question' }] })
        .withResponse();
    const miss = await ask();
    const hit = await ask();
    expect(hit.response.headers.get('x-cache-hit')).toBe('true');
    const embed = () =>
      client.embeddings.create({ model: 'text-embedding-3-small', input: 'same text' }).withResponse();
    const embedMiss = await embed();
    const embedHit = await embed();
    expect(h.openai.requests.filter((request) => request.path.endsWith('/embeddings'))).toHaveLength(1);

    const rows = await h.usageRows(`key_id=${keyId}`);
    const row = (id: string | null) => rows.find((entry) => entry.request_id === id);
    for (const id of [miss.request_id, embedMiss.request_id]) {
      expect(row(id)).toMatchObject({ cached: false, provider: 'openai' });
      expect(row(id).deployment).not.toBeNull();
    }
    for (const id of [hit.request_id, embedHit.request_id])
      expect(row(id)).toMatchObject({ cached: true, deployment: null, provider: null, attempts: 0 });

    const traffic = trafficListSchema.parse((await h.admin('GET', '/internal/traffic?limit=20')).body);
    const hitEvent = traffic.data.find((event) => event.request_id === hit.request_id)!;
    expect(hitEvent).toMatchObject({ cached: true, cache: 'hit', deployment: null, provider: null });

    // Summing the rows by deployment gives the aggregate's numbers.
    const usage = usageResponseSchema.parse(
      (await h.admin('GET', `/internal/usage?group_by=deployment&bucket=day&key_id=${keyId}`)).body,
    );
    const cacheGroup = usage.data.filter((point) => point.group === '(cache)').reduce((n, p) => n + p.requests, 0);
    expect(cacheGroup).toBe(rows.filter((entry) => entry.deployment === null && entry.cached).length);
    expect(cacheGroup).toBe(2);

    const audit = await h.admin('GET', '/internal/audit?action=embeddings.create');
    const details = (id: string | null) => audit.body.data.find((event: any) => event.request_id === id)?.details;
    expect(details(embedMiss.request_id)).toMatchObject({ cached: false, provider: 'openai' });
    expect(details(embedMiss.request_id).deployment).not.toBeNull();
    expect(details(embedHit.request_id)).toMatchObject({ cached: true, deployment: null, provider: null });
  });
});
