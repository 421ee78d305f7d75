import { describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startGatewayHarness } from './support/harness.js';

/**
 * Closing the gateway while a sync of a store-backed collection waits on an embeddings provider that
 * never answers: the embedding call is cancelled, and closing does not wait on it.
 */
describe('closing while a sync waits on a model that hangs', () => {
  it('finishes promptly', async () => {
    const h = await startGatewayHarness({ rag: { embedding_model: 'text-embedding-3-small' } });
    let closed = false;
    try {
      const scope = { namespace: 'kb/hanging', branch: 'main' };
      const created = await h.admin('POST', '/internal/rag/collections', { name: 'hanging', source: scope });
      expect(created.status).toBe(201);
      h.openai.reset();
      h.openai.setDefault({ hang: true });
      const applied = await fetch(`${h.servers.storeUrl}/v1/apply`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scope, documents: [{ key: 'notes.md', content: '# Notes\n\nSomething to embed.' }] }),
      });
      expect(applied.status).toBe(200);
      await h.openai.waitForRequests(1);

      const closing = h.close().then(() => (closed = true));
      const bound = new Promise((resolve) => setTimeout(resolve, 10_000));
      await Promise.race([closing, bound]);
      expect(closed).toBe(true);
    } finally {
      if (!closed) await h.close().catch(() => undefined);
    }
  }, 90_000);
});
