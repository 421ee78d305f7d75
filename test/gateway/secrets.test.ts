import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess } from '../support/headless-process.js';

const MASTER = 'gk-master-secret-test-0123456789abcdef';
const PROVIDER_KEY = 'sk-provider-secret-in-config-0123456789';
const PASSTHROUGH_KEY = 'sk-passthrough-secret-0123456789';

/** The headless server at debug level: everything it prints, and everything it answers, is free of secrets. */
describe('secrets never appear in logs, answers, traffic or metrics', () => {
  let dir: string;
  let server: HeadlessProcess;
  let issued: string;
  const answers: string[] = [];
  const call = async (path: string, token: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const response = await fetch(`${server.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    answers.push(text, JSON.stringify([...response.headers]));
    return { status: response.status, text };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-secrets-'));
    const config = join(dir, 'gatehouse.json');
    writeFileSync(
      config,
      JSON.stringify({
        llm: { allowed_models: ['demo/echo', 'gpt-4o-mini', 'text-embedding-3-small'] },
        allow_passthrough_keys: true,
        // Nothing listens on port 1: every provider call fails, and its error is logged and answered.
        providers: { openai: { base_url: 'http://127.0.0.1:1/v1', api_key: PROVIDER_KEY } },
      }),
    );
    server = await spawnHeadless({
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: dir,
      PROXY_MASTER_KEY: MASTER,
      GATEHOUSE_LOG_LEVEL: 'debug',
    });
    issued = JSON.parse((await call('/internal/api-keys', MASTER, { scopes: ['*'] })).text).key;
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on success, failure and refusal paths', async () => {
    expect(
      (
        await call('/v1/chat/completions', issued, {
          model: 'demo/echo',
          messages: [{ role: 'user', content: 'hello' }],
        })
      ).status,
    ).toBe(200);
    const upstream = await call('/v1/chat/completions', issued, {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(upstream.status).toBe(502);
    expect(
      (await call('/v1/embeddings', PASSTHROUGH_KEY, { model: 'text-embedding-3-small', input: 'x' })).status,
    ).toBe(502);
    expect((await call('/v1/chat/completions', `${issued}x`, { model: 'demo/echo', messages: [] })).status).toBe(401);
    expect(
      (await call('/v1/chat/completions', MASTER, { model: 'demo/echo', messages: [{ role: 'user', content: 'x' }] }))
        .status,
    ).toBe(401);
    await call('/internal/traffic', MASTER);
    await call('/internal/usage/logs', MASTER);
    await call('/internal/audit', MASTER);
    await call('/internal/deployments', MASTER);
    await call('/internal/api-keys', MASTER);
    answers.push(await (await fetch(`${server.gatewayUrl}/metrics`)).text());
    await new Promise((resolve) => setTimeout(resolve, 200));

    const everything = `${server.output()}\n${answers.join('\n')}`;
    expect(server.output()).toContain('"url":"/v1/chat/completions"');
    // At debug level Fastify logs each request's arrival and completion, bound to its id.
    expect(server.output()).toMatch(
      /"requestId":"[^"]+","res":\{"statusCode":502\},"responseTime":[0-9.]+,"msg":"request completed"/,
    );
    for (const secret of [MASTER, PROVIDER_KEY, PASSTHROUGH_KEY]) expect(everything).not.toContain(secret);
    // The issued key appears exactly once: in the answer that issued it.
    expect(everything.split(issued).length - 1).toBe(1);
  });
});
