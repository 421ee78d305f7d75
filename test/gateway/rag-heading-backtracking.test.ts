import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Markdown headings are parsed in every document indexed, including those any store writer puts in a
 * followed namespace. A heading line with a long run of spaces inside its title made the heading
 * pattern backtrack in cubic time: 2,000 spaces stalled both services for about 2.5 s, 10,000 for
 * minutes, and a document may be 5 MB.
 */
describe('RAG Markdown headings with long runs of spaces', () => {
  let h: GatewayHarness;
  const spaces = ' '.repeat(2500);
  const content = `# Parking${spaces}rules\n\nVisitors park on level 2 and register at the desk.\n\n## Bikes ##\n\nBikes go in the basement.`;

  beforeAll(async () => {
    h = await startGatewayHarness();
  });
  afterAll(() => h.close());

  it('index at once from the store, and keep their titles', async () => {
    await h.admin('POST', '/internal/rag/collections', {
      name: 'facilities',
      source: { namespace: 'kb/facilities', branch: 'main' },
    });
    const started = performance.now();
    const applied = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        scope: { namespace: 'kb/facilities', branch: 'main' },
        documents: [{ key: 'parking.md', content }],
      }),
    });
    expect(applied.status).toBe(200);
    const synced = await h.admin('POST', '/internal/rag/collections/facilities/sync');
    expect(synced.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1500);

    const chunks = (await h.admin('GET', '/internal/rag/collections/facilities/chunks')).body.data;
    expect(chunks.map((chunk: { heading: string }) => chunk.heading)).toEqual([
      `Parking${spaces}rules`,
      `Parking${spaces}rules > Bikes`,
    ]);
  });

  it('index at once through the admin API', async () => {
    await h.admin('POST', '/internal/rag/collections', { name: 'notes' });
    const started = performance.now();
    const ingested = await h.admin('POST', '/internal/rag/collections/notes/documents', { key: 'parking.md', content });
    expect(ingested.status).toBe(201);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(ingested.body.chunks).toBe(2);
  });
});
