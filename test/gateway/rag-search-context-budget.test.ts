import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Three chunks about parking; the best match is longer than the whole budget. */
const DOCUMENTS = {
  'garage.md': `# Parking garage\n${'The parking garage has levels for staff, visitors and bicycles, with chargers. '.repeat(4)}`,
  'permits.md': '# Permits\nParking permits: ask reception.',
  'visitors.md': '# Visitor parking\nVisitors park on level two of the garage, next to the lifts, all day.',
};

/**
 * The admin search shows "what a key would be sent". It showed the top chunks before the request's
 * `rag.max_context_chars` budget was applied, so it listed chunks no request was ever given.
 */
describe('the admin search and the context budget', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { chunk_size: 400, chunk_overlap: 0, max_context_chars: 130 } });
    await h.admin('POST', '/internal/rag/collections', { name: 'site' });
    for (const [key, content] of Object.entries(DOCUMENTS)) {
      const added = await h.admin('POST', '/internal/rag/collections/site/documents', { key, content });
      expect(added.status).toBe(201);
    }
  });
  afterAll(() => h.close());

  it('lists exactly the chunks a request of that key is given, in the same order', async () => {
    const key = await h.issueKey({ scopes: ['chat', 'rag:site'] });
    const { response } = await h
      .openaiClient(key.key)
      .chat.completions.create(
        { model: 'demo/echo', messages: [{ role: 'user', content: 'parking garage levels' }] },
        { headers: { 'x-gatehouse-rag': 'site' } },
      )
      .withResponse();
    const given = response.headers.get('x-gatehouse-rag-chunks')!.split(',');
    expect(given.length).toBeGreaterThan(0);
    const search = await h.admin('POST', '/internal/rag/search', { query: 'parking garage levels', key_id: key.id });
    expect(search.status).toBe(200);
    const hits = search.body.hits as Array<{ citation: string; document_key: string; text: string }>;
    expect(hits.map((hit) => hit.citation)).toEqual(given);
    // The long chunk ranks first but does not fit the budget, so neither the request nor the search has it.
    expect(hits.map((hit) => hit.document_key)).not.toContain('garage.md');
    expect(hits.reduce((sum, hit) => sum + hit.text.length, 0)).toBeLessThanOrEqual(130);
  });
});
