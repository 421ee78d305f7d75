import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { rawPost } from '../../support/raw-post.js';
import { startGatewayHarness, type GatewayHarness } from '../support/harness.js';

// A client that leaves while the provider works on its request has still had its prompt sent: it is
// charged that prompt, as a stream left mid-way is, so leaving just before every answer cannot spend
// provider tokens that no budget sees. A client that leaves when no call is under way is charged nothing.

const prompt = 'please summarise this long report about quarterly figures '.repeat(40);

describe('a request whose client leaves before the answer', () => {
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  /**
   * Sends a request its upstream never answers (a chat completion, unless `count` asks for a token
   * count), leaves once it reached the upstream, and returns its usage row.
   */
  const leaveWhileCalling = async (
    harness: GatewayHarness,
    key: { id: string; key: string },
    count = false,
  ): Promise<any> => {
    const upstream = count ? harness.anthropic : harness.openai;
    upstream.setNext({ hang: true });
    const call = rawPost(`${harness.url}${count ? '/v1/messages/count_tokens' : '/v1/chat/completions'}`, key.key, {
      model: count ? 'claude-opus-4-7' : 'gpt-4o-mini',
      messages: [{ role: 'user', content: prompt }],
    });
    await upstream.waitForRequests(1);
    call.destroy();
    expect(await upstream.waitForOutcome(0, 3000)).toBe('aborted');
    await sleep(50);
    return (await harness.usageRows(`key_id=${key.id}`))[0];
  };

  const dailyUsed = async (harness: GatewayHarness, user: string): Promise<number> =>
    (await harness.admin('GET', `/internal/users/${user}`)).body.limits.find(
      (limit: { limit_type: string }) => limit.limit_type === 'user_daily',
    ).used;

  it('is charged its prompt while the provider call is under way: usage row, cost and budget', async () => {
    const harness = (h = await startGatewayHarness());
    await harness.admin('POST', '/internal/users', { id: 'leaver', tpd_budget: 1_000_000 });
    const key = await harness.issueKey({ scopes: ['chat'], user: 'leaver' });
    const row = await leaveWhileCalling(harness, key);
    expect(row).toMatchObject({ status: 499, error_type: 'client_closed', completion_tokens: 0 });
    // About 400 tokens of prompt (the limits stage counted them with the tokenizer).
    expect(row.prompt_tokens).toBeGreaterThan(300);
    expect(row.prompt_tokens).toBeLessThan(600);
    expect(row.cost_usd).toBeCloseTo((row.prompt_tokens * 0.15) / 1_000_000, 10);
    expect(await dailyUsed(harness, 'leaver')).toBe(row.prompt_tokens);
  });

  it('without limits on the key, the prompt is estimated from the body', async () => {
    const harness = (h = await startGatewayHarness());
    const key = await harness.issueKey({ scopes: ['chat'] });
    const row = await leaveWhileCalling(harness, key);
    expect(row).toMatchObject({ status: 499, completion_tokens: 0 });
    expect(row.prompt_tokens).toBeGreaterThan(300);
    expect(row.prompt_tokens).toBeLessThan(900);
  });

  it('a token count left mid-call is charged nothing: counting is free at the provider', async () => {
    const harness = (h = await startGatewayHarness());
    const key = await harness.issueKey({ scopes: ['chat'] });
    const row = await leaveWhileCalling(harness, key, true);
    expect(row).toMatchObject({ endpoint: 'count_tokens', status: 499, prompt_tokens: 0, cost_usd: 0 });
  });

  it('is charged nothing when it leaves during a retry pause, after a failed attempt', async () => {
    const harness = (h = await startGatewayHarness({ gateway: { max_retries: 1, retry_backoff_ms: 3000 } }));
    await harness.admin('POST', '/internal/users', { id: 'patient', tpd_budget: 1_000_000 });
    const key = await harness.issueKey({ scopes: ['chat'], user: 'patient' });
    harness.openai.setNext({ status: 503 });
    const call = rawPost(`${harness.url}/v1/chat/completions`, key.key, {
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: prompt }],
    });
    await harness.openai.waitForOutcome(0, 3000);
    // The 503 was answered; the gateway now waits before its retry.
    await sleep(200);
    call.destroy();
    await sleep(100);
    const [row] = await harness.usageRows(`key_id=${key.id}`);
    expect(row).toMatchObject({ status: 499, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 });
    expect(harness.openai.requests).toHaveLength(1);
    expect(await dailyUsed(harness, 'patient')).toBe(0);
  });
});
