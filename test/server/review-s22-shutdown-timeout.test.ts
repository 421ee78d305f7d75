import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnHeadless } from '../support/headless-process.js';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a stream still running when the shutdown timeout ends', () => {
  it('is ended and accounted, the database is closed, and the command exits 1', async () => {
    const upstream: OpenAIUpstream = await startOpenAIUpstream();
    cleanups.push(() => upstream.close());
    // Far longer than the shutdown timeout: a model that keeps writing.
    upstream.setDefault({
      frameDelayMs: 400,
      reply: { text: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ') },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-cut-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const file = join(dataDir, 'gatehouse.yaml');
    writeFileSync(
      file,
      [
        'server:',
        '  shutdown_timeout_ms: 1000',
        'llm:',
        '  allowed_models: [slow]',
        'deployments:',
        `  - { model: slow, provider: openai, base_url: "${upstream.url}", api_key: sk-local }`,
        '',
      ].join('\n'),
    );
    const server = await spawnHeadless({
      GATEHOUSE_CONFIG: file,
      GATEHOUSE_DATA_DIR: dataDir,
      PROXY_MASTER_KEY: TEST_MASTER_KEY,
    });
    cleanups.push(() => server.child.kill('SIGKILL'));
    const issued = await fetch(`${server.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'slow-reader' }),
    });
    const { key } = (await issued.json()) as { key: string };
    const response = await fetch(`${server.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow', stream: true, messages: [{ role: 'user', content: 'write on' }] }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();

    server.child.kill('SIGTERM');
    const code = await server.exited();
    expect(code, server.output()).toBe(1);
    expect(server.output()).toContain('requests still running after 1000 ms; ending them');
    expect(server.output()).toContain('gatehouse: stopped');
    expect(await upstream.waitForOutcome(0)).toBe('aborted');

    // A closed database leaves no write-ahead log behind, and the cut request has its usage row.
    expect(existsSync(join(dataDir, 'gatehouse.db-wal')), 'write-ahead log left: the database was not closed').toBe(
      false,
    );
    const db = new Database(join(dataDir, 'gatehouse.db'), { readonly: true });
    cleanups.push(() => db.close());
    const rows = db.prepare('select status, error_type, model from gateway_usage').all();
    expect(rows).toEqual([{ status: 499, error_type: 'client_closed', model: 'slow' }]);
  });
});
