import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-cross-provider-0123456789';

type Item = Record<string, unknown>;
const inputOf = (upstream: OpenAIUpstream): Item[] => upstream.lastRequest()!.body.input as Item[];

/**
 * A kept conversation that moves between two servers with Responses APIs of their own (say vLLM, then
 * OpenAI). Each looks up the item ids it is sent among the items it stored, so the ids one issued must
 * never reach the other (OpenAI: 400 "Item with id ... not found").
 */
describe('a kept conversation continued on another native Responses upstream', () => {
  let first: OpenAIUpstream;
  let second: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    first = await startOpenAIUpstream({ apiKey: KEY });
    second = await startOpenAIUpstream({ apiKey: KEY });
    const native = (id: string, model: string, url: string) => ({
      id,
      model,
      provider: 'openai',
      base_url: url,
      api_key: KEY,
      responses_api: 'native',
    });
    servers = await startTempServers({
      llm: { allowed_models: ['first-model', 'second-model'] },
      gateway: { max_retries: 0 },
      deployments: [native('first', 'first-model', first.url), native('second', 'second-model', second.url)],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  beforeEach(() => {
    first.reset();
    second.reset();
  });
  afterAll(async () => {
    await servers.stop();
    await first.close();
    await second.close();
  });

  it("sends the first server's turn to the second without its ids, and to the first with them", async () => {
    first.setNext({ reply: { text: 'Ada Lovelace.' } });
    const one = await client.responses.create({
      model: 'first-model',
      input: 'Who wrote the first program?',
      store: true,
    });
    const firstIds = one.output.map((item) => item.id);
    expect(firstIds).toEqual(['msg_mock123']);

    const two = await client.responses.create({
      model: 'second-model',
      input: 'When?',
      previous_response_id: one.id,
      store: true,
    });
    expect(inputOf(second)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Who wrote the first program?' }] },
      { type: 'message', role: 'assistant', content: 'Ada Lovelace.' },
      // This turn's own input goes as the client sent it.
      { role: 'user', content: 'When?' },
    ]);

    // Back on the first server: its own turn goes with its id, the second server's without.
    await client.responses.create({ model: 'first-model', input: 'Thanks', previous_response_id: two.id });
    const replayed = inputOf(first);
    expect(replayed[1]).toMatchObject({ type: 'message', id: 'msg_mock123', role: 'assistant' });
    expect(replayed[3]).toEqual({ type: 'message', role: 'assistant', content: 'You said: When?' });
    expect(replayed.filter((item) => 'id' in item)).toHaveLength(1);
  });

  it("leaves out the first server's reasoning items on the second, which only their issuer takes back", async () => {
    const reasoning = { type: 'reasoning', id: 'rs_first_1', summary: [], encrypted_content: 'opaque' };
    const message = {
      type: 'message',
      id: 'msg_first_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Forty-two.', annotations: [] }],
    };
    first.setNext({
      body: {
        id: 'resp_first_1',
        object: 'response',
        created_at: 1700000000,
        status: 'completed',
        model: 'gpt-test',
        output: [reasoning, message],
        usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
      },
    });
    const one = await client.responses.create({ model: 'first-model', input: 'The answer?', store: true });
    await client.responses.create({ model: 'second-model', input: 'Sure?', previous_response_id: one.id });
    expect(inputOf(second).map((item) => item.type ?? 'message')).toEqual(['message', 'message', 'message']);
    expect(inputOf(second)[1]).toEqual({ type: 'message', role: 'assistant', content: 'Forty-two.' });

    await client.responses.create({ model: 'first-model', input: 'Sure?', previous_response_id: one.id });
    expect(inputOf(first)[1]).toEqual(reasoning);
    expect(inputOf(first)[2]).toMatchObject({ id: 'msg_first_1' });
  });

  it('keeps a continued conversation on the same server exactly as it was answered', async () => {
    const one = await client.responses.create({ model: 'second-model', input: 'Hello', store: true });
    await client.responses.create({ model: 'second-model', input: 'Again', previous_response_id: one.id });
    expect(inputOf(second)[1]).toMatchObject({ type: 'message', id: one.output[0]!.id, role: 'assistant' });
  });
});
