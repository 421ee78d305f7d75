import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess, issueKey } from '../support/headless-process.js';
import { TEST_MASTER_KEY } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The headless server with a model that keeps writing far longer than the test, and one stream of it begun. */
async function streamRunning(
  shutdownTimeoutMs: number,
): Promise<{ server: HeadlessProcess; upstream: OpenAIUpstream; dataDir: string }> {
  const upstream = await startOpenAIUpstream();
  cleanups.push(() => upstream.close());
  upstream.setDefault({ frameDelayMs: 400, reply: { text: Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ') } });
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-cut-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const file = join(dataDir, 'gatehouse.yaml');
  writeFileSync(
    file,
    [
      'server:',
      `  shutdown_timeout_ms: ${shutdownTimeoutMs}`,
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
  const { key } = await issueKey(server.gatewayUrl, TEST_MASTER_KEY, { name: 'slow-reader' });
  const response = await fetch(`${server.gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'slow', stream: true, messages: [{ role: 'user', content: 'write on' }] }),
  });
  expect(response.status).toBe(200);
  await response.body!.getReader().read();
  return { server, upstream, dataDir };
}

/** A closed database leaves no write-ahead log behind, the folder is given back, and the cut request has its usage row. */
function expectClosedWithCutRow(dataDir: string): void {
  expect(existsSync(join(dataDir, 'gatehouse.db-wal')), 'write-ahead log left: the database was not closed').toBe(
    false,
  );
  expect(existsSync(join(dataDir, 'gatehouse.lock')), 'hold file left: the data folder was not given back').toBe(false);
  const db = new Database(join(dataDir, 'gatehouse.db'), { readonly: true });
  cleanups.push(() => db.close());
  const rows = db.prepare('select status, error_type, model from gateway_usage').all();
  expect(rows).toEqual([{ status: 503, error_type: 'service_unavailable', model: 'slow' }]);
}

describe('a stream still running at shutdown', () => {
  it('is ended and accounted when the shutdown timeout ends, the database is closed, and the exit status is 1', async () => {
    const { server, upstream, dataDir } = await streamRunning(1000);
    server.child.kill('SIGTERM');
    expect(await server.exited(), server.output()).toBe(1);
    expect(server.output()).toContain(
      'gatehouse: requests still running after 1000 ms; ending the requests still running\n',
    );
    expect(server.output()).toContain('gatehouse: stopped');
    expect(await upstream.waitForOutcome(0)).toBe('aborted');
    expectClosedWithCutRow(dataDir);
  });

  it('is ended at once by a second Ctrl-C, without waiting for the timeout', async () => {
    const { server, dataDir } = await streamRunning(60_000);
    server.child.kill('SIGINT');
    await expect.poll(() => server.output()).toContain('SIGINT received, finishing requests in flight');
    const secondAt = Date.now();
    server.child.kill('SIGINT');
    expect(await server.exited(), server.output()).toBe(1);
    expect(Date.now() - secondAt).toBeLessThan(5000);
    expect(server.output()).toContain('gatehouse: SIGINT received again; ending the requests still running\n');
    expectClosedWithCutRow(dataDir);
  });
});
