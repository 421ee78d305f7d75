import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess, issueKey } from '../support/headless-process.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const MASTER = 'gk-master-log-test-0123456789abcdef';
const OPENAI_KEY = 'sk-upstream-log-test-0123456789secret';
const ANTHROPIC_KEY = 'sk-ant-log-test-0123456789secret';

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** The headless server's log when providers fail: expected operational events, not internal errors. */
describe('upstream failures in the log', () => {
  let dir: string;
  let upstream: OpenAIUpstream;
  let server: HeadlessProcess;
  let key: string;

  const chat = async (model: string) => {
    const response = await fetch(`${server.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
    });
    return {
      status: response.status,
      requestId: response.headers.get('x-request-id'),
      body: (await response.json()) as { error: { type: string; message: string } },
    };
  };
  const logLines = (): LogLine[] =>
    server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: OPENAI_KEY });
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-upstream-log-'));
    const config = join(dir, 'gatehouse.json');
    writeFileSync(
      config,
      JSON.stringify({
        llm: { allowed_models: ['gpt-4o-mini', 'claude-opus-4-7'] },
        // One attempt each: the test counts one warning per failed upstream call.
        gateway: { max_retries: 0 },
        providers: {
          openai: { base_url: upstream.url, api_key: OPENAI_KEY },
          // Nothing listens on port 1: a connection error.
          anthropic: { base_url: 'http://127.0.0.1:1', api_key: ANTHROPIC_KEY },
        },
      }),
    );
    server = await spawnHeadless({
      GATEHOUSE_CONFIG: config,
      GATEHOUSE_DATA_DIR: dir,
      PROXY_MASTER_KEY: MASTER,
      GATEHOUSE_LOG_LEVEL: 'info',
    });
    key = (await issueKey(server.gatewayUrl, MASTER, { scopes: ['chat'] })).key;
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs a provider 5xx, a provider 4xx and a connection error as one warning each, without a stack', async () => {
    upstream.setNext({ status: 500 }, { status: 400, error: { message: 'bad thing upstream' } });
    const failures = [await chat('gpt-4o-mini'), await chat('gpt-4o-mini'), await chat('claude-opus-4-7')];
    for (const failure of failures) {
      expect(failure.status).toBe(502);
      expect(failure.body.error.type).toBe('upstream_error');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));

    const lines = logLines();
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    const warnings = lines.filter((line) => line.level === 40 && line.msg.startsWith('upstream failure: '));
    // Each warning carries the message the client got, with the route and status.
    expect(warnings.map((line) => line.msg)).toEqual(
      failures.map((failure) => `upstream failure: ${failure.body.error.message}`),
    );
    // Each names the request it belongs to, as the answer's x-request-id does.
    expect(warnings.map((line) => line.requestId)).toEqual(failures.map((failure) => failure.requestId));
    for (const warning of warnings) {
      expect(warning).toMatchObject({
        route: '/v1/chat/completions',
        method: 'POST',
        status: 502,
        type: 'upstream_error',
      });
      expect(warning).not.toHaveProperty('err');
    }
    // Lines per request (arrival, completion) are for the debug level only.
    expect(lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed')).toEqual([]);
    const output = server.output();
    expect(output).not.toContain('"stack"');
    for (const secret of [OPENAI_KEY, ANTHROPIC_KEY, MASTER, key]) expect(output).not.toContain(secret);
  });

  it('logs a stream that fails after its 200, and counts the upstream failures in gateway_upstream_failures_total', async () => {
    const series = async (): Promise<Record<string, number>> => {
      const text = await (await fetch(`${server.gatewayUrl}/metrics`)).text();
      const counts: Record<string, number> = {};
      for (const [, labels, value] of text.matchAll(/^gateway_upstream_failures_total\{(.*)\} (\d+)$/gm))
        counts[labels!] = Number(value);
      return counts;
    };
    const before = await series();
    upstream.setNext({ status: 503 }, { status: 400 }, { streamErrorAfterFrames: 2 });
    expect((await chat('gpt-4o-mini')).status).toBe(502);
    expect((await chat('gpt-4o-mini')).status).toBe(502);
    const response = await fetch(`${server.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }], stream: true }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"upstream_error"');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const warning = logLines().find((line) => line.requestId === response.headers.get('x-request-id'));
    expect(warning).toMatchObject({
      level: 40,
      route: '/v1/chat/completions',
      type: 'upstream_error',
      deployment: 'gpt-4o-mini',
      msg: expect.stringMatching(/^upstream failure mid-stream: /),
    });
    const after = await series();
    const grew = (labels: string) => (after[labels] ?? 0) - (before[labels] ?? 0);
    // The 503 is the upstream's failure; the 400 refused the request itself, which any upstream would.
    expect(grew('model="gpt-4o-mini",deployment="gpt-4o-mini",phase="before_answer",reason="5xx"')).toBe(1);
    expect(grew('model="gpt-4o-mini",deployment="gpt-4o-mini",phase="mid_stream",reason="5xx"')).toBe(1);
  });
});
