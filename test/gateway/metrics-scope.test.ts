import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';

/**
 * With `gateway.metrics_public: false`, a scraper holds an API key with the `metrics` scope rather than
 * the master key: that key scrapes `/metrics` and calls nothing it was not also given.
 */
describe('the metrics scope', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ gateway: { max_retries: 0, metrics_public: false } });
  });
  afterAll(async () => h?.close());

  const scrape = (secret: string): Promise<Response> =>
    fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${secret}` } });
  const errorOf = async (response: Response): Promise<{ type: string; message: string }> =>
    ((await response.json()) as { error: { type: string; message: string } }).error;

  it('lets a key with the metrics scope scrape, as the master key and a * key may', async () => {
    const scraper = await h.issueKey({ name: 'prometheus', scopes: ['metrics'] });
    const answer = await scrape(scraper.key);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('gateway_requests_total');
    expect((await scrape(TEST_MASTER_KEY)).status).toBe(200);
    const everything = await h.issueKey({ scopes: ['*'] });
    expect((await scrape(everything.key)).status).toBe(200);
  });

  it('refuses a key without it with 403, naming the scope', async () => {
    const chatOnly = await h.issueKey({ scopes: ['chat', 'embeddings'] });
    const answer = await scrape(chatOnly.key);
    expect(answer.status).toBe(403);
    expect(await errorOf(answer)).toMatchObject({
      type: 'permission_error',
      message: `API key ${chatOnly.id} lacks the metrics scope required by /metrics`,
    });
  });

  it('refuses a revoked metrics key with 401, saying what /metrics accepts', async () => {
    const scraper = await h.issueKey({ scopes: ['metrics'] });
    expect((await h.admin('DELETE', `/internal/api-keys/${scraper.id}`)).status).toBeLessThan(300);
    const answer = await scrape(scraper.key);
    expect(answer.status).toBe(401);
    const error = await errorOf(answer);
    expect(error.type).toBe('authentication_error');
    expect(error.message).toMatch(
      /^API key has been revoked; \/metrics needs PROXY_MASTER_KEY .* or an API key with the metrics scope$/,
    );
  });

  it('gives a metrics-only key no model calls and no admin API', async () => {
    const scraper = await h.issueKey({ scopes: ['metrics'] });
    const chat = await h
      .openaiClient(scraper.key)
      .chat.completions.create({ model: 'demo/echo', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error as { status: number; message: string });
    expect(chat).toMatchObject({ status: 403 });
    expect((chat as { message: string }).message).toContain('lacks the chat scope');
    const embeddings = await h
      .openaiClient(scraper.key)
      .embeddings.create({ model: 'demo/embed', input: 'hi' })
      .catch((error: unknown) => error as { status: number });
    expect(embeddings).toMatchObject({ status: 403 });
    const admin = await fetch(`${h.url}/internal/api-keys`, { headers: { authorization: `Bearer ${scraper.key}` } });
    expect(admin.status).toBe(403);
  });

  it('is a scope the admin API accepts and lists back', async () => {
    const created = await h.admin('POST', '/internal/api-keys', { scopes: ['metrics', 'chat'] });
    expect(created.status).toBe(201);
    expect(created.body.scopes).toEqual(['metrics', 'chat']);
    const refused = await h.admin('POST', '/internal/api-keys', { scopes: ['metric'] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("'metrics'");
  });
});
