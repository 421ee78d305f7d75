import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const UPSTREAM_KEY = 'sk-timeout-precision-0123456789';
const TIMEOUT_MS = 300;
// Generous for a loaded 2-core machine, yet a timer that may fire half a second late fails it.
const LATEST_MS = 650;

/**
 * A deployment's `timeout_ms` fires on time, over real sockets: a stalled upstream is given up
 * within tens of milliseconds of the value (undici's own timers for these run on a 0.5 s tick).
 */
describe('upstream timeouts fire on time', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let key: string;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: UPSTREAM_KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['slow-model'] },
      deployments: [
        {
          id: 'slow',
          model: 'slow-model',
          provider: 'openai',
          upstream_model: 'gpt-4o-mini',
          base_url: upstream.url,
          api_key: UPSTREAM_KEY,
          timeout_ms: TIMEOUT_MS,
          max_retries: 0,
        },
      ],
    });
    const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['chat'] }),
    });
    key = ((await created.json()) as { key: string }).key;
  });
  beforeEach(() => upstream.reset());
  afterAll(async () => {
    await servers?.stop();
    await upstream?.close();
  });

  const chat = (stream: boolean): Promise<Response> =>
    fetch(`${servers.gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'slow-model', stream, messages: [{ role: 'user', content: 'hello there' }] }),
    });

  it('an upstream that never answers is a 502 timeout within ~timeout_ms', async () => {
    // Several rounds: undici's coarse timer is late by a different amount each time.
    for (let round = 0; round < 3; round++) {
      upstream.setNext({ hang: true });
      const started = performance.now();
      const answer = await chat(false);
      const elapsed = performance.now() - started;
      expect(answer.status).toBe(502);
      const body = (await answer.json()) as { error: { message: string } };
      expect(body.error.message).toContain('timed out');
      expect(elapsed, `round ${round}`).toBeGreaterThanOrEqual(TIMEOUT_MS - 25);
      expect(elapsed, `round ${round}`).toBeLessThan(LATEST_MS);
    }
  });

  it('a stream that falls silent after its first frame ends with an error within ~timeout_ms of it', async () => {
    for (let round = 0; round < 3; round++) {
      upstream.setNext({ reply: { text: 'one two three four' }, frameDelayMs: 5_000 });
      const answer = await chat(true);
      expect(answer.status).toBe(200);
      const reader = answer.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let firstAt: number | undefined;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        firstAt ??= performance.now();
        text += decoder.decode(value, { stream: true });
      }
      const silence = performance.now() - firstAt!;
      expect(text).toContain('timed out');
      // Loose below: the client may read the first frame a little after the gateway relayed it.
      expect(silence, `round ${round}`).toBeGreaterThanOrEqual(TIMEOUT_MS - 150);
      expect(silence, `round ${round}`).toBeLessThan(LATEST_MS);
    }
  });
});
