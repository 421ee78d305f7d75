import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * A Markdown heading with no text under it used to be dropped from the index, even when nothing
 * deeper followed it: a title-only note, or a closing line written as a heading, could never be found.
 * A heading directly followed by a subheading still has no section of its own (the subheading's path
 * carries it).
 */
describe('RAG Markdown headings without text under them', () => {
  let h: GatewayHarness;
  const chunksOf = async (collection: string): Promise<Array<{ heading: string; text: string }>> =>
    (await h.admin('GET', `/internal/rag/collections/${collection}/chunks`)).body.data;

  beforeAll(async () => {
    h = await startGatewayHarness();
    await h.admin('POST', '/internal/rag/collections', { name: 'notes' });
  });
  afterAll(() => h.close());

  it('indexes a title-only document and finds it', async () => {
    const put = await h.admin('POST', '/internal/rag/collections/notes/documents', {
      key: 'closing.md',
      content: '# The office closes at 6pm on Fridays',
    });
    expect(put.status).toBe(201);
    expect(put.body.chunks).toBe(1);
    const search = await h.admin('POST', '/internal/rag/search', { query: 'When does the office close on Friday?' });
    expect(search.body.hits.map((hit: { document_key: string }) => hit.document_key)).toEqual(['closing.md']);
  });

  it('keeps a last heading with no text, and a heading followed by one of its level, but not one followed by a subheading', async () => {
    await h.admin('POST', '/internal/rag/collections/notes/documents', {
      key: 'setup.md',
      content: '# Setup\n\n## Linux\n\nInstall the package.\n\n## Windows\n\n## Questions? Ask in the help channel',
    });
    const chunks = (await chunksOf('notes')).filter((chunk) => chunk.heading.startsWith('Setup'));
    expect(chunks.map((chunk) => chunk.heading)).toEqual([
      'Setup > Linux',
      'Setup > Windows',
      'Setup > Questions? Ask in the help channel',
    ]);
  });
});
