import OpenAI, { type APIError } from 'openai';
import { rawPost } from '../support/raw-post.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  OPENAI_UPSTREAM_KEY,
  SECONDARY_UPSTREAM_KEY,
  startGatewayHarness,
  type GatewayHarness,
} from './support/harness.js';

describe('deployment routing and fallback (ha-model: primary, then secondary)', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness();
    client = h.openaiClient((await h.issueKey()).key);
  });
  afterAll(async () => h.close());
  let round = 0;
  beforeEach(async () => {
    h.openai.reset();
    h.openaiSecondary.reset();
    // Fresh deployment ids per test: earlier failures would otherwise put the primary in cooldown.
    round += 1;
    const deployments = await h.admin('PUT', '/internal/deployments', {
      deployments: [
        {
          id: `ha-primary-${round}`,
          model: 'ha-model',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: h.openai.url,
          api_key: OPENAI_UPSTREAM_KEY,
          weight: 1_000_000,
        },
        {
          id: `ha-secondary-${round}`,
          model: 'ha-model',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: h.openaiSecondary.url,
          api_key: SECONDARY_UPSTREAM_KEY,
          weight: 0.000001,
        },
      ],
    });
    expect(deployments.status).toBe(200);
  });

  const ask = (stream = false) =>
    stream
      ? client.chat.completions.create({
          model: 'ha-model',
          stream: true,
          messages: [{ role: 'user', content: 'route me' }],
        })
      : client.chat.completions.create({ model: 'ha-model', messages: [{ role: 'user', content: 'route me' }] });

  it("sends the deployment's upstream model with its own key", async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'ha-model', messages: [{ role: 'user', content: 'x' }] })
      .withResponse();
    expect(data.model).toBe('ha-model');
    expect(response.headers?.get('x-gateway-deployment')).toBe(`ha-primary-${round}`);
    expect(h.openai.lastRequest()!.body.model).toBe('gpt-4o-mini');
    expect(h.openaiSecondary.requests).toHaveLength(0);
  });

  for (const status of [429, 500, 503]) {
    it(`falls back to the next deployment on ${status}`, async () => {
      h.openai.setNext({ status });
      const { data, response } = await client.chat.completions
        .create({ model: 'ha-model', messages: [{ role: 'user', content: 'x' }] })
        .withResponse();
      expect(data.choices[0]!.message.content).toBe('You said: x');
      expect(response.headers?.get('x-gateway-deployment')).toBe(`ha-secondary-${round}`);
      expect(h.openai.requests).toHaveLength(1);
      expect(h.openaiSecondary.lastRequest()!.headers.authorization).toBe(`Bearer ${SECONDARY_UPSTREAM_KEY}`);
    });
  }

  it("falls back on a connection dropped before the answer, and before a stream's first byte", async () => {
    h.openai.setNext({ dropAfterFrames: 0 });
    const stream = await ask(true);
    let text = '';
    for await (const chunk of stream as AsyncIterable<OpenAI.ChatCompletionChunk>)
      text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('You said: route me');
    expect(h.openaiSecondary.requests).toHaveLength(1);
  });

  it('does not fall back on a non-retryable provider error: 502 with x-upstream-status', async () => {
    h.openai.setNext({ status: 400, error: { message: 'unsupported parameter' } });
    const error = (await ask().catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(502);
    expect(error.type).toBe('upstream_error');
    expect(error.headers?.get('x-upstream-status')).toBe('400');
    expect(h.openaiSecondary.requests).toHaveLength(0);
  });

  it('answers 502 with the last provider status when every deployment fails', async () => {
    h.openai.setNext({ status: 503 });
    h.openaiSecondary.setNext({ status: 500 });
    const error = (await ask().catch((e: unknown) => e)) as APIError;
    expect(error.status).toBe(502);
    expect(error.headers?.get('x-upstream-status')).toBe('500');
    expect(error.message).toContain('after 2 attempts');
  });

  it('never retries after the first streamed byte: the error arrives in the stream', async () => {
    h.openai.setNext({ streamErrorAfterFrames: 2 });
    const stream = await ask(true);
    const consume = async () => {
      for await (const _ of stream as AsyncIterable<OpenAI.ChatCompletionChunk>) void _;
    };
    await expect(consume()).rejects.toBeInstanceOf(OpenAI.APIError);
    expect(h.openaiSecondary.requests).toHaveLength(0);
    const rows = await h.usageRows('model=ha-model&limit=1');
    expect(rows[0]).toMatchObject({
      status: 200,
      error_type: 'upstream_error',
      stream: true,
      deployment: `ha-primary-${round}`,
    });
  });

  it('reports deployment health, and tries a deployment that keeps failing last', async () => {
    for (let i = 0; i < 3; i += 1) {
      h.openai.setNext({ status: 503 });
      await ask();
    }
    const health = await h.admin('GET', '/internal/deployments/health');
    expect(health.status).toBe(200);
    const primary = health.body.data.find((d: { id: string }) => d.id === `ha-primary-${round}`);
    expect(primary).toMatchObject({
      model: 'ha-model',
      provider: 'openai',
      state: 'cooling_down',
      failures: 3,
      consecutive_failures: 3,
      last_status: 503,
    });
    expect(health.body.data.find((d: { id: string }) => d.id === `ha-secondary-${round}`)).toMatchObject({
      state: 'healthy',
      successes: 3,
    });
    const before = h.openai.requests.length;
    await ask();
    expect(h.openai.requests.length).toBe(before);
  });
});

describe('client disconnects', () => {
  let h: GatewayHarness;
  let secret: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    secret = (await h.issueKey()).key;
  });
  afterAll(async () => h.close());

  const post = (body: object) => rawPost(`${h.url}/v1/chat/completions`, secret, body);

  it('a client that leaves mid-stream aborts the upstream request and is accounted as 499', async () => {
    h.openai.reset();
    h.openai.setNext({ frameDelayMs: 200 });
    const call = post({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'a long answer with many words to stream slowly' }],
    });
    const response = await call.response;
    const requestId = response.headers['x-request-id'] as string;
    const first = await new Promise<string>((resolve) =>
      response.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    expect(first).toContain('data: ');
    call.destroy();
    expect(await h.openai.waitForOutcome(0, 3000)).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const rows = await h.usageRows(`request_id=${requestId}`);
    expect(rows[0]).toMatchObject({ status: 499, error_type: 'client_closed', stream: true });
  });

  it('a client that leaves before a non-streaming answer aborts the upstream too', async () => {
    h.openai.reset();
    h.openai.setNext({ hang: true });
    const call = post({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] });
    await h.openai.waitForRequests(1);
    call.destroy();
    expect(await h.openai.waitForOutcome(0, 3000)).toBe('aborted');
  });
});
