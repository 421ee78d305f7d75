import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postForJson, type UpstreamCall } from '../../src/server/gateway/providers/http-client.js';
import { AnswerBudget, WHOLE_ANSWERS_BUDGET } from '../../src/server/gateway/providers/upstream-body.js';
import { UpstreamError } from '../../src/server/gateway/providers/upstream-error.js';
import { UpstreamPools } from '../../src/server/gateway/providers/upstream-pools.js';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startFrameServer, type FrameServer } from '../support/upstreams/index.js';

const MiB = 1024 * 1024;

/** A chat completion of about `bytes` bytes. */
function largeCompletion(bytes: number): Record<string, unknown> {
  return {
    id: 'chatcmpl-large',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gpt-x',
    choices: [{ index: 0, message: { role: 'assistant', content: 'x'.repeat(bytes) }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
  };
}

/**
 * The budget every answer read whole shares is a moment's state: an answer refused only because other
 * answers were filling it fits a moment later. Such a refusal is retryable after a short wait and says
 * nothing about the deployment; an answer larger than the whole budget is refused for good.
 */
describe('an answer refused because other answers filled the shared budget', () => {
  let upstream: FrameServer;
  let servers: TempServers;
  let key: string;
  let taken = 0;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    upstream = await startFrameServer();
    servers = await startTempServers({
      llm: { allowed_models: ['gpt-x'] },
      gateway: { max_retries: 0, cooldown_after_failures: 2 },
      deployments: [
        {
          id: 'busy-budget',
          model: 'gpt-x',
          provider: 'openai',
          base_url: `${upstream.url}/v1`,
          api_key: 'sk-busy-0123456789',
        },
      ],
    });
    ({ key } = (await admin('POST', '/internal/api-keys', { scopes: ['chat'] })).body as { key: string });
  });
  afterEach(() => giveBack());
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  /** Stands for other answers being read: holds all of the shared budget but `room` bytes. */
  function fillBudgetBut(room: number): void {
    taken = WHOLE_ANSWERS_BUDGET.bytes - WHOLE_ANSWERS_BUDGET.used - room;
    expect(WHOLE_ANSWERS_BUDGET.take(taken)).toBe(true);
  }
  function giveBack(): void {
    WHOLE_ANSWERS_BUDGET.give(taken);
    taken = 0;
  }

  it('answers 502 with a short Retry-After and no x-should-retry: false, and leaves the deployment out of cooldown', async () => {
    upstream.serveJson(largeCompletion(2 * MiB));
    fillBudgetBut(MiB);
    const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const error = (await client.chat.completions
        .create({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(error.status).toBe(502);
      expect((error.error as { upstream?: unknown }).upstream).toMatchObject({ type: 'answer_budget_exceeded' });
      expect(error.message).toContain('while other answers being read held');
      expect(error.headers?.get('x-should-retry')).not.toBe('false');
      expect(error.headers?.get('retry-after')).toBe('1');
      expect(error.headers?.get('retry-after-ms')).toBe('1000');
    }
    const health = (await admin('GET', '/internal/deployments/health')).body.data.find(
      (d: { id: string }) => d.id === 'busy-budget',
    );
    expect(health).toMatchObject({ consecutive_failures: 0, cooldown_until: null });
  });

  it('lets the SDK retry it, which succeeds once the other answers were read', async () => {
    upstream.serveJson(largeCompletion(2 * MiB));
    fillBudgetBut(MiB);
    setTimeout(giveBack, 300);
    const client = new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 1 });
    const completion = await client.chat.completions.create({
      model: 'gpt-x',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]!.message.content).toHaveLength(2 * MiB);
  });
});

describe('an answer larger than the whole budget', () => {
  let upstream: FrameServer;
  const pools = new UpstreamPools();

  beforeAll(async () => {
    upstream = await startFrameServer();
  });
  afterAll(async () => {
    await pools.close();
    await upstream.close();
  });

  it('is refused for good: another try would be as large', async () => {
    upstream.serveJson(largeCompletion(6 * MiB));
    const call: UpstreamCall = {
      pools,
      provider: 'openai',
      baseUrl: `${upstream.url}/v1`,
      path: '/chat/completions',
      headers: {},
      body: { model: 'gpt-x' },
      signal: new AbortController().signal,
      timeoutMs: 10_000,
      secrets: [],
      answerBudget: new AnswerBudget(4 * MiB),
    };
    const refused = await postForJson(call).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused).toMatchObject({
      retryable: false,
      gatewayBusy: false,
      upstreamType: 'answer_budget_exceeded',
      retryAfterMs: undefined,
    });
    expect((refused as Error).message).toMatch(/more than the 4 MiB the gateway holds for answers read at once/);
  });
});
