import OpenAI, { APIConnectionTimeoutError, APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settledHealth } from './support/deployment-health.js';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * The health view under-reported calls (those whose client gave up before the headers were not in
 * `requests`) and showed a 200 stream ending in the provider's error event as `last_status: 500`,
 * the status the error type stands for, while the client is told the upstream answered 200.
 */
describe('deployment health counts', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h.close());
  let round = 0;
  beforeEach(async () => {
    h.openai.reset();
    round += 1;
    const saved = await h.admin('PUT', '/internal/deployments', {
      deployments: [
        {
          id: `counted-${round}`,
          model: 'gpt-4o-mini',
          provider: 'openai',
          base_url: h.openai.url,
          api_key: OPENAI_UPSTREAM_KEY,
          max_retries: 0,
        },
      ],
    });
    expect(saved.status).toBe(200);
  });

  const settled = (id: string, requests: number) => settledHealth(h.admin, id, requests);

  it('counts in requests the calls whose client gave up before the headers, as neither success nor failure', async () => {
    h.openai.setDefault({ delayMs: 3000 });
    try {
      const impatient = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key, maxRetries: 0, timeout: 200 });
      for (let call = 0; call < 2; call += 1)
        await expect(
          impatient.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
        ).rejects.toBeInstanceOf(APIConnectionTimeoutError);
      await h.openai.waitForRequests(2);
      expect(await settled(`counted-${round}`, 2)).toMatchObject({
        requests: 2,
        successes: 0,
        failures: 0,
        consecutive_failures: 0,
        last_error: null,
        avg_latency_ms: null,
      });
    } finally {
      h.openai.setDefault({});
    }
  });

  it('records the 200 of a stream that ended with the error event, with its type in last_error', async () => {
    h.openai.setNext({ streamErrorAfterFrames: 2, error: { type: 'server_error', message: 'the model crashed' } });
    const stream = await h.openaiClient(key).chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'break mid-way please' }],
    });
    const failure = await (async () => {
      for await (const part of stream) expect(part.object).toBe('chat.completion.chunk');
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(APIError);
    const entry = await settled(`counted-${round}`, 1);
    expect(entry).toMatchObject({ requests: 1, failures: 1, last_status: 200 });
    expect(entry.last_error).toContain('server_error');
    expect(entry.last_error).toContain('the model crashed');
  });
});
