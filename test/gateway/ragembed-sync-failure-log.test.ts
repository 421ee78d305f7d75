import { describe, expect, it } from 'vitest';
import { headlessGateway } from '../support/headless-gateway.js';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';

const MASTER = 'gk-master-ragembed-log-0123456789abcdef';
const OPENAI_KEY = 'sk-upstream-ragembed-log-0123456789secret';

/**
 * A sync against an embeddings provider that is down says so once, with how many documents it left
 * without vectors, not once (with a stack trace) per document.
 */
describe('the log of a sync whose embeddings fail', () => {
  const gateway = headlessGateway({
    masterKey: MASTER,
    upstreamKey: OPENAI_KEY,
    config: (url) => ({
      llm: { allowed_models: ['text-embedding-3-small'] },
      gateway: { max_retries: 0 },
      providers: { openai: { base_url: url, api_key: OPENAI_KEY } },
      rag: { embedding_model: 'text-embedding-3-small' },
    }),
  });
  const { admin } = gateway;

  it('logs one line for the sync, with the number of documents', async () => {
    gateway.upstream.setDefault({ status: 503 });
    const scope = { namespace: 'kb/down', branch: 'main' };
    const documents = Array.from({ length: 5 }, (_, index) => ({
      key: `doc-${index}.md`,
      content: `# Doc ${index}\n\nText of document ${index}.`,
    }));
    const applied = await fetch(`${gateway.server.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents }),
    });
    expect(applied.status).toBe(200);
    expect((await admin('POST', '/internal/rag/collections', { name: 'down', source: scope })).status).toBe(201);
    const synced = await admin('POST', '/internal/rag/collections/down/sync');
    expect(synced.status).toBe(200);
    expect((await admin('GET', '/internal/rag/collections/down')).body).toMatchObject({ documents: 5, chunks: 5 });

    const lines = gateway.server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string });
    // The background embedding's retry (5 s after the failure) is another matter.
    const embedding = lines.filter((line) => /could not embed/.test(line.msg) && !/without a vector/.test(line.msg));
    expect(embedding).toHaveLength(1);
    expect(embedding[0]!.msg).toContain('5 document(s) of collection down');
  }, 30_000);
});
