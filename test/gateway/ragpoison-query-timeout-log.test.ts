import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, waitForLogLine, type HeadlessProcess } from '../support/headless-process.js';
import { TEST_STORE_TOKEN } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const MASTER = 'gk-master-ragpoison-timeout-0123456789abcdef';
const OPENAI_KEY = 'sk-upstream-ragpoison-timeout-0123456789secret';

/**
 * A query whose embedding outlasts `rag.query_embedding_timeout_ms` is logged as that timeout, with its
 * value, not as a call the client aborted (the client stayed and got its answer).
 */
describe('the log of a query embedding that times out', () => {
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
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-ragpoison-timeout-'));
    const config = join(dir, 'gatehouse.json');
    writeFileSync(
      config,
      JSON.stringify({
        llm: { allowed_models: ['demo/echo', 'text-embedding-3-small'] },
        gateway: { max_retries: 0 },
        providers: { openai: { base_url: upstream.url, api_key: OPENAI_KEY } },
        rag: { embedding_model: 'text-embedding-3-small', query_embedding_timeout_ms: 300 },
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

  it('names the query timeout and its value', async () => {
    expect((await admin('POST', '/internal/rag/collections', { name: 'office' })).status).toBe(201);
    const added = await admin('POST', '/internal/rag/collections/office/documents', {
      key: 'hours.txt',
      content: 'The office opens at seven and closes at six.',
    });
    expect(added.status).toBe(201);
    const key = (await admin('POST', '/internal/api-keys', { scopes: ['chat', 'rag:*'] })).body.key as string;
    upstream.setDefault({ hang: true });

    const client = new OpenAI({ baseURL: `${server.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    const { response } = await client.chat.completions
      .create(
        { model: 'demo/echo', messages: [{ role: 'user', content: 'When does the office open?' }] },
        { headers: { 'x-gatehouse-rag': 'office' } },
      )
      .withResponse();
    expect(response.headers.get('x-gatehouse-rag-chunks')).toMatch(/^office:/);

    const line = await waitForLogLine(server, (entry) => /could not embed the query/.test(String(entry.msg)));
    const logged = JSON.stringify(line);
    expect(logged).toContain('no query vector within rag.query_embedding_timeout_ms (300 ms)');
    expect(logged).not.toContain('aborted by the client');
  }, 30_000);
});
