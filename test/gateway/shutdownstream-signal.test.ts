import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess } from '../support/headless-process.js';
import { gatewayAdmin, TEST_MASTER_KEY } from '../support/temp-servers.js';
import {
  startAnthropicUpstream,
  startOpenAIUpstream,
  type AnthropicUpstream,
  type OpenAIUpstream,
} from '../support/upstreams/index.js';
import { readUntilEnd } from './shutdownstream-stream-end.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A model answer that keeps writing far longer than the test. */
const LONG_TEXT = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');

interface Running {
  readonly server: HeadlessProcess;
  readonly dataDir: string;
  readonly openai: OpenAI;
  readonly anthropic: Anthropic;
  readonly held: OpenAIUpstream;
  readonly claudeHeld: AnthropicUpstream;
}

/**
 * `npm run serve` with a 1 s shutdown timeout over slow upstreams: `slow` (chat, Responses) and
 * `claude-slow` (Messages) write a frame every 300 ms; `held` never answers.
 */
async function slowServer(): Promise<Running> {
  const slow: OpenAIUpstream = await startOpenAIUpstream();
  const held: OpenAIUpstream = await startOpenAIUpstream();
  const claude: AnthropicUpstream = await startAnthropicUpstream();
  const claudeHeld: AnthropicUpstream = await startAnthropicUpstream();
  cleanups.push(() => Promise.all([slow.close(), held.close(), claude.close(), claudeHeld.close()]));
  slow.setDefault({ frameDelayMs: 300, reply: { text: LONG_TEXT } });
  claude.setDefault({ frameDelayMs: 300, reply: { text: LONG_TEXT } });
  held.setDefault({ hang: true });
  claudeHeld.setDefault({ hang: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-shutdownstream-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const file = join(dataDir, 'gatehouse.yaml');
  writeFileSync(
    file,
    [
      'server:',
      '  shutdown_timeout_ms: 1000',
      'llm:',
      '  allowed_models: [slow, claude-slow, held, claude-held]',
      'deployments:',
      `  - { model: slow, provider: openai, base_url: "${slow.url}", api_key: sk-local }`,
      `  - { model: held, provider: openai, base_url: "${held.url}", api_key: sk-local }`,
      `  - { model: claude-slow, provider: anthropic, base_url: "${claude.url}", api_key: sk-ant-local }`,
      `  - { model: claude-held, provider: anthropic, base_url: "${claudeHeld.url}", api_key: sk-ant-local }`,
      '',
    ].join('\n'),
  );
  const server = await spawnHeadless({
    GATEHOUSE_CONFIG: file,
    GATEHOUSE_DATA_DIR: dataDir,
    PROXY_MASTER_KEY: TEST_MASTER_KEY,
  });
  cleanups.push(() => server.child.kill('SIGKILL'));
  const issued = await gatewayAdmin(() => server)('POST', '/internal/api-keys', {
    name: 'shutdown-watcher',
    scopes: ['*'],
  });
  const key = (issued.body as { key: string }).key;
  return {
    server,
    dataDir,
    held,
    claudeHeld,
    // No retries: a retried request would meet a server that is gone, and hide what the first one got.
    openai: new OpenAI({ baseURL: `${server.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: server.gatewayUrl, apiKey: key, maxRetries: 0 }),
  };
}

describe('requests still running when the gateway shuts down', () => {
  it('end with an error naming the shutdown in each SDK, and are accounted as 503', async () => {
    const { server, dataDir, openai, anthropic, held, claudeHeld } = await slowServer();
    const chat = await readUntilEnd(
      await openai.chat.completions.create({
        model: 'slow',
        stream: true,
        messages: [{ role: 'user', content: 'go' }],
      }),
    );
    const messages = await readUntilEnd(
      await anthropic.messages.create({
        model: 'claude-slow',
        max_tokens: 1000,
        stream: true,
        messages: [{ role: 'user', content: 'go' }],
      }),
    );
    const responses = await readUntilEnd(
      await openai.responses.create({ model: 'slow', stream: true, store: true, input: 'go' }),
    );
    const whole = openai.chat.completions.create({ model: 'held', messages: [{ role: 'user', content: 'go' }] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const count = anthropic.messages
      .countTokens({ model: 'claude-held', messages: [{ role: 'user', content: 'go' }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await held.waitForRequests(1, 5000);
    await claudeHeld.waitForRequests(1, 5000);

    server.child.kill('SIGTERM');

    const [chatError, messagesError, responsesError] = (await Promise.all([
      chat.ended,
      messages.ended,
      responses.ended,
    ])) as [
      InstanceType<typeof OpenAI.APIError>,
      InstanceType<typeof Anthropic.APIError>,
      InstanceType<typeof OpenAI.APIError>,
    ];
    for (const ended of [chatError, messagesError, responsesError]) {
      expect(ended, server.output()).toBeInstanceOf(Error);
      expect(ended.message).toContain('the gateway is shutting down');
    }
    expect(chatError.error).toMatchObject({ type: 'service_unavailable', code: 503 });
    expect(messagesError.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    expect(responsesError.error).toMatchObject({ type: 'service_unavailable', code: 503 });
    const wholeError = (await whole) as InstanceType<typeof OpenAI.APIError>;
    expect(wholeError, server.output()).toBeInstanceOf(OpenAI.APIError);
    expect(wholeError.status).toBe(503);
    expect(wholeError.error).toMatchObject({ type: 'service_unavailable', code: 503 });
    expect(wholeError.message).toContain('the gateway is shutting down');
    const countError = (await count) as InstanceType<typeof Anthropic.APIError>;
    expect(countError, server.output()).toBeInstanceOf(Anthropic.APIError);
    expect(countError.status).toBe(503);
    expect(countError.message).toContain('the gateway is shutting down');

    expect(await server.exited(), server.output()).toBe(1);
    const db = new Database(join(dataDir, 'gatehouse.db'), { readonly: true });
    cleanups.push(() => db.close());
    const rows = db
      .prepare('select endpoint, model, stream, status, error_type from gateway_usage order by endpoint, stream')
      .all();
    expect(rows).toEqual([
      { endpoint: 'chat', model: 'held', stream: 0, status: 503, error_type: 'service_unavailable' },
      { endpoint: 'chat', model: 'slow', stream: 1, status: 503, error_type: 'service_unavailable' },
      { endpoint: 'count_tokens', model: 'claude-held', stream: 0, status: 503, error_type: 'service_unavailable' },
      { endpoint: 'messages', model: 'claude-slow', stream: 1, status: 503, error_type: 'service_unavailable' },
      { endpoint: 'responses', model: 'slow', stream: 1, status: 503, error_type: 'service_unavailable' },
    ]);
    // The provider had been sent every prompt: each is charged, the whole answer's as a stream's.
    const prompts = db
      .prepare("select prompt_tokens from gateway_usage where endpoint != 'count_tokens'")
      .all() as Array<{ prompt_tokens: number }>;
    for (const row of prompts) expect(row.prompt_tokens).toBeGreaterThan(0);
    // The kept response failed at the server, saying why: its client did not cancel it.
    const kept = db.prepare('select response from gateway_responses').get() as { response: string };
    expect(JSON.parse(kept.response)).toMatchObject({
      status: 'failed',
      error: { code: 'service_unavailable', message: expect.stringContaining('the gateway is shutting down') },
    });
  });
});
