import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config/load.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const LONG = `# Badge policy\n${'The badge policy covers visitors, contractors and staff badges in detail. '.repeat(5)}`;
const SHORT = '# Badges\nLost badge: call the desk.';

/**
 * `rag.max_context_chars` bounds the chunk text a request is given. A chunk too long for what is left
 * leaves room for a shorter one ranked lower; and a budget smaller than a chunk is said at start, since
 * most requests would then get no context with nothing to say why.
 */
describe('the context budget', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { chunk_size: 400, chunk_overlap: 0, max_context_chars: 120 } });
    await h.admin('POST', '/internal/rag/collections', { name: 'office' });
    for (const [key, content] of [
      ['long.md', LONG],
      ['short.md', SHORT],
    ])
      expect((await h.admin('POST', '/internal/rag/collections/office/documents', { key, content })).status).toBe(201);
  });
  afterAll(() => h.close());

  it('gives a shorter chunk ranked lower when the first does not fit', async () => {
    const search = await h.admin('POST', '/internal/rag/search', { query: 'badge policy', collections: ['office'] });
    // The search shows what a request is given: the long chunk, ranked first, does not fit.
    expect(search.body.hits.map((hit: { document_key: string }) => hit.document_key)).toEqual(['short.md']);
    const key = await h.issueKey({ scopes: ['chat', 'rag:office'] });
    const { response } = await h
      .openaiClient(key.key)
      .chat.completions.create(
        { model: 'demo/echo', messages: [{ role: 'user', content: 'badge policy' }] },
        { headers: { 'x-gatehouse-rag': 'office' } },
      )
      .withResponse();
    const given = response.headers.get('x-gatehouse-rag-chunks')!;
    expect(given).not.toBe('');
    const citations = search.body.hits.map((hit: { document_key: string; citation: string }) => [
      hit.document_key,
      hit.citation,
    ]);
    expect(given.split(',')).toEqual([new Map(citations).get('short.md')]);
  });

  it('says at start when the budget is smaller than a chunk', () => {
    const { warnings } = loadConfig({ env: {}, overrides: { rag: { chunk_size: 800, max_context_chars: 500 } } });
    expect(warnings).toContain(
      'rag.max_context_chars (500) is smaller than rag.chunk_size (800): only chunks shorter than the budget can be given to a request; raise it to at least the chunk size',
    );
  });
});
