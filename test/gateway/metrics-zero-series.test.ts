import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * Prometheus sees no increase in a series that first appears at 1: without a 0 before, the first
 * failure after a start (or of a model just allowed) is missed by `increase()` and `rate()` alerts.
 */
describe('the series of every allowed model exist from the first scrape', () => {
  let servers: TempServers;
  beforeAll(async () => {
    servers = await startTempServers();
  });
  afterAll(async () => servers?.stop());

  const scrape = async (): Promise<string> => (await fetch(`${servers.gatewayUrl}/metrics`)).text();

  it('at 0 before any request, and for a model allowed later', async () => {
    const fresh = await scrape();
    for (const model of ['demo/echo', 'demo/embed']) {
      expect(fresh).toContain(`gateway_requests_total{model="${model}",status="502"} 0`);
      expect(fresh).toContain(
        `gateway_upstream_failures_total{model="${model}",deployment="${model}",phase="mid_stream",reason="5xx"} 0`,
      );
      expect(fresh).toContain(`gateway_tokens_total{model="${model}",type="completion"} 0`);
    }
    const allowed = await fetch(`${servers.gatewayUrl}/internal/models`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ allowed_models: ['demo/echo', 'demo/embed', 'gpt-4o-mini'] }),
    });
    expect(allowed.status).toBe(200);
    expect(await scrape()).toContain('gateway_requests_total{model="gpt-4o-mini",status="502"} 0');
  });
});
