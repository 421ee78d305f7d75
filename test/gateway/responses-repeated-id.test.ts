import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-repeated-ids-0123456789';
/** The mock's Responses API answers every request with this id, as some local servers do. */
const REPEATED_ID = 'resp_mock123';

describe('a native Responses upstream that answers every request with the same id', () => {
  let upstream: OpenAIUpstream;
  let servers: TempServers;
  let client: OpenAI;
  let teammate: OpenAI;

  beforeAll(async () => {
    upstream = await startOpenAIUpstream({ apiKey: KEY });
    servers = await startTempServers({
      llm: { allowed_models: ['local-model'] },
      gateway: { max_retries: 0 },
      deployments: [
        {
          id: 'local',
          model: 'local-model',
          provider: 'openai_compatible',
          base_url: upstream.url,
          api_key: KEY,
          responses_api: 'native',
        },
      ],
    });
    const issue = async () => {
      const created = await fetch(`${servers.gatewayUrl}/internal/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_MASTER_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scopes: ['responses'], team: 'lab' }),
      });
      const { key } = (await created.json()) as { key: string };
      return new OpenAI({ baseURL: `${servers.gatewayUrl}/v1`, apiKey: key, maxRetries: 0 });
    };
    client = await issue();
    teammate = await issue();
  });
  beforeEach(() => upstream.reset());
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  it('keeps a second answer under an id of its own, leaving the first turn as it was', async () => {
    const first = await client.responses.create({ model: 'local-model', input: 'first question', store: true });
    const second = await client.responses.create({ model: 'local-model', input: 'second question', store: true });
    const third = await teammate.responses.create({ model: 'local-model', input: 'third question', store: true });

    expect(upstream.requests.map((r) => r.body.store)).toEqual([true, true, true]);
    expect(first.id).toBe(REPEATED_ID);
    expect(second.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(third.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(new Set([first.id, second.id, third.id]).size).toBe(3);

    const kept = await client.responses.retrieve(first.id);
    expect(kept.output_text).toBe('You said: first question');
    expect((await client.responses.inputItems.list(first.id)).data).toMatchObject([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first question' }] },
    ]);
    const again = await client.responses.retrieve(second.id);
    expect(again).toMatchObject({ id: second.id, output_text: 'You said: second question' });
    expect((await teammate.responses.retrieve(third.id)).output_text).toBe('You said: third question');
    expect((await teammate.responses.retrieve(first.id)).output_text).toBe('You said: first question');
  });

  it('gives a streamed answer the id it is kept under in every event, and continues the right turn', async () => {
    const events = [];
    const stream = await client.responses.create({
      model: 'local-model',
      input: 'streamed question',
      store: true,
      stream: true,
    });
    for await (const event of stream) events.push(event);
    const withResponse = events.filter((event) => 'response' in event) as Array<{
      type: string;
      response: { id: string };
    }>;
    expect(withResponse.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.completed',
    ]);
    const id = withResponse[0]!.response.id;
    expect(id).not.toBe(REPEATED_ID);
    expect(withResponse.every((event) => event.response.id === id)).toBe(true);
    expect((await client.responses.retrieve(id)).output_text).toBe('You said: streamed question');
    expect((await client.responses.retrieve(REPEATED_ID)).output_text).toBe('You said: first question');

    await client.responses.create({ model: 'local-model', input: 'and then?', previous_response_id: id });
    const sent = upstream.lastRequest()!.body.input as Array<{ role?: string; content: unknown }>;
    expect(JSON.stringify(sent)).toContain('streamed question');
    expect(JSON.stringify(sent)).not.toContain('first question');
  });
});
