import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-replayed-ids-0123456789';

/**
 * A conversation kept from a translated deployment, continued on one with its own Responses API.
 * Such an upstream looks up every input item id it is sent among the items it stored, and refuses
 * an id it never issued (OpenAI: 400 "Item with id ... not found").
 */
describe('a translated turn continued on a native Responses upstream', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['native-model', 'bridged-model'] },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'native',
          model: 'native-model',
          provider: 'openai',
          base_url: upstream.url,
          api_key: KEY,
          responses_api: 'native',
        },
        { id: 'bridged', model: 'bridged-model', provider: 'openai', base_url: upstream.url, api_key: KEY },
      ],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  beforeEach(() => upstream.reset());
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  it('replays the earlier outputs without the item ids the gateway made for them', async () => {
    upstream.setNext(
      { reply: { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"Ada"}' }] } },
      {},
    );
    const first = await client.responses.create({
      model: 'bridged-model',
      input: 'Who is Ada?',
      tools: [{ type: 'function', name: 'lookup', parameters: {}, strict: false }],
      store: true,
    });
    expect(upstream.lastRequest()!.path).toBe('/v1/chat/completions');
    const madeUp = first.output.map((item) => item.id);
    expect(madeUp).toHaveLength(2);

    await client.responses.create({
      model: 'native-model',
      input: [{ type: 'function_call_output', call_id: 'call_1', output: 'a mathematician' }],
      previous_response_id: first.id,
    });
    const sent = upstream.lastRequest()!;
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Who is Ada?' }] },
      { type: 'message', role: 'assistant', content: 'Let me look.' },
      { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"q":"Ada"}', status: 'completed' },
      { type: 'function_call_output', call_id: 'call_1', output: 'a mathematician' },
    ]);
    // The kept response itself still reads as it was answered.
    expect((await client.responses.retrieve(first.id)).output.map((item) => item.id)).toEqual(madeUp);
  });

  it("replays a native turn's items with the ids its provider issued", async () => {
    const first = await client.responses.create({ model: 'native-model', input: 'Hello', store: true });
    await client.responses.create({ model: 'native-model', input: 'Again', previous_response_id: first.id });
    const replayed = upstream.lastRequest()!.body.input as Array<Record<string, unknown>>;
    expect(replayed[1]).toMatchObject({ type: 'message', id: first.output[0]!.id, role: 'assistant' });
  });
});
