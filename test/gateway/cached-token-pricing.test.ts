import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnthropicReply } from '../support/upstreams/anthropic-upstream.js';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

/**
 * Providers bill prompt tokens read from their cache for less than other input (OpenAI's cached
 * tokens, Anthropic's cache reads), and Anthropic bills cache writes for more. Priced at the input
 * rate, every cached request overstated its cost and cost budgets refused too early.
 */
describe('the cost of cached prompt tokens', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    h = await startGatewayHarness({
      pricing: {
        'gpt-4o-mini': { input_per_mtok: 2, output_per_mtok: 8, cached_input_per_mtok: 0.5 },
        'claude-opus-4-7': {
          input_per_mtok: 10,
          output_per_mtok: 20,
          cached_input_per_mtok: 1,
          cache_write_per_mtok: 12.5,
          cache_write_1h_per_mtok: 20,
          web_search_per_1k: 10,
        },
      },
    });
    key = (await h.issueKey({ scopes: ['chat'] })).key;
  });
  afterAll(async () => h.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** The usage row of a Messages call to an Anthropic upstream reporting `usage`, whole or streamed. */
  async function anthropicRow(usage: NonNullable<AnthropicReply['usage']>, stream: boolean) {
    h.anthropic.setNext({ reply: { text: 'ok', usage } });
    const answer = await post(
      '/v1/messages',
      { model: 'claude-opus-4-7', max_tokens: 64, stream, messages: [{ role: 'user', content: 'hi' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(answer.status).toBe(200);
    await answer.text();
    // A stream's row is written when it closes, a moment after its last byte.
    let [row] = await h.usageRows('limit=1');
    for (let tries = 0; tries < 40 && row.stream !== stream; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      [row] = await h.usageRows('limit=1');
    }
    return row;
  }

  it('prices OpenAI cached tokens at their own rate', async () => {
    h.openai.setNext({
      reply: {
        text: 'ok',
        usage: { prompt_tokens: 1000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 900 } },
      },
    });
    const answer = await post('/v1/chat/completions', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.status).toBe(200);
    const [row] = await h.usageRows('limit=1');
    // 100 plain at 2, 900 cached at 0.5, 100 out at 8, per million.
    expect(row.cost_usd).toBeCloseTo((100 * 2 + 900 * 0.5 + 100 * 8) / 1e6, 12);
    // The row says why it cost what it did.
    expect(row).toMatchObject({ cache_read_prompt_tokens: 900, cache_write_prompt_tokens: null });
  });

  it('prices hour-long cache writes and web searches at theirs, whole and streamed', async () => {
    const usage = {
      input_tokens: 100,
      output_tokens: 50,
      cache_creation_input_tokens: 500,
      cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 300 },
      server_tool_use: { web_search_requests: 3 },
    };
    // 100 plain at 10, 200 five-minute writes at 12.5, 300 hour-long at 20, 50 out at 20 per million;
    // 3 searches at $10 per thousand. Priced as 5-minute writes and free searches, it read $0.00825.
    const expected = (100 * 10 + 200 * 12.5 + 300 * 20 + 50 * 20) / 1e6 + (3 * 10) / 1000;
    for (const stream of [false, true]) {
      const row = await anthropicRow(usage, stream);
      expect({ stream, cost: row.cost_usd }).toEqual({ stream, cost: expect.closeTo(expected, 12) });
    }
  });

  it("keeps the parts of a request's tokens in its usage row, its traffic event and the totals", async () => {
    const since = Date.now();
    h.openai.setNext({
      reply: {
        text: 'ok',
        usage: {
          prompt_tokens: 1000,
          completion_tokens: 300,
          prompt_tokens_details: { cached_tokens: 400 },
          completion_tokens_details: { reasoning_tokens: 200 },
        },
      },
    });
    const reasoned = await post('/v1/chat/completions', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'a' }],
    });
    expect(reasoned.status).toBe(200);
    const requestId = reasoned.headers.get('x-request-id')!;
    // A provider that does not say leaves the parts unknown, not 0.
    h.openai.setNext({ reply: { text: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } } });
    expect(
      (await post('/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'b' }] })).status,
    ).toBe(200);

    const [plain, detailed] = await h.usageRows('limit=2');
    expect(detailed).toMatchObject({
      request_id: requestId,
      cache_read_prompt_tokens: 400,
      cache_write_prompt_tokens: null,
      reasoning_tokens: 200,
    });
    expect(plain).toMatchObject({
      cache_read_prompt_tokens: null,
      cache_write_prompt_tokens: null,
      reasoning_tokens: null,
    });

    const usage = (await h.admin('GET', `/internal/usage?since=${since}&group_by=none`)).body as {
      totals: Record<string, number>;
    };
    expect(usage.totals).toMatchObject({
      prompt_tokens: 1010,
      cache_read_prompt_tokens: 400,
      cache_write_prompt_tokens: 0,
      reasoning_tokens: 200,
    });
    const traffic = (await h.admin('GET', '/internal/traffic?limit=10&bodies=false')).body as {
      data: Array<Record<string, unknown>>;
    };
    expect(traffic.data.find((event) => event.request_id === requestId)).toMatchObject({
      cache_read_prompt_tokens: 400,
      reasoning_tokens: 200,
    });
  });

  it('prices Anthropic cache reads and writes at theirs, whole and streamed', async () => {
    const usage = {
      input_tokens: 100,
      output_tokens: 50,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 500,
    };
    const expected = (100 * 10 + 1000 * 1 + 500 * 12.5 + 50 * 20) / 1e6;
    for (const stream of [false, true]) {
      const row = await anthropicRow(usage, stream);
      expect({
        stream,
        prompt: row.prompt_tokens,
        read: row.cache_read_prompt_tokens,
        written: row.cache_write_prompt_tokens,
        cost: row.cost_usd,
      }).toEqual({ stream, prompt: 1600, read: 1000, written: 500, cost: expect.closeTo(expected, 12) });
    }
  });
});
