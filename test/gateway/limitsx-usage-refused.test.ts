import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from './support/harness.js';

// `GET /internal/usage` tells the requests the limits refused (`refused`) from the providers' failures.

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});
afterAll(() => h.close());

const ask = (client: OpenAI) =>
  client.chat.completions
    .create({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] })
    .catch((error: unknown) => error);

describe('usage: refused beside errors', () => {
  it("counts the limits' 429s as refused, and neither a provider's failure nor its own 429", async () => {
    const limited = await h.issueKey({ scopes: ['chat'], rpm_limit: 1 });
    const limitedClient = h.openaiClient(limited.key);
    await ask(limitedClient);
    expect(await ask(limitedClient)).toBeInstanceOf(OpenAI.RateLimitError);
    expect(await ask(limitedClient)).toBeInstanceOf(OpenAI.RateLimitError);
    const unlimited = await h.issueKey({ scopes: ['chat'] });
    const unlimitedClient = h.openaiClient(unlimited.key);
    h.openai.setNext({ status: 500 }, { status: 429 });
    expect(await ask(unlimitedClient)).toBeInstanceOf(OpenAI.APIError);
    expect(await ask(unlimitedClient)).toBeInstanceOf(OpenAI.APIError);
    await ask(unlimitedClient);
    await h.usageRows();
    const usage = await h.admin('GET', '/internal/usage?group_by=key&bucket=day');
    expect(usage.status).toBe(200);
    const byKey = (id: string) => usage.body.data.find((point: { group: string }) => point.group === id);
    // `errors` still counts every answer with an error, the refusals among them.
    expect(byKey(limited.id)).toMatchObject({ requests: 3, errors: 2, refused: 2 });
    expect(byKey(unlimited.id)).toMatchObject({ requests: 3, errors: 2, refused: 0 });
    expect(usage.body.totals).toMatchObject({ requests: 6, errors: 4, refused: 2 });
  });
});
