import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * `GET /internal/api-keys` pages with `limit` and `after` (LiteLLM's key list pages too): every key
 * comes exactly once, newest first, however many share a millisecond; without `limit`, all of them.
 */
describe('the key listing in pages', () => {
  let h: GatewayHarness;
  const team = `paging-${Date.now()}`;
  let issued: string[];
  beforeAll(async () => {
    h = await startGatewayHarness();
    issued = [];
    // Issued back to back, so several share their creation millisecond.
    for (let index = 0; index < 7; index += 1) issued.push((await h.issueKey({ name: `k${index}`, team })).id);
  });
  afterAll(() => h.close());

  it('follows next_cursor to the end, each key once, in the order of the whole list', async () => {
    const whole = await h.admin('GET', `/internal/api-keys?team=${team}`);
    expect(whole.body.next_cursor).toBeNull();
    const order = whole.body.data.map((key: { id: string }) => key.id);
    expect([...order].sort()).toEqual([...issued].sort());

    const paged: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await h.admin('GET', `/internal/api-keys?team=${team}&limit=3${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(3);
      paged.push(...page.body.data.map((key: { id: string }) => key.id));
      after = page.body.next_cursor;
      pages += 1;
    } while (after !== null);
    expect(pages).toBe(3);
    expect(paged).toEqual(order);
  });

  it('refuses a cursor that names no key, and a limit out of range, naming the parameter', async () => {
    const unknown = await h.admin('GET', '/internal/api-keys?limit=2&after=key_gone');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("after: no API key with id 'key_gone'");
    for (const limit of ['0', '1001', 'two']) {
      const bad = await h.admin('GET', `/internal/api-keys?limit=${limit}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('limit');
    }
  });
});
