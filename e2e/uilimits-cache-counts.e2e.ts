import OpenAI from 'openai';
import { startChatUpstream } from './chat-upstream.js';
import { allowModel, expect, gatewayAdmin, openSignedIn, saveScreenshot, test } from './fixtures.js';

/**
 * The Cache screen counts the requests that turned the cache off for themselves, those that refreshed
 * their answer, and identical concurrent requests that shared one provider call, as the gateway does.
 */
test('cache: bypassed, refreshed and collapsed requests are counted on the Cache screen', async ({ page, app }) => {
  const model = `slow-${Date.now()}`;
  const before = await allowModel(model);
  // Slow enough (half a second) for identical requests to overlap.
  const provider = await startChatUpstream({
    delayMs: 500,
    answer: () => 'slow answer',
    usage: { prompt_tokens: 3, completion_tokens: 2 },
  });
  try {
    expect((await gatewayAdmin('/internal/cache', 'PUT', { enabled: true, ttl_seconds: 120 })).status).toBe(200);
    const deployed = await gatewayAdmin('/internal/deployments', 'PUT', {
      deployments: [
        { id: 'slow-e2e', model, provider: 'openai_compatible', base_url: provider.baseUrl, max_retries: 0 },
      ],
    });
    expect(deployed.status).toBe(200);
    const stats = async () =>
      ((await (await gatewayAdmin('/internal/cache')).json()) as { stats: Record<string, number> }).stats;
    const start = await stats();

    await openSignedIn(page, 'gateway/cache');
    const panel = page.getByTestId('cache-stats');
    await expect(page.getByTestId('cache-bypasses')).toHaveText(String(start.bypasses));
    await expect(page.getByTestId('cache-refreshes')).toHaveText(String(start.refreshes));
    await expect(page.getByTestId('cache-collapsed')).toHaveText(String(start.collapsed));
    await expect(panel).toContainText('x-gatehouse-cache: off');

    const issued = (await (
      await gatewayAdmin('/internal/api-keys', 'POST', { name: `cache-counts-${Date.now()}` })
    ).json()) as {
      key: string;
    };
    const client = new OpenAI({ baseURL: `${app.gatewayUrl}/v1`, apiKey: issued.key, maxRetries: 0 });
    const ask = (content: string, headers: Record<string, string> = {}) =>
      client.chat.completions.create(
        { model: 'demo/echo', temperature: 0, messages: [{ role: 'user', content }] },
        { headers },
      );
    const run = Date.now();
    await ask(`bypassed ${run}`, { 'cache-control': 'no-store' });
    await ask(`bypassed ${run}`, { 'x-gatehouse-cache': 'off' });
    await ask(`refreshed ${run}`, { 'cache-control': 'no-cache' });
    await ask(`refreshed ${run}`, { 'x-gatehouse-cache': 'refresh' });
    await ask(`refreshed ${run}`, { 'x-gatehouse-cache': 'refresh' });
    await Promise.all(
      [1, 2, 3, 4].map(() =>
        client.chat.completions.create({
          model,
          temperature: 0,
          messages: [{ role: 'user', content: `together ${run}` }],
        }),
      ),
    );

    await expect(page.getByTestId('cache-bypasses')).toHaveText(String(start.bypasses + 2));
    await expect(page.getByTestId('cache-refreshes')).toHaveText(String(start.refreshes + 3));
    await expect(page.getByTestId('cache-collapsed')).toHaveText(String(start.collapsed + 3));
    await saveScreenshot(page, 'gateway-cache-counts');
  } finally {
    provider.server.close();
    await gatewayAdmin('/internal/deployments', 'PUT', { reset: true });
    await gatewayAdmin('/internal/models', 'PUT', { allowed_models: before });
    await gatewayAdmin('/internal/cache', 'PUT', { reset: true });
  }
});
