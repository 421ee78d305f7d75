import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/** An embeddings server that refuses every call as a bad request (a model name it does not serve as embeddings, say). */
async function startRefuseAllUpstream(): Promise<{ url: string; calls: number[]; close(): Promise<void> }> {
  const calls: number[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (part: Buffer) => (raw += part.toString()));
    request.on('end', () => {
      calls.push((JSON.parse(raw) as { input: string[] }).input.length);
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { message: 'This model does not support embeddings.', type: 'invalid_request_error' },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A model that refuses every text (misconfigured, or a server answering 400 to everything) is found out
 * after a few halvings of the first call, not by halving every call of the sync down to single texts
 * (127 calls for each 64 texts): the sync still indexes every document, for BM25.
 */
describe('an embedding model that refuses every text', () => {
  let h: GatewayHarness;
  let upstream: Awaited<ReturnType<typeof startRefuseAllUpstream>>;
  beforeAll(async () => {
    upstream = await startRefuseAllUpstream();
    h = await startGatewayHarness({
      rag: { embedding_model: 'text-embedding-3-small' },
      providers: { openai: { base_url: upstream.url, api_key: OPENAI_UPSTREAM_KEY } },
    });
  });
  afterAll(async () => {
    await h?.close();
    await upstream?.close();
  });

  it('costs a bounded number of calls per sync, and every document is still indexed', async () => {
    const scope = { namespace: 'kb/refused', branch: 'main' };
    const documents = Array.from({ length: 150 }, (_, index) => ({
      key: `note-${index}.md`,
      content: `# Note ${index}\n\nNote number ${index} is about topic ${index}.`,
    }));
    const applied = await fetch(`${h.servers.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents }),
    });
    expect(applied.status).toBe(200);
    expect((await h.admin('POST', '/internal/rag/collections', { name: 'refused', source: scope })).status).toBe(201);
    expect((await h.admin('POST', '/internal/rag/collections/refused/sync')).status).toBe(200);

    const collection = (await h.admin('GET', '/internal/rag/collections/refused')).body;
    expect(collection).toMatchObject({ documents: 150, chunks: 150, embedded_chunks: 0 });
    // The first call of 64 halved three times (15 calls), then each other call halved once (3 calls).
    expect(upstream.calls).toEqual([
      ...[64, 32, 32, 16, 16, 16, 16, 8, 8, 8, 8, 8, 8, 8, 8],
      ...[64, 32, 32],
      ...[22, 11, 11],
    ]);
  }, 30_000);
});
