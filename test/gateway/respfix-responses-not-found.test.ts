import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { gatewayAdmin, startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-respfix-not-found-0123456789';

type Item = Record<string, unknown>;

/** OpenAI's 404 for an item id of the request it does not hold. */
const itemNotFound = (id: string) => ({
  status: 404,
  body: {
    error: {
      message: `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false.`,
      type: 'invalid_request_error',
      param: 'input',
      code: null,
    },
  },
});

/**
 * A provider's 404 on the Responses API about the request's own content (an item id, an
 * `item_reference` it does not hold) is the request's fault: every deployment would refuse it, so it
 * neither cools the deployment down nor is tried on the others. A 404 of the deployment itself (a
 * wrong base URL) still is. When the provider lost the items of a kept conversation, the gateway,
 * which still holds them, sends the turn once more without their ids.
 */
describe('a Responses API 404 about the request', () => {
  let primary: OpenAIUpstream;
  let secondary: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;
  const admin = gatewayAdmin(() => servers);

  beforeAll(async () => {
    primary = await startOpenAIUpstream({ apiKey: KEY });
    secondary = await startOpenAIUpstream({ apiKey: KEY });
    const native = (id: string, url: string, weight: number) => ({
      id,
      model: 'pair-model',
      provider: 'openai',
      upstream_model: 'gpt-4.1',
      base_url: url,
      api_key: KEY,
      responses_api: 'native',
      weight,
    });
    servers = await startTempServers({
      llm: { allowed_models: ['pair-model'] },
      gateway: { max_retries: 0 },
      deployments: [native('primary', primary.url, 1_000_000), native('secondary', secondary.url, 0.000001)],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  beforeEach(() => {
    primary.reset();
    secondary.reset();
  });
  afterAll(async () => {
    await servers.stop();
    await primary.close();
    await secondary.close();
  });

  const healthOf = async (id: string) =>
    (await admin('GET', '/internal/deployments/health')).body.data.find((d: { id: string }) => d.id === id);

  it('answers an unknown item_reference at once with the provider 404, blaming no deployment', async () => {
    for (let i = 0; i < 3; i += 1) {
      primary.setNext(itemNotFound('msg_unknown'));
      const error = await client.responses
        .create({ model: 'pair-model', input: [{ type: 'item_reference', id: 'msg_unknown' }] })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(OpenAI.APIError);
      const apiError = error as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.message).toContain("Item with id 'msg_unknown' not found");
      expect(apiError.headers?.get('x-upstream-status')).toBe('404');
      expect(apiError.headers?.get('x-should-retry')).toBe('false');
      expect((apiError.error as { upstream: unknown }).upstream).toMatchObject({
        status: 404,
        type: 'invalid_request_error',
        param: 'input',
      });
    }
    // Not tried on the other deployment, where it would fail alike (or, worse, mean something else).
    expect(secondary.requests).toEqual([]);
    expect(await healthOf('primary')).toMatchObject({ consecutive_failures: 0, cooldown_until: null });
    expect((await healthOf('primary')).state).not.toBe('cooling_down');
    // The deployment still takes everybody's requests.
    await client.responses.create({ model: 'pair-model', input: 'still there?' });
    expect(primary.lastRequest()!.body.input).toBe('still there?');
  });

  it('still falls back from a 404 of the deployment itself (a wrong address)', async () => {
    primary.setNext({
      status: 404,
      body: {
        error: { message: 'Invalid URL (POST /v1/responses)', type: 'invalid_request_error', param: null, code: null },
      },
    });
    const answer = await client.responses.create({ model: 'pair-model', input: 'hello' });
    expect(answer.output_text).toBe('You said: hello');
    expect(secondary.requests).toHaveLength(1);
  });

  it("sends a kept turn once more without its ids when the provider lost them (its retention ended before the gateway's)", async () => {
    const one = await client.responses.create({ model: 'pair-model', input: 'Who wrote it?', store: true });
    expect(one.output[0]!.id).toBe('msg_mock123');
    primary.reset();
    primary.setNext(itemNotFound('msg_mock123'));
    const two = await client.responses.create({ model: 'pair-model', input: 'When?', previous_response_id: one.id });
    expect(two.output_text).toBe('You said: When?');
    const sent = primary.requests.map((request) => request.body.input as Item[]);
    expect(sent).toHaveLength(2);
    expect(sent[0]![1]).toMatchObject({ type: 'message', id: 'msg_mock123' });
    expect(sent[1]).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Who wrote it?' }] },
      { type: 'message', role: 'assistant', content: 'You said: Who wrote it?' },
      { role: 'user', content: 'When?' },
    ]);
    expect(secondary.requests).toEqual([]);
  });

  it('answers the 404 when the turn without the ids is refused too, and tries it only once', async () => {
    const one = await client.responses.create({ model: 'pair-model', input: 'First', store: true });
    primary.reset();
    primary.setNext(itemNotFound('msg_mock123'), itemNotFound('msg_other'));
    const error = await client.responses
      .create({
        model: 'pair-model',
        input: [{ type: 'item_reference', id: 'msg_other' }],
        previous_response_id: one.id,
      })
      .then(
        () => undefined,
        (caught: { status?: number; message?: string }) => caught,
      );
    expect(error?.message).toContain("Item with id 'msg_other' not found");
    expect(primary.requests).toHaveLength(2);
    expect(secondary.requests).toEqual([]);
  });
});
