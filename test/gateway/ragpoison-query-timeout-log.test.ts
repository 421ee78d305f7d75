import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { headlessGateway } from '../support/headless-gateway.js';
import { waitForLogLine } from '../support/headless-process.js';

const MASTER = 'gk-master-ragpoison-timeout-0123456789abcdef';
const OPENAI_KEY = 'sk-upstream-ragpoison-timeout-0123456789secret';

/**
 * A query whose embedding outlasts `rag.query_embedding_timeout_ms` is logged as that timeout, with its
 * value, not as a call the client aborted (the client stayed and got its answer).
 */
describe('the log of a query embedding that times out', () => {
  const gateway = headlessGateway({
    masterKey: MASTER,
    upstreamKey: OPENAI_KEY,
    config: (url) => ({
      llm: { allowed_models: ['demo/echo', 'text-embedding-3-small'] },
      gateway: { max_retries: 0 },
      providers: { openai: { base_url: url, api_key: OPENAI_KEY } },
      rag: { embedding_model: 'text-embedding-3-small', query_embedding_timeout_ms: 300 },
    }),
  });
  const { admin } = gateway;

  it('names the query timeout and its value', async () => {
    expect((await admin('POST', '/internal/rag/collections', { name: 'office' })).status).toBe(201);
    const added = await admin('POST', '/internal/rag/collections/office/documents', {
      key: 'hours.txt',
      content: 'The office opens at seven and closes at six.',
    });
    expect(added.status).toBe(201);
    const key = (await admin('POST', '/internal/api-keys', { scopes: ['chat', 'rag:*'] })).body.key as string;
    gateway.upstream.setDefault({ hang: true });

    const client = new OpenAI({ baseURL: `${gateway.server.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    const { response } = await client.chat.completions
      .create(
        { model: 'demo/echo', messages: [{ role: 'user', content: 'When does the office open?' }] },
        { headers: { 'x-gatehouse-rag': 'office' } },
      )
      .withResponse();
    expect(response.headers.get('x-gatehouse-rag-chunks')).toMatch(/^office:/);

    const line = await waitForLogLine(gateway.server, (entry) => /could not embed the query/.test(String(entry.msg)));
    const logged = JSON.stringify(line);
    expect(logged).toContain('no query vector within rag.query_embedding_timeout_ms (300 ms)');
    expect(logged).not.toContain('aborted by the client');
  }, 30_000);
});
