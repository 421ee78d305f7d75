import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

const EMAIL = 'payroll.lead@example.com';
const CARD = '4111 1111 1111 1111';
const DOCUMENT = `# Expenses\n\nSend receipts to ${EMAIL}. The company card is ${CARD}; never share it.`;

/**
 * Indexing a document embeds its chunks through the embedding model's upstream: with `rag.redact_pii`
 * (the default), that provider is sent the chunks as a request would carry them, redacted, while
 * the gateway's own index keeps the text as written.
 */
describe('RAG embeddings at indexing time', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'finance' })).status).toBe(201);
  });
  afterAll(() => h.close());

  it('sends the embedding upstream no PII of the document; the stored chunks and search keep it', async () => {
    h.openai.reset();
    const added = await h.admin('POST', '/internal/rag/collections/finance/documents', {
      key: 'expenses.md',
      content: DOCUMENT,
    });
    expect(added.status).toBe(201);
    const embeds = h.openai.requests.filter((request) => request.path === '/v1/embeddings');
    expect(embeds).toHaveLength(1);
    expect(embeds[0]!.rawBody).not.toContain(EMAIL);
    expect(embeds[0]!.rawBody).not.toContain(CARD);
    expect(embeds[0]!.body.input[0]).toContain('Send receipts to [EMAIL_1]');

    const chunks = (await h.admin('GET', '/internal/rag/collections/finance/chunks')).body.data as any[];
    expect(chunks.every((chunk) => chunk.embedded)).toBe(true);
    expect(chunks.map((chunk) => chunk.text).join('\n')).toContain(EMAIL);
    const search = await h.admin('POST', '/internal/rag/search', { query: 'where do receipts go' });
    expect(search.body.hits[0].text).toContain('Send receipts to');
  });
});
