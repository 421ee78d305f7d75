import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess, issueKey } from '../support/headless-process.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const MASTER = 'gk-master-responses-crash-0123456789';

/**
 * A kept Response streamed when the process was killed stays `in_progress` in the database, and
 * nothing of that process is left to finish it: the next start marks it failed, so a client polling
 * it learns that it ended instead of waiting forever.
 */
describe('a kept Response cut by a crash', () => {
  let dir: string;
  let upstream: OpenAIUpstream;
  let server: HeadlessProcess | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-responses-crash-'));
    upstream = await startOpenAIUpstream();
    writeFileSync(
      join(dir, 'gatehouse.json'),
      JSON.stringify({
        llm: { allowed_models: ['slow'] },
        deployments: [{ id: 'slow', model: 'slow', provider: 'openai', upstream_model: 'x', base_url: upstream.url }],
      }),
    );
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = () =>
    spawnHeadless({ GATEHOUSE_CONFIG: join(dir, 'gatehouse.json'), GATEHOUSE_DATA_DIR: dir, PROXY_MASTER_KEY: MASTER });

  it('is marked failed at the next start, with a reason', async () => {
    server = await start();
    const key = (await issueKey(server.gatewayUrl, MASTER, { scopes: ['responses'] })).key;
    const client = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });

    upstream.setNext({ frameDelayMs: 300, reply: { text: 'one two three four five six seven eight nine ten' } });
    const stream = await client(server.gatewayUrl).responses.create({
      model: 'slow',
      input: 'take your time',
      store: true,
      stream: true,
    });
    let id = '';
    const killed = server;
    // Killed while the client is still reading: had the client left first, the gateway would have
    // kept the response as cancelled, and nothing would be left for the next start to mark. The
    // stream then ends with the connection.
    await (async () => {
      for await (const event of stream) {
        if (event.type === 'response.created') id = event.response.id;
        if (event.type === 'response.output_text.delta') {
          killed.child.kill('SIGKILL');
          await killed.exited();
        }
      }
    })().catch(() => undefined);
    expect(id).not.toBe('');

    server = await start();
    expect(server.output()).toContain('marked 1 kept response(s) failed');
    const kept = await client(server.gatewayUrl).responses.retrieve(id);
    expect(kept.status).toBe('failed');
    expect(kept.error).toEqual({
      code: 'server_error',
      message: 'the gateway stopped before the response was complete',
    });
  }, 30_000);
});
