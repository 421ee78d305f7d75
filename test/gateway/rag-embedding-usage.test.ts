import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** Dollars per million tokens of the embedding model: one query's few tokens cost more than the key's budget. */
const EMBEDDING_PRICE = 200_000;

interface Row {
  request_id: string;
  endpoint: string;
  key_id: string | null;
  model: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
  rag_collections: string | null;
}

/**
 * RAG's own embeddings calls are provider calls like any other: a request's query embedding is booked
 * to its key (a row under the request's id, counted in its budgets), and indexing to the gateway (rows
 * of no key, with the collection), priced as the embedding model is, or at 0 where it has no price.
 */
describe('usage of RAG embeddings', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({
      rag: { embedding_model: 'text-embedding-3-small' },
      pricing: {
        'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 },
        'text-embedding-3-small': { input_per_mtok: EMBEDDING_PRICE, output_per_mtok: 0 },
      },
    });
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'handbook' })).status).toBe(201);
    const ingested = await h.admin('POST', '/internal/rag/collections/handbook/documents', {
      key: 'leave.md',
      content: '# Leave\n\nEmployees take twenty five days of paid leave every year.',
    });
    expect(ingested.status).toBe(201);
  });
  afterAll(() => h.close());

  it('books indexing to no key, per call, with its collection and cost', async () => {
    const rows = (await h.usageRows('endpoint=rag_index_embedding')) as Row[];
    expect(rows).toHaveLength(1);
    const [row] = rows as [Row];
    expect(row).toMatchObject({ key_id: null, model: 'text-embedding-3-small', rag_collections: 'handbook' });
    expect(row.prompt_tokens).toBeGreaterThan(0);
    expect(row.cost_usd).toBeCloseTo((row.prompt_tokens * EMBEDDING_PRICE) / 1e6, 6);
    const usage = await h.admin('GET', '/internal/usage?endpoint=rag_index_embedding&group_by=model&bucket=day');
    expect(usage.body.totals).toMatchObject({ requests: 1, prompt_tokens: row.prompt_tokens });
    expect(usage.body.totals.cost_usd).toBeCloseTo(row.cost_usd, 6);
  });

  it("books a request's query embedding to its key, under its request id, and counts it in the key's budget", async () => {
    const created = await h.issueKey({ scopes: ['chat', 'rag:handbook'], usd_daily_budget: 1 });
    const client = h.openaiClient(created.key);
    const ask = () =>
      client.chat.completions
        .create(
          { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'How many days of paid leave?' }] },
          { headers: { 'x-gatehouse-rag': 'handbook' } },
        )
        .withResponse();
    const { response } = await ask();
    const requestId = response.headers.get('x-request-id')!;

    const rows = (await h.usageRows(`request_id=${requestId}`)) as Row[];
    expect(rows.map((row) => row.endpoint).sort()).toEqual(['chat', 'rag_query_embedding']);
    const embedding = rows.find((row) => row.endpoint === 'rag_query_embedding')!;
    expect(embedding).toMatchObject({
      key_id: created.id,
      model: 'text-embedding-3-small',
      completion_tokens: 0,
      rag_collections: 'handbook',
    });
    expect(embedding.prompt_tokens).toBeGreaterThan(0);
    expect(embedding.cost_usd).toBeGreaterThan(1);
    expect((await h.usageRows(`endpoint=rag_query_embedding&key_id=${created.id}`)).length).toBe(1);
    const byKey = await h.admin('GET', `/internal/usage?key_id=${created.id}&group_by=model&bucket=day`);
    expect(byKey.body.data.map((point: { group: string }) => point.group).sort()).toEqual([
      'gpt-4o-mini',
      'text-embedding-3-small',
    ]);
    // The embedding adds its cost to the key's, and no request: the key made one.
    expect(byKey.body.totals.requests).toBe(1);
    expect(byKey.body.totals.cost_usd).toBeCloseTo(
      rows.reduce((sum, row) => sum + row.cost_usd, 0),
      6,
    );

    // The embedding spent the key's $1 a day: its next request is refused by the budget.
    const refused = await ask().then(
      () => undefined,
      (error: { status?: number; message?: string }) => error,
    );
    expect(refused?.status).toBe(429);
    expect(refused?.message).toMatch(/key_cost_daily/);
  });
});

describe('usage of RAG embeddings with an unpriced model', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness({ rag: { embedding_model: 'demo/embed' } });
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'notes' })).status).toBe(201);
    const ingested = await h.admin('POST', '/internal/rag/collections/notes/documents', {
      key: 'a.md',
      content: '# Notes\n\nThe office opens at nine.',
    });
    expect(ingested.status).toBe(201);
  });
  afterAll(() => h.close());

  it('books its tokens at no cost', async () => {
    const key = (await h.issueKey({ scopes: ['chat', 'rag:notes'] })).key;
    const { response } = await h
      .openaiClient(key)
      .chat.completions.create(
        { model: 'demo/echo', messages: [{ role: 'user', content: 'When does the office open?' }] },
        { headers: { 'x-gatehouse-rag': 'notes' } },
      )
      .withResponse();
    const query = (await h.usageRows(
      `request_id=${response.headers.get('x-request-id')}&endpoint=rag_query_embedding`,
    )) as Row[];
    const indexing = (await h.usageRows('endpoint=rag_index_embedding')) as Row[];
    for (const rows of [query, indexing]) {
      expect(rows).toHaveLength(1);
      expect(rows[0]!.model).toBe('demo/embed');
      expect(rows[0]!.prompt_tokens).toBeGreaterThan(0);
      expect(rows[0]!.cost_usd).toBe(0);
    }
  });
});
