import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPost } from '../support/raw-post.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';
import { startGatewayHarness } from './support/harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A key no pattern recognises (as vLLM, Ollama or llama.cpp `--api-key` keys are): only its exact value can be redacted. */
const PLAIN_KEY = 'localsecretpassphrase';

describe("the deployment's own key never reaches a client, whatever the path", () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let secret: string;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: PLAIN_KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['m'] },
      deployments: [
        { id: 'd', model: 'm', provider: 'vllm', upstream_model: 'x', base_url: upstream.url, api_key: PLAIN_KEY },
      ],
      gateway: { max_retries: 0 },
    });
    const created = await servers.gateway.inject({
      method: 'POST',
      url: '/internal/api-keys',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
      payload: {},
    });
    secret = created.json().key;
  });
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  const call = async (stream: boolean): Promise<string> => {
    const response = await fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi there you' }], stream }),
    });
    return `${response.status} ${await response.text()}`;
  };

  it('in JSON answers, stream error frames (before and after the first frame) and the health view', async () => {
    const error = { message: `token ${PLAIN_KEY} over quota` };
    upstream.setNext({ status: 500, error });
    const json = await call(false);
    upstream.setNext({ streamErrorAfterFrames: 2, error });
    const midStream = await call(true);
    upstream.setNext({ streamErrorAfterFrames: 0, error });
    const firstFrame = await call(true);
    const health = await fetch(`${servers.gatewayUrl}/internal/deployments/health`, {
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
    });
    for (const text of [json, midStream, firstFrame, await health.text()]) {
      expect(text).not.toContain(PLAIN_KEY);
      expect(text).toContain('over quota');
    }
  });
});

describe('requests whose client left', () => {
  it('an embeddings request left mid-call is one 499 row, with no audit event, and a stream left mid-way keeps what was sent', async () => {
    const h = await startGatewayHarness();
    try {
      const secret = (await h.issueKey({ scopes: ['chat', 'embeddings'] })).key;
      const big = rawPost(`${h.url}/v1/embeddings`, secret, {
        model: 'demo/embed',
        input: Array.from({ length: 2048 }, (_, i) => `text ${i}`),
        dimensions: 3072,
      });
      const bigId = await new Promise<string>((resolve) => {
        void big.response.then((r) => resolve(r.headers['x-request-id'] as string));
        setTimeout(() => resolve(''), 150);
      });
      big.destroy();
      await sleep(1500);
      const auditBefore = (await h.admin('GET', '/internal/audit?limit=100')).body.data.filter(
        (event: { action: string }) => event.action === 'embeddings.create',
      );
      const rows = (await h.usageRows('limit=50')).filter((row: { endpoint: string }) => row.endpoint === 'embeddings');
      expect(bigId).toBe('');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 499, error_type: 'client_closed' });
      expect(auditBefore).toHaveLength(0);

      h.openai.setNext({ frameDelayMs: 200 });
      const leaving = rawPost(`${h.url}/v1/chat/completions`, secret, {
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: 'a long answer with many words to stream slowly' }],
      });
      const response = await leaving.response;
      const id = response.headers['x-request-id'] as string;
      await new Promise((resolve) => response.once('data', resolve));
      leaving.destroy();
      await sleep(400);
      const traffic = (await h.admin('GET', '/internal/traffic?limit=20')).body.data as Array<{
        request_id: string;
        status: number;
        response_body: unknown;
      }>;
      const event = traffic.find((e) => e.request_id === id);
      expect(event?.status).toBe(499);
      expect(String(event?.response_body)).toContain('data: ');
    } finally {
      await h.close();
    }
  });
});

describe('graceful close', () => {
  it('finishes pipelined requests in flight before it closes their connection', async () => {
    const h = await startGatewayHarness();
    const secret = (await h.issueKey({ scopes: ['chat'] })).key;
    const body = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'one two three' }],
      stream: true,
    });
    h.openai.setNext({ frameDelayMs: 100 }, { frameDelayMs: 100 });
    const socket = connect(Number(new URL(h.url).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    const request = `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${secret}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    socket.write(request + request);
    await sleep(150);
    await h.servers.gateway.close();
    await sleep(200);
    expect(received.match(/HTTP\/1.1 200/g)).toHaveLength(2);
    expect(received.match(/\[DONE\]/g)).toHaveLength(2);
    await h.close().catch(() => undefined);
  });
});
