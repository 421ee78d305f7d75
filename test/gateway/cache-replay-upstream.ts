import Anthropic from '@anthropic-ai/sdk';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';

/**
 * An upstream that answers every request with exactly the text a test gives it (JSON as a provider
 * formats it, pretty-printed or not, or SSE frames), and counts the requests it received.
 */
export interface RawUpstream {
  readonly url: string;
  /** Requests received since the last `answer`. */
  readonly requests: number;
  /** Answers the coming requests with `body` as JSON, written with `indent` spaces (as api.openai.com writes it). */
  answerJson(body: unknown, indent?: number): void;
  /** Answers the coming requests with these SSE frames. */
  answerFrames(frames: readonly string[]): void;
  close(): Promise<void>;
}

/** Starts a raw upstream on 127.0.0.1:0. */
export async function startRawUpstream(): Promise<RawUpstream> {
  let contentType = 'application/json';
  let text = '{}';
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      response.writeHead(200, { 'content-type': contentType });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return requests;
    },
    answerJson(body, indent = 0) {
      contentType = 'application/json';
      text = JSON.stringify(body, null, indent);
      requests = 0;
    },
    answerFrames(frames) {
      contentType = 'text/event-stream';
      text = frames.join('');
      requests = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An `event:` + `data:` frame. */
export function namedFrame(data: { readonly type: string; readonly [field: string]: unknown }): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A raw upstream and both SDK clients of a gateway caching every answer of it, as {@link withRawGateway} hands them over. */
export interface RawGateway {
  readonly raw: RawUpstream;
  readonly openai: OpenAI;
  readonly anthropic: Anthropic;
}

/**
 * A gateway caching every answer (`sampled` too) of three deployments on one raw upstream, `raw-chat`,
 * `raw-claude` (Messages) and `raw-responses` (a native Responses API), started before the block's tests
 * and stopped after them. Read the fields inside the tests.
 */
export function withRawGateway(): RawGateway {
  const context = {} as { raw: RawUpstream; openai: OpenAI; anthropic: Anthropic };
  let servers: TempServers | undefined;
  beforeAll(async () => {
    context.raw = await startRawUpstream();
    const url = context.raw.url;
    servers = await startTempServers({
      llm: { allowed_models: ['raw-chat', 'raw-claude', 'raw-responses'] },
      gateway: { max_retries: 0 },
      deployments: [
        { id: 'raw-chat', model: 'raw-chat', provider: 'openai', upstream_model: 'gpt-4o', base_url: `${url}/v1` },
        { id: 'raw-claude', model: 'raw-claude', provider: 'anthropic', upstream_model: 'claude-x', base_url: url },
        {
          id: 'raw-responses',
          model: 'raw-responses',
          provider: 'openai',
          upstream_model: 'gpt-4.1',
          base_url: `${url}/v1`,
          responses_api: 'native',
        },
      ],
      cache: { enabled: true, ttl_seconds: 600, sampled: true },
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['*'] }),
    });
    if (created.status !== 201) throw new Error(`key issuance failed: ${await created.text()}`);
    const { key } = (await created.json()) as { key: string };
    context.openai = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    context.anthropic = new Anthropic({ baseURL: servers.gatewayUrl, apiKey: key, maxRetries: 0 });
  });
  afterAll(async () => {
    await servers?.stop();
    await context.raw?.close();
  });
  return context;
}
