import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAIClientWithNewKey } from '../support/sdk-clients.js';
import { startTempServers, TEST_MASTER_KEY, type TempServers } from '../support/temp-servers.js';
import { startOpenAIUpstream, type OpenAIUpstream } from '../support/upstreams/index.js';

const KEY = 'sk-native-responses-0123456789';

/** Deployments with a Responses API of their own get the request as sent and answer as they do. */
describe('native Responses pass-through', () => {
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
          upstream_model: 'gpt-4.1',
          base_url: upstream.url,
          api_key: KEY,
          responses_api: 'native',
        },
        {
          id: 'bridged',
          model: 'bridged-model',
          provider: 'openai',
          upstream_model: 'gpt-4.1',
          base_url: upstream.url,
          api_key: KEY,
        },
      ],
    });
    client = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
  });
  beforeEach(() => upstream.reset());
  afterAll(async () => {
    await servers.stop();
    await upstream.close();
  });

  it('forwards the body to /v1/responses with the upstream model and store said explicitly, hosted tools included', async () => {
    const response = await client.responses.create({
      model: 'native-model',
      input: 'Find it',
      tools: [{ type: 'web_search_preview' }],
      reasoning: { effort: 'low' },
    });
    expect(response.output_text).toBe('You said: Find it');
    expect(response.model).toBe('native-model');
    expect(response.usage?.output_tokens).toBe(4);
    const received = upstream.lastRequest()!;
    expect(received.path).toBe('/v1/responses');
    expect(received.body).toMatchObject({
      model: 'gpt-4.1',
      input: 'Find it',
      store: false,
      tools: [{ type: 'web_search_preview' }],
      reasoning: { effort: 'low' },
    });
    expect(received.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("relays the provider's typed events byte for byte, with only the model made public", async () => {
    const response = await fetch(`${servers.gatewayUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'native-model', input: 'one two', stream: true }),
    });
    const text = await response.text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events[0]).toMatch(/^event: response\.created\ndata: \{"type":"response\.created","sequence_number":0,/);
    expect(text).not.toContain('gpt-4.1');
    expect(text).toContain('"model":"native-model"');
    expect(text).toContain(
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_mock123","output_index":0,"content_index":0,"delta":"You"}',
    );

    const stream = client.responses.stream({ model: 'native-model', input: 'three four' });
    expect((await stream.finalResponse()).output_text).toBe('You said: three four');
  });

  it('a response.failed event ends the stream as an error the SDK raises, accounted as failed', async () => {
    upstream.setNext({ streamErrorAfterFrames: 3 });
    let id = '';
    const stream = client.responses.stream({ model: 'native-model', input: 'break', store: true });
    stream.on('response.created', (event) => (id = event.response.id));
    const failure = await stream.finalResponse().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain('The model failed mid-answer');
    // The kept Response is the provider's failed one, with its reason.
    const kept = await client.responses.retrieve(id);
    expect(kept.status).toBe('failed');
    expect(kept.error?.message).toBe('The model failed mid-answer');
    expect(kept.model).toBe('native-model');
  });

  it('estimates the output from what was generated when the upstream reports no usage, whole or streamed', async () => {
    const text = 'an answer of about forty characters long';
    upstream.setNext({ reply: { text, usage: null } }, { reply: { text, usage: null } });
    const whole = await client.responses.create({ model: 'native-model', input: 'say it' });
    const streamed = await client.responses.stream({ model: 'native-model', input: 'say it' }).finalResponse();
    expect([whole.output_text, streamed.output_text]).toEqual([text, text]);
    const lastTwo = async () =>
      (
        (await (
          await fetch(`${servers.gatewayUrl}/internal/usage/logs?limit=2&endpoint=responses`, {
            headers: { authorization: `Bearer ${TEST_MASTER_KEY}` },
          })
        ).json()) as { data: Array<{ completion_tokens: number; stream: boolean }> }
      ).data;
    // The SDK resolves on the final event; the stream's row is written when the answer has ended.
    let rows = await lastTwo();
    for (let tries = 0; tries < 40 && rows[0]?.stream !== true; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      rows = await lastTwo();
    }
    expect(rows.map((row) => [row.stream, row.completion_tokens])).toEqual([
      [true, Math.ceil(text.length / 4)],
      [false, Math.ceil(text.length / 4)],
    ]);
  });

  it('store: true keeps the native response here, readable by its id', async () => {
    const response = await client.responses.create({ model: 'native-model', input: 'keep me', store: true });
    expect(upstream.lastRequest()!.body.store).toBe(true);
    const kept = await client.responses.retrieve(response.id);
    expect(kept.output_text).toBe('You said: keep me');
  });

  it("an upstream that repeats its ids never lets one key overwrite, read or delete another key's response", async () => {
    const other = await openAIClientWithNewKey(servers, { scopes: ['responses'] });
    const mine = await client.responses.create({ model: 'native-model', input: 'first tenant', store: true });
    const theirs = await other.responses.create({ model: 'native-model', input: 'other tenant', store: true });
    // The mock upstream answers every request with the same id: the later answer gets one of the gateway's own.
    expect(theirs.id).not.toBe(mine.id);
    expect(await other.responses.retrieve(mine.id).catch((e: { status: number }) => e.status)).toBe(404);
    expect((await client.responses.retrieve(mine.id)).output_text).toBe('You said: first tenant');
    expect((await other.responses.retrieve(theirs.id)).output_text).toBe('You said: other tenant');
    await other.responses.delete(theirs.id);
    expect((await client.responses.retrieve(mine.id)).output_text).toBe('You said: first tenant');
    expect(await other.responses.retrieve(theirs.id).catch((e: { status: number }) => e.status)).toBe(404);
  });

  it('other deployments are still translated to their chat API', async () => {
    await client.responses.create({ model: 'bridged-model', input: 'hi' });
    expect(upstream.lastRequest()!.path).toBe('/v1/chat/completions');
  });
});
