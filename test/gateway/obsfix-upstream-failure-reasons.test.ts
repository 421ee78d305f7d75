import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * `gateway_upstream_failures_total` says what failed in its `reason` label, so throttling, an outage
 * and a refused key are told apart, while a provider's refusal of the request as malformed (the
 * caller's mistake) stays out of it, though the caller gets a 502 for it as for the others.
 */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const failures = (deployment: string, phase: string, reason: string): string =>
  `gateway_upstream_failures_total{model="ha-model",deployment="${deployment}",phase="${phase}",reason="${reason}"}`;

describe('upstream failures by reason over a running gateway', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness();
    // One deployment per test step, without retries: each failure is one attempt, then the 502.
    await useDeployment({ id: 'solo', base_url: h.openai.url });
    key = (await h.issueKey()).key;
  });
  afterAll(async () => h?.close());

  async function useDeployment(fields: Record<string, unknown>): Promise<void> {
    const deployment = {
      model: 'ha-model',
      provider: 'openai',
      upstream_model: 'gpt-4o-mini',
      api_key: OPENAI_UPSTREAM_KEY,
      max_retries: 0,
      ...fields,
    };
    const saved = await h.admin('PUT', '/internal/deployments', { deployments: [deployment] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  const scrape = async (): Promise<string> => (await fetch(`${h.url}/metrics`)).text();
  const ask = async (stream = false): Promise<number> => {
    const response = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'ha-model', stream, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await response.text();
    return response.status;
  };

  it('shows every reason of every phase at 0 before any failure', async () => {
    const text = await scrape();
    for (const phase of ['before_answer', 'mid_stream'])
      for (const reason of ['429', '5xx', '4xx', 'timeout', 'connection', 'invalid_answer', 'other'])
        expect(sample(text, failures('solo', phase, reason)), `${phase} ${reason}`).toBe(0);
  });

  it("tells the provider's throttling, server errors and refusals apart, and leaves the caller's 400 out", async () => {
    h.openai.setNext({ status: 429 }, { status: 503 }, { status: 500 }, { status: 401 }, { status: 400 });
    for (let call = 0; call < 5; call += 1) expect(await ask()).toBe(502);
    // A 2xx whose body is no chat completion.
    h.openai.setNext({ body: { unexpected: true } });
    expect(await ask()).toBe(502);
    const text = await scrape();
    expect(sample(text, failures('solo', 'before_answer', '429'))).toBe(1);
    expect(sample(text, failures('solo', 'before_answer', '5xx'))).toBe(2);
    expect(sample(text, failures('solo', 'before_answer', '4xx'))).toBe(1);
    expect(sample(text, failures('solo', 'before_answer', 'invalid_answer'))).toBe(1);
    // The provider's 400 refused the request itself: a 502 for the caller, no failure of the provider.
    expect(sample(text, failures('solo', 'before_answer', 'other'))).toBe(0);
    expect(sample(text, 'gateway_requests_total{model="ha-model",status="502"}')).toBe(6);
  });

  it('counts an error event in a started stream under mid_stream with its reason', async () => {
    h.openai.setNext({ streamErrorAfterFrames: 1, error: { type: 'server_error', message: 'boom' } });
    expect(await ask(true)).toBe(200);
    expect(sample(await scrape(), failures('solo', 'mid_stream', '5xx'))).toBe(1);
  });

  it('tells a timeout and a refused connection apart', async () => {
    await useDeployment({ id: 'slow', base_url: h.openai.url, timeout_ms: 300 });
    h.openai.setNext({ hang: true });
    expect(await ask()).toBe(502);
    // Nothing listens on port 1.
    await useDeployment({ id: 'gone', base_url: 'http://127.0.0.1:1/v1' });
    expect(await ask()).toBe(502);
    const text = await scrape();
    expect(sample(text, failures('slow', 'before_answer', 'timeout'))).toBe(1);
    expect(sample(text, failures('gone', 'before_answer', 'connection'))).toBe(1);
  });
});
