import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

/** The /internal/rag admin API: validation, lifecycle, readiness, metrics and embeddings through an upstream. */
describe('RAG admin API', () => {
  let h: GatewayHarness;

  beforeAll(async () => {
    // Vectors from the OpenAI-compatible upstream: the recording mock shows the provider layer was used.
    h = await startGatewayHarness({
      rag: { embedding_model: 'text-embedding-3-small', chunk_size: 200, chunk_overlap: 50 },
    });
  });
  afterAll(() => h.close());

  it('refuses invalid input with the shared error naming the field', async () => {
    const badName = await h.admin('POST', '/internal/rag/collections', { name: 'has space' });
    expect(badName.status).toBe(400);
    expect(badName.body.error).toMatchObject({ type: 'invalid_request_error', code: 400 });
    expect(badName.body.error.message).toContain('name');
    const badAccess = await h.admin('POST', '/internal/rag/collections', { name: 'x', access: { roles: ['a'] } });
    expect(badAccess.status).toBe(400);
    expect(badAccess.body.error.message).toContain('roles');
    const badSource = await h.admin('POST', '/internal/rag/collections', {
      name: 'x',
      source: { namespace: '/bad//' },
    });
    expect(badSource.status).toBe(400);
    expect(badSource.body.error.message).toContain('namespace');
    const noKey = await h.admin('POST', '/internal/rag/search', { query: 'x', key_id: 'nope' });
    expect(noKey.status).toBe(404);
    const unauthenticated = await fetch(`${h.url}/internal/rag/collections`);
    expect(unauthenticated.status).toBe(401);
  });

  it('changes only the access lists a PATCH names, keeping the others', async () => {
    const created = await h.admin('POST', '/internal/rag/collections', {
      name: 'partial-access',
      access: { users: ['alice'], teams: ['people'] },
    });
    expect(created.status).toBe(201);
    const patched = await h.admin('PATCH', '/internal/rag/collections/partial-access', {
      access: { teams: ['support'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.access).toEqual({ keys: [], users: ['alice'], teams: ['support'] });
    const emptied = await h.admin('PATCH', '/internal/rag/collections/partial-access', { access: { users: [] } });
    expect(emptied.body.access).toEqual({ keys: [], users: [], teams: ['support'] });
    const unknown = await h.admin('PATCH', '/internal/rag/collections/partial-access', {
      access: { keys: ['key_nope'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^access\.keys\[0\]: no API key with id 'key_nope'/);
  });

  it('creates, ingests (chunked with overlap, embedded through the upstream), lists, and deletes', async () => {
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'notes', description: 'd' })).status).toBe(201);
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'notes' })).status).toBe(409);
    h.openai.reset();
    const sentences = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} talks about topic ${i}.`).join(' ');
    const added = await h.admin('POST', '/internal/rag/collections/notes/documents', {
      key: 'long.txt',
      content: sentences,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ key: 'long.txt', content_type: 'text', revision: null });
    expect(added.body.chunks).toBeGreaterThan(1);
    const embedCall = h.openai.requests.find((request) => request.path === '/v1/embeddings');
    expect(embedCall?.body).toMatchObject({ model: 'text-embedding-3-small' });
    const chunks = (await h.admin('GET', '/internal/rag/collections/notes/chunks')).body.data as any[];
    expect(chunks.every((chunk) => chunk.embedded)).toBe(true);
    expect(chunks.every((chunk) => chunk.text.length <= 200)).toBe(true);
    // Overlap: each chunk after the first starts with the end of the one before.
    for (let i = 1; i < chunks.length; i += 1) {
      const firstSentence = chunks[i].text.split(/(?<=\.)\s+/)[0];
      expect(chunks[i - 1].text).toContain(firstSentence);
    }
    const search = await h.admin('POST', '/internal/rag/search', { query: 'topic 7' });
    expect(search.body.hits[0].text).toContain('topic 7');
    expect(search.body.hits[0].bm25_rank).toBe(1);
    expect(search.body.hits.some((hit: any) => hit.vector_rank !== null)).toBe(true);
    // Re-ingesting the same key replaces the document.
    await h.admin('POST', '/internal/rag/collections/notes/documents', { key: 'long.txt', content: 'short now' });
    const docs = (await h.admin('GET', '/internal/rag/collections/notes/documents')).body.data;
    expect(docs).toHaveLength(1);
    expect(docs[0].chunks).toBe(1);
    expect((await h.admin('DELETE', `/internal/rag/collections/notes/documents/${docs[0].id}`)).status).toBe(204);
    expect((await h.admin('GET', '/internal/rag/collections/notes/chunks')).body.data).toEqual([]);
    expect((await h.admin('DELETE', '/internal/rag/collections/notes')).status).toBe(204);
    expect((await h.admin('GET', '/internal/rag/collections/notes')).status).toBe(404);
  });

  it('Markdown keeps headings as chunk context; an embeddings failure leaves BM25 working', async () => {
    await h.admin('POST', '/internal/rag/collections', { name: 'md' });
    h.openai.setDefault({ status: 500 });
    try {
      const added = await h.admin('POST', '/internal/rag/collections/md/documents', {
        key: 'guide.md',
        content: '# Setup\n\n## Linux\n\nInstall with apt.\n\n## Mac\n\nInstall with brew.',
      });
      expect(added.status).toBe(201);
      expect(added.body.content_type).toBe('markdown');
      const chunks = (await h.admin('GET', '/internal/rag/collections/md/chunks')).body.data as any[];
      expect(chunks.map((chunk) => chunk.heading)).toEqual(['Setup > Linux', 'Setup > Mac']);
      expect(chunks.every((chunk) => !chunk.embedded)).toBe(true);
      const search = await h.admin('POST', '/internal/rag/search', { query: 'brew', collections: ['md'] });
      expect(search.body.hits[0].heading).toBe('Setup > Mac');
    } finally {
      h.openai.setDefault({});
    }
    // The model answers again: the next document's embedding also fills in what the failure missed,
    // which hybrid ranking would otherwise rank below chunks both rankings find.
    await h.admin('POST', '/internal/rag/collections/md/documents', { key: 'later.md', content: '# Later\n\nMore.' });
    await expect
      .poll(async () =>
        ((await h.admin('GET', '/internal/rag/collections/md/chunks')).body.data as any[]).map((c) => c.embedded),
      )
      .toEqual([true, true, true]);
  });

  it('/readyz covers the RAG index; /metrics counts retrievals and chunks per collection', async () => {
    const ready = await fetch(`${h.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as any).checks).toEqual({ database: 'ok', rag_index: 'ok', usage_log: 'ok' });
    const key = await h.issueKey({ scopes: ['chat', 'rag:md'] });
    await h
      .openaiClient(key.key)
      .chat.completions.create(
        { model: 'demo/echo', messages: [{ role: 'user', content: 'install with apt' }] },
        { headers: { 'x-gatehouse-rag': 'md' } },
      );
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_rag_retrievals_total\{collection="md"\} [1-9]/);
    expect(metrics).toMatch(/gateway_rag_chunks_returned_total\{collection="md"\} [1-9]/);
    expect(metrics).toMatch(/gateway_rag_retrieval_duration_seconds_count [1-9]/);

    // The admin console's search is not a request's retrieval: the metrics do not move.
    const counts = (text: string) =>
      text
        .split('\n')
        .filter((line) =>
          /^gateway_rag_(retrievals_total|chunks_returned_total|retrieval_duration_seconds_count)/.test(line),
        );
    const search = await h.admin('POST', '/internal/rag/search', { query: 'apt', collections: ['md'] });
    expect(search.body.hits.length).toBeGreaterThan(0);
    expect(counts(await (await fetch(`${h.url}/metrics`)).text())).toEqual(counts(metrics));
  });

  it('a streamed answer carries the chunks header too', async () => {
    const key = await h.issueKey({ scopes: ['chat', 'rag:md'] });
    const { data: stream, response } = await h
      .openaiClient(key.key)
      .chat.completions.create(
        { model: 'demo/echo', stream: true, messages: [{ role: 'user', content: 'install with brew' }] },
        { headers: { 'x-gatehouse-rag': 'md' } },
      )
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toContain('install with brew');
    expect(response.headers.get('x-gatehouse-rag-chunks')).toMatch(/^md:\d+(,md:\d+)*$/);
  });

  it('/readyz answers 503 naming rag_index when the index is gone', async () => {
    h.servers.database.sqlite.exec('ALTER TABLE rag_chunks_fts RENAME TO rag_chunks_fts_gone');
    try {
      const ready = await fetch(`${h.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as any).checks.rag_index).toBe('unavailable');
    } finally {
      h.servers.database.sqlite.exec('ALTER TABLE rag_chunks_fts_gone RENAME TO rag_chunks_fts');
    }
  });
});
