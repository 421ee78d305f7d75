import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_UPSTREAM_KEY, startGatewayHarness, type GatewayHarness } from './support/harness.js';

const WHERE_ALLOWED =
  "add it to llm.allowed_models in the configuration file, on the UI's Models screen, or with PUT /internal/models";

/** The error an SDK call rejected with. */
async function failure(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

const hello = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'hi' }] });

/**
 * A newcomer's first real model: the refusal of one not yet allowed says where models are allowed,
 * and names the allowed model a LiteLLM-style provider prefix stands for.
 */
describe('a model outside allowed_models, on a first run', () => {
  let h: GatewayHarness;
  let client: OpenAI;
  beforeAll(async () => {
    h = await startGatewayHarness();
    client = h.openaiClient((await h.issueKey()).key);
  });
  afterAll(() => h.close());

  it('is refused with where the list is changed', async () => {
    const error = await failure(client.chat.completions.create(hello('mistral-large-latest')));
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'model_not_allowed' });
    expect(error.message).toMatch(/^400 model 'mistral-large-latest' is not in allowed_models \(demo\/echo, /);
    expect(error.message.endsWith(`): ${WHERE_ALLOWED}`)).toBe(true);
  });

  it("names the allowed model a provider-prefixed name stands for (openai/gpt-4o-mini for 'gpt-4o-mini')", async () => {
    const error = await failure(client.chat.completions.create(hello('openai/gpt-4o-mini')));
    expect(error.message).toContain(
      `model 'openai/gpt-4o-mini' is not in allowed_models (demo/echo, demo/embed, gpt-4o-mini, claude-opus-4-7, text-embedding-3-small, ha-model); did you mean 'gpt-4o-mini'? Otherwise ${WHERE_ALLOWED}`,
    );
  });
});

/**
 * An allowed model whose only deployment is derived for its provider's public address, with no key
 * for it anywhere: refused before anything leaves, saying what to set, and not retried by the SDK.
 */
describe('an allowed model with no provider key', () => {
  let h: GatewayHarness;
  let key: string;
  beforeAll(async () => {
    // No providers section: gpt-4o-mini goes to api.openai.com, and the gateway's environment has no key.
    h = await startGatewayHarness({ providers: {} });
    key = (await h.issueKey()).key;
  });
  afterAll(() => h.close());

  it('is refused with 503 service_unavailable, x-should-retry: false, and recorded once', async () => {
    // The SDK's own retries on: a 503 is one it would retry, but for the header.
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: key, maxRetries: 2 });
    const error = await failure(client.chat.completions.create(hello('gpt-4o-mini')));
    expect(error.status).toBe(503);
    expect(error.error).toMatchObject({
      type: 'service_unavailable',
      message: 'no key for openai: set OPENAI_API_KEY or providers.openai.api_key (the request was not sent)',
      code: 503,
    });
    expect(error.headers?.get('x-should-retry')).toBe('false');
    const rows = (await h.usageRows()).filter((row) => row.requested_model === 'gpt-4o-mini');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 503, error_type: 'service_unavailable' });
  });

  it("refuses a placeholder key through PUT /internal/deployments, naming the deployment's field", async () => {
    const saved = await h.admin('PUT', '/internal/deployments', {
      deployments: [{ model: 'gpt-4o-mini', provider: 'openai', base_url: h.openai.url, api_key: 'sk-...' }],
    });
    expect(saved.status).toBe(400);
    expect(saved.body.error.message).toContain(
      'deployments[0].api_key has the ending "..." of a documentation placeholder (sk-..., sk-ant-...)',
    );
  });

  it('is served once a deployment with a key serves it', async () => {
    const saved = await h.admin('PUT', '/internal/deployments', {
      deployments: [{ model: 'gpt-4o-mini', provider: 'openai', base_url: h.openai.url, api_key: OPENAI_UPSTREAM_KEY }],
    });
    expect(saved.status).toBe(200);
    const answer = await h.openaiClient(key).chat.completions.create(hello('gpt-4o-mini'));
    expect(answer.choices[0]?.message.role).toBe('assistant');
  });
});
