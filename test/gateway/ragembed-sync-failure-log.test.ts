import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess } from '../support/headless-process.js';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const MASTER = 'gk-master-ragembed-log-0123456789abcdef';
const OPENAI_KEY = 'sk-upstream-ragembed-log-0123456789secret';

/**
 * A sync against an embeddings provider that is down says so once, with how many documents it left
 * without vectors, not once (with a stack trace) per document.
 */
describe('the log of a sync whose embeddings fail', () => {
  let dir: string;
  let upstream: OpenAIUpstream;
  let server: HeadlessProcess;

  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: OPENAI_KEY });
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-ragembed-log-'));
    const config = join(dir, 'gatehouse.json');
    writeFileSync(
      config,
      JSON.stringify({
        llm: { allowed_models: ['text-embedding-3-small'] },
        gateway: { max_retries: 0 },
        providers: { openai: { base_url: upstream.url, api_key: OPENAI_KEY } },
        rag: { embedding_model: 'text-embedding-3-small' },
      }),
    );
    server = await spawnHeadless({
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: dir,
      PROXY_MASTER_KEY: MASTER,
      STORE_TOKEN: TEST_STORE_TOKEN,
      GATEHOUSE_LOG_LEVEL: 'info',
    });
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs one line for the sync, with the number of documents', async () => {
    upstream.setDefault({ status: 503 });
    const scope = { namespace: 'kb/down', branch: 'main' };
    const documents = Array.from({ length: 5 }, (_, index) => ({
      key: `doc-${index}.md`,
      content: `# Doc ${index}\n\nText of document ${index}.`,
    }));
    const applied = await fetch(`${server.storeUrl}/v1/apply`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_STORE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope, documents }),
    });
    expect(applied.status).toBe(200);
    expect((await admin('POST', '/internal/rag/collections', { name: 'down', source: scope })).status).toBe(201);
    const synced = await admin('POST', '/internal/rag/collections/down/sync');
    expect(synced.status).toBe(200);
    expect((await admin('GET', '/internal/rag/collections/down')).body).toMatchObject({ documents: 5, chunks: 5 });

    const lines = server
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
