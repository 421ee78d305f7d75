import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import { EMBEDDING_MODEL, putDocument } from '../ragperf-support.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

function ragSpanOf(spans: readonly ReceivedSpan[]): ReceivedSpan {
  const found = spans.filter((span) => span.name === 'gateway.policy.rag');
  expect(found).toHaveLength(1);
  return found[0]!;
}

/**
 * The RAG stage's span says what retrieval did, so a slow or empty answer can be traced to it: the
 * collections searched, how many chunks were found and how many fitted the context, and whether the
 * query's vector ranked them or BM25 alone did (the embedding model failed or timed out).
 */
describe('the RAG stage span', () => {
  let receiver: OtlpReceiver;
  let h: GatewayHarness;
  let secret: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startGatewayHarness({
      telemetry: { otlp_endpoint: receiver.url, export_delay_ms: 20, service_name: 'gatehouse-test' },
      rag: { embedding_model: EMBEDDING_MODEL },
    });
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'handbook' })).status).toBe(201);
    await putDocument(h, 'handbook', 'vacation.md', '# Vacation\n\nUnused vacation days carry over.');
    await putDocument(h, 'handbook', 'office.md', '# Office\n\nThe office opens at nine.');
    secret = (await h.issueKey({ scopes: ['chat', 'rag:*'] })).key;
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  async function askTraced(): Promise<ReceivedSpan> {
    const traceId = randomBytes(16).toString('hex');
    await h.openaiClient(secret).chat.completions.create(
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Do vacation days carry over?' }] },
      {
        headers: { 'x-gatehouse-rag': 'handbook', traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      },
    );
    return ragSpanOf(await receiver.waitForTrace(traceId, 7));
  }

  it('names the collections, the chunks found and given, and that the query was embedded', async () => {
    h.openai.reset();
    const span = await askTraced();
    expect(span.attributes).toMatchObject({
      'gatehouse.rag.collections': ['handbook'],
      'gatehouse.rag.query_embedded': true,
    });
    expect(span.attributes['gatehouse.rag.chunks_retrieved']).toBeGreaterThanOrEqual(1);
    expect(span.attributes['gatehouse.rag.chunks_given']).toBeGreaterThanOrEqual(1);
  });

  it('says BM25 alone ranked when the query could not be embedded', async () => {
    h.openai.reset();
    h.openai.setNext({ status: 500 });
    const span = await askTraced();
    expect(span.attributes).toMatchObject({
      'gatehouse.rag.collections': ['handbook'],
      'gatehouse.rag.query_embedded': false,
    });
    // BM25 still found the vacation chunk: retrieval went on without the vector.
    expect(span.attributes['gatehouse.rag.chunks_given']).toBeGreaterThanOrEqual(1);
  });
});
